package conversation

import (
	"slices"
	"testing"
)

func TestPersonSentences(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"I think the mixing is the solution. we just need to check the value. Don't guess.",
			[]string{"I think the mixing is the solution.", "we just need to check the value.", "Don't guess."}},
		{"Never git add . here, the diary has changes.", []string{"Never git add . here, the diary has changes."}},
		{"use a fake, e.g. an in-memory store, etc. and keep it small", []string{"use a fake, e.g. an in-memory store, etc. and keep it small"}},
		{"see fig. two vs. three! ok then", []string{"see fig. two vs. three!", "ok then"}},
		{"- first item. second part\n- Keep it", []string{"first item.", "second part", "Keep it"}},
		{"version 1.2. next one", []string{"version 1.2.", "next one"}},
		// A line broken at a fixed width goes on; a short line, a stop or
		// an unindented next line ends it.
		{"New rule: every coverage change must include a before snapshot and an after snapshot\n  document, both made with the same commands.",
			[]string{"New rule: every coverage change must include a before snapshot and an after snapshot document, both made with the same commands."}},
		{"Keep it short\n  and simple", []string{"Keep it short", "and simple"}},
		{"Every coverage change must include a before snapshot and an after snapshot report.\n  then push", []string{"Every coverage change must include a before snapshot and an after snapshot report.", "then push"}},
		{"Every coverage change must include a before snapshot and an after snapshot report\nthen push", []string{"Every coverage change must include a before snapshot and an after snapshot report", "then push"}},
	} {
		if got := personSentences(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("personSentences(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
