package decisions

import "strings"

// The reason a sentence gives for its own choice. A clause word
// ("because", "since", …) opens it mid-sentence: "I'll use pgx because
// it supports COPY". Two more shapes are common:
//   - the reason comes first, up to the comma: "Since we have no fixture
//     yet, let's skip this test" (the whole rest of the sentence is the
//     choice, not the why);
//   - the reason follows a spaced dash after the choice: "Let's use
//     SQLite — one file, no server".

// sentenceRationale returns the reason sent gives for its choice, or "".
// decides reports whether a text states a choice: the words after a dash
// that choose again are a second decision, not the first one's why.
func sentenceRationale(p *Patterns, sent string, decides func(string) bool) string {
	if loc := p.Rationale.FindStringSubmatchIndex(sent); loc != nil {
		why := sent[loc[2]:loc[3]]
		if strings.TrimSpace(sent[:loc[0]]) == "" {
			// The reason opens the sentence: it runs to the comma
			// before the main clause.
			i := strings.Index(why, ", ")
			if i < 0 {
				return ""
			}
			why = why[:i]
		}
		return strings.TrimRight(why, ". ")
	}
	for _, dash := range []string{" — ", " – ", " - "} {
		i := strings.Index(sent, dash)
		if i < 0 {
			continue
		}
		before, after := sent[:i], strings.TrimSpace(sent[i+len(dash):])
		if after != "" && decides(before) && !decides(after) {
			return strings.TrimRight(after, ". ")
		}
		break
	}
	return ""
}
