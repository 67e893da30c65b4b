package prose

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"testing"
)

func TestStartHeads(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pattern string
		want    []headText // nil: no heads
	}{
		{`^ok\s`, []headText{{text: "ok"}}},
		{`(?i)^(?:output:|\[?stderr\]?:?)$`, []headText{{text: "OUTPUT:", fold: true}, {text: "[", fold: true}, {text: "STDERR", fold: true}}},
		{`^[-*] \S`, []headText{{text: "*"}, {text: "-"}}},
		{`^(?:ab)+c`, []headText{{text: "ab"}}},
		{`^\bword`, []headText{{text: "word"}}},
		// What may begin with anything, or with nothing: no heads.
		{`^.*x`, nil},
		{`^\w+`, nil},
		{`^(?:ab)?`, nil},
		{`^(?:a|\w)`, nil}, // \w is more runes than maxHeads
		{`^$`, nil},
	}
	for _, tc := range tests {
		parsed, err := syntax.Parse(tc.pattern, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := startHeads(parsed.Simplify())
		if !slices.Equal(got, tc.want) {
			t.Errorf("startHeads(%q) = %+v, want %+v", tc.pattern, got, tc.want)
		}
	}
}

func TestHasPrefixFold(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s, prefix string
		want      bool
	}{
		{"Output: x", "OUTPUT:", true},
		{"output", "OUTPUT:", false},
		{"ſtdout", "STDOUT", true},     // long s folds to s
		{"\u212Aeyboard", "KEY", true}, // Kelvin sign folds to k
		{"[stderr]", "{STDERR", false}, // brackets are not letters
		{"éa", "Éa", true},
		{"", "a", false},
		{"abc", "", true},
	}
	for _, tc := range tests {
		if got := hasPrefixFold(tc.s, tc.prefix); got != tc.want {
			t.Errorf("hasPrefixFold(%q, %q) = %v, want %v", tc.s, tc.prefix, got, tc.want)
		}
	}
}

// FuzzAnchoredGate checks that the heads check never changes an anchored
// pattern's answer: MatchString is the regexp's own on any text.
func FuzzAnchoredGate(f *testing.F) {
	patterns := []string{
		`(?i)^(?:chunk id:.*|wall time:?.*|exit code:? -?\d+|output:|\[?stderr\]?:?|` + "```\\w*" + `|<\/?tool_use_error>)$`,
		`^ok\s`, `^[-*•] \S`, `(?i)^(?:ſtep|kelvin) \d`, `\A(?:ab)+c|\Aé`,
	}
	for _, s := range []string{"Output:", "ſTDOUT:", "[stderr]", "ok 1", "• x", "\u212Aelvin 2", "ababc", "É", ""} {
		f.Add(s)
	}
	gates := make([]*RegexGate, len(patterns))
	res := make([]*regexp.Regexp, len(patterns))
	for i, p := range patterns {
		gates[i], res[i] = BuildGate(p), regexp.MustCompile(p)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i, g := range gates {
			if got, want := g.MatchString(s), res[i].MatchString(s); got != want {
				t.Fatalf("%q.MatchString(%q) = %v, the regexp says %v", patterns[i], s, got, want)
			}
		}
	})
}
