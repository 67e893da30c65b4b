package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/storetest"
)

// testSearchCLI: handoff search finds the sample session by words of its
// goal, as a tab-separated row when piped and as JSON; a query without
// words is exit 2; no match prints nothing on stdout.
func testSearchCLI(t *testing.T, db string) {
	mustRun(t, db, readFile(t, sampleTranscript), "compile", "--no-git")
	r := mustRun(t, db, "", "search", "rate", "LIMITING")
	if !strings.Contains(r.stdout, sampleWorkflow+"\t1\tsnap_") || !strings.Contains(r.stdout, "requests") {
		t.Fatalf("search output:\n%s", r.stdout)
	}
	r = mustRun(t, db, "", "search", "rate limiting", "--json", "--workflow", sampleWorkflow[:6])
	var hits []store.SearchHit
	if err := json.Unmarshal([]byte(r.stdout), &hits); err != nil || len(hits) != 1 || hits[0].WorkflowID != sampleWorkflow || hits[0].Snippet == "" {
		t.Fatalf("search --json: %v %+v\n%s", err, hits, r.stdout)
	}
	wantExit(t, runCLI(t, db, "", "search", "..."), exitInvalid, "no words")
	r = mustRun(t, db, "", "search", "zebra", "quantum")
	if r.stdout != "" || !strings.Contains(r.stderr, "nothing found") {
		t.Fatalf("no match: stdout %q stderr %q", r.stdout, r.stderr)
	}
}

func TestSearchCLISQLite(t *testing.T) {
	t.Parallel()
	testSearchCLI(t, filepath.Join(t.TempDir(), "h.db"))
}

func TestSearchCLIPostgres(t *testing.T) {
	testSearchCLI(t, storetest.FreshPostgres(t))
}
