package transcript

import "strings"

// mdBlock is one block of a chat exported as markdown: the lines between
// two "---" rules, with its first line number.
type mdBlock struct {
	line  int
	lines []string
}

// splitRules splits a markdown document at its "---" rules, except rules
// inside code fences (``` or ~~~, any length), which belong to the code.
func splitRules(lines []string) []mdBlock {
	var out []mdBlock
	cur := mdBlock{line: 1}
	fence := ""
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) && strings.Trim(t, string(fence[0])) == "" {
				fence = ""
			}
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fence = t[:len(t)-len(strings.TrimLeft(t, string(t[0])))]
		case t == "---":
			out = append(out, cur)
			cur = mdBlock{line: i + 2}
			continue
		}
		cur.lines = append(cur.lines, l)
	}
	return append(out, cur)
}

// firstContent returns the index of the block's first non-blank line
// that is not a <sub>…</sub> timing line, or -1.
func (b mdBlock) firstContent() int {
	for i, l := range b.lines {
		t := strings.TrimSpace(l)
		if t != "" && !(strings.HasPrefix(t, "<sub>") && strings.HasSuffix(t, "</sub>")) {
			return i
		}
	}
	return -1
}

// body is the block's text after line i, trimmed.
func (b mdBlock) body(i int) string {
	return strings.TrimSpace(strings.Join(b.lines[i+1:], "\n"))
}
