package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sharedTranscripts is the public corpus, beside the repository.
const sharedTranscripts = "../../../shared/transcripts"

// goldenCorpus is one transcript of each format the shared corpus holds
// (two where a format has interesting variants): enough to pin what the
// CLI prints for every parser and for compaction, subagents and provider
// usage, small enough to run on every test.
var goldenCorpus = []string{
	"claude-code/vsla-069508a5-summaries-64lines.jsonl",
	"claude-code/vsla-5f8cbb78-sidechain-532lines.jsonl",
	"claude-code/pai-d6a37ffc-cc2.0.58-two-manual-compacts.jsonl",
	"codex/test-framework-codex0.92-shell_command-gitflow.jsonl",
	"codex/ship-codex0.114-subagent-fork-coverage.jsonl",
	"schema-fixtures/agent-sessions-gemini-v040.jsonl",
	"aider-md/afi-core.aider.chat.history.md",
	"claude-code-console/bookminder-day-005.txt",
	"openhands-traj/basic.json",
	"specstory-md/specstory-codex-cli-git-provenance.md",
	"swe-agent-traj/pydicom-1458-gpt4.traj",
}

// parseGolden are the files whose parsed form is pinned too (a few
// small ones: the parsers have their own golden tests).
var parseGolden = map[string]bool{
	"claude-code/vsla-069508a5-summaries-64lines.jsonl": true,
	"schema-fixtures/agent-sessions-gemini-v040.jsonl":  true,
	"aider-md/afi-core.aider.chat.history.md":           true,
	"openhands-traj/basic.json":                         true,
}

// volatile are the top-level snapshot fields that differ from run to run
// (the store's id, the clock); everything else must be byte-identical.
var volatile = regexp.MustCompile(`(?m)^  "(id|created_at)": "[^"]*"`)

// taken is the snapshot's time as a prompt states it, and snapIDs the
// store's ids wherever output names them.
var (
	taken   = regexp.MustCompile(`taken \d{4}-\d\d-\d\d \d\d:\d\d UTC`)
	snapIDs = regexp.MustCompile(`snap_[0-9a-z]+`)
	// pathIDs are workflow ids hashed from the transcript's absolute path
	// (a session with neither id nor working directory): they depend on
	// where the checkout lives.
	pathIDs = regexp.MustCompile(`wf_[0-9a-f]{12}`)
)

// normaliseText replaces the snapshot's time and ids in a prompt or a
// status line.
func normaliseText(s string) string {
	s = pathIDs.ReplaceAllString(s, "wf_<path-hash>")
	return taken.ReplaceAllString(snapIDs.ReplaceAllString(s, "snap_<id>"), "taken <time>")
}

func normaliseSnapshotJSON(s string) string {
	s = pathIDs.ReplaceAllString(s, "wf_<path-hash>")
	return volatile.ReplaceAllString(s, `  "$1": "<volatile>"`)
}

func goldenName(path, kind string) string {
	base := strings.NewReplacer("/", "__", ".", "_").Replace(path)
	return filepath.Join("golden", base+"."+kind)
}

// TestGoldenCLI pins what the CLI prints on the shared corpus byte for
// byte — the resume prompt and its status line, the snapshot JSON, the
// parsed transcript — so moving the pipeline out of cmd/handoff can be
// shown to change nothing. Refresh with -update when the output is meant to
// change (the prompt's content, a parser's fix).
func TestGoldenCLI(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(sharedTranscripts); err != nil {
		t.Skipf("shared corpus not present: %v", err)
	}
	corpus := goldenCorpus
	if raceEnabled {
		// One file per run under -race (see raceEnabled): the goldens
		// pin output, which the race detector does not change, and the
		// plain run checks every one.
		corpus = corpus[:1]
	}
	for _, rel := range corpus {
		path := filepath.Join(sharedTranscripts, rel)
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			if _, err := os.Stat(path); err != nil {
				t.Skipf("%s not present", path)
			}
			db := filepath.Join(t.TempDir(), "h.db")

			r := runCLI(t, db, "", "compile", path, "--no-store", "--no-git", "--budget", "1000")
			if r.err != nil {
				t.Fatalf("compile: %v\n%s", r.err, r.stderr)
			}
			goldenFile(t, goldenName(rel, "prompt"), []byte(normaliseText(r.stdout)))
			goldenFile(t, goldenName(rel, "stderr"), []byte(r.stderr))

			r = runCLI(t, db, "", "compile", path, "--no-store", "--no-git", "--json")
			if r.err != nil {
				t.Fatalf("compile --json: %v\n%s", r.err, r.stderr)
			}
			goldenFile(t, goldenName(rel, "snapshot.json"), []byte(normaliseSnapshotJSON(r.stdout)))

			if !parseGolden[rel] {
				return
			}
			r = runCLI(t, db, "", "parse", path, "--json")
			if r.err != nil {
				t.Fatalf("parse --json: %v\n%s", r.err, r.stderr)
			}
			goldenFile(t, goldenName(rel, "parse.json"), []byte(r.stdout))
		})
	}
}

// TestGoldenStoredCompile pins the stored path too: compile into a real
// database, then show what was stored, ids normalised.
func TestGoldenStoredCompile(t *testing.T) {
	t.Parallel()
	rel := goldenCorpus[0]
	path := filepath.Join(sharedTranscripts, rel)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("%s not present", path)
	}
	db := filepath.Join(t.TempDir(), "h.db")
	r := runCLI(t, db, "", "compile", path, "--no-git", "--budget", "1000")
	if r.err != nil {
		t.Fatalf("compile: %v\n%s", r.err, r.stderr)
	}
	// The prompt names the random snapshot id, whose token count varies,
	// so the stored prompt's size (and what the budget cuts) is not
	// pinned here (only the status line's first line is): the --no-store
	// goldens pin the prompt.
	promptSize := regexp.MustCompile(`prompt \d+/`)
	status, _, _ := strings.Cut(r.stderr, "\n")
	goldenFile(t, goldenName(rel, "stored.stderr"), []byte(promptSize.ReplaceAllString(normaliseText(status), "prompt <n>/")))
	r = runCLI(t, db, "", "show", "--json")
	if r.err != nil {
		t.Fatalf("show: %v\n%s", r.err, r.stderr)
	}
	goldenFile(t, goldenName(rel, "stored.show.json"), []byte(normaliseSnapshotJSON(r.stdout)))
}
