package main

import (
	"fmt"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/transcript"
)

func newTestSession(t *testing.T, format transcript.Format, mon capacity.MonitorOptions) *liveSession {
	t.Helper()
	counter, err := capacity.NewCounter(capacity.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	s, err := newLiveSession(format, transcript.Options{Format: format}, counter, mon)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func feed(t *testing.T, s *liveSession, line string) capacity.Status {
	t.Helper()
	st, err := s.line([]byte(line[:len(line)-1])) // without its newline, as follow hands it out
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestLiveSessionFollowsMeasure checks the incremental figure against the
// rules of capacity.Measure, line by line: provider usage replaces the
// figure, later main-thread messages add their counted tokens, subagent
// traffic changes nothing, and a compaction summary starts a new estimate.
func TestLiveSessionFollowsMeasure(t *testing.T) {
	t.Parallel()
	s := newTestSession(t, transcript.FormatClaudeCode, capacity.MonitorOptions{})
	st := feed(t, s, ccAssistant("a1", 120_000, "planned the work"))
	if st.TokensUsed != 120_000 || st.Source != handoff.UsageProvider || st.ContextWindow != 200_000 {
		t.Fatalf("after usage: %+v", st)
	}
	st = feed(t, s, ccUser("u1", "please also handle the retry path"))
	if st.TokensUsed <= 120_000 || st.TokensUsed > 120_100 || st.Source != handoff.UsageProvider {
		t.Fatalf("after a user line: %+v", st)
	}
	afterUser := st.TokensUsed
	side := `{"type":"assistant","isSidechain":true,"sessionId":"sess-reset","uuid":"s1","message":{"id":"msg_side","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"sub"}],"usage":{"input_tokens":190000,"output_tokens":0}}}` + "\n"
	if st = feed(t, s, side); st.TokensUsed != afterUser || st.Fired {
		t.Fatalf("a sidechain line changed the figure: %+v", st)
	}
	// The whole transcript measured at once agrees.
	counter, _ := capacity.NewCounter(capacity.O200kBase)
	if u := capacity.Measure(s.transcript(), counter, capacity.MeasureOptions{}); u.TokensUsed != afterUser {
		t.Errorf("Measure says %d, the incremental figure %d", u.TokensUsed, afterUser)
	}

	boundary := `{"type":"system","subtype":"compact_boundary","sessionId":"sess-reset","uuid":"b1","content":"Conversation compacted"}` + "\n"
	feed(t, s, boundary)
	st = feed(t, s, ccUser("sum", "Summary: rate limiter done, tests pending."))
	if st.TokensUsed >= 1000 || st.Source != handoff.UsageEstimate {
		t.Fatalf("after the compaction summary: %+v, want a small estimate", st)
	}
	if u := capacity.Measure(s.transcript(), counter, capacity.MeasureOptions{}); u.TokensUsed != st.TokensUsed {
		t.Errorf("after compaction Measure says %d, the incremental figure %d", u.TokensUsed, st.TokensUsed)
	}
}

func TestLiveSessionModelOverride(t *testing.T) {
	t.Parallel()
	s := newTestSession(t, transcript.FormatClaudeCode, capacity.MonitorOptions{Model: "gpt-4o"})
	st := feed(t, s, ccAssistant("a1", 100_000, "x"))
	want, _ := capacity.ContextWindow("gpt-4o")
	if st.ContextWindow != want || st.Model != "gpt-4o" {
		t.Errorf("window %d model %q, want %d gpt-4o", st.ContextWindow, st.Model, want)
	}
}

// TestLiveSessionPlainText: a format whose records span lines is
// estimated from each line's text.
func TestLiveSessionPlainText(t *testing.T) {
	t.Parallel()
	s := newTestSession(t, transcript.FormatPlain, capacity.MonitorOptions{ContextWindow: 40})
	var last capacity.Status
	for i, line := range []string{"User: fix the flaky test\n", "Assistant: I will look at the retry loop first.\n", "and then the timeout handling in the client\n"} {
		st := feed(t, s, line)
		if st.TokensUsed <= last.TokensUsed {
			t.Fatalf("line %d: %d tokens, not more than %d", i+1, st.TokensUsed, last.TokensUsed)
		}
		last = st
	}
	if last.Source != handoff.UsageEstimate || last.Level == capacity.Continue {
		t.Errorf("3 lines in a 40-token window: %+v", last)
	}
}

// TestLiveSessionLaterLineUpdatesPinnedResponse: a Claude Code response
// split over lines sharing message.id, with a subagent's lines and a tool
// result in between, updates the figure when its last line repeats the
// usage with the final output count, as Measure does.
func TestLiveSessionLaterLineUpdatesPinnedResponse(t *testing.T) {
	t.Parallel()
	s := newTestSession(t, transcript.FormatClaudeCode, capacity.MonitorOptions{ContextWindow: 1 << 20})
	counter, err := capacity.NewCounter(capacity.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	part := func(block string, output int) string {
		return `{"type":"assistant","sessionId":"s","uuid":"a` + fmt.Sprint(output) + `","message":{"id":"msg_X","role":"assistant","model":"claude-sonnet-4-5","content":[` + block + `],"usage":{"input_tokens":5000,"output_tokens":` + fmt.Sprint(output) + `}}}` + "\n"
	}
	side := `{"type":"assistant","isSidechain":true,"sessionId":"s","uuid":"s1","message":{"id":"msg_S","role":"assistant","model":"claude-haiku-4-5","content":[{"type":"text","text":"subagent work"}],"usage":{"input_tokens":90000,"output_tokens":1}}}` + "\n"
	result := `{"type":"user","sessionId":"s","uuid":"r1","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok: 3 files"}]}}` + "\n"
	lines := []string{
		part(`{"type":"text","text":"running the tests"}`, 10),
		side, side,
		result,
		part(`{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"go test ./..."}}`, 400),
	}
	for i, l := range lines {
		feed(t, s, l)
		got := s.mon.Status()
		want := capacity.Measure(s.transcript(), counter, capacity.MeasureOptions{ContextWindow: 1 << 20})
		if got.TokensUsed != want.TokensUsed || got.Source != want.Source {
			t.Fatalf("line %d: watch %d (%s), Measure %d (%s)", i+1, got.TokensUsed, got.Source, want.TokensUsed, want.Source)
		}
	}
	if got := s.mon.Status(); got.TokensUsed < 5400 || got.Source != handoff.UsageProvider {
		t.Errorf("after the response's last line: %+v, want the provider's 5400 plus the tool result", got)
	}
}
