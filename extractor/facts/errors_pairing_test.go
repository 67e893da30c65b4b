package facts

import (
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestPairingReusedIDs: calls that share an id take their results in
// order, and the last call of an id keeps taking later results.
func TestPairingReusedIDs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		calls   []string // ids of calls, in order
		results []string // ids of results, in order
		want    []int    // the index of the call each result pairs with, -1 none
	}{
		{"distinct ids", []string{"a", "b"}, []string{"b", "a"}, []int{1, 0}},
		{"one id twice", []string{"x", "x"}, []string{"x", "x"}, []int{0, 1}},
		{"one id three times, one other", []string{"x", "y", "x", "x"}, []string{"x", "y", "x", "x"}, []int{0, 1, 2, 3}},
		{"a later result keeps the last call", []string{"x"}, []string{"x", "x"}, []int{0, 0}},
		{"unknown id", []string{"x"}, []string{"z"}, []int{-1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPairing()
			calls := make([]*CallInfo, len(tt.calls))
			for i, id := range tt.calls {
				calls[i] = &CallInfo{Name: "run_shell_command", Command: id}
				p.Add(id, calls[i])
			}
			for i, id := range tt.results {
				got := p.Call(handoff.ToolResult{CallID: id})
				want := (*CallInfo)(nil)
				if tt.want[i] >= 0 {
					want = calls[tt.want[i]]
				}
				if got != want {
					t.Errorf("result %d (%s) paired with %+v, want %+v", i, id, got, want)
				}
			}
		})
	}
}
