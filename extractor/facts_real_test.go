package extractor

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/transcript"
)

// sharedDir is the public transcript corpus, relative to this package.
const sharedDir = "../../shared"

// labelledFiles lists the transcripts named by the eval labels, as paths
// under shared/transcripts, skipping the test when the corpus is absent.
func labelledFiles(t *testing.T) []string {
	t.Helper()
	labels, _ := filepath.Glob(filepath.Join(sharedDir, "eval/labels/*.json"))
	if len(labels) == 0 {
		t.Skip("no labels in " + sharedDir + "/eval/labels")
	}
	var out []string
	for _, l := range labels {
		b, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		var lab struct {
			File string `json:"file"`
		}
		if err := json.Unmarshal(b, &lab); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		out = append(out, lab.File)
	}
	sort.Strings(out)
	return out
}

// realMessages parses one shared transcript, skipping when it is absent.
func realMessages(t testing.TB, rel string) []handoff.Message {
	t.Helper()
	path := filepath.Join(sharedDir, "transcripts", rel)
	if _, err := os.Stat(path); err != nil {
		t.Skip(path + " is absent")
	}
	tr, err := transcript.ParseFile(context.Background(), path, transcript.Options{})
	if err != nil {
		t.Fatalf("parse %s: %v", rel, err)
	}
	return tr.Messages
}

func unresolvedCount(f Facts) int {
	n := 0
	for _, e := range f.Errors {
		if e.Resolution == handoff.ResolutionUnresolved || e.Resolution == handoff.ResolutionDeferred {
			n++
		}
	}
	return n
}

// TestLabelledFactsTable logs, for every labelled real session, the
// unresolved errors and files modified: the numbers the issue reports
// before and after (go test -run LabelledFactsTable -v).
func TestLabelledFactsTable(t *testing.T) {
	var b strings.Builder
	for _, rel := range labelledFiles(t) {
		f := ComputeFacts(realMessages(t, rel))
		b.WriteString(rel)
		b.WriteString("\t")
		b.WriteString(itoa(len(f.Errors)))
		b.WriteString("\t")
		b.WriteString(itoa(unresolvedCount(f)))
		b.WriteString("\t")
		b.WriteString(itoa(len(f.FilesModified)))
		b.WriteString("\n")
	}
	t.Logf("file\terrors\tunresolved\tfiles\n%s", b.String())
}
