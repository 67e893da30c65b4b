package compiler

import (
	"slices"
	"testing"
)

func TestIdentifiers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want []string
	}{
		{"Edit src/app.ts and go.mod", []string{"src/app.ts", "go.mod"}},
		{"commit f0c3276 on v1.2.3", []string{"f0c3276", "v1.2.3"}},
		{"rename fetchModels to fetch_models", []string{"fetchmodels", "fetch_models"}},
		{"Run GenerateImage.ts --help", []string{"generateimage.ts"}},
		{"The person writes in German and wants a summary.", nil},
		{"Use TypeScript, TypeScript and typescript", []string{"typescript"}},
		{"url http://localhost:1234/v1 ok", []string{"localhost:1234/v1"}}, // "http" alone is a word
		{"a1 b_ ok", nil}, // shorter than 3
		{"Проверь конфиг main.go", []string{"main.go"}},
		{"trailing dot in go.mod.", []string{"go.mod"}},
	}
	for _, tt := range tests {
		if got := identifiers(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("identifiers(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// TestNoveltyOrder checks the order below noveltyEnd: a piece that names
// nothing new sinks below a lower-ranked one that does, pieces marked
// keepRank, those that say where the session stopped and the recent
// turns keep their ranks, and at noveltyEnd the order is the rank table's.
func TestNoveltyOrder(t *testing.T) {
	t.Parallel()
	pieces := []piece{
		{sec: secTitle, text: "Handoff in `api`", fixed: true},                                  // 0
		{sec: secStop, rank: rankLastShort, tokens: 40, text: "I changed src/limit.go."},        // 1
		{sec: secNext, rank: rankNext, tokens: 10, text: "Ask what comes next", keepRank: true}, // 2
		{sec: secRequests, rank: rankRequests, tokens: 40, text: "please look at src/limit.go"}, // 3: says nothing new
		{sec: secWork, rank: rankCommits, tokens: 12, text: "commit 9f2c1ab “limit”"},           // 4: a new name
		{sec: secPlan, rank: rankInProgress, tokens: 60, text: "wire it in", keepRank: true},    // 5
		{sec: secRecent, rank: rankRecent, tokens: 5, text: "- person: “go”"},                   // 6
		{sec: secRecent, rank: rankRecent + 1, tokens: 5, text: "- tool: `ls`"},                 // 7
	}
	tests := []struct {
		budget int
		want   []int
	}{
		{500, []int{0, 2, 1, 5, 4, 3, 6, 7}},
		{noveltyEnd, []int{0, 2, 1, 5, 3, 4, 6, 7}},
	}
	for _, tt := range tests {
		c := &compilation{pieces: slices.Clone(pieces), budget: tt.budget}
		if got := c.importance(); !slices.Equal(got, tt.want) {
			t.Errorf("budget %d: order %v, want %v", tt.budget, got, tt.want)
		}
	}
}

// TestNoveltyWeight checks that the penalty is full up to smallBudget and
// falls linearly to none at noveltyEnd.
func TestNoveltyWeight(t *testing.T) {
	t.Parallel()
	tests := []struct {
		budget int
		want   float64
	}{
		{100, 1}, {smallBudget, 1}, {(smallBudget + noveltyEnd) / 2, 0.5}, {noveltyEnd, 0}, {4000, 0},
	}
	for _, tt := range tests {
		c := &compilation{budget: tt.budget}
		if got := c.noveltyWeight(); got != tt.want {
			t.Errorf("budget %d: weight %v, want %v", tt.budget, got, tt.want)
		}
	}
}
