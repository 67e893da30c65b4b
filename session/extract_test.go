package session

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/store"
)

// history writes a small history: two copies of the sample session under
// different names (different paths, same content) and a file that is not
// a transcript.
func history(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	raw, err := os.ReadFile(sampleTranscript)
	if err != nil {
		t.Fatal(err)
	}
	edited := append(append([]byte{}, raw...), []byte(`{"type":"user","sessionId":"other-session","uuid":"x1","message":{"role":"user","content":"one more thing"}}`+"\n")...)
	files := map[string][]byte{"a.jsonl": raw, "b.jsonl": edited, "junk.jsonl": []byte("\x00\x01 not a transcript\n")}
	var out []string
	for _, name := range []string{"a.jsonl", "b.jsonl", "junk.jsonl"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

func extractOpts(t *testing.T, files []string) ExtractOptions {
	return ExtractOptions{
		Files: files, Extractor: extractor.NewHeuristic(nil), Name: "heuristic", Version: "heuristic",
		Counter: testCounter(t), Concurrency: 2,
	}
}

func TestExtractAllResumes(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	files := history(t)
	var mu sync.Mutex
	var seen []string
	opts := extractOpts(t, files)
	opts.Done = func(o Outcome) error {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, o.Path)
		return nil
	}
	rep, err := ExtractAll(ctx, s, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Extracted != 2 || rep.Skipped != 1 || rep.Resumed != 0 || len(seen) != 3 {
		t.Fatalf("first run: %+v, Done saw %v", rep, seen)
	}
	for i, o := range rep.Outcomes {
		if o.Path != files[i] {
			t.Errorf("outcome %d is %s, want %s (the order of Files)", i, o.Path, files[i])
		}
	}
	first := rep.Outcomes[0].Snapshot
	if first.Trigger != handoff.TriggerExtract || first.GitState != nil || len(first.Decisions) == 0 {
		t.Errorf("snapshot: trigger %s git %v, %d decisions", first.Trigger, first.GitState, len(first.Decisions))
	}

	again, err := ExtractAll(ctx, s, extractOpts(t, files))
	if err != nil {
		t.Fatal(err)
	}
	if again.Resumed != 2 || again.Extracted != 0 || again.Outcomes[0].Snapshot.ID != first.ID {
		t.Errorf("rerun: %+v, want both sessions loaded from the first run", again)
	}
	forced := extractOpts(t, files)
	forced.Force = true
	if rep, err := ExtractAll(ctx, s, forced); err != nil || rep.Extracted != 2 {
		t.Errorf("forced rerun: %+v, %v", rep, err)
	}
	other := extractOpts(t, files)
	other.Version = "heuristic-v2"
	if rep, err := ExtractAll(ctx, s, other); err != nil || rep.Extracted != 2 {
		t.Errorf("another extractor version: %+v, %v; want extracted again", rep, err)
	}
}

// TestExtractAllFailures: a failing store or Done stops the run with the
// error; a fallback extractor's sessions are not marked done.
func TestExtractAllFailures(t *testing.T) {
	ctx := context.Background()
	files := history(t)[:2]

	boom := errors.New("disk full")
	f := &extractFake{saveErr: boom}
	if _, err := ExtractAll(ctx, f, extractOpts(t, files)); !errors.Is(err, boom) {
		t.Errorf("failing store: %v, want %v", err, boom)
	}

	stop := errors.New("stdout closed")
	opts := extractOpts(t, files)
	opts.Concurrency = 1
	calls := 0
	opts.Done = func(Outcome) error { calls++; return stop }
	if _, err := ExtractAll(ctx, openStore(t), opts); !errors.Is(err, stop) || calls != 1 {
		t.Errorf("failing Done: %v after %d calls, want %v after 1", err, calls, stop)
	}

	s := openStore(t)
	opts = extractOpts(t, files)
	opts.Name = "llm" // the heuristic answers: a stand-in, not marked done
	if _, err := ExtractAll(ctx, s, opts); err != nil {
		t.Fatal(err)
	}
	if rep, err := ExtractAll(ctx, s, opts); err != nil || rep.Extracted != 2 {
		t.Errorf("rerun after a stand-in: %+v, %v; want extracted again", rep, err)
	}
	if _, err := ExtractAll(ctx, s, ExtractOptions{Files: files, Concurrency: 0}); handoff.ErrorCode(err) != handoff.EINVALID {
		t.Errorf("concurrency 0: %v", err)
	}
}

// extractFake has no marks and fails every save.
type extractFake struct {
	Store
	saveErr error
}

func (f *extractFake) Workflow(_ context.Context, id string) (*handoff.Workflow, error) {
	return nil, handoff.Errorf(handoff.ENOTFOUND, "no workflow %q", id)
}
func (f *extractFake) CacheGet(context.Context, string) ([]byte, bool, error) { return nil, false, nil }
func (f *extractFake) SaveSnapshot(context.Context, *handoff.Snapshot, store.WorkflowInfo) error {
	return f.saveErr
}

// TestExtractFilesHistory: a file that reads as prose is skipped unless
// the format is forced to plain; a workflow the run creates is imported
// history, one that was live before stays as it was.
func TestExtractFilesHistory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	readme := filepath.Join(dir, "README.md")
	if err := os.WriteFile(readme, []byte("# notes\n\nWe decided to use Redis for the rate limiter.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := history(t)[:2] // the sample and a grown copy: one session
	s := openStore(t)
	opts := extractOpts(t, append([]string{readme}, files[0]))
	rep, err := ExtractAll(ctx, s, opts)
	if err != nil {
		t.Fatal(err)
	}
	if o := rep.Outcomes[0]; !o.Skipped || handoff.ErrorCode(o.Err) != handoff.EINVALID {
		t.Errorf("README: %+v, want skipped as prose", o)
	}
	sample := rep.Outcomes[1].Snapshot
	if sample == nil {
		t.Fatalf("sample not extracted: %+v", rep.Outcomes[1])
	}
	if wf, err := s.Workflow(ctx, sample.WorkflowID); err != nil || wf.Status != handoff.WorkflowImported {
		t.Errorf("extracted workflow: %+v, %v; want imported", wf, err)
	}

	opts.Format = "plain"
	opts.Files = []string{readme}
	if rep, err := ExtractAll(ctx, s, opts); err != nil || rep.Extracted != 1 {
		t.Errorf("--format plain: %+v, %v; want the README read", rep, err)
	}

	// Live work extract meets keeps its status.
	live := openStore(t)
	snap := &handoff.Snapshot{WorkflowID: sample.WorkflowID, Trigger: handoff.TriggerManual, Goal: "live"}
	if err := live.SaveSnapshot(ctx, snap, store.WorkflowInfo{Name: "live"}); err != nil {
		t.Fatal(err)
	}
	rep, err = ExtractAll(ctx, live, extractOpts(t, files[1:]))
	if err != nil || rep.Outcomes[0].Snapshot == nil || rep.Outcomes[0].Snapshot.WorkflowID != sample.WorkflowID {
		t.Fatalf("grown sample: %+v, %v; want a snapshot of workflow %s", rep, err, sample.WorkflowID)
	}
	if wf, err := live.Workflow(ctx, sample.WorkflowID); err != nil || wf.Status != handoff.WorkflowInProgress {
		t.Errorf("live workflow after extract: %+v, %v; want in_progress", wf, err)
	}
}
