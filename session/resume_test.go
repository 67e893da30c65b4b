package session

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/compiler"
)

func TestCompareDir(t *testing.T) {
	existing := t.TempDir()
	tests := []struct {
		given           bool
		wd, wfDir, want string
	}{
		{true, "/x", existing, "/x"},                                            // named explicitly: it wins
		{false, existing + "/sub", existing, existing + "/sub"},                 // inside the workflow's tree
		{false, "/elsewhere", existing, existing},                               // outside: the workflow's tree
		{false, "/elsewhere", "", "/elsewhere"},                                 // no directory recorded
		{false, "/elsewhere", "/gone/" + filepath.Base(existing), "/elsewhere"}, // recorded but absent here
		{false, existing + "-sibling", existing, existing},                      // a sibling with a common prefix is outside
	}
	for _, tt := range tests {
		if got := compareDir(tt.given, tt.wd, tt.wfDir); got != tt.want {
			t.Errorf("compareDir(%v, %q, %q) = %q, want %q", tt.given, tt.wd, tt.wfDir, got, tt.want)
		}
	}
}

// TestResume pauses the sample session, then resumes it: the plan carries
// the compiled prompt, nothing changes until Commit, and Commit records
// the new session; a cancelled workflow refuses.
func TestResume(t *testing.T) {
	ctx := context.Background()
	s := openStore(t)
	opts := CheckpointOptions{Build: buildOpts(t), Pause: PauseRequired}
	opts.Build.Trigger = handoff.TriggerPause
	cp, err := Checkpoint(ctx, s, sample(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	wf := cp.Snapshot.WorkflowID
	var warnings []string
	ropts := ResumeOptions{
		Ref:     Ref{Workflow: wf[:8]},
		WorkDir: t.TempDir(),
		Compile: compiler.Options{Budget: 800, Counter: opts.Build.Counter},
		Warn:    func(w string) { warnings = append(warnings, w) },
	}
	plan, err := PrepareResume(ctx, s, ropts)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Snapshot.ID != cp.Snapshot.ID || plan.Prompt.Tokens > 800 || !strings.Contains(plan.Prompt.Prompt, "rate limit") {
		t.Errorf("plan: snapshot %s, %d tokens", plan.Snapshot.ID, plan.Prompt.Tokens)
	}
	if w, _ := s.Workflow(ctx, wf); w.Status != handoff.WorkflowPaused {
		t.Fatalf("PrepareResume changed the workflow: %s", w.Status)
	}
	r, err := plan.Commit(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if r.Workflow.Status != handoff.WorkflowInProgress || r.Session != 2 || r.From != handoff.WorkflowPaused {
		t.Errorf("resumed: %+v", r)
	}
	// A second resume of a workflow in progress is a second claim:
	// ECLAIMED, unless forced, and then with a warning.
	if _, _, err := Resume(ctx, s, ropts); handoff.ErrorCode(err) != handoff.ECLAIMED {
		t.Fatalf("second resume: %v, want ECLAIMED", err)
	}
	forced := ropts
	forced.Force = true
	if _, _, err := Resume(ctx, s, forced); err != nil {
		t.Fatal(err)
	}
	if len(warnings) == 0 || !strings.Contains(warnings[len(warnings)-1], "already in progress") {
		t.Errorf("warnings %q", warnings)
	}
	if err := s.SetWorkflowStatus(ctx, wf, handoff.WorkflowCancelled, "dropped"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Resume(ctx, s, ropts); handoff.ErrorCode(err) != handoff.ECONFLICT {
		t.Errorf("resume of a cancelled workflow: %v, want ECONFLICT", err)
	}
}
