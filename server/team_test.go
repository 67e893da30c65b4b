package server

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/storetest"
)

// TestListPaged: GET /api/workflows pages with ?limit= and the next
// cursor, every workflow once, each with its latest snapshot's summary.
func TestListPaged(t *testing.T) {
	f := newFixture(t, nil)
	ctx := context.Background()
	for i := range 5 {
		wf := fmt.Sprintf("wf_list%d", i)
		must(t, f.store.SaveSnapshot(ctx, storetest.Snap(wf, i), store.WorkflowInfo{Name: wf}))
	}
	seen := map[string]bool{}
	cursor := ""
	for range 5 {
		var page store.OverviewPage
		f.json("GET", "/api/workflows?limit=2&cursor="+url.QueryEscape(cursor), nil, 200, &page)
		for _, w := range page.Workflows {
			if seen[w.ID] || w.Latest == nil || w.Latest.Goal == "" {
				t.Fatalf("page entry %+v (seen before: %v)", w, seen[w.ID])
			}
			seen[w.ID] = true
		}
		if cursor = page.Next; cursor == "" {
			break
		}
	}
	if len(seen) != 5 {
		t.Fatalf("paged %d workflows, want 5", len(seen))
	}
	f.wantError("GET", "/api/workflows?limit=0", nil, 400, handoff.EINVALID)
	f.wantError("GET", "/api/workflows?cursor=nope", nil, 400, handoff.EINVALID)
}

// TestUploadsGroupedByContent: uploads without a session id or a
// directory are workflows by content, as the CLI files standard input: two
// different conversations are two workflows (not one "stdin"), and the
// same conversation grown joins its own.
func TestUploadsGroupedByContent(t *testing.T) {
	f := newFixture(t, nil)
	post := func(body string) transcriptOut {
		var out transcriptOut
		f.json("POST", "/api/transcripts?format=plain", []byte(body), 201, &out)
		return out
	}
	login := "User: fix the login bug in auth.go\nAssistant: Looking at auth.go now.\nUser: it fails on empty passwords\n"
	a := post(login)
	b := post("User: write the release notes for v2\nAssistant: Drafting them.\nUser: keep them short\n")
	grown := post(login + "Assistant: Fixed; added auth_test.go.\n")
	if a.WorkflowID == b.WorkflowID || a.WorkflowID == "stdin" || !strings.HasPrefix(a.WorkflowID, "stdin_") {
		t.Fatalf("two conversations filed as %q and %q", a.WorkflowID, b.WorkflowID)
	}
	if grown.WorkflowID != a.WorkflowID || grown.SessionNumber != a.SessionNumber || grown.SnapshotID == a.SnapshotID {
		t.Fatalf("the grown upload: %+v, first %+v", grown, a)
	}
	var d workflowDetail
	f.json("GET", "/api/workflows/"+a.WorkflowID, nil, 200, &d)
	if d.Name == "-" {
		t.Fatalf("an upload's workflow is named %q", d.Name)
	}
}

// TestWorkflowRefsResolve: ?workflow= with a unique prefix files the
// upload under that workflow, never a new one with the prefix as its id.
func TestWorkflowRefsResolve(t *testing.T) {
	f := newFixture(t, nil)
	f.checkpoint("")
	out := f.nextSession(2) // ?workflow= the full id
	if out.WorkflowID != sampleWF {
		t.Fatalf("full id: filed under %s", out.WorkflowID)
	}
	var got transcriptOut
	body := strings.ReplaceAll(string(readSample(t)), `"sessionId": "`+sampleWF+`"`, `"sessionId": "third"`)
	f.json("POST", "/api/transcripts?workflow="+sampleWF[:6], []byte(body), 201, &got)
	if got.WorkflowID != sampleWF {
		t.Fatalf("prefix %s: filed under %s, want %s", sampleWF[:6], got.WorkflowID, sampleWF)
	}
}

// TestTimelineInTimeOrder: with a session holding several snapshots, the
// timeline, the plot and the default diff run oldest to newest, and the
// page selects the newest snapshot (the one LatestSnapshot gives); the
// claim on resume is a 409; the event history is on the page.
func TestTimelineInTimeOrder(t *testing.T) {
	f := newFixture(t, nil)
	ids := severalPerSession(t, f.store)
	var list struct {
		Snapshots []snapshotItem `json:"snapshots"`
	}
	f.json("GET", "/api/workflows/wf_time/snapshots", nil, 200, &list)
	var got []string
	for _, it := range list.Snapshots {
		got = append(got, it.ID)
	}
	if strings.Join(got, ",") != strings.Join(ids, ",") {
		t.Fatalf("snapshot list order %v, want time order %v", got, ids)
	}
	if list.Snapshots[0].User != "ann" || list.Snapshots[0].Machine != "laptop-a" {
		t.Fatalf("snapshot maker not listed: %+v", list.Snapshots[0])
	}
	code, page := f.do("GET", "/workflows/wf_time", nil)
	html := string(page)
	if code != 200 {
		t.Fatalf("workflow page: %d", code)
	}
	newest := ids[len(ids)-1]
	for _, want := range []string{
		`<li class="card selected">` + "\n" + `<a href="?snapshot=` + newest + `">`,
		`name="from">`, `value="` + ids[len(ids)-2] + `" selected`, `value="` + newest + `" selected`,
		"Event history", "WORKFLOW_PAUSED", "ann on laptop-a",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("workflow page lacks %q", want)
		}
	}
	f.json("POST", "/api/workflows/wf_time/resume", nil, 200, nil)
	f.wantError("POST", "/api/workflows/wf_time/resume", nil, 409, handoff.ECLAIMED)
	f.json("POST", "/api/workflows/wf_time/resume", []byte(`{"force":true}`), 200, nil)
}

// severalPerSession stores workflow wf_time: session 1 one snapshot,
// session 2 three (the last paused), and returns the ids in time order.
func severalPerSession(t *testing.T, s *store.Store) []string {
	t.Helper()
	ctx := context.Background()
	base := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	var ids []string
	for i, key := range []string{"id:one", "id:two", "id:two", "id:two"} {
		snap := storetest.Snap("wf_time", i)
		snap.CreatedAt = base.Add(time.Duration(i) * time.Hour)
		snap.Usage.ContextUtilization = 0.2 * float64(i+1)
		info := store.WorkflowInfo{Name: "time order", Session: key, Digest: fmt.Sprint(i)}
		if i == 3 {
			must(t, s.PauseSnapshot(ctx, snap, info, "end of day"))
		} else {
			must(t, s.SaveSnapshot(ctx, snap, info))
		}
		ids = append(ids, snap.ID)
	}
	return ids
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestSearchAPI: GET /api/search finds sessions by the words of their
// snapshots, with fields and snippet; the search page marks the words.
func TestSearchAPI(t *testing.T) {
	f := newFixture(t, nil)
	f.checkpoint("")
	var out struct {
		Query string            `json:"query"`
		Hits  []store.SearchHit `json:"hits"`
	}
	f.json("GET", "/api/search?q=rate+limiting", nil, 200, &out)
	if len(out.Hits) != 1 || out.Hits[0].WorkflowID != sampleWF || out.Hits[0].Snippet == "" || len(out.Hits[0].Fields) == 0 {
		t.Fatalf("search hits: %+v", out.Hits)
	}
	f.json("GET", "/api/search?q=rate&workflow="+sampleWF[:5], nil, 200, &out)
	if len(out.Hits) != 1 {
		t.Fatalf("search in a workflow by prefix: %+v", out.Hits)
	}
	f.json("GET", "/api/search?q=zebra", nil, 200, &out)
	if out.Hits == nil || len(out.Hits) != 0 {
		t.Fatalf("no match: %+v", out.Hits)
	}
	f.wantError("GET", "/api/search?q=%20", nil, 400, handoff.EINVALID)
	f.wantError("GET", "/api/search?q=rate&limit=x", nil, 400, handoff.EINVALID)
	code, body := f.do("GET", "/search?q=Rate+limiting", nil)
	if code != 200 || !strings.Contains(string(body), `id="results"`) || !strings.Contains(strings.ToLower(string(body)), "<mark>rate</mark>") {
		t.Fatalf("search page: %d\n%s", code, body)
	}
}

func TestMarks(t *testing.T) {
	tests := []struct {
		text  string
		terms []string
		want  string
	}{
		{"Use Redis for the cache", []string{"redis"}, "Use [Redis] for the cache"},
		{"redis.go: redisX", []string{"redis", "go"}, "[redis].[go]: redisX"},
		{"<b>Redis</b>", []string{"redis"}, "<b>[Redis]</b>"},
		{"", []string{"x"}, ""},
	}
	for _, tt := range tests {
		var b strings.Builder
		for _, p := range marks(tt.text, tt.terms) {
			if p.Mark {
				b.WriteString("[" + p.Text + "]")
			} else {
				b.WriteString(p.Text)
			}
		}
		if b.String() != tt.want {
			t.Errorf("marks(%q) = %q, want %q", tt.text, b.String(), tt.want)
		}
	}
}
