package extractor

import (
	"reflect"
	"strings"
	"testing"
)

func TestProseSentences(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"I've created a complete Vue.js app. It runs on port 8000!", []string{"I've created a complete Vue.js app.", "It runs on port 8000!"}},
		{"Downloaded to `/tmp/keyring_1.1-1_all.deb`. Add the variables to ~/.bashrc next.", []string{"Downloaded to `/tmp/keyring_1.1-1_all.deb`.", "Add the variables to ~/.bashrc next."}},
		{"Is it v1.2.3?? Yes...\nthen more", []string{"Is it v1.2.3??", "Yes...", "then more"}},
		{"Updating `a. b` here. Done", []string{"Updating `a. b` here.", "Done"}},
		{"", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, s := range proseSentences(tt.text) {
			got = append(got, strings.TrimSpace(s))
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("proseSentences(%q)\n got %q\nwant %q", tt.text, got, tt.want)
		}
	}
}

func FuzzProseSentences(f *testing.F) {
	f.Add("A Vue.js app. Then `x. y`!\nnext")
	f.Fuzz(func(t *testing.T, s string) {
		// Splitting drops only white space between sentences: nothing is
		// lost, nothing added.
		if got := strings.Join(strings.Fields(strings.Join(proseSentences(s), "")), ""); got != strings.Join(strings.Fields(s), "") {
			t.Fatalf("sentences do not rejoin to the text: %q → %q", s, proseSentences(s))
		}
	})
}

func TestFirstSentenceSkipsLayout(t *testing.T) {
	tests := []struct{ text, want string }{
		{"\\---\n\n**Checkpoint created**\n\n| Info | Value |\n|---|---|\n| **Commit** | `f0c3276` |\n\n**Recovery:** `/recover`\n\nDone: checkpoint created and ninety-four files committed.", "Done: checkpoint created and ninety-four files committed."},
		{"## Summary\n\nI fixed the limiter and all tests pass now.", "I fixed the limiter and all tests pass now."},
		{"Yes. I ran them and they pass on every platform.", "Yes. I ran them and they pass on every platform."},
	}
	for _, tt := range tests {
		if got := firstSentence(tt.text); got != tt.want {
			t.Errorf("firstSentence(%q)\n got %q\nwant %q", tt.text, got, tt.want)
		}
	}
}
