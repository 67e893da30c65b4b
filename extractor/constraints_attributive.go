package extractor

import "strings"

// attributiveRe is "important" before a noun ("important tasks", "of
// important note"): it qualifies a thing the sentence is about; only
// "important" as a predicate ("it's important to credit …", "X is
// important", "Importantly, …") states a requirement. Group 1 is the word
// after it.
var attributiveRe = lazyRE(`(?i)\b(?:of\s+)?important\s+([a-z]+)\b`)

// predicateAfter are the words after a predicative "important": "important
// to/that/for/because/here/now/enough/too", and "important: …" has no word.
var predicateAfter = map[string]bool{
	"to": true, "that": true, "for": true, "because": true, "here": true, "now": true,
	"enough": true, "too": true, "as": true, "than": true, "and": true, "but": true, "is": true, "are": true,
	"if": true, "when": true, "since": true, "so": true,
}

// withoutAttributives masks each attributive "important" in sent.
func withoutAttributives(sent string) string {
	var b strings.Builder
	last := 0
	for _, m := range attributiveRe.FindAllStringSubmatchIndex(sent, -1) {
		if predicateAfter[strings.ToLower(sent[m[2]:m[3]])] {
			continue
		}
		b.WriteString(sent[last:m[0]])
		b.WriteByte(' ')
		last = m[2]
	}
	b.WriteString(sent[last:])
	return b.String()
}
