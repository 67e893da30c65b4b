package compiler

import (
	"slices"
	"strings"
	"unicode"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/internal/lazyre"
)

// concreteRe finds a thing a decision can name: code in backticks, a path
// or file name, a flag, a number, an identifier with an underscore, a dot
// or inner capitals (snake_case, pkg.Func, CamelCase), an acronym.
var concreteRe = lazyre.New("`[^`]+`" +
	`|[\p{L}\d_.-]*/[\p{L}\d_.-]+` + // a/b, src/x, ./x, owner/repo
	`|\b[\p{L}\d_-]+\.[a-z][a-z\d]{0,5}\b` + // file.ext, pkg.Func
	`|(?:^|\s)--?[a-zA-Z][\w-]*` + // --flag, -x
	`|\b\d+(?:\.\d+)*\b` + // 500, 3.12, C17 does not match here but below
	`|\b\w*_\w+\b` + // snake_case
	`|\b\p{Ll}+(?:-[\p{Ll}\d]+){2,}\b` + // end-of-file-fixer, kebab-case names
	`|\b\p{Lu}?\p{Ll}+\p{Lu}\w*\b` + // CamelCase, camelCase
	`|\b\p{Lu}[\p{Lu}\d]+\b`) // API, C17, GITHUB_TOKEN (with _ above)

// standingRe is a rule that holds for the whole session.
var standingRe = lazyre.New(`(?i)\b(?:don'?t|do not|never|always|must(?: not)?)\b`)

// namesThing reports whether a decision's text names a concrete choice: a
// concreteRe match, or a capitalised word that does not start a sentence
// (a proper noun such as a library or a product: Redis, Vue, Bun).
func namesThing(s string) bool {
	if concreteRe.MatchString(s) {
		return true
	}
	atStart := true
	for _, w := range strings.Fields(s) {
		r := []rune(strings.Trim(w, `"'“”‘’(*[`))
		if len(r) > 1 && !atStart && unicode.IsUpper(r[0]) && w != "I" {
			return true
		}
		atStart = strings.HasSuffix(w, ".") || strings.HasSuffix(w, ":") || strings.HasSuffix(w, "!") || strings.HasSuffix(w, "?") || strings.HasSuffix(w, "—")
	}
	return false
}

// fromPerson reports whether a decision quotes one of the person's own
// messages: its source is a request.
func fromPerson(s *handoff.Snapshot, d handoff.Decision) bool {
	if d.Type != handoff.DecisionClarification {
		return false
	}
	for _, r := range s.Requests {
		if r.Source.Index == d.Source.Index {
			return true
		}
	}
	return false
}

// repeats reports whether almost every word of text occurs in one of the
// others: a sentence already shown as the goal, the latest request or a
// constraint says nothing new as a decision.
func repeats(text string, others ...string) bool {
	words := promptWords(text)
	if len(words) == 0 {
		return true
	}
	for _, o := range others {
		if o == "" {
			continue
		}
		in := promptWords(o)
		n := 0
		for w := range words {
			if in[w] {
				n++
			}
		}
		if float64(n) >= 0.8*float64(len(words)) {
			return true
		}
	}
	return false
}

// within reports whether a longer current decision already says all of
// d: a proposal the person approved quotes the sentence that also matched
// as the assistant's own choice.
func within(d handoff.Decision, cur []handoff.Decision) bool {
	for _, o := range cur {
		if o.ID != d.ID && len(o.Description) > len(d.Description) && repeats(d.Description, o.Description) {
			return true
		}
	}
	return false
}

// askedIndexes returns the message indexes of the requests the prompt
// shows as the goal and the latest request: a sentence of theirs is the
// request itself, not a decision taken along the way.
func askedIndexes(s *handoff.Snapshot) map[int]bool {
	out := map[int]bool{}
	for _, r := range s.Requests {
		for _, shown := range []string{s.Goal, s.LatestRequest} {
			if sameStart(r.Text, shown) {
				out[r.Source.Index] = true
			}
		}
	}
	return out
}

// sameStart reports whether two texts open with the same words: a goal
// is its request clipped or cleaned, not always the same string.
func sameStart(a, b string) bool {
	const n = 60
	a, b = strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " ")
	if a == "" || b == "" {
		return false
	}
	ra, rb := []rune(a), []rune(b)
	k := min(n, len(ra), len(rb))
	return k >= min(n, len(ra), len(rb)) && string(ra[:k]) == string(rb[:k]) && (k == n || len(ra) == len(rb) || k >= 20)
}

func promptWords(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-'
	}) {
		set[w] = true
	}
	return set
}

// personRule reports whether a decision quotes a standing rule of the
// person's from a message the constraints list quotes ("Do NOT run mutating commands", "You must always use git
// mv"): a constraint, which the constraints list carries, not a choice
// taken along the way. An answer the person picked ("The person chose
// …") is a choice even when it says "don't".
func personRule(s *handoff.Snapshot, d handoff.Decision) bool {
	if strings.HasPrefix(d.Description, "The person ") || !standingRe.MatchString(d.Description) {
		return false
	}
	// Only where the constraints list took rules from that same message:
	// a rule in a goal no constraint quotes ("Do not modify files.") is
	// shown nowhere else, and a clipped goal may not show it.
	return slices.ContainsFunc(s.Constraints, func(c handoff.Constraint) bool { return c.Source.Index == d.Source.Index })
}

// decisionsInForce returns the decisions worth showing, in the order to
// show them: current ones only; none that repeats the goal, the latest
// request or a constraint the prompt already shows (the person's own
// sentences that matched a choice pattern mostly do); none of the
// assistant's that names no concrete thing ("let's see if there's a
// precedent rather than inventing one" decides nothing a successor could
// re-litigate). Newest first, those that name a thing before those that
// do not.
func decisionsInForce(s *handoff.Snapshot) []handoff.Decision {
	others := []string{s.Goal, s.LatestRequest}
	for _, c := range s.Constraints {
		others = append(others, c.Text)
	}
	shownAsked := askedIndexes(s)
	var named, plain []handoff.Decision
	for _, d := range newestMessageFirst(s.CurrentDecisions()) {
		person := fromPerson(s, d)
		// A standing rule in the goal's message ("Do not modify files.")
		// stays unless a constraint carries that message's rules: a
		// clipped goal may not show it.
		asked := shownAsked[d.Source.Index] && !standingRe.MatchString(d.Description)
		if person && (asked || personRule(s, d) || repeats(d.Description, others...)) {
			continue
		}
		if within(d, s.CurrentDecisions()) {
			continue
		}
		switch {
		case namesThing(d.Description):
			named = append(named, d)
		case person:
			plain = append(plain, d)
		}
	}
	return slices.Concat(named, plain)
}

// rationale quotes a decision's why; an attribution the extractor wrote
// ("the person: …", "the person approved it: …") stays outside the quotes,
// as it is not the session's words.
func rationale(r string) string {
	if strings.HasPrefix(r, "the person") {
		if i := strings.Index(r, ": "); i > 0 {
			return r[:i+2] + quoted(strings.Trim(r[i+2:], "“”\""), 240)
		}
	}
	return quoted(r, 240)
}

// decisionLine renders a decision on one line, the choice first: its type
// only where it changes how to read the choice (a workaround, a skip, the
// person's own call), then its why and what it was chosen over.
func decisionLine(d handoff.Decision, person bool) (brief, full string) {
	lead, desc := "- ", d.Description
	switch {
	case strings.HasPrefix(desc, handoff.RevertedPrefix):
		// Our words, not the session's: outside the quotes.
		lead, desc = "- tried and reverted: ", strings.TrimPrefix(desc, handoff.RevertedPrefix)
	case strings.HasPrefix(desc, handoff.UnconfirmedPrefix):
		// A guess the session never checked: settled it is not.
		lead, desc = "- unconfirmed guess: ", strings.TrimPrefix(desc, handoff.UnconfirmedPrefix)
	case person && !strings.HasPrefix(d.Description, "The person "):
		lead = "- the person: "
	case strings.HasPrefix(d.Rationale, handoff.ApprovedRationale):
		// A proposal ("… Want me to make this change?") reads as an
		// open question unless the line says it was approved.
		lead = "- approved by the person: "
	case d.Type == handoff.DecisionWorkaround:
		lead = "- workaround: "
	case d.Type == handoff.DecisionSkip:
		lead = "- skipped: "
	}
	if pick, ok := pickLine(desc); ok {
		brief = lead + pick
	} else {
		brief = lead + quoted(desc, itemText)
	}
	full = brief
	if reply, ok := strings.CutPrefix(d.Rationale, handoff.ApprovedRationale); ok {
		// The lead says it was approved; the reply may say more ("yes,
		// but keep the old flag").
		full += " — their reply: " + quoted(strings.Trim(reply, "“”\""), 240)
	} else if d.Rationale != "" {
		full += " — why: " + rationale(d.Rationale)
	}
	if len(d.Alternatives) > 0 {
		alts := make([]string, 0, len(d.Alternatives))
		for _, a := range d.Alternatives {
			alts = append(alts, quoted(a, 100))
		}
		full += " — rejected: " + strings.Join(alts, ", ")
	}
	return brief, full
}

// pickLine renders the person's pick of an offered option ("The person
// chose “A” when asked “Q”") with our words outside the quotes and the
// session's inside, each clipped: quoted whole, it read as if the
// session had said "The person chose". ok is false for any other
// decision.
func pickLine(desc string) (string, bool) {
	for _, prefix := range []string{handoff.ChosePrefix, handoff.PickedPrefix} {
		rest, found := strings.CutPrefix(desc, prefix)
		if !found || !strings.HasPrefix(rest, "“") {
			continue
		}
		answer, after, closed := strings.Cut(strings.TrimPrefix(rest, "“"), "”")
		if !closed {
			return "", false
		}
		line := lowerFirst(prefix) + quoted(answer, 200)
		if q, ok := strings.CutPrefix(after, handoff.AskedInfix+"“"); ok {
			line += handoff.AskedInfix + quoted(strings.TrimSuffix(q, "”"), 120)
		}
		return line, true
	}
	return "", false
}

// lowerFirst lower-cases the first letter of an ASCII lead ("The person
// chose " after "- ").
func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}

// newestMessageFirst returns the decisions newest first, keeping the order
// of a run taken from one message: a document's decisions section reads
// top down.
func newestMessageFirst(ds []handoff.Decision) []handoff.Decision {
	out := slices.Clone(ds)
	slices.Reverse(out)
	for i := 0; i < len(out); {
		j := i + 1
		for j < len(out) && out[j].Source.Index == out[i].Source.Index {
			j++
		}
		slices.Reverse(out[i:j])
		i = j
	}
	return out
}
