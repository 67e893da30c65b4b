package handoff

import "testing"

func TestFileNoteHistory(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"STATUS.md", false},
		{"docs/STATUS.md", false},
		{"docs/archive/previous-status-notes.md", true},
		{"old/TODO.md", true},
		{"HISTORY.md", true},
		{"notes/status.backup.md", true},
		{"docs/holdover-plan.md", false},
	}
	for _, tt := range tests {
		if got := (FileNote{Path: tt.path}).History(); got != tt.want {
			t.Errorf("History(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}
