package facts

import (
	"strings"
	"unicode"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// StripEnvelopes removes harness envelopes from the start of a message: a
// block in a tag whose name has a hyphen or underscore
// (<local-command-caveat>…</local-command-caveat>, <system-reminder>,
// <command-message>), the shape harnesses use and people do not type. An
// envelope whose closing tag is missing or cut runs to the end.
func StripEnvelopes(s string) string {
	for strings.HasPrefix(s, "<") {
		end := strings.IndexByte(s, '>')
		if end < 0 {
			return s
		}
		name := s[1:end]
		if !envelopeName(name) {
			return s
		}
		closing := "</" + name
		j := strings.Index(s, closing)
		if j < 0 {
			return ""
		}
		rest := s[j+len(closing):]
		if k := strings.IndexByte(rest, '>'); k >= 0 {
			rest = rest[k+1:]
		} else {
			rest = ""
		}
		s = strings.TrimSpace(rest)
	}
	return s
}

func envelopeName(name string) bool {
	if name == "" || !strings.ContainsAny(name, "-_") {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// WithoutThinking removes reasoning a harness logged inside the visible
// text (<thinking>…</thinking>, Aider's <thinking-content-…> blocks): it
// was not said to the person. An unclosed block is kept.
func WithoutThinking(text string) string {
	for {
		start := strings.Index(text, "<think")
		if start < 0 {
			break
		}
		end := strings.IndexByte(text[start:], '>')
		if end < 0 {
			break
		}
		name := text[start+1 : start+end]
		if strings.ContainsAny(name, " \t\n") {
			break
		}
		closing := strings.Index(text[start:], "</"+name+">")
		if closing < 0 {
			// A block the model never closed (it looped, or was cut off)
			// runs to the end: all of it is thinking, none of it said.
			text = text[:start]
			break
		}
		text = text[:start] + text[start+closing+len(name)+3:]
	}
	return strings.TrimSpace(text)
}

// HarnessAnswer is the start of a harness command's output: colour codes
// and glyph-only lines dropped, the first lines with words kept.
func HarnessAnswer(s string) string {
	var keep []string
	for _, l := range strings.Split(ansiRe.ReplaceAllString(s, ""), "\n") {
		l = strings.TrimSpace(strings.TrimLeftFunc(l, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
		if prose.WordCount(l) == 0 && !strings.ContainsAny(l, "0123456789") {
			continue
		}
		keep = append(keep, l)
		if len(keep) == 2 {
			break
		}
	}
	return prose.Truncate(strings.Join(keep, " · "), 160)
}

var (
	LocalOutputRe = prose.LazyRE(rulebook.Pattern("conversation.local-output"))
	ansiRe        = prose.LazyRE(rulebook.Pattern("text.ansi"))
)
