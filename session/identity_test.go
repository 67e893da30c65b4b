package session

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
)

func msgs(texts ...string) []handoff.Message {
	var out []handoff.Message
	for i, s := range texts {
		role := handoff.RoleUser
		if i%2 == 1 {
			role = handoff.RoleAssistant
		}
		out = append(out, handoff.Message{Index: i, Role: role, Text: s,
			Timestamp: time.Date(2026, 1, 1, 0, i, 0, 0, time.UTC)})
	}
	return out
}

func TestSessionKey(t *testing.T) {
	abs, err := filepath.Abs("notes/chat.md")
	if err != nil {
		t.Fatal(err)
	}
	grown := msgs("fix the bug", "looking", "thanks", "done")
	tests := []struct {
		name string
		t    handoff.Transcript
		want string
	}{
		{"agent session id wins over the path", handoff.Transcript{Session: handoff.SessionInfo{ID: "abc", Source: "/x/a.jsonl"}}, "id:abc"},
		{"relative path made absolute", handoff.Transcript{Session: handoff.SessionInfo{Source: "notes/chat.md"}}, "path:" + abs},
		{"stdin: opening messages", handoff.Transcript{Session: handoff.SessionInfo{Source: "-", Format: "text"}, Messages: grown[:3]}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SessionKey(&tt.t)
			if tt.want != "" && got != tt.want {
				t.Fatalf("SessionKey = %q, want %q", got, tt.want)
			}
			if tt.want == "" && !strings.HasPrefix(got, "stdin:") {
				t.Fatalf("SessionKey = %q, want a stdin: key", got)
			}
		})
	}
	// Standard input: a grown transcript keeps its key, another opening
	// (same words, another time) is another session.
	in := func(m []handoff.Message) string {
		return SessionKey(&handoff.Transcript{Session: handoff.SessionInfo{Source: "-", Format: "text"}, Messages: m})
	}
	if in(grown[:3]) != in(grown) {
		t.Error("a grown stdin transcript changed its session key")
	}
	other := msgs("fix the bug", "looking", "thanks")
	other[0].Timestamp = other[0].Timestamp.Add(time.Hour)
	if in(other) == in(grown) {
		t.Error("two stdin sessions opened at different times share a key")
	}
}

func TestDigest(t *testing.T) {
	base := handoff.Transcript{Session: handoff.SessionInfo{ID: "s"}, Messages: msgs("a", "b")}
	opts := buildOpts(t)
	d := Digest(&base, opts, "heuristic")
	same := base
	if Digest(&same, opts, "heuristic") != d {
		t.Fatal("the same transcript has two digests")
	}
	paused := opts
	paused.Trigger, paused.PauseReason = handoff.TriggerPause, "stop"
	if Digest(&base, paused, "heuristic") != d {
		t.Error("the trigger changed the digest (a pause of stored content must find it)")
	}
	grown := base
	grown.Messages = msgs("a", "b", "c")
	window := opts
	window.Measure.ContextWindow = 1000
	for name, got := range map[string]string{"grown": Digest(&grown, opts, "heuristic"), "context window": Digest(&base, window, "heuristic"), "fallback answered": Digest(&base, opts, "llm gpt-4o-mini")} {
		if got == d {
			t.Errorf("%s: digest unchanged", name)
		}
	}
}

// TestCheckpointSessions: the same transcript twice stores one snapshot
// (the second Unchanged), a grown one joins the same session, another
// agent session in the same workflow is the next session.
func TestCheckpointSessions(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	opts := CheckpointOptions{Build: buildOpts(t)}
	opts.Build.Workflow = "wf_shared"
	first, err := Checkpoint(ctx, s, sample(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Checkpoint(ctx, s, sample(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	if first.Unchanged || !again.Unchanged || again.Snapshot.ID != first.Snapshot.ID {
		t.Fatalf("first unchanged=%v, again unchanged=%v id %s (first %s)", first.Unchanged, again.Unchanged, again.Snapshot.ID, first.Snapshot.ID)
	}
	grown := sample(t)
	grown.Messages = append(grown.Messages, msgs("one more thing")...)
	g, err := Checkpoint(ctx, s, grown, opts)
	if err != nil {
		t.Fatal(err)
	}
	if g.Unchanged || g.Snapshot.SessionNumber != first.Snapshot.SessionNumber || g.Snapshot.ID == first.Snapshot.ID {
		t.Fatalf("grown: unchanged=%v session %d (first %d)", g.Unchanged, g.Snapshot.SessionNumber, first.Snapshot.SessionNumber)
	}
	other := sample(t)
	other.Session.ID = "another-agent-session"
	o, err := Checkpoint(ctx, s, other, opts)
	if err != nil {
		t.Fatal(err)
	}
	if o.Snapshot.SessionNumber != 2 {
		t.Fatalf("another agent session: session %d, want 2", o.Snapshot.SessionNumber)
	}
	w, err := s.Workflow(ctx, "wf_shared")
	if err != nil {
		t.Fatal(err)
	}
	if w.SessionCount != 2 {
		t.Fatalf("session count %d, want 2", w.SessionCount)
	}
	latest, err := s.LatestSnapshot(ctx, "wf_shared")
	if err != nil || latest.ID != o.Snapshot.ID {
		t.Fatalf("latest %v (%v), want the newest snapshot %s", latest, err, o.Snapshot.ID)
	}
}
