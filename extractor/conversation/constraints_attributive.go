package conversation

import (
	"strings"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// attributiveRe is "important" before a noun ("important tasks", "of
// important note"): it qualifies a thing the sentence is about; only
// "important" as a predicate ("it's important to credit …", "X is
// important", "Importantly, …") states a requirement. Group 1 is the word
// after it.
var attributiveRe = prose.LazyRE(rulebook.Pattern("conversation.attributive"))

// predicateAfter are the words after a predicative "important": "important
// to/that/for/because/here/now/enough/too", and "important: …" has no word.
var predicateAfter = rulebook.WordSet("conversation.predicate-after")

// withoutAttributives masks each attributive "important" in sent.
func withoutAttributives(sent string) string {
	var spans [][2]int
	for _, m := range attributiveRe.FindAllStringSubmatchIndex(sent, -1) {
		if !predicateAfter[strings.ToLower(sent[m[2]:m[3]])] {
			spans = append(spans, [2]int{m[0], m[2]})
		}
	}
	return maskSpans(sent, spans)
}

// maskSpans replaces each of the ordered, disjoint byte spans of s with
// one space, so that the words around a span stay apart.
func maskSpans(s string, spans [][2]int) string {
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp[0]])
		b.WriteByte(' ')
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}
