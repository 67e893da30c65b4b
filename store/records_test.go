package store

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
)

// recordsFixture stores five workflows:
//
//	wf-a: session 1 (Jan 1) with a reversed decision, session 2 (Feb 1)
//	wf-b: one session (Jan 15), a decision stamped in another time zone
//	wf-c: session 1 (Jan 10) readable, session 2 (Jan 20) damaged JSON
//	wf-d: one session (Jan 5) with a string among its decisions and an
//	      object where its errors list should be
//	wf-e: one session (Jan 3) whose JSON is another snapshot's
//
// and returns the store and the damaged snapshots' ids by workflow.
func recordsFixture(t *testing.T) (*Store, map[string]string) {
	t.Helper()
	ctx := context.Background()
	s := openTest(t, tempDB(t))
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 12, 0, 0, 0, time.UTC) }
	at := func(m time.Month, d, h, min int) time.Time { return time.Date(2026, m, d, h, min, 0, 0, time.UTC) }
	save := func(wf string, created time.Time, ds []handoff.Decision, es []handoff.ErrorRecord) string {
		t.Helper()
		snap := &handoff.Snapshot{WorkflowID: wf, Trigger: handoff.TriggerExtract, CreatedAt: created, Decisions: ds, Errors: es,
			Source: handoff.SourceInfo{Path: "/h/" + wf + ".jsonl"}}
		if err := s.SaveSnapshot(ctx, snap, WorkflowInfo{Name: "proj-" + wf}); err != nil {
			t.Fatal(err)
		}
		return snap.ID
	}
	a1 := handoff.Decision{ID: "a1", Type: handoff.DecisionLibrary, Description: "Use sqlx for queries", Timestamp: at(1, 1, 10, 0)}
	save("wf-a", day(1, 1), []handoff.Decision{
		a1,
		{ID: "a2", Type: handoff.DecisionApproach, Description: "Retry with backoff on every failure", Timestamp: at(1, 1, 10, 30), SupersededBy: "a3"},
		{ID: "a3", Type: handoff.DecisionApproach, Description: "Fail fast on 4xx", Rationale: "retries hide bugs",
			Alternatives: []string{"retry with backoff"}, Timestamp: at(1, 1, 11, 0).Add(500 * time.Millisecond)},
	}, []handoff.ErrorRecord{
		{ID: "e1", Type: "test_failure", Message: "TestX failed", Resolution: handoff.ResolutionUnresolved},
		{ID: "e2", Type: "build_error", Message: "undefined: Foo", Resolution: handoff.ResolutionFixed},
	})
	save("wf-a", day(2, 1), []handoff.Decision{
		a1,
		{ID: "a4", Type: handoff.DecisionArchitecture, Description: "Split the store into one file per table"},
	}, []handoff.ErrorRecord{
		{ID: "e1", Type: "test_failure", Message: "TestX failed", Resolution: handoff.ResolutionFixed},
		{ID: "e3", Type: "tool_error", Message: "timeout", Resolution: handoff.ResolutionDeferred},
	})
	save("wf-b", day(1, 15), []handoff.Decision{
		{ID: "b1", Type: handoff.DecisionClarification, Description: "No new dependencies",
			Timestamp: time.Date(2026, 1, 15, 9, 0, 0, 0, time.FixedZone("EET", 2*3600))}, // 07:00 UTC
	}, []handoff.ErrorRecord{
		{ID: "eb1", Type: "command_failed", Message: "permission denied", Command: "make install", Resolution: handoff.ResolutionUnresolved},
	})
	save("wf-c", day(1, 10), []handoff.Decision{{ID: "c1", Type: handoff.DecisionWorkaround, Description: "Pin Go 1.22"}},
		[]handoff.ErrorRecord{{ID: "ec1", Type: "build_error", Message: "go: version mismatch", Resolution: handoff.ResolutionUnresolved}})
	c2 := save("wf-c", day(1, 20), []handoff.Decision{{ID: "c2", Type: handoff.DecisionSkip, Description: "never seen"}}, nil)
	d := save("wf-d", day(1, 5), []handoff.Decision{{ID: "d1", Type: handoff.DecisionApproach, Description: "Vendor the parser"}},
		[]handoff.ErrorRecord{{ID: "ed1", Type: "tool_error", Message: "never seen", Resolution: handoff.ResolutionUnresolved}})
	e := save("wf-e", day(1, 3), []handoff.Decision{{ID: "x1", Type: handoff.DecisionApproach, Description: "never seen"}}, nil)

	// Damage rows as a bad disk or another program would: below the
	// store, so past the trigger that keeps snapshots immutable.
	mustExec(t, s, "DROP TRIGGER session_snapshots_immutable")
	mustExec(t, s, "UPDATE session_snapshots SET snapshot_json = substr(snapshot_json, 1, 40) WHERE id = ?", c2)
	mustExec(t, s, `UPDATE session_snapshots SET snapshot_json = json_set(json_insert(snapshot_json, '$.decisions[#]', 'garbage'), '$.errors', json('{"a":1}')) WHERE id = ?`, d)
	mustExec(t, s, `UPDATE session_snapshots SET snapshot_json = json_set(snapshot_json, '$.id', 'snap_other') WHERE id = ?`, e)
	return s, map[string]string{"wf-c": c2, "wf-d": d, "wf-e": e}
}

// key names a record by workflow letter, session and record id: "a/2/a1".
func key(o Origin, id string) string {
	return fmt.Sprintf("%s/%d/%s", strings.TrimPrefix(o.WorkflowID, "wf-"), o.SessionNumber, id)
}

func TestDecisionsQuery(t *testing.T) {
	t.Parallel()
	s, bad := recordsFixture(t)
	ctx := context.Background()
	since := func(v string) time.Time {
		ts, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			t.Fatal(err)
		}
		return ts
	}
	tests := []struct {
		name string
		f    DecisionFilter
		want []string
	}{
		{"latest per workflow, current only", DecisionFilter{},
			[]string{"a/2/a1", "a/2/a4", "b/1/b1", "c/1/c1", "d/1/d1"}},
		{"all snapshots", DecisionFilter{RecordFilter: RecordFilter{All: true}},
			[]string{"a/2/a1", "a/2/a4", "b/1/b1", "c/1/c1", "d/1/d1", "a/1/a1", "a/1/a3"}},
		{"all snapshots with superseded", DecisionFilter{RecordFilter: RecordFilter{All: true}, Superseded: true},
			[]string{"a/2/a1", "a/2/a4", "b/1/b1", "c/1/c1", "d/1/d1", "a/1/a1", "a/1/a2", "a/1/a3"}},
		{"type", DecisionFilter{Type: handoff.DecisionLibrary, RecordFilter: RecordFilter{All: true}}, []string{"a/2/a1", "a/1/a1"}},
		{"grep ignores case and reads alternatives", DecisionFilter{RecordFilter: RecordFilter{All: true, Grep: "BACKOFF"}, Superseded: true},
			[]string{"a/1/a2", "a/1/a3"}},
		{"grep reads the rationale", DecisionFilter{RecordFilter: RecordFilter{All: true, Grep: "hide bugs"}}, []string{"a/1/a3"}},
		{"grep with no match", DecisionFilter{RecordFilter: RecordFilter{Grep: "kubernetes"}}, nil},
		{"workflow", DecisionFilter{RecordFilter: RecordFilter{WorkflowID: "wf-b"}}, []string{"b/1/b1"}},
		{"workflow whose latest snapshot is damaged", DecisionFilter{RecordFilter: RecordFilter{WorkflowID: "wf-c"}}, []string{"c/1/c1"}},
		{"since: own timestamp, else the snapshot's (zone-aware)", DecisionFilter{RecordFilter: RecordFilter{Since: since("2026-01-15T08:00:00Z")}},
			[]string{"a/2/a4"}},
		{"since just before a zoned timestamp", DecisionFilter{RecordFilter: RecordFilter{Since: since("2026-01-15T06:30:00Z")}},
			[]string{"a/2/a4", "b/1/b1"}},
		{"since with sub-second precision", DecisionFilter{RecordFilter: RecordFilter{All: true, Since: since("2026-01-01T11:00:00.4Z")}, Superseded: true},
			[]string{"a/2/a4", "b/1/b1", "c/1/c1", "d/1/d1", "a/1/a3"}},
		{"limit", DecisionFilter{RecordFilter: RecordFilter{Limit: 2}}, []string{"a/2/a1", "a/2/a4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, damaged, err := s.Decisions(ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, d := range got {
				keys = append(keys, key(d.Origin, d.ID))
			}
			if !slices.Equal(keys, tt.want) {
				t.Errorf("got %v\nwant %v", keys, tt.want)
			}
			// Damaged snapshots are reported whatever the filter, for the
			// workflows in scope; wf-d's string element only when no
			// field filter or limit excludes it first.
			wantDamaged := 3
			switch {
			case tt.f.WorkflowID == "wf-c":
				wantDamaged = 1
			case tt.f.WorkflowID != "":
				wantDamaged = 0
			case tt.f.Grep != "" || tt.f.Type != "" || tt.f.Limit > 0:
				wantDamaged = 2
			case !tt.f.Since.IsZero() && tt.f.Since.After(time.Date(2026, 1, 5, 12, 0, 0, 0, time.UTC)):
				// It has no timestamp: its snapshot's (Jan 5) stands in.
				wantDamaged = 2
			}
			if len(damaged) != wantDamaged {
				t.Errorf("damaged = %v, want %d reports", damaged, wantDamaged)
			}
		})
	}

	// The reports name the damaged snapshots and carry ECORRUPT.
	_, damaged, err := s.Decisions(ctx, DecisionFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{bad["wf-c"] + " is damaged: its stored JSON does not decode", bad["wf-e"] + " is damaged: its stored JSON is another snapshot",
		bad["wf-d"] + ": decision 1 is damaged"} {
		found := false
		for _, e := range damaged {
			if strings.Contains(e.Error(), want) && handoff.ErrorCode(e) == handoff.ECORRUPT {
				found = true
			}
		}
		if !found {
			t.Errorf("no ECORRUPT report containing %q in %v", want, damaged)
		}
	}

	// A record carries where it came from, and its own fields intact.
	got, _, err := s.Decisions(ctx, DecisionFilter{RecordFilter: RecordFilter{WorkflowID: "wf-a", All: true, Grep: "fail fast"}})
	if err != nil || len(got) != 1 {
		t.Fatalf("got %v, %v", got, err)
	}
	d := got[0]
	if d.WorkflowName != "proj-wf-a" || d.SessionPath != "/h/wf-a.jsonl" || d.SessionNumber != 1 || !d.SnapshotTime.Equal(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)) ||
		!strings.HasPrefix(d.SnapshotID, "snap_") || d.Rationale != "retries hide bugs" || len(d.Alternatives) != 1 || d.Timestamp.Nanosecond() != 5e8 {
		t.Errorf("record = %+v", d)
	}

	if _, _, err := s.Decisions(ctx, DecisionFilter{Type: "strategy"}); handoff.ErrorCode(err) != handoff.EINVALID || !strings.Contains(err.Error(), "clarification") {
		t.Errorf("unknown type: err = %v", err)
	}
	if _, _, err := s.Decisions(ctx, DecisionFilter{RecordFilter: RecordFilter{Limit: -1}}); handoff.ErrorCode(err) != handoff.EINVALID {
		t.Errorf("negative limit: err = %v", err)
	}
}

func TestErrorsQuery(t *testing.T) {
	t.Parallel()
	s, bad := recordsFixture(t)
	ctx := context.Background()
	tests := []struct {
		name string
		f    ErrorFilter
		want []string
	}{
		{"latest per workflow", ErrorFilter{}, []string{"a/2/e1", "a/2/e3", "b/1/eb1", "c/1/ec1"}},
		{"unresolved (deferred counts)", ErrorFilter{Unresolved: true}, []string{"a/2/e3", "b/1/eb1", "c/1/ec1"}},
		{"unresolved in every snapshot", ErrorFilter{Unresolved: true, RecordFilter: RecordFilter{All: true}},
			[]string{"a/2/e3", "b/1/eb1", "c/1/ec1", "a/1/e1"}},
		{"grep reads the command", ErrorFilter{RecordFilter: RecordFilter{Grep: "make INSTALL"}}, []string{"b/1/eb1"}},
		{"type", ErrorFilter{Type: "test_failure", RecordFilter: RecordFilter{All: true}}, []string{"a/2/e1", "a/1/e1"}},
		{"workflow", ErrorFilter{RecordFilter: RecordFilter{WorkflowID: "wf-a"}}, []string{"a/2/e1", "a/2/e3"}},
		{"since the snapshot's time", ErrorFilter{RecordFilter: RecordFilter{All: true, Since: time.Date(2026, 1, 12, 0, 0, 0, 0, time.UTC)}},
			[]string{"a/2/e1", "a/2/e3", "b/1/eb1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, damaged, err := s.Errors(ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, e := range got {
				keys = append(keys, key(e.Origin, e.ID))
			}
			if !slices.Equal(keys, tt.want) {
				t.Errorf("got %v\nwant %v", keys, tt.want)
			}
			if tt.f.WorkflowID == "" && len(damaged) != 3 {
				t.Errorf("damaged = %v, want 3 reports", damaged)
			}
		})
	}
	_, damaged, err := s.Errors(ctx, ErrorFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(damaged, func(e error) bool {
		return strings.Contains(e.Error(), bad["wf-d"]+` is damaged: its "errors" is not a list`)
	}) {
		t.Errorf("the object errors list is not reported: %v", damaged)
	}
}

// TestRecordsEmptyStore: no snapshots is no records and no reports.
func TestRecordsEmptyStore(t *testing.T) {
	t.Parallel()
	s := openTest(t, tempDB(t))
	ds, damaged, err := s.Decisions(context.Background(), DecisionFilter{})
	if err != nil || len(ds) != 0 || len(damaged) != 0 {
		t.Errorf("decisions = %v, %v, %v", ds, damaged, err)
	}
	es, damaged, err := s.Errors(context.Background(), ErrorFilter{Unresolved: true})
	if err != nil || len(es) != 0 || len(damaged) != 0 {
		t.Errorf("errors = %v, %v, %v", es, damaged, err)
	}
}

// recordsBenchStore stores 300 workflows of 3 sessions, each snapshot with
// 8 decisions and 4 errors.
func recordsBenchStore(b *testing.B) *Store {
	b.Helper()
	ctx := context.Background()
	s := openTest(b, filepath.Join(b.TempDir(), "bench.db"))
	for w := range 300 {
		for n := range 3 {
			snap := fullSnapshot(fmt.Sprintf("wf-%03d", w))
			snap.CreatedAt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(w*3+n) * time.Minute)
			for i := range 6 {
				snap.Decisions = append(snap.Decisions, handoff.Decision{ID: fmt.Sprintf("x%d", i), Type: handoff.DecisionApproach,
					Description: fmt.Sprintf("decision %d of session %d in workflow %d about caching", i, n, w), Rationale: "because"})
			}
			if err := s.SaveSnapshot(ctx, snap, WorkflowInfo{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	return s
}

// BenchmarkDecisionsQuery runs the default decisions query (latest
// snapshot per workflow, grep) in SQLite against the baseline of decoding
// every stored snapshot in Go and filtering there.
func BenchmarkDecisionsQuery(b *testing.B) {
	s := recordsBenchStore(b)
	ctx := context.Background()
	f := DecisionFilter{RecordFilter: RecordFilter{Grep: "session 2"}}
	b.Run("sqlite-json_each", func(b *testing.B) {
		for b.Loop() {
			got, _, err := s.Decisions(ctx, f)
			if err != nil || len(got) != 300*6 {
				b.Fatalf("%d, %v", len(got), err)
			}
		}
	})
	b.Run("baseline-decode-all", func(b *testing.B) {
		for b.Loop() {
			var rows []struct {
				WorkflowID string `db:"workflow_id"`
				Session    int    `db:"session_number"`
				JSON       string `db:"snapshot_json"`
			}
			if err := s.db.SelectContext(ctx, &rows, "SELECT workflow_id, session_number, snapshot_json FROM session_snapshots"); err != nil {
				b.Fatal(err)
			}
			latest := map[string]*handoff.Snapshot{}
			for _, r := range rows {
				var snap handoff.Snapshot
				if err := json.Unmarshal([]byte(r.JSON), &snap); err != nil {
					b.Fatal(err)
				}
				if cur, ok := latest[r.WorkflowID]; !ok || cur.SessionNumber < r.Session {
					snap.SessionNumber = r.Session
					latest[r.WorkflowID] = &snap
				}
			}
			n := 0
			for _, snap := range latest {
				for _, d := range snap.CurrentDecisions() {
					if strings.Contains(strings.ToLower(d.Description+"\n"+d.Rationale+"\n"+strings.Join(d.Alternatives, " ")), "session 2") {
						n++
					}
				}
			}
			if n != 300*6 {
				b.Fatalf("%d", n)
			}
		}
	})
}
