package transcript

import (
	"context"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestRegistryEntries checks every registry entry is complete: names
// unique across formats and aliases, a description, what it looks like,
// a parser, and at least one way to be detected (plain text is the
// fallback).
func TestRegistryEntries(t *testing.T) {
	t.Parallel()
	seen := map[string]Format{}
	for _, s := range registry() {
		if s.info.Description == "" || s.info.Looks == "" || s.info.Example == "" || s.newParser == nil {
			t.Errorf("%s: incomplete entry %+v", s.info.Name, s.info)
		}
		if s.text == nil && s.line == nil && s.doc == nil && s.store == nil {
			t.Errorf("%s: no detector and no store", s.info.Name)
		}
		for _, n := range append([]string{string(s.info.Name)}, s.info.Aliases...) {
			if prev, dup := seen[n]; dup {
				t.Errorf("name %q is both %s's and %s's", n, prev, s.info.Name)
			}
			seen[n] = s.info.Name
		}
	}
}

// TestDetectSaysWhatItSaw checks that JSON no format claims is described
// in the error, and that a forced format that fails says what the input
// looks like.
func TestDetectSaysWhatItSaw(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, input string
		format      Format
		want        string
	}{
		{"unknown object", `{"foo": 1, "bar": {"x": 2}}`, FormatAuto, "a JSON object with keys bar, foo"},
		{"unknown array", `[{"kind": "x", "value": 2}]`, FormatAuto, "a JSON array of objects with keys kind, value"},
		{"sqlite piped", "SQLite format 3\x00\x10\x00\x01\x01", FormatAuto, "a SQLite database"},
		{"forced wrong format", ccUser("u1", `"hi"`) + "\n", FormatCodex, "looks like a Claude Code session (--format claude-code)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(context.Background(), strings.NewReader(tt.input), Options{Format: tt.format})
			if err == nil || handoff.ErrorCode(err) != handoff.EINVALID || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want EINVALID containing %q", err, tt.want)
			}
		})
	}
}
