package session

import (
	"fmt"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
)

// CheckNote reads an agent's handoff note, adds the heading when the text
// lacks it, and returns it in the template's shape: one "- Label: text"
// line a field. A note naming neither what is done nor what comes next is
// refused, so the agent learns at once, while it can still write one.
// The `handoff note` command and the MCP handoff_note tool both use it;
// the transcript carries the call, where the next snapshot reads the note.
func CheckNote(text string) (string, error) {
	if !strings.Contains(text, handoff.NoteHeading) {
		text = handoff.NoteHeading + "\n" + text
	}
	n, ok := conversation.ParseNote(text)
	if !ok {
		return "", handoff.Errorf(handoff.EINVALID, "not a handoff note: it needs at least a '- Done: …' or '- Next: …' line under %q", handoff.NoteHeading)
	}
	var b strings.Builder
	b.WriteString(handoff.NoteHeading + "\n")
	for _, f := range n.Fields() {
		if f.Text != "" {
			fmt.Fprintf(&b, "- %s: %s\n", f.Label, f.Text)
		}
	}
	return b.String(), nil
}
