package capacity

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Building a Counter parses a 100k–200k entry vocabulary; the tests share
// one per encoding instead of paying that in every test.
var testCounters = map[Encoding]func() (*Counter, error){
	O200kBase:  sync.OnceValues(func() (*Counter, error) { return NewCounter(O200kBase) }),
	CL100kBase: sync.OnceValues(func() (*Counter, error) { return NewCounter(CL100kBase) }),
}

func counterFor(t testing.TB, enc Encoding) *Counter {
	t.Helper()
	c, err := testCounters[enc]()
	if err != nil {
		t.Fatalf("NewCounter(%s): %v", enc, err)
	}
	return c
}

var bothEncodings = []Encoding{O200kBase, CL100kBase}

// transcriptsDir is the shared folder of real public transcripts; tests
// that read it skip when it is absent.
const transcriptsDir = "../../shared/transcripts"

// transcriptTexts returns text from the shared transcripts: for JSON and
// JSONL files every decoded string value (so newlines, code and prose are
// real, not escaped) joined by newlines, for other files the raw text. Each
// is cut to at most maxBytes. It skips the test when the folder is absent.
func transcriptTexts(t testing.TB, maxBytes int) map[string]string {
	t.Helper()
	if _, err := os.Stat(transcriptsDir); err != nil {
		t.Skipf("shared transcripts not present: %v", err)
	}
	out := map[string]string{}
	err := filepath.WalkDir(transcriptsDir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(raw)
		switch filepath.Ext(path) {
		case ".jsonl", ".json", ".traj":
			text = jsonStrings(raw, maxBytes)
		}
		if len(text) > maxBytes {
			text = text[:maxBytes]
		}
		rel, _ := filepath.Rel(transcriptsDir, path)
		out[rel] = text
		return nil
	})
	if err != nil {
		t.Fatalf("read transcripts: %v", err)
	}
	return out
}

// jsonStrings decodes each JSON document (one per line, or the whole file)
// and joins the distinct string values it holds, objects' members in key
// order so the text is the same on every run. Each distinct value is
// joined once: Claude Code writes every tool output twice (the message's
// tool_result and the line's toolUseResult), and counting the same text a
// second time checked nothing new but cost a quarter of the corpus tests.
// Lines past the first maxBytes of text are not decoded: the caller cuts
// the text there, and decoding them cost every cut run (-short, -race)
// the whole corpus's decoding.
func jsonStrings(raw []byte, maxBytes int) string {
	var b strings.Builder
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			if !seen[v] {
				seen[v] = true
				b.WriteString(v)
				b.WriteByte('\n')
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				walk(v[k])
			}
		}
	}
	var whole any
	if json.Unmarshal(raw, &whole) == nil {
		walk(whole)
		return b.String()
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if b.Len() >= maxBytes {
			break
		}
		var v any
		if json.Unmarshal([]byte(line), &v) == nil {
			walk(v)
		}
	}
	return b.String()
}

// fragments are the pieces randomText builds from: prose, code, JSON,
// markdown, many scripts, emoji sequences, odd white space, special-token
// text and invalid UTF-8, chosen to hit every branch of the tokenizer's
// pre-split pattern and every split rule.
var fragments = []string{
	// prose and contractions
	"the", "quick", "brown", "fox", "The", "HTTP", "camelCase", "snake_case", "iPhone", "McDonald",
	"don't", "It's", "WE'LL", "they're", "I'm", "you've", "she'd", "o'clock", "rock'n'roll", "'s", "'",
	// numbers
	"1", "42", "2024", "12345678", "3.14159", "1,000,000", "0x1F", "1e-9", "²", "١٢٣", "Ⅻ", "½",
	// punctuation and operators
	".", ",", "...", "!?", "—", "–", "“", "”", "«", "»", "(", ")", "{", "}", "[", "]", "\"", "/", "//",
	"://", "->", "=>", ":=", "&&", "||", "#", "##", "@", "$", "%", "*", "`", "```", "~", "^", "|", "\\",
	"\\n", "\\\"", "<", ">", "</", "/>", "-", "--", "_", "+", "=", "==", ";", ":",
	// white space of every kind
	" ", "  ", "   ", "    ", "\t", "\t\t", "\n", "\n\n", "\r\n", "\r", "   \n", "\n   ", " \n ", "\u00a0",
	"\u3000", "\u2028", "\u2029", "\v", "\f", "\u0085", "\u2003", " \t \n",
	// other scripts and combining marks
	"日本語のテキスト", "中文，测试。", "Привет", "мир", "مرحبا", "עברית", "한국어", "ภาษาไทย", "हिन्दी",
	"naïve", "café", "e\u0301", "\u0301", "a\u0308\u0301", "Ὀδυσσεύς", "ǅ", "ʰ", "ſ", "K",
	// emoji and invisible characters
	"👍", "👨‍👩‍👧", "🇫🇷", "❤️", "\ufe0f", "\u200d", "\u200b", "\ufeff", "\u00ad", "\x00", "\x1b[31m",
	// code
	"func main() {", "if err != nil {", "return fmt.Errorf(\"read %s: %w\", path, err)", "x := []int{1, 2, 3}",
	"/usr/local/bin/go", "./capacity/...", "https://example.com/a/b?c=1&d=2", "<div class=\"a\">",
	"SELECT * FROM t WHERE id = 7;", "def f(x):\n    return x**2", "#include <stdio.h>", "for (int i=0;i<n;i++)",
	"\n/*", "\n//", "\n/etc", "*/\n", "  - item", "> quote", "| a | b |", "![img](x.png)",
	// JSON
	`{"key":"value","n":123,"arr":[1,2,3],"nested":{"a":null,"b":true}}`, `[{"id":"toolu_01ABC","input":{}}]`,
	// special-token text, which must count as ordinary text
	"<|endoftext|>", "<|fim_prefix|>", "<|endofprompt|>",
	// invalid UTF-8
	"\xff", "\xe4\xb8", "\xc3", "\x80\x80",
}

// randomText returns about n bytes of mixed text built from fragments,
// joined by nothing, a space or a newline, with an occasional run of random
// code points or base64.
func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		switch rng.IntN(20) {
		case 0:
			for range 1 + rng.IntN(8) {
				b.WriteRune(randomRune(rng))
			}
		case 1:
			b.WriteString(base64Text(rng, 1+rng.IntN(120)))
		default:
			b.WriteString(fragments[rng.IntN(len(fragments))])
		}
		switch rng.IntN(4) {
		case 0, 1:
			b.WriteByte(' ')
		case 2:
			if rng.IntN(3) == 0 {
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// randomRune picks a code point from blocks with letters, marks, digits,
// symbols and spaces of many categories.
func randomRune(rng *rand.Rand) rune {
	blocks := [][2]rune{
		{0x20, 0x7e}, {0xa0, 0x24f}, {0x300, 0x36f}, {0x370, 0x3ff}, {0x400, 0x4ff}, {0x590, 0x6ff},
		{0x900, 0x97f}, {0x2000, 0x206f}, {0x2100, 0x22ff}, {0x3000, 0x30ff}, {0x4e00, 0x4fff},
		{0xac00, 0xad00}, {0x1f300, 0x1f6ff}, {0x1d400, 0x1d4ff},
	}
	blk := blocks[rng.IntN(len(blocks))]
	return blk[0] + rune(rng.IntN(int(blk[1]-blk[0]+1)))
}

func base64Text(rng *rand.Rand, n int) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
}
