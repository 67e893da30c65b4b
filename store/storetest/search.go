package storetest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// Searcher is full-text search over snapshots.
type Searcher interface {
	Search(ctx context.Context, q store.SearchQuery) ([]store.SearchHit, error)
}

// searchFixture stores three workflows whose snapshots mention different
// things in different fields.
func searchFixture(t *testing.T, s Store) {
	ctx := context.Background()
	save := func(wf, key string, i int, edit func(*handoff.Snapshot)) {
		snap := Snap(wf, i)
		snap.Decisions, snap.Errors = nil, nil
		edit(snap)
		must(t, s.SaveSnapshot(ctx, snap, store.WorkflowInfo{Session: key}))
	}
	save("wf_cache", "id:c1", 1, func(x *handoff.Snapshot) {
		x.Decisions = []handoff.Decision{{ID: "d1", Type: handoff.DecisionLibrary, Description: "Use Redis for the session cache",
			Rationale: "memcached lacks persistence", Alternatives: []string{"memcached"}}}
	})
	save("wf_cache", "id:c1", 2, func(x *handoff.Snapshot) { // the session grows: one hit, the newer snapshot
		x.Decisions = []handoff.Decision{{ID: "d1", Type: handoff.DecisionLibrary, Description: "Use Redis for the session cache",
			Rationale: "memcached lacks persistence"}}
		x.FilesModified = []handoff.FileChange{{Path: "internal/cache/redis.go", Edits: 2}}
	})
	save("wf_login", "id:l1", 3, func(x *handoff.Snapshot) {
		x.Errors = []handoff.ErrorRecord{{ID: "e1", Message: "dial tcp 127.0.0.1:6379: connection refused (redis)", Command: "go test ./auth",
			Resolution: handoff.ResolutionUnresolved}}
		x.Requests = []handoff.Request{{Text: "Fix the login timeout on slow networks"}}
	})
	save("wf_docs", "id:d1", 4, func(x *handoff.Snapshot) {
		x.Goal = "Write the release notes"
		x.NextStep = "Mention the Redis upgrade in the notes"
		x.FilesModified = []handoff.FileChange{{Path: "docs/CHANGELOG.md", Edits: 1}}
	})
}

// testSearch: every word must occur; a session is one hit (its newest
// matching snapshot); a decision outranks a passing mention; fields and
// snippets say where the words are; words split alike on both stores
// (a path's parts, punctuation, case); a workflow filter and bad queries.
func testSearch(t *testing.T, s Store) {
	se, ok := s.(Searcher)
	if !ok {
		t.Fatal("the store lacks Search")
	}
	ctx := context.Background()
	searchFixture(t, s)
	search := func(text, wf string) []store.SearchHit {
		t.Helper()
		hits, err := se.Search(ctx, store.SearchQuery{Text: text, WorkflowID: wf})
		must(t, err)
		return hits
	}
	wfs := func(hits []store.SearchHit) []string {
		var out []string
		for _, h := range hits {
			out = append(out, h.WorkflowID)
		}
		return out
	}
	tests := []struct {
		query, wf string
		want      []string // workflows, best first; nil: order not checked beyond the first
		set       []string // workflows in any order
	}{
		{query: "redis", set: []string{"wf_cache", "wf_login", "wf_docs"}},
		{query: "Redis session cache", want: []string{"wf_cache"}},
		{query: "memcached", want: []string{"wf_cache"}},
		{query: "connection refused", want: []string{"wf_login"}},
		{query: "LOGIN timeout", want: []string{"wf_login"}},
		{query: "changelog", want: []string{"wf_docs"}},
		{query: "cache redis.go", want: []string{"wf_cache"}},
		{query: "127.0.0.1:6379", want: []string{"wf_login"}},
		{query: "redis", wf: "wf_docs", want: []string{"wf_docs"}},
		{query: "redis kubernetes", want: nil},
		{query: "nothing-like-this", want: nil},
	}
	for _, tt := range tests {
		got := wfs(search(tt.query, tt.wf))
		switch {
		case tt.set != nil:
			if !slices.Equal(sorted(got), sorted(tt.set)) {
				t.Errorf("search %q: %v, want %v in any order", tt.query, got, tt.set)
			}
		case !slices.Equal(got, tt.want):
			t.Errorf("search %q (workflow %q): %v, want %v", tt.query, tt.wf, got, tt.want)
		}
	}
	hits := search("redis", "")
	if hits[0].WorkflowID != "wf_cache" || hits[0].Field != store.FieldDecisions {
		t.Errorf("top hit for redis: %+v, want the decision of wf_cache", hits[0])
	}
	for _, h := range hits {
		if h.WorkflowID == "wf_cache" {
			latest, err := s.LatestSnapshot(ctx, "wf_cache")
			must(t, err)
			if h.SnapshotID != latest.ID || !slices.Equal(h.Fields, []string{store.FieldDecisions, store.FieldFiles}) ||
				!strings.Contains(h.Snippet, "Use Redis for the session cache") || h.SessionNumber != 1 || h.Rank <= 0 {
				t.Errorf("wf_cache hit %+v", h)
			}
		}
		if h.WorkflowID == "wf_docs" && (h.Field != store.FieldPrompt || !strings.Contains(h.Snippet, "Redis upgrade")) {
			t.Errorf("wf_docs hit %+v, want the next step in the prompt field", h)
		}
		if h.CreatedAt.IsZero() || h.CreatedAt.Location() != time.UTC {
			t.Errorf("hit time %v", h.CreatedAt)
		}
	}
	for _, bad := range []store.SearchQuery{{Text: "  ...  "}, {Text: "redis", Limit: -1}, {Text: "redis", Limit: 10000}} {
		_, err := se.Search(ctx, bad)
		code(t, err, handoff.EINVALID)
	}
	// Gone with its workflow.
	_, err := s.GC(ctx, time.Now().Add(time.Hour), false)
	must(t, err)
	must(t, s.SetWorkflowStatus(ctx, "wf_docs", handoff.WorkflowCompleted, ""))
	_, err = s.GC(ctx, time.Now().Add(time.Hour), false)
	must(t, err)
	if got := wfs(search("changelog", "")); len(got) != 0 {
		t.Errorf("a collected workflow is still found: %v", got)
	}
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
