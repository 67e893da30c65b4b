package capacity

import (
	"fmt"
	"testing"

	"github.com/handoff-cli/handoff"
)

// sliceLog is a MessageLog over a slice the test grows and edits, as a
// decoder does when a later line extends an earlier message.
type sliceLog struct{ t handoff.Transcript }

func (l *sliceLog) MessagesFrom(i int) []handoff.Message { return l.t.Messages[i:] }
func (l *sliceLog) Session() handoff.SessionInfo         { return l.t.Session }
func (l *sliceLog) Message(i int) (handoff.Message, bool) {
	if i < 0 || i >= len(l.t.Messages) {
		return handoff.Message{}, false
	}
	return l.t.Messages[i], true
}

func reported(in, out int) *handoff.ProviderUsage {
	return &handoff.ProviderUsage{InputTokens: in, OutputTokens: out}
}

// TestIncrementalMatchesMeasure drives an Incremental through the cases
// its pinning exists for and checks after every step that its figure is
// exactly Measure's over the whole transcript so far.
func TestIncrementalMatchesMeasure(t *testing.T) {
	t.Parallel()
	const model = "claude-sonnet-4-5"
	type step struct {
		name string
		edit func(l *sliceLog)
	}
	add := func(ms ...handoff.Message) func(*sliceLog) {
		return func(l *sliceLog) { l.t.Messages = append(l.t.Messages, ms...) }
	}
	steps := []step{
		{"a user turn, no report yet", add(handoff.Message{Role: handoff.RoleUser, Text: "add rate limiting to the API"})},
		{"a response with a report", add(handoff.Message{Role: handoff.RoleAssistant, Model: model, Text: "planning", Usage: reported(5000, 20)})},
		{"a tool result after it", add(handoff.Message{Role: handoff.RoleTool, Text: "ok: 3 files changed"})},
		{"a subagent's traffic", add(handoff.Message{Role: handoff.RoleAssistant, Model: "claude-haiku-4-5", Sidechain: true, Text: "sub", Usage: reported(90000, 1)})},
		{"the pinned response gets its final usage", func(l *sliceLog) {
			for i := len(l.t.Messages) - 1; i >= 0; i-- {
				if m := &l.t.Messages[i]; m.Role == handoff.RoleAssistant && !m.Sidechain {
					m.Usage, m.Text = reported(5000, 400), m.Text+" and ran the tests"
					return
				}
			}
		}},
		{"a synthetic message changes nothing", add(handoff.Message{Role: handoff.RoleAssistant, Model: syntheticModel, Text: "No response requested.", Usage: &handoff.ProviderUsage{}})},
		{"two turns in one update", add(
			handoff.Message{Role: handoff.RoleUser, Text: "also the retry path"},
			handoff.Message{Role: handoff.RoleAssistant, Model: model, Text: "done", Usage: reported(7000, 50)},
			handoff.Message{Role: handoff.RoleUser, Text: "thanks"},
		)},
		{"a compaction summary restarts the estimate", add(handoff.Message{Role: handoff.RoleUser, CompactSummary: true, Text: "Summary: rate limiter done, tests pending."})},
		{"a turn after the summary", add(handoff.Message{Role: handoff.RoleUser, Text: "continue with the tests"})},
		{"a report after the summary", add(handoff.Message{Role: handoff.RoleAssistant, Model: model, Text: "on it", Usage: reported(1200, 30)})},
		{"nothing new", func(*sliceLog) {}},
	}
	c := counterFor(t, O200kBase)
	const window = 1 << 20
	in, err := NewIncremental(c, MonitorOptions{ContextWindow: window})
	if err != nil {
		t.Fatal(err)
	}
	log := &sliceLog{}
	for i, s := range steps {
		s.edit(log)
		got := in.Update(log)
		want := Measure(&log.t, c, MeasureOptions{ContextWindow: window})
		if got.TokensUsed != want.TokensUsed || got.Source != want.Source {
			t.Fatalf("step %d (%s): incremental %d (%s), Measure %d (%s)", i+1, s.name, got.TokensUsed, got.Source, want.TokensUsed, want.Source)
		}
		if in.Status() != got {
			t.Fatalf("step %d: Status %+v differs from Update's %+v", i+1, in.Status(), got)
		}
	}
}

func TestIncrementalTextAndReset(t *testing.T) {
	t.Parallel()
	c := counterFor(t, O200kBase)
	in, err := NewIncremental(c, MonitorOptions{ContextWindow: 40})
	if err != nil {
		t.Fatal(err)
	}
	log := &sliceLog{}
	var last Status
	for i := range 3 {
		in.AddText(fmt.Appendf(nil, "line %d: the retry loop and then the timeout handling in the client", i))
		st := in.Update(log)
		if st.TokensUsed <= last.TokensUsed || st.Source != handoff.UsageEstimate {
			t.Fatalf("line %d: %+v after %+v", i+1, st, last)
		}
		last = st
	}
	if last.Level == Continue {
		t.Errorf("3 lines in a 40-token window: %+v", last)
	}
	if err := in.Reset(); err != nil {
		t.Fatal(err)
	}
	if st := in.Update(log); st.TokensUsed != 0 || st.Level != Continue {
		t.Errorf("after Reset: %+v", st)
	}
}

// TestIncrementalModelOverride: MonitorOptions.Model picks the window, as
// MeasureOptions.Model does for Measure.
func TestIncrementalModelOverride(t *testing.T) {
	t.Parallel()
	in, err := NewIncremental(counterFor(t, O200kBase), MonitorOptions{Model: "gpt-4o"})
	if err != nil {
		t.Fatal(err)
	}
	log := &sliceLog{t: handoff.Transcript{Messages: []handoff.Message{{Role: handoff.RoleAssistant, Model: "claude-sonnet-4-5", Text: "x", Usage: reported(100000, 10)}}}}
	st := in.Update(log)
	want, _ := ContextWindow("gpt-4o")
	if st.ContextWindow != want || st.Model != "gpt-4o" {
		t.Errorf("window %d model %q, want %d gpt-4o", st.ContextWindow, st.Model, want)
	}
}
