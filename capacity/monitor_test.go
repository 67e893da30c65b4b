package capacity

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/handoff-cli/handoff"
)

// counted is an estimate-only observation of n tokens.
func counted(n int) Observation { return Observation{CountedTokens: n} }

func newTestMonitor(t *testing.T, opts MonitorOptions) *Monitor {
	t.Helper()
	m, err := NewMonitor(opts)
	if err != nil {
		t.Fatalf("NewMonitor: %v", err)
	}
	return m
}

// step is one observation (as thousandths of a 1000-token window) and the
// action it must produce.
type step struct {
	tokens int
	level  Decision
	fired  bool
}

func TestMonitorCrossings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		steps []step
	}{
		{"climbing fires warn once then checkpoint once", []step{
			{100, Continue, false}, {699, Continue, false}, {700, Warn, true}, {750, Warn, false},
			{849, Warn, false}, {850, Checkpoint, true}, {900, Checkpoint, false}, {990, Checkpoint, false},
		}},
		{"jumping past both lines fires only checkpoint", []step{
			{100, Continue, false}, {900, Checkpoint, true}, {800, Warn, false}, {870, Checkpoint, false},
		}},
		{"first observation already above the line fires", []step{
			{950, Checkpoint, true}, {960, Checkpoint, false},
		}},
		{"compaction re-arms both thresholds", []step{
			{860, Checkpoint, true}, {300, Continue, false}, {710, Warn, true}, {860, Checkpoint, true},
		}},
		{"hovering on the line inside the margin does not fire again", []step{
			{851, Checkpoint, true}, {840, Warn, false}, {852, Checkpoint, false}, {801, Warn, false}, {853, Checkpoint, false},
		}},
		{"falling below the margin re-arms checkpoint but not warn", []step{
			{851, Checkpoint, true}, {799, Warn, false}, {851, Checkpoint, true},
		}},
		{"falling below the warn margin re-arms warn", []step{
			{720, Warn, true}, {660, Continue, false}, {720, Warn, false}, {640, Continue, false}, {700, Warn, true},
		}},
		{"usage above the window stays checkpoint", []step{
			{1200, Checkpoint, true}, {1300, Checkpoint, false},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestMonitor(t, MonitorOptions{ContextWindow: 1000})
			for i, s := range tc.steps {
				got := m.Observe(counted(s.tokens))
				if got.Level != s.level || got.Fired != s.fired {
					t.Fatalf("step %d (%d tokens): level %s fired %v, want %s fired %v",
						i, s.tokens, got.Level, got.Fired, s.level, s.fired)
				}
				wantAction := Continue
				if s.fired {
					wantAction = s.level
				}
				if got.Action() != wantAction {
					t.Errorf("step %d: Action() = %s, want %s", i, got.Action(), wantAction)
				}
			}
		})
	}
}

func TestMonitorStatusFigures(t *testing.T) {
	t.Parallel()
	m := newTestMonitor(t, MonitorOptions{Model: "claude-sonnet-4-5"})
	got := m.Observe(Observation{ProviderUsage: usage(10, 2000, 150000, 500), CountedTokens: 1})
	want := Status{
		Level: Warn, Fired: true, Utilization: 152510.0 / 200000,
		TokensUsed: 152510, TokensRemaining: 200000 - 152510, ContextWindow: 200000,
		Source: handoff.UsageProvider, Model: "claude-sonnet-4-5",
	}
	if got != want {
		t.Fatalf("Observe = %+v\nwant      %+v", got, want)
	}
	if s := m.Status(); s.Fired || s.TokensUsed != want.TokensUsed {
		t.Errorf("Status() = %+v, want the last figures with Fired false", s)
	}
}

func TestMonitorPrefersProviderUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		obs    Observation
		used   int
		source handoff.UsageSource
	}{
		{"provider figure wins over counted", Observation{ProviderUsage: usage(100, 0, 900, 50), CountedTokens: 99999}, 1050, handoff.UsageProvider},
		{"all-zero provider usage is no figure", Observation{ProviderUsage: usage(0, 0, 0, 0), CountedTokens: 1234}, 1234, handoff.UsageEstimate},
		{"nil provider usage uses the count", Observation{CountedTokens: 4321}, 4321, handoff.UsageEstimate},
		{"negative count is clamped", Observation{CountedTokens: -5}, 0, handoff.UsageEstimate},
	}
	for _, tc := range tests {
		m := newTestMonitor(t, MonitorOptions{ContextWindow: 100000})
		got := m.Observe(tc.obs)
		if got.TokensUsed != tc.used || got.Source != tc.source {
			t.Errorf("%s: %d (%s), want %d (%s)", tc.name, got.TokensUsed, got.Source, tc.used, tc.source)
		}
	}
}

func TestMonitorWindowLookup(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts MonitorOptions
		obs  Observation
		want int
	}{
		{"model table", MonitorOptions{Model: "gpt-4o-2024-08-06"}, counted(1), 128_000},
		{"observation's model wins over the monitor's", MonitorOptions{Model: "gpt-4o"}, Observation{CountedTokens: 1, Model: "gpt-5-codex"}, 400_000},
		{"unknown model gets the default", MonitorOptions{Model: "my-local-model"}, counted(1), DefaultContextWindow},
		{"1m tag", MonitorOptions{Model: "sonnet[1m]"}, counted(1), 1_000_000},
		{"reported window in the observation", MonitorOptions{Model: "gpt-5"}, Observation{CountedTokens: 1, ContextWindow: 272_000}, 272_000},
		{"reported window in the provider usage", MonitorOptions{Model: "gpt-5"},
			Observation{ProviderUsage: &handoff.ProviderUsage{InputTokens: 10, ContextWindow: 258_400}}, 258_400},
		{"override beats everything", MonitorOptions{Model: "gpt-5", ContextWindow: 50_000},
			Observation{ProviderUsage: &handoff.ProviderUsage{InputTokens: 10, ContextWindow: 258_400}, Model: "gemini-2.5-pro"}, 50_000},
		{"claude context beyond 200k means the 1M beta", MonitorOptions{Model: "claude-sonnet-4-5"},
			Observation{ProviderUsage: usage(5, 0, 300_000, 10)}, 1_000_000},
	}
	for _, tc := range tests {
		m := newTestMonitor(t, tc.opts)
		if got := m.Observe(tc.obs).ContextWindow; got != tc.want {
			t.Errorf("%s: window %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestMonitorRemembersModelAndWindow(t *testing.T) {
	t.Parallel()
	m := newTestMonitor(t, MonitorOptions{})
	m.Observe(Observation{ProviderUsage: usage(5, 0, 300_000, 10), Model: "claude-opus-4-1"})
	if got := m.Observe(counted(310_000)); got.ContextWindow != 1_000_000 || got.Model != "claude-opus-4-1" {
		t.Errorf("counted observation after a 1M provider figure: window %d model %q, want 1000000 claude-opus-4-1", got.ContextWindow, got.Model)
	}
	m2 := newTestMonitor(t, MonitorOptions{Model: "gpt-5"})
	m2.Observe(Observation{CountedTokens: 1, ContextWindow: 272_000})
	if got := m2.Observe(counted(2)); got.ContextWindow != 272_000 {
		t.Errorf("window reported once is kept: got %d", got.ContextWindow)
	}
}

func TestNewMonitorValidates(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts MonitorOptions
		ok   bool
	}{
		{"zero options mean defaults", MonitorOptions{}, true},
		{"custom fractions", MonitorOptions{Thresholds: Thresholds{Warn: 0.5, Checkpoint: 0.9}}, true},
		{"warn equal to checkpoint", MonitorOptions{Thresholds: Thresholds{Warn: 0.8, Checkpoint: 0.8}}, true},
		{"percent instead of fraction", MonitorOptions{Thresholds: Thresholds{Warn: 70, Checkpoint: 85}}, false},
		{"warn above checkpoint", MonitorOptions{Thresholds: Thresholds{Warn: 0.9, Checkpoint: 0.8}}, false},
		{"only checkpoint set", MonitorOptions{Thresholds: Thresholds{Checkpoint: 0.9}}, false},
		{"negative margin", MonitorOptions{RearmMargin: -0.1}, false},
		{"margin as large as warn", MonitorOptions{RearmMargin: 0.7}, false},
		{"small margin", MonitorOptions{RearmMargin: 0.001}, true},
		{"negative window", MonitorOptions{ContextWindow: -1}, false},
	}
	for _, tc := range tests {
		m, err := NewMonitor(tc.opts)
		if tc.ok != (err == nil) {
			t.Errorf("%s: err = %v, want ok=%v", tc.name, err, tc.ok)
			continue
		}
		if err != nil && handoff.ErrorCode(err) != handoff.EINVALID {
			t.Errorf("%s: code %s, want %s", tc.name, handoff.ErrorCode(err), handoff.EINVALID)
		}
		if err == nil && tc.opts.Thresholds == (Thresholds{}) && m.Thresholds() != DefaultThresholds() {
			t.Errorf("%s: thresholds %v, want defaults", tc.name, m.Thresholds())
		}
	}
}

func TestMonitorStateResumes(t *testing.T) {
	t.Parallel()
	first := newTestMonitor(t, MonitorOptions{ContextWindow: 1000})
	if s := first.Observe(counted(900)); !s.Fired {
		t.Fatalf("first process: checkpoint did not fire: %+v", s)
	}
	raw, err := json.Marshal(first.State())
	if err != nil {
		t.Fatal(err)
	}
	var state MonitorState
	if err := json.Unmarshal(raw, &state); err != nil {
		t.Fatal(err)
	}
	second := newTestMonitor(t, MonitorOptions{ContextWindow: 1000, State: state})
	if s := second.Status(); s.TokensUsed != 900 || s.Level != Checkpoint {
		t.Errorf("resumed Status() = %+v, want the stored figure", s)
	}
	if s := second.Observe(counted(950)); s.Fired {
		t.Errorf("second process fired again for the same crossing: %+v", s)
	}
	if s := second.Observe(counted(100)); s.Fired || s.Level != Continue {
		t.Errorf("after compaction: %+v", s)
	}
	if s := second.Observe(counted(900)); !s.Fired {
		t.Errorf("new crossing after compaction did not fire: %+v", s)
	}
}

func TestMonitorObserveMessage(t *testing.T) {
	t.Parallel()
	c := counterFor(t, O200kBase)
	m := newTestMonitor(t, MonitorOptions{ContextWindow: 10_000})
	tool := toolResult("PASS ok 0.3s")
	tests := []struct {
		msg    handoff.Message
		used   int
		source handoff.UsageSource
	}{
		{user("Fix the parser"), c.CountMessage(user("Fix the parser")), handoff.UsageEstimate},
		{assistant(sonnet, "Looking.", usage(100, 0, 7000, 50)), 7150, handoff.UsageProvider},
		{tool, 7150 + c.CountMessage(tool), handoff.UsageProvider},
		{sidechain(assistant("claude-haiku-4-5", "sub", usage(9000, 0, 0, 900))), 7150 + c.CountMessage(tool), handoff.UsageProvider},
		{assistant(syntheticModel, "No response requested.", usage(0, 0, 0, 0)),
			7150 + c.CountMessage(tool) + c.CountMessage(assistant(syntheticModel, "No response requested.", usage(0, 0, 0, 0))), handoff.UsageProvider},
		{compactSummary("This session is being continued"), c.CountMessage(compactSummary("This session is being continued")), handoff.UsageEstimate},
		{assistant(sonnet, "Continuing.", usage(10, 0, 9000, 20)), 9030, handoff.UsageProvider},
	}
	for i, tc := range tests {
		got := m.ObserveMessage(tc.msg, c)
		if got.TokensUsed != tc.used || got.Source != tc.source {
			t.Errorf("message %d: %d (%s), want %d (%s)", i, got.TokensUsed, got.Source, tc.used, tc.source)
		}
	}
	// The same transcript measured whole agrees with the incremental figure.
	whole := Measure(&handoff.Transcript{Messages: []handoff.Message{user("a"), assistant(sonnet, "b", usage(1, 0, 500, 5)), tool}}, c, MeasureOptions{ContextWindow: 10_000})
	inc := newTestMonitor(t, MonitorOptions{ContextWindow: 10_000})
	var last Status
	for _, msg := range []handoff.Message{user("a"), assistant(sonnet, "b", usage(1, 0, 500, 5)), tool} {
		last = inc.ObserveMessage(msg, c)
	}
	if last.TokensUsed != whole.TokensUsed || last.Source != whole.Source {
		t.Errorf("incremental %d (%s) != Measure %d (%s)", last.TokensUsed, last.Source, whole.TokensUsed, whole.Source)
	}
	// A nil counter leaves the figure alone for messages without usage.
	nc := newTestMonitor(t, MonitorOptions{ContextWindow: 10_000})
	nc.ObserveMessage(assistant(sonnet, "b", usage(1, 0, 500, 5)), nil)
	if got := nc.ObserveMessage(user("more"), nil); got.TokensUsed != 506 {
		t.Errorf("nil counter: %d, want 506", got.TokensUsed)
	}
}

func TestMonitorObserveUsage(t *testing.T) {
	t.Parallel()
	m := newTestMonitor(t, MonitorOptions{})
	u := handoff.Usage{TokensUsed: 180_000, ContextWindow: 200_000, Source: handoff.UsageProvider, Model: sonnet}
	if s := m.ObserveUsage(u); !s.Fired || s.Level != Checkpoint || s.Utilization != 0.9 || s.Source != handoff.UsageProvider {
		t.Errorf("ObserveUsage = %+v", s)
	}
	if s := m.ObserveUsage(u); s.Fired {
		t.Errorf("second ObserveUsage fired again: %+v", s)
	}
}

// TestMonitorConcurrent: many goroutines observing above the line see
// exactly one Fired checkpoint (run with -race).
func TestMonitorConcurrent(t *testing.T) {
	t.Parallel()
	m := newTestMonitor(t, MonitorOptions{ContextWindow: 1000})
	var wg sync.WaitGroup
	var mu sync.Mutex
	fired := 0
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := m.Observe(counted(900 + i))
			_ = m.Status()
			_ = m.State()
			if s.Fired {
				mu.Lock()
				fired++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if fired != 1 {
		t.Errorf("checkpoint fired %d times, want 1", fired)
	}
}

// ExampleMonitor shows a harness feeding the provider's usage after each
// model response: the checkpoint fires once when the context crosses 85%,
// stays quiet while it remains above, and fires again after a compaction
// brings it down and the session fills up once more.
func ExampleMonitor() {
	m, err := NewMonitor(MonitorOptions{Model: "claude-sonnet-4-5"}) // 200k window, warn 70%, checkpoint 85%
	if err != nil {
		panic(err)
	}
	for _, prompt := range []int{90_000, 145_000, 172_000, 180_000, 40_000, 175_000} {
		s := m.Observe(Observation{ProviderUsage: &handoff.ProviderUsage{InputTokens: 1_000, CacheReadInputTokens: prompt - 1_000, OutputTokens: 500}})
		fmt.Printf("%3.0f%% %-10s action=%s\n", s.Utilization*100, s.Level, s.Action())
	}
	// Output:
	//  45% continue   action=continue
	//  73% warn       action=warn
	//  86% checkpoint action=checkpoint
	//  90% checkpoint action=continue
	//  20% continue   action=continue
	//  88% checkpoint action=checkpoint
}
