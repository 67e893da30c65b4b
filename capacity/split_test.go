package capacity

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// splitEverywhere cuts text at every position safeSplit allows.
func splitEverywhere(text string) []string {
	var parts []string
	start := 0
	var prev rune
	for p, r := range text {
		width := len(string(r))
		if r == utf8.RuneError {
			_, width = utf8.DecodeRuneInString(text[p:])
		}
		if p > 0 && safeSplit(prev, r, text[p+width:]) {
			parts = append(parts, text[start:p])
			start = p
		}
		prev = r
	}
	return append(parts, text[start:])
}

// assertSplitsExact checks the claim safeSplit makes: encoding the pieces
// between all safe positions separately gives as many tokens as encoding
// the whole text, and so does Count.
func assertSplitsExact(t *testing.T, c *Counter, name, text string) {
	t.Helper()
	want := c.countPlain(text)
	got := 0
	for _, part := range splitEverywhere(text) {
		got += c.countPlain(part)
	}
	if got != want {
		t.Errorf("%s/%s: pieces between safe splits count %d tokens, whole text %d", c.Encoding(), name, got, want)
	}
	if n := c.Count(text); n != want {
		t.Errorf("%s/%s: Count = %d, EncodeOrdinary = %d", c.Encoding(), name, n, want)
	}
}

func TestSafeSplitsExactOnOrdinaryText(t *testing.T) {
	t.Parallel()
	corpus := []struct{ name, text string }{
		{"prose", "The quick brown fox jumps over the lazy dog. It's 9 o'clock; we'll see.\nNew paragraph here."},
		{"contractions", "don't DON'T I'M they'RE you've he'd she'll it's"},
		{"go code", "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tif err := run(); err != nil {\n\t\tfmt.Println(err)\n\t}\n}\n"},
		{"python", "def f(x):\n    return [i**2 for i in range(x)]  # squares\n\n\nclass A:\n    pass\n"},
		{"json", `{"type":"tool_use","id":"toolu_01ABC","name":"Bash","input":{"command":"go test ./...","timeout":120000}}`},
		{"json numbers", `{"a":[1,22,333,4444,55555],"b":-1.5e10,"c":"x1y2z3"}`},
		{"markdown", "# Title\n\n- item one\n- item two\n\n```go\nx := 1\n```\n\n> quote\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"},
		{"paths and urls", "see /usr/local/bin/go and https://example.com/a/b?c=1&d=2\n/etc/passwd\n//comment\n"},
		{"cjk", "日本語のテキストです。中文，测试。한국어 문장입니다."},
		{"mixed scripts", "Привет мир! مرحبا بالعالم. naïve café e\u0301 Ὀδυσσεύς"},
		{"emoji", "ok 👍 family 👨‍👩‍👧 flag 🇫🇷 heart ❤️ done"},
		{"whitespace", "a  b\t\tc\r\nd\n\n\ne   \n   f\u00a0g\u3000h\u2028i"},
		{"special token text", "before <|endoftext|> after <|fim_prefix|>x<|endofprompt|>"},
		{"invalid utf8", "ok\xff\xfebad\xe4\xb8 text\xc3"},
		{"numbers", "1234567 12,345 3.14159 0x1F ²³ ١٢٣ Ⅻ 2024-01-02T03:04:05Z"},
		{"diff", "--- a/x.go\n+++ b/x.go\n@@ -1,3 +1,4 @@\n-old line\n+new line\n context\n"},
	}
	for _, enc := range bothEncodings {
		c := counterFor(t, enc)
		for _, tc := range corpus {
			assertSplitsExact(t, c, tc.name, tc.text)
		}
	}
}

func TestSafeSplitsExactOnRandomText(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	for _, enc := range bothEncodings {
		c := counterFor(t, enc)
		rng := rand.New(rand.NewPCG(1, uint64(len(enc))))
		n := 150
		if raceEnabled {
			n = 10
		}
		for i := range n {
			text := randomText(rng, 200+rng.IntN(3000))
			assertSplitsExact(t, c, fmt.Sprintf("random #%d", i), text)
			if t.Failed() {
				t.Logf("failing text: %q", text)
				return
			}
		}
	}
}

// TestSafeSplitsExactOnTranscripts checks every split position of the
// first 40 KB of each shared transcript (4 KB under the race detector,
// which makes encoding ten times slower and is there for concurrency, not
// coverage), one parallel subtest per encoding.
func TestSafeSplitsExactOnTranscripts(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	maxBytes := 40 << 10
	if raceEnabled {
		maxBytes = 4 << 10
	}
	texts := transcriptTexts(t, maxBytes)
	for _, enc := range bothEncodings {
		t.Run(string(enc), func(t *testing.T) {
			t.Parallel()
			c := counterFor(t, enc)
			for name, text := range texts {
				assertSplitsExact(t, c, name, text)
			}
		})
	}
}

// TestChunksCoverTextAndStayBounded cuts with small limits so that many
// chunk boundaries fall inside ordinary text: the chunks must rebuild the
// text, stay within the limit, and, where no cut was blind, count exactly.
func TestChunksCoverTextAndStayBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	c := counterFor(t, O200kBase)
	rng := rand.New(rand.NewPCG(7, 7))
	exactChecked := 0
	texts := 60
	if raceEnabled {
		texts = 15 // a sample: chunking checks no concurrency (see raceEnabled)
	}
	for range texts {
		text := randomText(rng, 500+rng.IntN(2000))
		want := c.countPlain(text)
		for _, limit := range []int{16, 64, 256} {
			runMax := max(limit/2, 8)
			var rebuilt strings.Builder
			got, blindCuts := 0, 0
			forEachChunk(text, limit, runMax, func(chunk string, blind bool) {
				if len(chunk) > limit || blind && len(chunk) > runMax {
					t.Errorf("limits %d/%d: chunk of %d bytes (blind %v)", limit, runMax, len(chunk), blind)
				}
				if blind {
					blindCuts++
				}
				rebuilt.WriteString(chunk)
				got += c.countPlain(chunk)
			})
			if rebuilt.String() != text {
				t.Fatalf("limit %d: chunks do not rebuild the text", limit)
			}
			if blindCuts == 0 {
				exactChecked++
				if got != want {
					t.Errorf("limit %d: chunked count %d, whole %d, no blind cut\ntext: %q", limit, got, want, text)
				}
			}
		}
	}
	if exactChecked < texts {
		t.Errorf("only %d of %d chunkings had no blind cut; the check compared too little", exactChecked, 3*texts)
	}
}

func TestSafeSplitRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		prev, next rune
		after      string
		want       bool
	}{
		{'\n', 'a', "", true},
		{'\n', '{', "", true},
		{'\n', '/', "", false}, // o200k's punctuation piece can take a following '/'
		{'\n', ' ', "", false},
		{'\n', '\n', "", false},
		{'a', ' ', "", true},
		{'a', ',', "", true},
		{'a', '1', "", true},
		{'a', '\'', "", false}, // contraction suffix
		{'a', 'b', "", false},
		{'e', '\u0301', "", false}, // combining mark joins the letter piece
		{'中', '。', "", true},
		{'1', 'a', "", true},
		{'1', '2', "", false}, // digits group in threes from the left
		{':', '1', "", true},
		{':', 'a', "", false}, // punctuation can start a letter piece
		{' ', 'a', "", false},
		{'👍', '👍', "", false},
		{'👍', ' ', "", true},
		{'👍', '\n', "", false}, // the punctuation piece takes CR, LF and '/'
		{'\u0301', ' ', "", true},
		{'\n', ' ', "x", true}, // "\n" | " x"
		{' ', ' ', "x", true},
		{' ', ' ', " x", false}, // the run goes on
		{' ', '\n', "x", false},
		{'\t', ' ', "", false},
		{utf8.RuneError, 'a', "", false},
	}
	for _, tc := range tests {
		if got := safeSplit(tc.prev, tc.next, tc.after); got != tc.want {
			t.Errorf("safeSplit(%q, %q, %q) = %v, want %v", tc.prev, tc.next, tc.after, got, tc.want)
		}
	}
}

// TestPathologicalInputs checks the guarded count on runs with no safe
// split: on a 5 KB version, which the plain encoder handles quickly, it is
// within 3% of the exact count; the 1 MB version (32 KB under the race
// detector, still far past the guard's run limit) counts to a positive
// number at the same density.
func TestPathologicalInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 3))
	inputs := []struct {
		name string
		make func(n int) string
	}{
		{"spaces", func(n int) string { return strings.Repeat(" ", n) }},
		{"emoji", func(n int) string { return strings.Repeat("😀", n/4) }},
		{"base64", func(n int) string { return base64Text(rng, n) }},
		{"letters", func(n int) string { return strings.Repeat("a", n) }},
		{"cjk", func(n int) string { return strings.Repeat("日本語", n/9) }},
		{"newline-space", func(n int) string { return strings.Repeat("\n ", n/2) }},
		{"mixed emoji", func(n int) string {
			var b strings.Builder
			for b.Len() < n {
				b.WriteRune(rune(0x1f300 + rng.IntN(0x300)))
			}
			return b.String()
		}},
	}
	for _, enc := range bothEncodings {
		c := counterFor(t, enc)
		for _, in := range inputs {
			small := in.make(5 << 10)
			exact := c.countPlain(small)
			got := c.Count(small)
			if diff := float64(got-exact) / float64(exact); diff > 0.03 || diff < -0.03 {
				t.Errorf("%s/%s 5KB: guarded %d, exact %d (%.1f%% off)", enc, in.name, got, exact, 100*diff)
			}
			if enc != O200kBase || in.name == "mixed emoji" {
				continue // the 1 MB runs cost time; one encoding shows the guard works
			}
			bigSize := 1 << 20
			if raceEnabled {
				bigSize = 32 << 10 // still 32 times the guard's runLimit
			}
			big := in.make(bigSize)
			n := c.Count(big)
			perByteBig, perByteSmall := float64(n)/float64(len(big)), float64(exact)/float64(len(small))
			if n <= 0 || perByteBig > perByteSmall*1.05 || perByteBig < perByteSmall*0.95 {
				t.Errorf("%s/%s 1MB: %d tokens (%.4f/byte), 5KB exact density %.4f/byte", enc, in.name, n, perByteBig, perByteSmall)
			}
		}
	}
}

// TestSafeSplitsExactOnAdversarialText draws short strings from an alphabet
// of the runes each split rule is about (white space of several kinds,
// apostrophes and contraction letters, marks, digits, '/', emoji, invalid
// UTF-8), so that every rule meets every neighbour many times.
func TestSafeSplitsExactOnAdversarialText(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	alphabet := []string{" ", " ", "\n", "\r", "\t", "a", "A", "1", "'", "/", ".", "\u0301", "😀", "中",
		"\u00a0", "s", "ll", "\xff", "Ǆ", "ʰ", "²", "\u2028", "\x00", "-", "\"", "{"}
	for _, enc := range bothEncodings {
		c := counterFor(t, enc)
		rng := rand.New(rand.NewPCG(5, uint64(len(enc))))
		n := 5000
		if raceEnabled {
			n = 1000
		}
		for range n {
			var b strings.Builder
			for range 1 + rng.IntN(24) {
				b.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
			assertSplitsExact(t, c, "adversarial", b.String())
			if t.Failed() {
				t.Logf("failing text: %q", b.String())
				return
			}
		}
	}
}
