package store

import (
	"cmp"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// referenceSessionNumbers is SessionNumbers as first written (maps keyed
// by workflow and session), the oracle for the grouped version.
func referenceSessionNumbers(rows []SessionRow) map[string]int {
	type key struct{ workflow, session string }
	keyOf := func(r SessionRow) key {
		if r.AgentSession == "" {
			return key{r.WorkflowID, "row:" + r.ID}
		}
		return key{r.WorkflowID, r.AgentSession}
	}
	firsts := map[key]time.Time{}
	for _, r := range rows {
		k, at := keyOf(r), r.CreatedAt.UTC().Round(time.Microsecond)
		if f, ok := firsts[k]; !ok || at.Before(f) {
			firsts[k] = at
		}
	}
	sessions := slices.SortedFunc(maps.Keys(firsts), func(a, b key) int {
		return cmp.Or(cmp.Compare(a.workflow, b.workflow), firsts[a].Compare(firsts[b]), cmp.Compare(a.session, b.session))
	})
	num := map[key]int{}
	for i, s := range sessions {
		num[s] = 1
		if i > 0 && sessions[i-1].workflow == s.workflow {
			num[s] = num[sessions[i-1]] + 1
		}
	}
	out := map[string]int{}
	for _, r := range rows {
		out[r.ID] = num[keyOf(r)]
	}
	return out
}

// TestSessionNumbersMatchesReference numbers random histories (few
// workflows and agent sessions, times that tie or differ below a
// microsecond, rows without an agent session) both ways.
func TestSessionNumbersMatchesReference(t *testing.T) {
	base := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 34))
		rows := make([]SessionRow, rng.IntN(40))
		for i := range rows {
			agent := ""
			if rng.IntN(4) > 0 {
				agent = fmt.Sprintf("s%d", rng.IntN(5))
			}
			rows[i] = SessionRow{ID: fmt.Sprintf("snap_%d", i), WorkflowID: fmt.Sprintf("wf%d", rng.IntN(3)), AgentSession: agent,
				CreatedAt: base.Add(time.Duration(rng.IntN(4))*time.Second + time.Duration(rng.IntN(3000))*time.Nanosecond)}
		}
		if got, want := SessionNumbers(rows), referenceSessionNumbers(rows); !maps.Equal(got, want) {
			t.Fatalf("seed %d: %v, want %v for %+v", seed, got, want, rows)
		}
	}
}
