package compiler

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/handoff-cli/handoff"
)

// ResumeMarkdown renders the `_resume.md` layout: YAML front matter with
// the snapshot's key state, for tools that read files rather than prompts,
// then the compiled resume prompt res as the markdown body.
//
// No YAML library is involved: every scalar is written JSON-encoded, and a
// JSON string, number, boolean or array is a valid YAML flow scalar or
// sequence. That also keeps each value on one line, so text from the
// transcript (a goal containing "---" or a newline) cannot end the front
// matter early or add keys.
func ResumeMarkdown(s *handoff.Snapshot, res *Result) []byte {
	var b bytes.Buffer
	b.WriteString("---\n")
	kv := func(k string, v any) {
		enc, err := json.Marshal(v)
		if err != nil { // only plain values are passed; cannot happen
			enc = []byte(`""`)
		}
		fmt.Fprintf(&b, "%s: %s\n", k, enc)
	}
	kv("handoff_resume", 1)
	kv("snapshot_id", s.ID)
	kv("workflow_id", s.WorkflowID)
	kv("session_number", s.SessionNumber)
	kv("created_at", s.CreatedAt.UTC().Format(time.RFC3339))
	kv("trigger", string(s.Trigger))
	if s.PauseReason != "" {
		kv("pause_reason", s.PauseReason)
	}
	kv("goal", s.Goal)
	if s.LatestRequest != "" {
		kv("latest_request", s.LatestRequest)
	}
	kv("next_step", s.NextStep)
	kv("current_task", taskContent(s, s.CurrentTaskID))
	kv("next_task", taskContent(s, s.NextTaskID))
	done := 0
	for _, t := range s.Tasks {
		if t.Status == handoff.TaskCompleted {
			done++
		}
	}
	kv("tasks_done", done)
	kv("tasks_total", len(s.Tasks))
	kv("decisions", len(s.CurrentDecisions()))
	kv("open_errors", len(s.UnresolvedErrors()))
	if g := s.GitState; g != nil && g.Available {
		kv("git_branch", g.Branch)
		kv("git_commit", g.Commit)
		kv("git_dirty", g.Dirty)
	}
	if ts := s.TestState; ts != nil {
		kv("tests", string(ts.Status))
		failing := ts.FailingTests
		if failing == nil {
			failing = []string{}
		}
		kv("failing_tests", failing)
	}
	kv("context_utilization", round3(s.Usage.ContextUtilization))
	kv("prompt_tokens", res.Tokens)
	kv("prompt_budget", res.Budget)
	b.WriteString("---\n\n")
	b.WriteString(res.Prompt)
	if n := b.Len(); n > 0 && b.Bytes()[n-1] != '\n' {
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// taskContent returns the content of the task with id, or "".
func taskContent(s *handoff.Snapshot, id string) string {
	if id == "" {
		return ""
	}
	for _, t := range s.Tasks {
		if t.ID == id {
			return t.Content
		}
	}
	return ""
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }
