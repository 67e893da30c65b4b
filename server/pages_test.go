package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// xssTranscript is a Claude Code session whose text is markup: the
// dashboard must show it, escaped, never run it.
func xssTranscript() []byte {
	line := func(typ, uuid, role, content string) string {
		return fmt.Sprintf(`{"type":%q,"uuid":%q,"sessionId":"xss-session","cwd":"/tmp/<b>dir</b>","timestamp":"2026-11-20T09:00:00.000Z","message":{"role":%q,"content":%q}}`, typ, uuid, role, content)
	}
	return []byte(strings.Join([]string{
		line("user", "u1", "user", `Fix the parser <script>alert("goal")</script> and <img src=x onerror=alert(1)>`),
		line("assistant", "a1", "assistant", `I will fix it next: <script>alert("next")</script>`),
	}, "\n") + "\n")
}

func TestDashboardPages(t *testing.T) {
	f := newFixture(t, nil)
	c1 := f.checkpoint("")
	if again := f.checkpoint(""); !again.Unchanged || again.SnapshotID != c1.SnapshotID {
		t.Fatalf("the same transcript again: unchanged %v, snapshot %s (first %s)", again.Unchanged, again.SnapshotID, c1.SnapshotID)
	}
	c2 := f.nextSession(2)
	var x transcriptOut
	f.json("POST", "/api/transcripts", xssTranscript(), http.StatusCreated, &x)

	status, body := f.do("GET", "/", nil)
	page := string(body)
	if status != 200 {
		t.Fatalf("index: %d", status)
	}
	contains(t, "index", page, `href="/workflows/`+sampleWF+`"`)
	contains(t, "index", page, `status-in_progress`)
	contains(t, "index", page, `in progress`)

	status, body = f.do("GET", "/workflows/"+sampleWF, nil)
	page = string(body)
	if status != 200 {
		t.Fatalf("workflow page: %d %s", status, body)
	}
	for _, want := range []string{
		"Session 1", "Session 2", `id="timeline"`, `id="context-plot"`, "<polyline", `id="pause-btn"`,
		`id="prompt"`, `id="copy-btn"`, `id="diff"`, "Goal", "Where it stopped", "Next step", "Tasks", "Decisions",
		"Errors", "Files", "Tests", "Git", c1.SnapshotID, c2.SnapshotID,
	} {
		contains(t, "workflow page", page, want)
	}
	if strings.Contains(page, `id="resume-btn"`) {
		t.Error("an in-progress workflow offers Resume")
	}

	// Another snapshot selected, a diff, a budget: all readable as plain GETs.
	status, body = f.do("GET", "/workflows/"+sampleWF+"?snapshot="+c1.SnapshotID+"&budget=300&from="+c1.SnapshotID+"&to="+c2.SnapshotID, nil)
	if status != 200 || !strings.Contains(string(body), "/ 300 tokens") {
		t.Errorf("selected snapshot page: %d", status)
	}
	status, _ = f.do("GET", "/workflows/"+sampleWF+"?snapshot="+x.SnapshotID, nil)
	if status != 404 {
		t.Errorf("another workflow's snapshot: %d, want 404", status)
	}
	status, _ = f.do("GET", "/workflows/nope", nil)
	if status != 404 {
		t.Errorf("unknown workflow page: %d, want 404", status)
	}

	f.json("POST", "/api/workflows/"+sampleWF+"/pause", []byte(`{"reason":"<i>lunch</i>"}`), 200, nil)
	_, body = f.do("GET", "/workflows/"+sampleWF, nil)
	page = string(body)
	contains(t, "paused page", page, `id="resume-btn"`)
	contains(t, "paused page", page, "&lt;i&gt;lunch&lt;/i&gt;")
	if strings.Contains(page, `id="pause-btn"`) || strings.Contains(page, "<i>lunch") {
		t.Error("paused page offers Pause or renders the reason as markup")
	}

	// Transcript text is escaped everywhere it appears.
	for _, path := range []string{"/", "/workflows/" + x.WorkflowID} {
		_, body = f.do("GET", path, nil)
		page = string(body)
		if strings.Contains(page, "<script>alert") || strings.Contains(page, "<img src=x") || strings.Contains(page, "<b>dir") {
			t.Errorf("%s renders transcript text as markup", path)
		}
		contains(t, path, page, "&lt;script&gt;alert(")
	}
}

func TestStaticAndHeaders(t *testing.T) {
	f := newFixture(t, nil)
	for _, p := range []string{"/static/app.js", "/static/style.css"} {
		if status, body := f.do("GET", p, nil); status != 200 || len(body) < 100 {
			t.Errorf("%s: %d (%d bytes)", p, status, len(body))
		}
	}
	if status, _ := f.do("GET", "/static/", nil); status == 200 {
		t.Error("the static directory is listed")
	}
	if status, _ := f.do("GET", "/static/../layout.html", nil); status == 200 {
		t.Error("templates are served as static files")
	}
	resp, err := f.srv.Client().Get(f.srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self'") || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("headers: %v", resp.Header)
	}
}
