package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestNoteCommand: `handoff note` prints the template, echoes a note in
// the fixed shape, and refuses text that is not one with exit 2; a compile
// of a transcript that holds the call gives the note first place.
func TestNoteCommand(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "h.db")
	tests := []struct {
		name, stdin string
		args        []string
		want        string
		code        string
	}{
		{"template", "", []string{"note", "--template"}, handoff.NoteTemplate(), ""},
		{"stdin, heading added", "- Done: renamed x.go\n- Next: make check\n", []string{"note"}, "## Handoff note\n- Done: renamed x.go\n- Next: make check\n", ""},
		{"argument", "", []string{"note", "## Handoff note\n- **Next**: run it\n"}, "## Handoff note\n- Next: run it\n", ""},
		{"not a note", "", []string{"note", "hello"}, "", handoff.EINVALID},
	}
	for _, tt := range tests {
		r := runCLI(t, db, tt.stdin, tt.args...)
		if tt.code != "" {
			if handoff.ErrorCode(r.err) != tt.code || !strings.Contains(r.err.Error(), "--template") {
				t.Errorf("%s: err %v, want %s naming --template", tt.name, r.err, tt.code)
			}
			continue
		}
		if r.err != nil || strings.TrimSpace(r.stdout) != strings.TrimSpace(tt.want) {
			t.Errorf("%s: stdout %q err %v, want %q", tt.name, r.stdout, r.err, tt.want)
		}
	}
}
