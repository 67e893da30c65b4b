package extractor

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
	"github.com/handoff-cli/handoff/extractor/prose"
)

func extract(t *testing.T, msgs []handoff.Message) *Result {
	t.Helper()
	res, err := NewHeuristic(nil).Extract(context.Background(), msgs)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestDecisionPatterns(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		text      string
		user      bool
		wantType  handoff.DecisionType // "" means no decision
		rationale string
		alts      []string
	}{
		{"use instead because", "I'll use pgx instead of database/sql because it supports COPY.", false, handoff.DecisionApproach, "it supports COPY", []string{"database/sql"}},
		{"library instead", "I'll use the sqlx package instead of raw database/sql since it scans structs.", false, handoff.DecisionLibrary, "it scans structs", []string{"raw database/sql"}},
		{"dotted name instead", "I'll use golang.org/x/time/rate instead of writing my own token bucket.", false, handoff.DecisionApproach, "", []string{"writing my own token bucket"}},
		{"decided", "I've decided to keep the cache in memory.", false, handoff.DecisionApproach, "", nil},
		{"decided with next sentence", "I decided to store limits per API key. This keeps one noisy client from starving others.", false, handoff.DecisionApproach, "This keeps one noisy client from starving others.", nil},
		{"switching", "Switching to a token bucket so that bursts are allowed.", false, handoff.DecisionApproach, "bursts are allowed", nil},
		{"switch from to", "I'll switch from the fixed window to a sliding window.", false, handoff.DecisionApproach, "", []string{"fixed window"}},
		{"lets go with", "Let's go with Redis for the shared counter.", false, handoff.DecisionApproach, "", nil},
		{"going with", "Going with the simpler design: one middleware per route.", false, handoff.DecisionArchitecture, "", nil},
		{"chose over", "I chose cobra over urfave/cli because the repo already depends on it.", false, handoff.DecisionApproach, "the repo already depends on it", []string{"urfave/cli"}},
		{"opted", "I opted for an interface so the store can be faked in tests.", false, handoff.DecisionArchitecture, "", nil},
		{"instead of comma", "Instead of patching the vendored code, I'll wrap it.", false, handoff.DecisionApproach, "", []string{"patching the vendored code"}},
		{"rather than", "We'll refactor the handler into its own package rather than grow main.go.", false, handoff.DecisionLibrary, "", []string{"grow main.go"}},
		{"skip", "We'll skip the Windows build for now.", false, handoff.DecisionWorkaround, "", nil},
		{"skip plain", "I'll skip the flaky integration suite.", false, handoff.DecisionSkip, "", nil},
		{"out of scope", "I decided that Windows support is out of scope.", false, handoff.DecisionSkip, "", nil},
		{"skip describes the algorithm", "With zoneinfo I'll detect the gap and skip to the next matching day instead of raising.", false, handoff.DecisionApproach, "", []string{"raising"}},
		{"wont describes behaviour", "I'll use a buffered channel instead because an unbuffered one won't drain in time.", false, handoff.DecisionApproach, "an unbuffered one won't drain in time", nil},
		{"workaround colon", "Workaround: set GOFLAGS=-mod=mod until the proxy is back.", false, handoff.DecisionWorkaround, "", nil},
		{"as a workaround", "As a workaround, I'll pin the version in go.mod.", false, handoff.DecisionWorkaround, "", nil},
		{"user lets use", "Let's use SQLite for this.", true, handoff.DecisionClarification, "", nil},
		{"user dont delete", "Don't delete the migrations folder.", true, handoff.DecisionClarification, "", nil},
		{"user instead", "Use zap instead of logrus.", true, handoff.DecisionClarification, "", []string{"logrus"}},
		// Not decisions.
		{"read file", "I'll read the file to see the handler.", false, "", "", nil},
		{"let me check", "Let me check the tests first.", false, "", "", nil},
		{"question", "Should I use Redis instead of memory?", false, "", "", nil},
		{"switch directory", "I'll switch to the api directory.", false, "", "", nil},
		{"plain statement", "The tests pass now.", false, "", "", nil},
		{"code block", "```go\n// I'll use X instead of Y\n```", false, "", "", nil},
		{"user request", "Please add rate limiting.", true, "", "", nil},
		{"narration rather than", "I'm now reading the control paths so findings are grounded rather than inferred from comments.", false, "", "", nil},
		{"finding rather than", "The failure comes from a brittle path assumption rather than missing resources.", false, "", "", nil},
		{"narration instead", "I'm looking at the parser instead.", false, "", "", nil},
		{"choosing now", "I'm switching to the streaming decoder instead of reading the whole file.", false, handoff.DecisionApproach, "", []string{"reading the whole file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			role := handoff.RoleAssistant
			if tt.user {
				role = handoff.RoleUser
			}
			res := extract(t, []handoff.Message{{Index: 3, ID: "u3", Role: role, Text: tt.text}})
			if tt.wantType == "" {
				if len(res.Decisions) != 0 {
					t.Fatalf("want no decision, got %+v", res.Decisions)
				}
				return
			}
			if len(res.Decisions) != 1 {
				t.Fatalf("want 1 decision, got %+v", res.Decisions)
			}
			d := res.Decisions[0]
			if d.Type != tt.wantType {
				t.Errorf("type = %s, want %s", d.Type, tt.wantType)
			}
			if d.Rationale != tt.rationale {
				t.Errorf("rationale = %q, want %q", d.Rationale, tt.rationale)
			}
			if !reflect.DeepEqual(d.Alternatives, tt.alts) {
				t.Errorf("alternatives = %q, want %q", d.Alternatives, tt.alts)
			}
			if d.ID != "d1" || d.Source != (handoff.MessageRef{Index: 3, ID: "u3"}) {
				t.Errorf("id/source = %s %+v", d.ID, d.Source)
			}
		})
	}
}

func TestDecisionsOnlyFromVisibleText(t *testing.T) {
	t.Parallel()
	msgs := []handoff.Message{
		{Index: 0, Role: handoff.RoleAssistant, Thinking: "I'll use Redis instead of memcached because it is faster."},
		{Index: 1, Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{{Content: "I've decided to use MySQL instead of Postgres."}}},
		{Index: 2, Role: handoff.RoleUser, Meta: true, Text: "Let's use the skill's template instead of writing one."},
		{Index: 3, Role: handoff.RoleAssistant, Sidechain: true, Text: "I'll use grep instead of rg."},
		{Index: 4, Role: handoff.RoleUser, CompactSummary: true, Text: "We decided to use gorm instead of sqlx."},
	}
	if res := extract(t, msgs); len(res.Decisions) != 0 {
		t.Errorf("decisions from thinking/tool results/meta/sidechain/summary: %+v", res.Decisions)
	}
}

func TestDecisionReversalAndDedupe(t *testing.T) {
	t.Parallel()
	c := sessiontest.NewConvo(t)
	c.Say("I'll use SQLite instead of Postgres because it needs no server.")
	c.Say("I'll use SQLite instead of Postgres because it needs no server!")
	c.Say("I've decided to use testify for assertions since the repo already has it.")
	c.Say("Actually, switching back to Postgres since we need concurrent writers.")
	res := extract(t, c.Msgs)
	ds := res.Decisions
	if len(ds) != 3 {
		t.Fatalf("decisions = %+v, want 3 (duplicate folded)", ds)
	}
	if ds[0].SupersededBy != "d3" {
		t.Errorf("SQLite decision superseded by %q, want d3", ds[0].SupersededBy)
	}
	if ds[1].SupersededBy != "" || ds[2].SupersededBy != "" {
		t.Errorf("unrelated or current decisions superseded: %+v", ds)
	}
	snap := &handoff.Snapshot{Decisions: ds}
	var current []string
	for _, d := range snap.CurrentDecisions() {
		current = append(current, d.ID)
	}
	if !reflect.DeepEqual(current, []string{"d2", "d3"}) {
		t.Errorf("current decisions = %v", current)
	}

	away := sessiontest.NewConvo(t)
	away.Say("I decided to use logrus for logging.")
	away.Say("Let's use slog instead of logrus, it is in the standard library.")
	if ds := extract(t, away.Msgs).Decisions; len(ds) != 2 || ds[0].SupersededBy != "d2" {
		t.Errorf("moving away from logrus should supersede d1: %+v", ds)
	}
}

func TestDecisionDescriptionCapped(t *testing.T) {
	t.Parallel()
	long := "I've decided to " + strings.Repeat("rewrite everything ", 40) + "."
	ds := extract(t, []handoff.Message{{Role: handoff.RoleAssistant, Text: long}}).Decisions
	if len(ds) != 1 || len([]rune(ds[0].Description)) > prose.DescriptionLimit {
		t.Errorf("decision not capped: %+v", ds)
	}
}

func TestErrorContextIsTextBeforeCall(t *testing.T) {
	t.Parallel()
	c := sessiontest.NewConvo(t)
	c.Say("First I'll look around.\nNow I'll run the migrations against the dev database.")
	id := c.Call("", "Bash", map[string]string{"command": "make migrate"})
	c.Result(id, "Error: connection refused", true, 1)
	snap, err := Build(context.Background(), &handoff.Transcript{Messages: c.Msgs}, NewHeuristic(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Errors) != 1 || snap.Errors[0].Context != "Now I'll run the migrations against the dev database." {
		t.Errorf("errors = %+v", snap.Errors)
	}
	res := extract(t, c.Msgs)
	if res.Usage == nil || res.Usage.Extractor != "heuristic" || res.Usage.Calls != 0 {
		t.Errorf("usage = %+v", res.Usage)
	}
}

func TestExtractHonoursCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewHeuristic(nil).Extract(ctx, []handoff.Message{{Role: handoff.RoleUser, Text: "x"}}); err == nil {
		t.Error("Extract with a cancelled context should fail")
	}
	if _, err := Build(ctx, &handoff.Transcript{}, NewHeuristic(nil)); err == nil {
		t.Error("Build with a cancelled context should fail")
	}
	if _, err := Build(context.Background(), nil, nil); handoff.ErrorCode(err) != handoff.EINVALID {
		t.Errorf("Build(nil) error = %v, want EINVALID", err)
	}
}
