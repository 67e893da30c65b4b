package compiler

import (
	"strings"
	"testing"
)

func TestPastedLog(t *testing.T) {
	t.Parallel()
	ci := "Run goreleaser/goreleaser-action@v5\nDownloading https://example.com/goreleaser.tar.gz\nExtracting GoReleaser\n/usr/bin/tar xz -C /tmp/x -f /tmp/y\n  • starting release\n  • loading config file\n  ⨯ release failed after 0s error=only version 1 configs are supported\nError: The process '/opt/goreleaser' failed with exit code 1"
	tests := []struct {
		name, text string
		ok         bool
		want, not  []string
	}{
		{"CI log", ci, true, []string{"Run goreleaser", "⨯ release failed", "exit code 1"}, []string{"Downloading", "loading config"}},
		{"prose", "Please fix the release.\nIt fails on CI.\nI think the config is old.\nCan you check it?\nAlso update the docs.\nThanks!", false, nil, nil},
		{"log without a failure", "Run make\nCompiling a.c\nCompiling b.c\nCompiling c.c\nCompiling d.c\nFinished in 3s", false, nil, nil},
		{"short paste", "Error: boom\nat x()", false, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := pastedLog(tc.text)
			if ok != tc.ok {
				t.Fatalf("pastedLog ok = %v, want %v (%q)", ok, tc.ok, got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("digest lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(got, w) {
					t.Errorf("digest holds %q:\n%s", w, got)
				}
			}
		})
	}
}
