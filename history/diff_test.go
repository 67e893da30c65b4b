package history

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func task(content string, st handoff.TaskStatus) handoff.Task {
	return handoff.Task{ID: content, Content: content, Status: st}
}

func ids[T any](in []T, f func(T) string) []string {
	var out []string
	for _, v := range in {
		out = append(out, f(v))
	}
	return out
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name string
		a, b handoff.Snapshot
		want func(d *Diff) []string // returns the fields compared
		vals []string
	}{
		{
			name: "tasks: done, added, dropped; ids ignored, case and spaces too",
			a: handoff.Snapshot{Tasks: []handoff.Task{
				task("Write schema", handoff.TaskCompleted), task("Add  migrations", handoff.TaskInProgress),
				task("tests", handoff.TaskPending), task("docs", handoff.TaskPending)}},
			b: handoff.Snapshot{Tasks: []handoff.Task{
				{ID: "9", Content: "write schema", Status: handoff.TaskCompleted}, task("add migrations", handoff.TaskCompleted),
				task("tests", handoff.TaskInProgress), task("benchmarks", handoff.TaskPending)}},
			want: func(d *Diff) []string {
				return append(append(ids(d.TasksDone, func(t handoff.Task) string { return "done:" + t.Content }),
					ids(d.TasksAdded, func(t handoff.Task) string { return "added:" + t.Content })...),
					ids(d.TasksDropped, func(t handoff.Task) string { return "dropped:" + t.Content })...)
			},
			vals: []string{"done:add migrations", "added:benchmarks", "dropped:docs"},
		},
		{
			name: "decisions: added, superseded, dropped; an already-superseded one is not news",
			a: handoff.Snapshot{Decisions: []handoff.Decision{
				{ID: "d1", Description: "use sqlx"}, {ID: "d2", Description: "one file per table"},
				{ID: "d3", Description: "use gorm", SupersededBy: "d1"}}},
			b: handoff.Snapshot{Decisions: []handoff.Decision{
				{ID: "d1", Description: "Use sqlx", SupersededBy: "d2"}, {ID: "d2", Description: "use database/sql"},
				{ID: "d3", Description: "use gorm", SupersededBy: "d1"}}},
			want: func(d *Diff) []string {
				f := func(p string) func(handoff.Decision) string {
					return func(x handoff.Decision) string { return p + x.Description }
				}
				return append(append(ids(d.DecisionsAdded, f("added:")), ids(d.DecisionsSuperseded, f("superseded:"))...), ids(d.DecisionsDropped, f("dropped:"))...)
			},
			vals: []string{"added:use database/sql", "superseded:Use sqlx", "dropped:one file per table"},
		},
		{
			name: "errors: fixed, new, gone; a fixed one staying fixed is not news",
			a: handoff.Snapshot{Errors: []handoff.ErrorRecord{
				{Type: "test_failure", Message: "TestX failed", Command: "go test", Resolution: handoff.ResolutionUnresolved},
				{Type: "build_error", Message: "undefined: Foo", Resolution: handoff.ResolutionFixed},
				{Type: "tool_error", Message: "timeout", Resolution: handoff.ResolutionDeferred}}},
			b: handoff.Snapshot{Errors: []handoff.ErrorRecord{
				{Type: "test_failure", Message: "TestX failed", Command: "go test", Resolution: handoff.ResolutionFixed},
				{Type: "build_error", Message: "undefined: Foo", Resolution: handoff.ResolutionFixed},
				{Type: "lint", Message: "unused x", Resolution: handoff.ResolutionUnresolved}}},
			want: func(d *Diff) []string {
				f := func(p string) func(handoff.ErrorRecord) string {
					return func(e handoff.ErrorRecord) string { return p + e.Message }
				}
				return append(append(ids(d.ErrorsFixed, f("fixed:")), ids(d.ErrorsNew, f("new:"))...), ids(d.ErrorsGone, f("gone:"))...)
			},
			vals: []string{"fixed:TestX failed", "new:unused x", "gone:timeout"},
		},
		{
			name: "files and tests",
			a: handoff.Snapshot{
				FilesModified: []handoff.FileChange{{Path: "a.go", Edits: 2}, {Path: "b.go", Edits: 1}},
				TestState:     &handoff.TestState{Status: handoff.TestsFailing, FailingTests: []string{"TestA", "TestB"}}},
			b: handoff.Snapshot{
				FilesModified: []handoff.FileChange{{Path: "a.go", Edits: 2}, {Path: "b.go", Edits: 3}, {Path: "c.go", Edits: 1}},
				TestState:     &handoff.TestState{Status: handoff.TestsFailing, FailingTests: []string{"TestB", "TestC"}}},
			want: func(d *Diff) []string {
				out := append(ids(d.FilesAdded, func(s string) string { return "added:" + s }), ids(d.FilesEdited, func(s string) string { return "edited:" + s })...)
				out = append(out, ids(d.TestsFixed, func(s string) string { return "fixed:" + s })...)
				return append(out, ids(d.TestsBroken, func(s string) string { return "broken:" + s })...)
			},
			vals: []string{"added:c.go", "edited:b.go", "fixed:TestA", "broken:TestC"},
		},
		{
			name: "no later test run: nothing claimed fixed",
			a:    handoff.Snapshot{TestState: &handoff.TestState{Status: handoff.TestsFailing, FailingTests: []string{"TestA"}}},
			b:    handoff.Snapshot{},
			want: func(d *Diff) []string {
				return append(d.TestsFixed, string(d.Tests.From)+"→"+string(d.Tests.To))
			},
			vals: []string{"failing→"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Compare(&tt.a, &tt.b)
			if got := tt.want(d); !reflect.DeepEqual(got, tt.vals) {
				t.Errorf("got %q, want %q", got, tt.vals)
			}
			if d.Empty() {
				t.Error("Empty() = true for a diff with changes")
			}
		})
	}
}

func TestCompareIdentical(t *testing.T) {
	s := sample()
	d := Compare(s, s)
	if !d.Empty() {
		t.Errorf("diff of a snapshot with itself is not empty: %+v", d)
	}
}

// sample is a snapshot with something in every compared field.
func sample() *handoff.Snapshot {
	return &handoff.Snapshot{
		ID: "snap_a", WorkflowID: "wf", SessionNumber: 1, CreatedAt: time.Date(2025, 5, 1, 9, 0, 0, 0, time.UTC),
		Goal: "add rate limiting", NextStep: "write the limiter",
		Tasks:         []handoff.Task{task("design", handoff.TaskCompleted), task("limiter", handoff.TaskInProgress), task("tests", handoff.TaskPending)},
		Decisions:     []handoff.Decision{{Type: handoff.DecisionLibrary, Description: "use x/time/rate"}},
		Errors:        []handoff.ErrorRecord{{Type: "test_failure", Message: "TestBurst failed", Command: "go test ./...", Resolution: handoff.ResolutionUnresolved}},
		FilesModified: []handoff.FileChange{{Path: "limiter.go", Edits: 1}},
		TestState:     &handoff.TestState{Status: handoff.TestsFailing, FailingTests: []string{"TestBurst"}},
		GitState:      &handoff.GitState{Available: true, Branch: "main", Commit: "1111111111111111111111111111111111111111"},
		Usage:         handoff.Usage{ContextUtilization: 0.42},
	}
}

func TestWriteTextGolden(t *testing.T) {
	a := sample()
	b := sample()
	b.ID, b.SessionNumber, b.CreatedAt = "snap_b", 2, a.CreatedAt.Add(26*time.Hour)
	b.NextStep = "run the load test"
	b.Tasks = []handoff.Task{task("design", handoff.TaskCompleted), task("limiter", handoff.TaskCompleted), task("tests", handoff.TaskInProgress), task("load test", handoff.TaskPending)}
	b.Decisions = []handoff.Decision{
		{Type: handoff.DecisionLibrary, Description: "use x/time/rate", SupersededBy: "d2"},
		{Type: handoff.DecisionArchitecture, Description: "use Redis\nfor shared\tcounters"},
	}
	b.Errors = []handoff.ErrorRecord{{Type: "test_failure", Message: "TestBurst failed", Command: "go test ./...", Resolution: handoff.ResolutionFixed}}
	b.FilesModified = []handoff.FileChange{{Path: "limiter.go", Edits: 4}, {Path: "redis.go", Edits: 1}}
	b.TestState = &handoff.TestState{Status: handoff.TestsPassing}
	b.GitState = &handoff.GitState{Available: true, Branch: "main", Commit: "2222222222222222222222222222222222222222"}
	b.Usage.ContextUtilization = 0.87

	for _, tc := range []struct {
		name string
		a, b *handoff.Snapshot
	}{{"diff", a, b}, {"same", a, a}} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteText(&buf, Compare(tc.a, tc.b)); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", tc.name+".golden")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("output differs from %s (rerun with -update):\n%s", golden, buf.String())
			}
		})
	}
}
