package compiler

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
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

// TestRecentTurnTinyForm checks that a recent turn too long for the room
// left is shown in its tiny form rather than ending the run of turns.
func TestRecentTurnTinyForm(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("The migration needs the new index first. ", 12)
	s := &handoff.Snapshot{Recent: []handoff.Turn{
		{Role: handoff.RoleUser, Text: "Add the index", Source: handoff.MessageRef{Index: 1}},
		{Role: handoff.RoleAssistant, Text: long, Source: handoff.MessageRef{Index: 2}},
	}}
	b := &builder{}
	b.recent(s, map[int]bool{})
	c := &compilation{pieces: b.pieces, counter: byteCounter{}}
	for i := range c.pieces {
		c.pieces[i].tokens = len(c.pieces[i].text) + 1
	}
	// Room for the tiny form of the long turn and the short one before
	// it, not for the long turn's short form.
	chosen := make([]bool, len(c.pieces))
	c.greedy(chosen, 220, 1)
	var shown []string
	for i, ok := range chosen {
		if ok {
			shown = append(shown, c.pieces[i].text)
		}
	}
	got := strings.Join(shown, "\n")
	if !strings.Contains(got, "person: “Add the index”") || !strings.Contains(got, "assistant: “The migration") {
		t.Fatalf("want both turns, the long one clipped:\n%s", got)
	}
	if utf8.RuneCountInString(got) > 220 {
		t.Errorf("shown %d runes, room was 220:\n%s", utf8.RuneCountInString(got), got)
	}
}
