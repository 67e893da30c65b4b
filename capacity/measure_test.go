package capacity

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
)

var t0 = time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC)

func user(text string) handoff.Message {
	return handoff.Message{Role: handoff.RoleUser, Text: text}
}

func assistant(model, text string, usage *handoff.ProviderUsage) handoff.Message {
	return handoff.Message{Role: handoff.RoleAssistant, Model: model, Text: text, Usage: usage}
}

func usage(input, cacheCreate, cacheRead, output int) *handoff.ProviderUsage {
	return &handoff.ProviderUsage{InputTokens: input, CacheCreationInputTokens: cacheCreate, CacheReadInputTokens: cacheRead, OutputTokens: output}
}

func sidechain(m handoff.Message) handoff.Message { m.Sidechain = true; return m }

func compactSummary(text string) handoff.Message {
	m := user(text)
	m.CompactSummary = true
	return m
}

func toolResult(content string) handoff.Message {
	return handoff.Message{Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{{CallID: "c1", Content: content}}}
}

const sonnet = "claude-sonnet-4-20250514"

func TestMeasureTokensUsed(t *testing.T) {
	t.Parallel()
	c := counterFor(t, O200kBase)
	count := func(ms ...handoff.Message) int { return c.CountMessages(ms) }
	tests := []struct {
		name   string
		msgs   []handoff.Message
		want   int
		source handoff.UsageSource
	}{
		{"provider figure of the last request",
			[]handoff.Message{user("hi"), assistant(sonnet, "a", usage(10, 100, 1000, 5)), user("more"), assistant(sonnet, "b", usage(3, 200, 1100, 7))},
			3 + 200 + 1100 + 7, handoff.UsageProvider},
		{"messages after the last request are counted",
			[]handoff.Message{user("hi"), assistant(sonnet, "a", usage(5, 0, 2000, 50)), toolResult("PASS ok 0.3s"), user("and now?")},
			5 + 2000 + 50 + count(toolResult("PASS ok 0.3s"), user("and now?")), handoff.UsageProvider},
		{"sidechain usage and traffic are not the main context",
			[]handoff.Message{user("hi"), assistant(sonnet, "a", usage(5, 0, 2000, 50)),
				sidechain(user("subagent task")), sidechain(assistant("claude-haiku-4-5", "sub", usage(9000, 0, 0, 900)))},
			5 + 2000 + 50, handoff.UsageProvider},
		{"synthetic zero usage is no request",
			[]handoff.Message{user("hi"), assistant(sonnet, "a", usage(5, 0, 2000, 50)), assistant(syntheticModel, "No response requested.", usage(0, 0, 0, 0))},
			5 + 2000 + 50 + count(assistant(syntheticModel, "No response requested.", nil)), handoff.UsageProvider},
		{"compaction after the last request makes the provider figure stale",
			[]handoff.Message{user("hi"), assistant(sonnet, "a", usage(5, 0, 150000, 50)), compactSummary("This session is being continued…"), user("go on")},
			count(compactSummary("This session is being continued…"), user("go on")), handoff.UsageEstimate},
		{"a request after the compaction is trusted again",
			[]handoff.Message{assistant(sonnet, "a", usage(5, 0, 150000, 50)), compactSummary("summary"), user("go on"), assistant(sonnet, "b", usage(8000, 0, 0, 20))},
			8000 + 20, handoff.UsageProvider},
		{"no usage: every main-thread message is counted",
			[]handoff.Message{user("Fix the bug in parser.go"), assistant("", "Looking at it.", nil), toolResult("func parse() {}"), sidechain(user("ignored side task"))},
			count(user("Fix the bug in parser.go"), assistant("", "Looking at it.", nil), toolResult("func parse() {}")), handoff.UsageEstimate},
		{"no usage: counting starts at the last compaction summary",
			[]handoff.Message{user("old"), compactSummary("first summary"), user("older work"), compactSummary("second summary"), assistant("", "continuing", nil)},
			count(compactSummary("second summary"), assistant("", "continuing", nil)), handoff.UsageEstimate},
		{"empty transcript", nil, 0, handoff.UsageEstimate},
	}
	for _, tc := range tests {
		got := Measure(&handoff.Transcript{Messages: tc.msgs}, c, MeasureOptions{})
		if got.TokensUsed != tc.want || got.Source != tc.source {
			t.Errorf("%s: TokensUsed = %d (%s), want %d (%s)", tc.name, got.TokensUsed, got.Source, tc.want, tc.source)
		}
	}
}

func TestMeasureContextWindow(t *testing.T) {
	t.Parallel()
	c := counterFor(t, O200kBase)
	withWindow := func(u *handoff.ProviderUsage, w int) *handoff.ProviderUsage { u.ContextWindow = w; return u }
	tests := []struct {
		name      string
		tr        handoff.Transcript
		opts      MeasureOptions
		want      int
		wantModel string
	}{
		{"model of the last main-thread assistant message",
			handoff.Transcript{Session: handoff.SessionInfo{Model: "gpt-4o"}, Messages: []handoff.Message{
				assistant("gpt-4.1", "a", usage(1, 0, 0, 1)), assistant("gpt-5", "b", usage(1, 0, 0, 1)),
				sidechain(assistant("gpt-4o-mini", "c", usage(1, 0, 0, 1))), assistant(syntheticModel, "d", nil)}},
			MeasureOptions{}, 400_000, "gpt-5"},
		{"session model when no message names one",
			handoff.Transcript{Session: handoff.SessionInfo{Model: "gpt-4o"}, Messages: []handoff.Message{user("hi")}},
			MeasureOptions{}, 128_000, "gpt-4o"},
		{"option model overrides the transcript's",
			handoff.Transcript{Messages: []handoff.Message{assistant(sonnet, "a", usage(1, 0, 0, 1))}},
			MeasureOptions{Model: "gpt-4.1"}, 1_047_576, "gpt-4.1"},
		{"window reported with the usage beats the table",
			handoff.Transcript{Messages: []handoff.Message{assistant("gpt-5-codex", "a", withWindow(usage(1000, 0, 0, 10), 272_000))}},
			MeasureOptions{}, 272_000, "gpt-5-codex"},
		{"session's window beats the usage's",
			handoff.Transcript{Session: handoff.SessionInfo{ContextWindow: 300_000},
				Messages: []handoff.Message{assistant("gpt-5-codex", "a", withWindow(usage(1000, 0, 0, 10), 272_000))}},
			MeasureOptions{}, 300_000, "gpt-5-codex"},
		{"flag beats everything",
			handoff.Transcript{Session: handoff.SessionInfo{ContextWindow: 300_000},
				Messages: []handoff.Message{assistant("gpt-5-codex", "a", withWindow(usage(1000, 0, 0, 10), 272_000))}},
			MeasureOptions{ContextWindow: 50_000, Model: "gpt-4o"}, 50_000, "gpt-4o"},
		{"unknown model gets the default",
			handoff.Transcript{Messages: []handoff.Message{assistant("my-local-model", "a", nil)}},
			MeasureOptions{}, DefaultContextWindow, "my-local-model"},
		{"Claude past 200k is on the 1M beta",
			handoff.Transcript{Messages: []handoff.Message{assistant(sonnet, "a", usage(10, 5000, 330_000, 100))}},
			MeasureOptions{}, 1_000_000, sonnet},
		{"a non-Claude model past its window stays over 100%",
			handoff.Transcript{Messages: []handoff.Message{assistant("gpt-4o", "a", usage(130_000, 0, 0, 100))}},
			MeasureOptions{}, 128_000, "gpt-4o"},
	}
	for _, tc := range tests {
		got := Measure(&tc.tr, c, tc.opts)
		if got.ContextWindow != tc.want || got.Model != tc.wantModel {
			t.Errorf("%s: window %d model %q, want %d %q", tc.name, got.ContextWindow, got.Model, tc.want, tc.wantModel)
		}
		if wantRemaining := max(0, got.ContextWindow-got.TokensUsed); got.TokensRemainingEstimate != wantRemaining {
			t.Errorf("%s: remaining %d, want %d", tc.name, got.TokensRemainingEstimate, wantRemaining)
		}
		if wantUtil := float64(got.TokensUsed) / float64(got.ContextWindow); math.Abs(got.ContextUtilization-wantUtil) > 1e-12 {
			t.Errorf("%s: utilization %v, want %v", tc.name, got.ContextUtilization, wantUtil)
		}
	}
}

func TestMeasureCallsAndDuration(t *testing.T) {
	t.Parallel()
	c := counterFor(t, O200kBase)
	at := func(m handoff.Message, minutes int) handoff.Message {
		m.Timestamp = t0.Add(time.Duration(minutes) * time.Minute)
		return m
	}
	call := func(m handoff.Message, names ...string) handoff.Message {
		for _, n := range names {
			m.ToolCalls = append(m.ToolCalls, handoff.ToolCall{Name: n, Input: json.RawMessage(`{}`)})
		}
		return m
	}
	tr := handoff.Transcript{Messages: []handoff.Message{
		at(user("start"), 0),
		at(call(assistant(sonnet, "", usage(100, 0, 0, 10)), "Read", "Grep"), 1),
		at(toolResult("x"), 2),
		at(sidechain(call(assistant("claude-haiku-4-5", "", usage(50, 0, 0, 5)), "Bash")), 3),
		at(assistant(syntheticModel, "API Error", usage(0, 0, 0, 0)), 4),
		user("no timestamp"),
		at(call(assistant(sonnet, "done", usage(300, 0, 0, 20)), "Edit"), 90),
	}}
	got := Measure(&tr, c, MeasureOptions{})
	if got.LLMCalls != 3 {
		t.Errorf("LLMCalls = %d, want 3 (two main, one sidechain; the synthetic one is no call)", got.LLMCalls)
	}
	if got.ToolCalls != 4 {
		t.Errorf("ToolCalls = %d, want 4", got.ToolCalls)
	}
	if got.SessionDurationSeconds != 90*60 {
		t.Errorf("SessionDurationSeconds = %v, want %v", got.SessionDurationSeconds, 90*60)
	}
	if got.CostUSD != 0 {
		t.Errorf("CostUSD = %v, want 0 (no offline price table)", got.CostUSD)
	}

	noTimes := handoff.Transcript{Session: handoff.SessionInfo{StartedAt: t0, EndedAt: t0.Add(time.Hour)}, Messages: []handoff.Message{user("a")}}
	if got := Measure(&noTimes, c, MeasureOptions{}).SessionDurationSeconds; got != 3600 {
		t.Errorf("duration from session metadata = %v, want 3600", got)
	}
}

func TestMeasureNilTranscript(t *testing.T) {
	t.Parallel()
	got := Measure(nil, counterFor(t, O200kBase), MeasureOptions{})
	if got.TokensUsed != 0 || got.ContextWindow != DefaultContextWindow || got.TokensRemainingEstimate != DefaultContextWindow {
		t.Errorf("Measure(nil) = %+v", got)
	}
}

func TestThresholdsDecide(t *testing.T) {
	t.Parallel()
	th := DefaultThresholds()
	if th.Warn != 0.70 || th.Checkpoint != 0.85 {
		t.Fatalf("DefaultThresholds() = %+v, want warn 0.70 checkpoint 0.85", th)
	}
	tests := []struct {
		util float64
		want Decision
	}{
		{0, Continue}, {0.5, Continue}, {0.6999, Continue}, {0.70, Warn}, {0.84, Warn},
		{0.85, Checkpoint}, {0.99, Checkpoint}, {1.7, Checkpoint}, {math.NaN(), Continue},
	}
	for _, tc := range tests {
		if got := th.Decide(tc.util); got != tc.want {
			t.Errorf("Decide(%v) = %s, want %s", tc.util, got, tc.want)
		}
	}
}

func TestThresholdsValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		th Thresholds
		ok bool
	}{
		{DefaultThresholds(), true},
		{Thresholds{Warn: 0.5, Checkpoint: 0.5}, true},
		{Thresholds{Warn: 0.5, Checkpoint: 1}, true},
		{Thresholds{Warn: 70, Checkpoint: 85}, false},
		{Thresholds{Warn: 0.9, Checkpoint: 0.8}, false},
		{Thresholds{}, false},
		{Thresholds{Warn: math.NaN(), Checkpoint: 0.8}, false},
	}
	for _, tc := range tests {
		err := tc.th.Validate()
		if (err == nil) != tc.ok {
			t.Errorf("%+v.Validate() = %v, want ok=%v", tc.th, err, tc.ok)
		}
		if err != nil && handoff.ErrorCode(err) != handoff.EINVALID {
			t.Errorf("%+v.Validate() code %q, want %q", tc.th, handoff.ErrorCode(err), handoff.EINVALID)
		}
	}
}

// TestMeasureEstimateTail checks the opt-in estimate of the unseen tail:
// with provider usage it answers from usage plus EstimateMessage and never
// builds the tables (a fresh Counter stays unbuilt); the estimate stays
// near the exact count on ordinary text; without usage the figure is
// still counted exactly.
func TestMeasureEstimateTail(t *testing.T) {
	t.Parallel()
	tail := []handoff.Message{
		toolResult("=== RUN   TestParse\n--- FAIL: TestParse (0.01s)\n    parse_test.go:42: got 3 messages, want 4\nFAIL\nexit status 1\nFAIL\tgithub.com/acme/app/parse\t0.214s\n"),
		user("the parser drops the last message when the file has no trailing newline; fix it and rerun the tests"),
	}
	withUsage := &handoff.Transcript{Messages: append([]handoff.Message{user("hi"), assistant(sonnet, "a", usage(5, 0, 2000, 50))}, tail...)}

	fresh, err := NewCounter(O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	got := Measure(withUsage, fresh, MeasureOptions{EstimateTail: true})
	want := 5 + 2000 + 50 + EstimateMessage(&tail[0]) + EstimateMessage(&tail[1])
	if got.TokensUsed != want || got.Source != handoff.UsageProvider {
		t.Errorf("estimated tail: %d tokens from %s, want %d from provider", got.TokensUsed, got.Source, want)
	}
	if fresh.Built() {
		t.Error("Measure with EstimateTail built the tokenizer tables although usage was reported")
	}

	exact := Measure(withUsage, counterFor(t, O200kBase), MeasureOptions{})
	if diff := math.Abs(float64(got.TokensUsed - exact.TokensUsed)); diff > 0.5*float64(exact.TokensUsed-2055) {
		t.Errorf("estimate %d is far from the exact %d", got.TokensUsed, exact.TokensUsed)
	}

	noUsage := &handoff.Transcript{Messages: tail}
	if u := Measure(noUsage, fresh, MeasureOptions{EstimateTail: true}); u.Source != handoff.UsageEstimate || u.TokensUsed != counterFor(t, O200kBase).CountMessages(tail) {
		t.Errorf("without usage: %d tokens from %s, want the exact count", u.TokensUsed, u.Source)
	}
}
