package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/handoff-cli/handoff/store"
)

const (
	recordsWorkflowA = "7f3c2a1e-5b6d-4e8f-9a0b-1c2d3e4f5a6b"
	recordsWorkflowB = "0000aaaa-5b6d-4e8f-9a0b-1c2d3e4f5a6b"
)

// recordsDB stores, with the heuristic: the sample session and a second
// agent session of the same work (workflow A, sessions 1 and 2), and a
// variant of it under another session id that chose Memcached over Redis
// (workflow B).
func recordsDB(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "h.db")
	sample := readFile(t, sampleTranscript)
	variant := strings.ReplaceAll(strings.ReplaceAll(sample, recordsWorkflowA, recordsWorkflowB), "Redis-backed", "Memcached-backed")
	path := filepath.Join(t.TempDir(), "variant.jsonl")
	second := filepath.Join(t.TempDir(), "second.jsonl")
	if err := os.WriteFile(path, []byte(variant), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(second, []byte(strings.ReplaceAll(sample, recordsWorkflowA, "second-agent-session")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"--no-git", sampleTranscript}, {"--no-git", "--workflow", recordsWorkflowA, second}, {"extract", path}} {
		if r := runEnv(context.Background(), t, db, nil, "", args...); r.err != nil {
			t.Fatalf("%v: %v\n%s", args, r.err, r.stderr)
		}
	}
	return db
}

func TestDecisionsAndErrorsCommands(t *testing.T) {
	t.Parallel()
	db := recordsDB(t)
	type row struct {
		Workflow string `json:"workflow_id"`
		Session  int    `json:"session_number"`
		Desc     string `json:"description"`
		Message  string `json:"error_message"`
		Super    string `json:"superseded_by"`
	}
	tests := []struct {
		name string
		args []string
		// want is how many records of each workflow (A, B) come back.
		wantA, wantB int
		// every, if set, must appear in every record's text.
		every string
	}{
		{"current decisions of each workflow's latest snapshot", []string{"decisions"}, 2, 2, ""},
		{"with the superseded ones", []string{"decisions", "--superseded"}, 3, 3, ""},
		{"the whole history", []string{"decisions", "--all"}, 4, 2, ""},
		{"grep", []string{"decisions", "--grep", "memcached"}, 0, 1, "Memcached"},
		{"grep across workflows", []string{"decisions", "--grep", "miniredis"}, 1, 1, "miniredis"},
		{"type", []string{"decisions", "--type", "approach", "--superseded"}, 3, 3, ""},
		{"type with no match", []string{"decisions", "--type", "library"}, 0, 0, ""},
		{"workflow", []string{"decisions", "--workflow", recordsWorkflowB}, 0, 2, ""},
		{"since a date before the session", []string{"decisions", "--since", "2026-11-19"}, 2, 2, ""},
		{"since after it", []string{"decisions", "--since", "2030-01-01"}, 0, 0, ""},
		// B was extracted, so its snapshot is dated at the session's end
		// (2026-11-20): A's compiled snapshots are newer.
		{"limit: newest snapshot (A's) first", []string{"decisions", "-n", "3"}, 2, 1, ""},
		{"errors since the extracted session ended", []string{"errors", "--since", "2026-11-21"}, 2, 0, ""},
		{"errors of the latest snapshots", []string{"errors"}, 2, 2, ""},
		{"unresolved errors", []string{"errors", "--unresolved"}, 1, 1, "TestRateLimitBurst"},
		{"unresolved errors, whole history", []string{"errors", "--unresolved", "--all"}, 2, 1, "TestRateLimitBurst"},
		{"errors by type", []string{"errors", "--type", "build_error"}, 1, 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runEnv(context.Background(), t, db, nil, "", append(tt.args, "--json")...)
			if r.err != nil {
				t.Fatalf("%v\n%s", r.err, r.stderr)
			}
			var rows []row
			if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
				t.Fatalf("--json: %v\n%s", err, r.stdout)
			}
			a, b := 0, 0
			for _, x := range rows {
				switch x.Workflow {
				case recordsWorkflowA:
					a++
				case recordsWorkflowB:
					b++
				}
				if tt.every != "" && !strings.Contains(x.Desc+x.Message, tt.every) {
					t.Errorf("record %+v lacks %q", x, tt.every)
				}
			}
			if a != tt.wantA || b != tt.wantB {
				t.Errorf("got %d from A, %d from B; want %d, %d\n%s", a, b, tt.wantA, tt.wantB, r.stdout)
			}
			// The table shows the same records, one a line under a header.
			table := runEnv(context.Background(), t, db, nil, "", tt.args...)
			if table.err != nil {
				t.Fatal(table.err)
			}
			lines := 0
			if table.stdout != "" {
				lines = strings.Count(table.stdout, "\n") - 1
			}
			if lines != len(rows) {
				t.Errorf("table has %d rows, JSON %d:\n%s", lines, len(rows), table.stdout)
			}
		})
	}

	// Latest means the highest session: workflow A's decisions come from
	// session 2.
	r := runEnv(context.Background(), t, db, nil, "", "decisions", "--workflow", recordsWorkflowA, "--json")
	var list []store.StoredDecision
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list) == 0 || list[0].SessionNumber != 2 || list[0].WorkflowName != "ratelimit-api" {
		t.Errorf("latest of A: %v %+v", err, list)
	}
}

// TestRecordsDamagedRow: a corrupt snapshot is skipped and reported; the
// query still answers from the rest.
func TestRecordsDamagedRow(t *testing.T) {
	t.Parallel()
	path := recordsDB(t)
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	// Damage the row below the store (past its immutability trigger), as a
	// bad disk or another program would.
	if _, err := db.Exec(`DROP TRIGGER session_snapshots_immutable`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE session_snapshots SET snapshot_json = '{"decisions": [' WHERE workflow_id = ? AND session_number = 2`, recordsWorkflowA); err != nil {
		t.Fatal(err)
	}
	db.Close()
	for _, cmd := range []string{"decisions", "errors"} {
		r := runEnv(context.Background(), t, path, nil, "", cmd, "--json")
		if r.err != nil {
			t.Fatalf("%s: %v\n%s", cmd, r.err, r.stderr)
		}
		if !strings.Contains(r.stderr, "skipped damaged data") || !strings.Contains(r.stderr, "does not decode") {
			t.Errorf("%s: damage not reported:\n%s", cmd, r.stderr)
		}
		var rows []map[string]any
		if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil || len(rows) != 4 {
			t.Errorf("%s: %d rows (%v), want 4: A's session 1 stands in for its damaged session 2", cmd, len(rows), err)
		}
	}
}

func TestRecordsBadFlags(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "h.db")
	for _, args := range [][]string{
		{"decisions", "--since", "last tuesday"},
		{"decisions", "--type", "strategy"},
		{"decisions", "-n", "-1"},
		{"errors", "--since", "-3d"},
	} {
		r := runEnv(context.Background(), t, db, nil, "", args...)
		if exitCode(r.err) != exitInvalid || r.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %s", args, exitCode(r.err), r.stdout, r.stderr)
		}
	}
	// An empty database is no records, as JSON an empty list.
	r := runEnv(context.Background(), t, db, nil, "", "errors", "--json")
	if r.err != nil || strings.TrimSpace(r.stdout) != "[]" {
		t.Errorf("empty: %v %q", r.err, r.stdout)
	}
}

func TestParseSince(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
	}{
		{"36h", now.Add(-36 * time.Hour)},
		{"7d", now.AddDate(0, 0, -7)},
		{"2w", now.AddDate(0, 0, -14)},
		{"90m", now.Add(-90 * time.Minute)},
		{"2026-01-31", time.Date(2026, 1, 31, 0, 0, 0, 0, time.UTC)},
		{"2026-01-31T10:00:00+02:00", time.Date(2026, 1, 31, 8, 0, 0, 0, time.UTC)},
	}
	for _, tt := range tests {
		got, err := parseSince(tt.in, now)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("parseSince(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "yesterday", "-1h", "7x", "2026-13-01"} {
		if _, err := parseSince(bad, now); err == nil {
			t.Errorf("parseSince(%q) accepted", bad)
		}
	}
}
