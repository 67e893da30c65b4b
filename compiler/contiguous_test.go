package compiler

import (
	"slices"
	"testing"
)

// TestRecentTurnsContiguous checks that greedy shows the recent turns as
// a run back from the newest: an older turn that would fit does not come
// in after a newer one was left out, while other sections still fill the
// room.
func TestRecentTurnsContiguous(t *testing.T) {
	t.Parallel()
	pieces := []piece{
		{sec: secNext, rank: rankNext, tokens: 5},                             // 0
		{sec: secRecent, rank: rankRecent + 2, tokens: 5, group: 3},           // 1: oldest
		{sec: secRecent, rank: rankRecent + 1, tokens: 40, group: 2},          // 2: long
		{sec: secRecent, rank: rankRecent, tokens: 5, group: 1},               // 3: newest
		{sec: secRecent, rank: rankRecentFull, tokens: 9, group: 1, level: 1}, // 4: newest, full
		{sec: secGit, rank: rankRecent + 50, tokens: 5},                       // 5
		{sec: secRecent, rank: rankRecentThinking, tokens: 3},                 // 6: reasoning
	}
	tests := []struct {
		name string
		room int
		want []int
	}{
		{"all fit", 100, []int{0, 1, 2, 4, 5, 6}},
		{"the long middle turn does not fit", 30, []int{0, 4, 5, 6}},
		{"only the next step", 5, []int{0}},
	}
	for _, tt := range tests {
		c := &compilation{pieces: pieces}
		chosen := make([]bool, len(pieces))
		c.greedy(chosen, tt.room, 1)
		var got []int
		for i, ok := range chosen {
			if ok {
				got = append(got, i)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: chose %v, want %v", tt.name, got, tt.want)
		}
	}
	c := &compilation{pieces: pieces}
	chosen := []bool{true, false, false, false, true, false, false}
	if got := c.nextRecent(chosen); got != 2 {
		t.Errorf("nextRecent with the newest shown in full = %d, want 2", got)
	}
}
