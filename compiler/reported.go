package compiler

import (
	"strings"
	"unicode"

	"github.com/handoff-cli/handoff"
)

// reportedType is the error type of a problem the assistant reported in
// prose (facts.ReportedProblem), not a command that failed.
const reportedType = "reported"

// reported adds the problems the assistant reported in its late reports,
// a stride below the failing commands (after the first `after` errors),
// leaving out those a key line of the end state already shows and those
// that name a failing test or command already listed.
func (b *builder) reported(s *handoff.Snapshot, problems []handoff.ErrorRecord, after int) {
	n := 0
	for _, e := range problems {
		if reportedShown(s, e.Message) {
			continue
		}
		rank := rankOpenErrors + 5*(after+n+1)
		b.add(secErrors, rank, "reported problems", "- reported, not a failed command: "+quoted(e.Message, 220))
		n++
	}
}

// reportedShown reports whether the prompt shows the problem elsewhere: a
// key line holding the same words, a failing test or an open error's
// command it names.
func reportedShown(s *handoff.Snapshot, text string) bool {
	norm := strings.ToLower(strings.Join(strings.Fields(text), " "))
	if end := s.EndState; end != nil {
		for _, k := range end.KeyLines {
			kl := strings.ToLower(strings.Join(strings.Fields(k.Text), " "))
			if len(kl) >= 20 && (strings.Contains(norm, strings.TrimSuffix(kl, " …")) || strings.Contains(kl, norm)) {
				return true
			}
		}
	}
	if ts := s.TestState; ts != nil && ts.Status == handoff.TestsFailing {
		for _, t := range ts.FailingTests {
			t = strings.ToLower(t)
			for _, sep := range []string{" > ", "::"} {
				if i := strings.LastIndex(t, sep); i >= 0 {
					t = t[i+len(sep):] // the test's own name, without its file and suite
				}
			}
			if t = strings.TrimSpace(t); len(t) >= 6 && strings.Contains(norm, t) {
				return true
			}
		}
	}
	for _, e := range s.Errors {
		if e.Type == reportedType || (e.Resolution != handoff.ResolutionUnresolved && e.Resolution != handoff.ResolutionDeferred) {
			continue
		}
		shown := strings.ToLower(e.Message + " " + e.Command)
		for _, w := range strings.FieldsFunc(norm, notNameRune) {
			if len(w) >= 8 && strings.ContainsAny(w, "_.") && strings.Contains(shown, w) {
				return true // it names what a listed failure names
			}
		}
	}
	return false
}

// notNameRune splits text into identifier-like words (letters, digits,
// "_", ".", "/", "-").
func notNameRune(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("_./-", r)
}
