package extractor

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
	"github.com/handoff-cli/handoff/transcript"
)

// goalCase is a conversation and the goal read from it.
type goalCase struct {
	name string
	fill func(c *sessiontest.Convo)
	want string
}

// runGoalCases checks the goal ReadConversation reads from each case.
func runGoalCases(t *testing.T, tests []goalCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t)
			tc.fill(c)
			if got := conversation.Read(c.Transcript()).Goal; got != tc.want {
				t.Errorf("goal = %q, want %q", got, tc.want)
			}
		})
	}
}

// forSharedTranscripts calls fn with the file name and parse of each
// transcript of the shared corpus that parses (the folder's FORMATS.md and
// SOURCES.md left out); never when the corpus is absent. The corpus is
// parsed once per test binary (sharedParsed) and shared by every caller:
// fn reads the transcript and must not change it.
func forSharedTranscripts(fn func(name string, tr *handoff.Transcript)) {
	for _, p := range sharedParsed() {
		fn(p.name, p.tr)
	}
}

// parsedFile is one parsed transcript of the shared corpus.
type parsedFile struct {
	name string
	tr   *handoff.Transcript
}

// sharedParsed parses the shared corpus on first use: the exactness
// sweeps read it whole, and each parsing it again cost seconds of CPU
// (a third of a sweep under -race).
var sharedParsed = sync.OnceValue(func() []parsedFile {
	files, _ := filepath.Glob(filepath.Join(sharedDir, "transcripts", "*", "*"))
	var out []parsedFile
	for _, f := range files {
		if strings.HasSuffix(f, "FORMATS.md") || strings.HasSuffix(f, "SOURCES.md") {
			continue
		}
		tr, err := transcript.ParseFile(context.Background(), f, transcript.Options{})
		if err != nil {
			continue
		}
		out = append(out, parsedFile{filepath.Base(f), tr})
	}
	return out
})
