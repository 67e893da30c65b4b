package session

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/transcript"
)

const sampleTranscript = "../testdata/transcripts/claude-code-ratelimit.jsonl"

// sampleSecret is the API key the sample transcript plants.
const sampleSecret = "sk-proj-FAKEfakeFAKEfake1234567890abcdefABCDEF"

func sample(t *testing.T) *handoff.Transcript {
	t.Helper()
	tr, err := transcript.ParseFile(context.Background(), sampleTranscript, transcript.Options{Source: sampleTranscript})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// newCounter builds the o200k Counter once for all tests: parsing its
// vocabulary costs a few hundred milliseconds each time.
var newCounter = sync.OnceValues(func() (*capacity.Counter, error) { return capacity.NewCounter(capacity.O200kBase) })

func testCounter(t testing.TB) *capacity.Counter {
	t.Helper()
	c, err := newCounter()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func buildOpts(t *testing.T) BuildOptions {
	return BuildOptions{Counter: testCounter(t), Extractor: extractor.NewHeuristic(nil), Trigger: handoff.TriggerManual}
}

func TestBuild(t *testing.T) {
	at := time.Date(2026, 11, 23, 9, 30, 0, 0, time.FixedZone("CET", 3600))
	opts := buildOpts(t)
	opts.Trigger, opts.PauseReason, opts.Now = handoff.TriggerPause, "end of day", func() time.Time { return at }
	tr := sample(t)
	snap, err := Build(context.Background(), tr, opts)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Trigger != handoff.TriggerPause || snap.PauseReason != "end of day" || !snap.CreatedAt.Equal(at) || snap.CreatedAt.Location() != time.UTC {
		t.Errorf("trigger %q reason %q created %v", snap.Trigger, snap.PauseReason, snap.CreatedAt)
	}
	if snap.SchemaVersion != handoff.SnapshotSchemaVersion || snap.WorkflowID != tr.Session.ID || snap.SessionID != tr.Session.ID {
		t.Errorf("schema %d workflow %q session %q", snap.SchemaVersion, snap.WorkflowID, snap.SessionID)
	}
	if snap.Usage.Source != handoff.UsageProvider || snap.Usage.TokensUsed == 0 || snap.Usage.Extraction == nil {
		t.Errorf("usage %+v: want provider-reported figures and the extraction's own usage kept", snap.Usage)
	}
	if snap.Source.Path != sampleTranscript || snap.Source.Messages != len(tr.Messages) || snap.Source.Format != tr.Session.Format {
		t.Errorf("source %+v", snap.Source)
	}
	if snap.GitState != nil {
		t.Errorf("git state read without ReadGit: %+v", snap.GitState)
	}
	if body := strings.Join(snapshotTexts(snap), "\n"); strings.Contains(body, sampleSecret) {
		t.Error("the snapshot carries the sample's secret")
	}
}

func snapshotTexts(s *handoff.Snapshot) []string {
	out := []string{s.Goal}
	for _, d := range s.Decisions {
		out = append(out, d.Description, d.Rationale)
	}
	for _, e := range s.Errors {
		out = append(out, e.Message)
	}
	return out
}

func TestBuildRequiresCollaborators(t *testing.T) {
	if _, err := Build(context.Background(), sample(t), BuildOptions{}); handoff.ErrorCode(err) != handoff.EINTERNAL {
		t.Errorf("no counter or extractor: %v, want EINTERNAL", err)
	}
}

func TestDefaultWorkflowID(t *testing.T) {
	tests := []struct {
		name string
		s    handoff.SessionInfo
		want string
	}{
		{"session id", handoff.SessionInfo{ID: "abc", CWD: "/w"}, "abc"},
		{"cwd", handoff.SessionInfo{CWD: "/work/project"}, "wf_"},
		{"stdin", handoff.SessionInfo{Source: "-"}, "stdin_"},
	}
	for _, tt := range tests {
		got := DefaultWorkflowID(&handoff.Transcript{Session: tt.s})
		if !strings.HasPrefix(got, tt.want) || (tt.want == "wf_" && len(got) != len("wf_")+12) {
			t.Errorf("%s: %q, want %q…", tt.name, got, tt.want)
		}
	}
	a := DefaultWorkflowID(&handoff.Transcript{Session: handoff.SessionInfo{CWD: "/a"}})
	b := DefaultWorkflowID(&handoff.Transcript{Session: handoff.SessionInfo{CWD: "/b"}})
	if a == b {
		t.Errorf("two directories share workflow id %s", a)
	}
}
