package extractor

import "strings"

// proseSentences splits prose into sentences, each with its closing
// punctuation. A sentence ends at '.', '!' or '?' followed by white space
// or the end of the text, or at a line break — never at a dot inside a
// word ("Vue.js", "~/.bashrc", "v1.2.3") or inside a `code span`, which
// would tear names apart when the sentences are joined again.
func proseSentences(text string) []string {
	var out []string
	start, inCode := 0, false
	emit := func(end int) {
		if s := text[start:end]; strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
		start = end
	}
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '`':
			inCode = !inCode
		case c == '\n':
			inCode = false
			emit(i + 1)
		case inCode:
		case c == '.' || c == '!' || c == '?':
			j := i
			for j+1 < len(text) && strings.IndexByte(".!?", text[j+1]) >= 0 {
				j++
			}
			if j+1 == len(text) || text[j+1] == ' ' || text[j+1] == '\t' || text[j+1] == '\n' || text[j+1] == '\r' {
				emit(j + 1)
			}
			i = j
		}
	}
	emit(len(text))
	return out
}
