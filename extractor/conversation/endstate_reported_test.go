package conversation

import (
	"fmt"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestListedNext: the list under a label alone on its line is what comes
// next; a label with its step after the colon, a list under another
// heading, and a label with no list under it are not.
func TestListedNext(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text, want string
	}{
		{"numbered list under a bold label", "**STATUS:** done.\n\n**NEXT:**\n1. **Restart the session** to load it\n2. Phase 2 on request\n\n**STORY:**\n1. It began",
			"Next: 1. Restart the session to load it 2. Phase 2 on request"},
		{"bullets under a heading, three kept", "## Next steps:\n\n- wire the exporter\n- add its test\n- update the README\n- tag a release",
			"Next: 1. wire the exporter 2. add its test 3. update the README"},
		{"blank lines between items, a wrapped item", "Next steps:\n\n1. port the loader\n   to the new API\n\n2. run the suite\n\nThanks!",
			"Next: 1. port the loader to the new API 2. run the suite"},
		{"the last of two lists wins", "Next:\n1. old\n\nDone.\n\nRemaining tasks:\n- new one", "Next: 1. new one"},
		{"step after the colon is a key line's job", "Next: run the migration\n1. unrelated", ""},
		{"list under another heading", "Summary:\n1. fixed the parser\n2. added tests", ""},
		{"label with prose under it", "Next:\nWe could look at caching someday.", ""},
	}
	for _, tc := range cases {
		if got := listedNext(tc.text); got != tc.want {
			t.Errorf("%s: listedNext = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestSaidKeyLinesOfferMore: with no tool calls the reports are the only
// record of the work, so more of their key lines are offered.
func TestSaidKeyLinesOfferMore(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "- Updated `src/module_%d.go` so the parser rejects case %d\n", i, i)
	}
	main := []handoff.Message{
		{Index: 0, Role: handoff.RoleUser, Text: "fix the parser"},
		{Index: 1, ID: "a1", Role: handoff.RoleAssistant, Text: b.String()},
		{Index: 2, ID: "a2", Role: handoff.RoleAssistant, Text: "Done."},
	}
	for _, tc := range []struct {
		said bool
		want int
	}{{false, maxKeyLines}, {true, maxSaidKeyLines}} {
		lines, _ := keyLinesOf(main, 2, handoff.MessageRef{}, tc.said)
		if len(lines) != tc.want {
			t.Errorf("said=%v: %d key lines, want %d", tc.said, len(lines), tc.want)
		}
	}
}
