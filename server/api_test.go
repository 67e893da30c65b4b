package server

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/history"
)

const sampleWF = "7f3c2a1e-5b6d-4e8f-9a0b-1c2d3e4f5a6b"

// TestAPIEndToEnd walks every endpoint over one real database: two
// checkpoints of the sample session, a second workflow, then reads,
// pause, resume and the failure paths.
func TestAPIEndToEnd(t *testing.T) {
	f := newFixture(t, nil)
	c1 := f.checkpoint("")
	if again := f.checkpoint(""); !again.Unchanged || again.SnapshotID != c1.SnapshotID {
		t.Fatalf("the same transcript again: unchanged %v, snapshot %s (first %s)", again.Unchanged, again.SnapshotID, c1.SnapshotID)
	}
	c2 := f.nextSession(2)
	other := f.checkpoint("wf_other")
	if c1.WorkflowID != sampleWF || c2.WorkflowID != sampleWF || other.WorkflowID != "wf_other" {
		t.Fatalf("workflows: %s %s %s", c1.WorkflowID, c2.WorkflowID, other.WorkflowID)
	}
	if c1.SessionNumber != 1 || c2.SessionNumber != 2 {
		t.Fatalf("session numbers %d %d, want 1 2", c1.SessionNumber, c2.SessionNumber)
	}
	if c2.Tokens > 1500 || c2.Tokens == 0 || c2.Budget != 1500 || !strings.Contains(c2.Prompt, "rate limit") {
		t.Fatalf("prompt: %d tokens of %d: %.200q", c2.Tokens, c2.Budget, c2.Prompt)
	}
	if strings.Contains(c2.Prompt, "sk-proj-FAKE") {
		t.Fatal("the prompt carries the transcript's secret")
	}
	wf := "/api/workflows/" + sampleWF

	t.Run("workflows", func(t *testing.T) {
		var out struct {
			Workflows []struct {
				handoff.Workflow
				Latest *struct {
					ID string `json:"id"`
				} `json:"latest"`
			} `json:"workflows"`
		}
		f.json("GET", "/api/workflows", nil, 200, &out)
		if len(out.Workflows) != 2 {
			t.Fatalf("%d workflows, want 2", len(out.Workflows))
		}
		for _, w := range out.Workflows {
			if w.Status != handoff.WorkflowInProgress || w.Latest == nil || w.SessionCount == 0 {
				t.Errorf("workflow %+v", w)
			}
		}
		f.json("GET", "/api/workflows?status=paused", nil, 200, &out)
		if len(out.Workflows) != 0 {
			t.Errorf("status=paused: %d workflows", len(out.Workflows))
		}
		f.json("GET", "/api/workflows?dir="+url.QueryEscape("/home/dev/ratelimit-api"), nil, 200, &out)
		if len(out.Workflows) != 2 {
			t.Errorf("dir filter: %d workflows, want 2", len(out.Workflows))
		}
		f.wantError("GET", "/api/workflows?status=sleeping", nil, 400, handoff.EINVALID)
	})

	t.Run("workflow", func(t *testing.T) {
		var out workflowDetail
		f.json("GET", "/api/workflows/7f3c", nil, 200, &out) // a unique prefix
		if out.ID != sampleWF || out.Latest == nil || out.Latest.ID != c2.SnapshotID || out.Latest.SessionNumber != 2 || out.Latest.Goal == "" {
			t.Fatalf("detail %+v latest %+v", out.Workflow, out.Latest)
		}
		f.wantError("GET", "/api/workflows/nope", nil, 404, handoff.ENOTFOUND)
	})

	t.Run("snapshots", func(t *testing.T) {
		var out struct {
			WorkflowID string         `json:"workflow_id"`
			Snapshots  []snapshotItem `json:"snapshots"`
		}
		f.json("GET", wf+"/snapshots", nil, 200, &out)
		if out.WorkflowID != sampleWF || len(out.Snapshots) != 2 || out.Snapshots[0].ID != c1.SnapshotID || out.Snapshots[1].ID != c2.SnapshotID {
			t.Fatalf("%+v", out)
		}
		s := out.Snapshots[1]
		if s.TasksCompleted+s.TasksRemaining == 0 || s.ContextUtilization <= 0 || s.Trigger != handoff.TriggerManual || s.CreatedAt.IsZero() {
			t.Errorf("item %+v", s)
		}
	})

	t.Run("snapshot", func(t *testing.T) {
		var snap handoff.Snapshot
		f.json("GET", wf+"/snapshots/"+c1.SnapshotID, nil, 200, &snap)
		if snap.ID != c1.SnapshotID || snap.WorkflowID != sampleWF || snap.Goal == "" {
			t.Fatalf("snapshot %s of %s", snap.ID, snap.WorkflowID)
		}
		f.wantError("GET", wf+"/snapshots/"+other.SnapshotID, nil, 404, handoff.ENOTFOUND)
		f.wantError("GET", wf+"/snapshots/snap_missing", nil, 404, handoff.ENOTFOUND)
		f.wantError("GET", "/api/workflows/nope/snapshots/"+c1.SnapshotID, nil, 404, handoff.ENOTFOUND)

		var dec struct {
			Decisions []handoff.Decision `json:"decisions"`
		}
		f.json("GET", wf+"/snapshots/"+c2.SnapshotID+"/decisions", nil, 200, &dec)
		want := 0
		for _, d := range snap.Decisions {
			if d.SupersededBy == "" {
				want++
			}
		}
		if len(dec.Decisions) != want || want == 0 {
			t.Errorf("%d decisions, want %d", len(dec.Decisions), want)
		}
		var errs struct {
			Errors []handoff.ErrorRecord `json:"errors"`
		}
		f.json("GET", wf+"/snapshots/"+c2.SnapshotID+"/errors", nil, 200, &errs)
		if len(errs.Errors) != len(snap.Errors) {
			t.Errorf("%d errors, want %d", len(errs.Errors), len(snap.Errors))
		}
		f.json("GET", wf+"/snapshots/"+c2.SnapshotID+"/errors?unresolved=true", nil, 200, &errs)
		if len(errs.Errors) != len(snap.UnresolvedErrors()) {
			t.Errorf("%d unresolved errors, want %d", len(errs.Errors), len(snap.UnresolvedErrors()))
		}
		var git struct {
			Files []handoff.FileChange `json:"files_modified"`
		}
		f.json("GET", wf+"/snapshots/"+c2.SnapshotID+"/git-changes", nil, 200, &git)
		if len(git.Files) != len(snap.FilesModified) || len(git.Files) == 0 {
			t.Errorf("%d files, want %d", len(git.Files), len(snap.FilesModified))
		}
		for _, sub := range []string{"decisions", "errors", "git-changes", "prompt"} {
			f.wantError("GET", wf+"/snapshots/"+other.SnapshotID+"/"+sub, nil, 404, handoff.ENOTFOUND)
		}
	})

	t.Run("prompt", func(t *testing.T) {
		for _, budget := range []int{300, 800, 3000} {
			var p promptOut
			f.json("GET", wf+"/snapshots/"+c2.SnapshotID+"/prompt?budget="+itoa(budget), nil, 200, &p)
			if p.Tokens > budget || p.Tokens == 0 || p.Budget != budget || p.Format != "prompt" {
				t.Errorf("budget %d: %d tokens, format %s", budget, p.Tokens, p.Format)
			}
			if n := testCounter(t).Count(p.Text); n != p.Tokens {
				t.Errorf("budget %d: the text counts %d tokens, the answer says %d", budget, n, p.Tokens)
			}
		}
		var md promptOut
		f.json("GET", wf+"/snapshots/"+c2.SnapshotID+"/prompt?format=resume-md", nil, 200, &md)
		if !strings.HasPrefix(md.Text, "---\nhandoff_resume: 1\n") || !strings.Contains(md.Text, `snapshot_id: "`+c2.SnapshotID+`"`) {
			t.Errorf("resume-md: %.200q", md.Text)
		}
		f.wantError("GET", wf+"/snapshots/"+c2.SnapshotID+"/prompt?budget=lots", nil, 400, handoff.EINVALID)
		f.wantError("GET", wf+"/snapshots/"+c2.SnapshotID+"/prompt?budget=0", nil, 400, handoff.EINVALID)
		f.wantError("GET", wf+"/snapshots/"+c2.SnapshotID+"/prompt?format=html", nil, 400, handoff.EINVALID)
	})

	t.Run("diff", func(t *testing.T) {
		var d history.Diff
		f.json("GET", wf+"/diff?from="+c1.SnapshotID+"&to="+c2.SnapshotID, nil, 200, &d)
		if d.From.ID != c1.SnapshotID || d.To.ID != c2.SnapshotID {
			t.Errorf("diff %+v → %+v", d.From, d.To)
		}
		f.json("GET", wf+"/diff?from="+c1.SnapshotID, nil, 200, &d) // to: the latest
		if d.To.ID != c2.SnapshotID {
			t.Errorf("default to: %s", d.To.ID)
		}
		f.wantError("GET", wf+"/diff", nil, 400, handoff.EINVALID)
		f.wantError("GET", wf+"/diff?from="+other.SnapshotID, nil, 404, handoff.ENOTFOUND)
		f.wantError("GET", wf+"/diff?from="+c1.SnapshotID+"&to="+other.SnapshotID, nil, 404, handoff.ENOTFOUND)
	})

	t.Run("pause and resume", func(t *testing.T) {
		var p transition
		f.json("POST", wf+"/pause", []byte(`{"reason":"end of day"}`), 200, &p)
		if p.Status != handoff.WorkflowPaused || p.WorkflowID != sampleWF || p.SnapshotID == "" || p.SnapshotID == c2.SnapshotID {
			t.Fatalf("pause %+v", p)
		}
		var snap handoff.Snapshot
		f.json("GET", wf+"/snapshots/"+p.SnapshotID, nil, 200, &snap)
		// The pause snapshots what is stored: it joins the newest session (2); the resume then starts session 3.
		if snap.Trigger != handoff.TriggerPause || snap.PauseReason != "end of day" || snap.SessionNumber != 2 || snap.Goal == "" {
			t.Errorf("pause snapshot: trigger %s reason %q session %d", snap.Trigger, snap.PauseReason, snap.SessionNumber)
		}
		var d workflowDetail
		f.json("GET", wf, nil, 200, &d)
		if d.Status != handoff.WorkflowPaused || d.PauseReason != "end of day" || d.PausedAt == nil {
			t.Errorf("after pause: %+v", d.Workflow)
		}
		var r transition
		f.json("POST", wf+"/resume", nil, 200, &r)
		if r.Status != handoff.WorkflowInProgress || r.SnapshotID != p.SnapshotID || r.Session != 3 {
			t.Errorf("resume %+v", r)
		}
		var ev struct {
			Events []handoff.Event `json:"events"`
		}
		f.json("GET", wf+"/events", nil, 200, &ev)
		var types []string
		for _, e := range ev.Events {
			types = append(types, string(e.Type))
		}
		got := strings.Join(types, " ")
		if !regexp.MustCompile(`WORKFLOW_CREATED SNAPSHOT_CREATED SNAPSHOT_CREATED SNAPSHOT_CREATED WORKFLOW_PAUSED WORKFLOW_RESUMED$`).MatchString(got) {
			t.Errorf("events: %s", got)
		}
		f.wantError("GET", "/api/workflows/nope/events", nil, 404, handoff.ENOTFOUND)
		f.wantError("POST", "/api/workflows/nope/pause", nil, 404, handoff.ENOTFOUND)
		f.wantError("POST", "/api/workflows/nope/resume", nil, 404, handoff.ENOTFOUND)
	})

	t.Run("conflicts", func(t *testing.T) {
		if err := f.store.SetWorkflowStatus(context.Background(), "wf_other", handoff.WorkflowCompleted, "done"); err != nil {
			t.Fatal(err)
		}
		before, _ := f.store.LatestSnapshot(context.Background(), "wf_other")
		f.wantError("POST", "/api/workflows/wf_other/pause", []byte(`{"reason":"x"}`), 409, handoff.ECONFLICT)
		f.wantError("POST", "/api/workflows/wf_other/resume", nil, 409, handoff.ECONFLICT)
		after, _ := f.store.LatestSnapshot(context.Background(), "wf_other")
		if before.ID != after.ID {
			t.Error("a refused pause stored a snapshot")
		}
	})

	t.Run("bad requests", func(t *testing.T) {
		f.wantError("POST", wf+"/pause", []byte(`{"reason":`), 400, handoff.EINVALID)
		f.wantError("POST", wf+"/pause", []byte(`{"why":"x"}`), 400, handoff.EINVALID)
		f.wantError("POST", wf+"/pause", bytes.Repeat([]byte(" "), DefaultMaxJSONBytes+1), 413, handoff.EINVALID)
		f.wantError("POST", "/api/transcripts", nil, 400, handoff.EINVALID)
		f.wantError("POST", "/api/transcripts?format=nosuch", readSample(t), 400, handoff.EINVALID)
		f.wantError("POST", "/api/transcripts?budget=-1", readSample(t), 400, handoff.EINVALID)
		f.wantError("GET", "/api/nothing", nil, 404, handoff.ENOTFOUND)
		f.wantError("DELETE", wf, nil, 404, handoff.ENOTFOUND)
	})

	t.Run("cross origin", func(t *testing.T) {
		f.wantError("POST", wf+"/pause", nil, 403, codeForbidden, "Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example")
		f.wantError("POST", "/api/transcripts", readSample(t), 403, codeForbidden, "Origin", "https://evil.example")
		var d workflowDetail
		f.json("GET", wf, nil, 200, &d)
		if d.Status != handoff.WorkflowInProgress {
			t.Errorf("a cross-origin pause changed the workflow: %s", d.Status)
		}
		// The dashboard's own fetch is same-origin.
		got, b := f.do("POST", wf+"/pause", []byte(`{}`), "Sec-Fetch-Site", "same-origin", "Origin", f.srv.URL)
		if got != 200 {
			t.Errorf("same-origin pause: %d %s", got, b)
		}
	})

	t.Run("openapi", func(t *testing.T) {
		var doc struct {
			OpenAPI string                    `json:"openapi"`
			Paths   map[string]map[string]any `json:"paths"`
		}
		f.json("GET", "/api/openapi.json", nil, 200, &doc)
		for _, p := range []string{"/api/workflows", "/api/workflows/{id}", "/api/workflows/{id}/pause", "/api/workflows/{id}/resume",
			"/api/workflows/{id}/snapshots", "/api/workflows/{id}/snapshots/{sid}", "/api/workflows/{id}/snapshots/{sid}/decisions",
			"/api/workflows/{id}/snapshots/{sid}/errors", "/api/workflows/{id}/snapshots/{sid}/git-changes",
			"/api/workflows/{id}/snapshots/{sid}/prompt", "/api/workflows/{id}/events", "/api/workflows/{id}/diff", "/api/transcripts"} {
			if doc.Paths[p] == nil {
				t.Errorf("openapi.json lacks %s", p)
			}
		}
	})
}

func TestTranscriptBodyLimit(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.MaxTranscriptBytes = 1024 })
	f.wantError("POST", "/api/transcripts", readSample(t), http.StatusRequestEntityTooLarge, handoff.EINVALID)
	var out struct {
		Workflows []json.RawMessage `json:"workflows"`
	}
	f.json("GET", "/api/workflows", nil, 200, &out)
	if len(out.Workflows) != 0 {
		t.Error("a refused transcript was stored")
	}
}

// TestPauseRereadsTranscript: a workflow whose transcript is still on disk
// is paused from a fresh read of it, not a copy of the stored snapshot.
