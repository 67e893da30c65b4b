package decisions

import (
	"strings"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// bareLetsNotRe is "let's not <verb>" with nothing after the verb ("OK,
// good start, but let's not rush."): a tone, not a choice of anything.
var bareLetsNotRe = prose.LazyRE(rulebook.Pattern("decisions.bare-lets-not"))

// answerIsChoice reports whether a person's reply to an option question
// (answers holds the question and, when the tool listed them, "(options:
// A / B)") picks something: it names one of the options, or it is no
// question itself. A counter-question ("I don't understand your options:
// does minimal mean …?") or a critique that asks how something works
// chooses nothing; the exchange stays in the earlier messages.
func answerIsChoice(text, answers string) bool {
	t := strings.ToLower(strings.TrimSpace(text))
	if t == "" {
		return false
	}
	for _, o := range optionLabels(answers) {
		if o = strings.ToLower(strings.TrimSpace(o)); len(o) >= 2 && strings.Contains(t, o) {
			return true
		}
	}
	return !strings.Contains(t, "?")
}

// optionLabels returns the labels of "(options: A / B / C)" in an
// answered question, as Request.Answers records them.
func optionLabels(answers string) []string {
	var out []string
	for _, part := range strings.Split(answers, "; ") {
		i := strings.Index(part, "(options: ")
		if i < 0 {
			continue
		}
		// The list runs to the part's last ")": labels may hold their own
		// parentheses ("TypeScript (Bun)"); a clipped list has none.
		list := part[i+len("(options: "):]
		if end := strings.LastIndex(list, ")"); end >= 0 {
			list = list[:end]
		}
		for _, o := range strings.Split(list, " / ") {
			if o = strings.TrimSuffix(strings.TrimSpace(o), "…"); o != "" {
				out = append(out, o)
			}
		}
	}
	return out
}
