package prose

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
		for _, s := range ProseSentences(tt.text) {
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
		if got := strings.Join(strings.Fields(strings.Join(ProseSentences(s), "")), ""); got != strings.Join(strings.Fields(s), "") {
			t.Fatalf("sentences do not rejoin to the text: %q → %q", s, ProseSentences(s))
		}
	})
}

func TestTruncate(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"  short  ", 10, "short"},
		{"exactly ten", 11, "exactly ten"},
		{"one two three", 8, "one two…"},
		{"héllo wörld", 6, "héllo…"},
	}
	for _, tt := range tests {
		if got := Truncate(tt.s, tt.n); got != tt.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestClipSentences(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"Fits whole.", 40, "Fits whole."},
		{"The first sentence fits. The second one does not fit at all.", 40, "The first sentence fits. …"},
		{"no sentence end in this rather long line of words", 30, "no sentence end in this …"},
	}
	for _, tt := range tests {
		if got := ClipSentences(tt.s, tt.n); got != tt.want {
			t.Errorf("clipSentences(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

func TestASCIILower(t *testing.T) {
	tests := []struct{ s, want string }{
		{"already lower", "already lower"},
		{"Go BUILD Failed", "go build failed"},
		{"ÉTÉ Kelvin \u212A", "ÉtÉ kelvin \u212A"}, // only ASCII letters fold
	}
	for _, tt := range tests {
		if got := asciiLower(tt.s); got != tt.want {
			t.Errorf("asciiLower(%q) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestWordCount(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"fix the build", 3},
		{"run ./x.sh v1.2 now!", 2},
		{"", 0},
	}
	for _, tt := range tests {
		if got := WordCount(tt.s); got != tt.want {
			t.Errorf("wordCount(%q) = %d, want %d", tt.s, got, tt.want)
		}
	}
}
