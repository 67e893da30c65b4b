package capacity

import (
	"encoding/base64"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

// benchText returns about n bytes of ordinary text: the decoded strings of
// the shared Claude Code transcripts (prose, code, tool output) when they
// are present, generated prose and code otherwise.
func benchText(b testing.TB, n int) (string, string) {
	b.Helper()
	files, _ := filepath.Glob(filepath.Join(transcriptsDir, "claude-code", "*.jsonl"))
	sort.Strings(files)
	var sb strings.Builder
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		sb.WriteString(jsonStrings(raw, math.MaxInt))
		if sb.Len() >= n {
			return sb.String()[:n], "transcripts"
		}
	}
	sb.Reset()
	rng := rand.New(rand.NewPCG(11, 11))
	words := []string{"the", "session", "context", "window", "token", "decision", "because", "we", "tests", "failing", "parser", "fixed"}
	code := []string{"func main() {\n", "\tif err != nil {\n\t\treturn fmt.Errorf(\"read: %w\", err)\n\t}\n", "}\n", "x := map[string]int{\"a\": 1}\n"}
	for sb.Len() < n {
		for range 12 {
			sb.WriteString(words[rng.IntN(len(words))])
			sb.WriteByte(' ')
		}
		sb.WriteString(".\n")
		sb.WriteString(code[rng.IntN(len(code))])
	}
	return sb.String()[:n], "generated"
}

// BenchmarkCount is the guarded counter on 1 MB of ordinary text; compare
// with BenchmarkEncodeOrdinaryPlain, the unguarded encoder on the same text.
func BenchmarkCount(b *testing.B) {
	c := counterFor(b, O200kBase)
	text, source := benchText(b, 1<<20)
	b.Logf("text: 1 MB from %s, %d tokens", source, c.Count(text))
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		c.Count(text)
	}
}

// BenchmarkCountCold is BenchmarkCount with a fresh word memo (see
// wordMemo) every iteration, as a process that counts once has: "memo" is
// the Counter as built, "whole" counts each chunk whole, as Count did
// before the memo. The text is the first 256 KB of BenchmarkCount's.
// The fresh_* cases also build a fresh encoder every iteration, as a new
// process does, over the first 16 KB (a compile's prompt-sized text) and
// the whole 256 KB: "full_map" builds the whole table first, as before
// on-demand maps, "on_demand" fills its map from the text (or switches to
// the full map past its budget).
func BenchmarkCountCold(b *testing.B) {
	base := counterFor(b, O200kBase)
	text, _ := benchText(b, 256<<10)
	for _, mode := range []struct {
		name  string
		words func() *wordMemo
	}{{"memo", newWordMemo}, {"whole", func() *wordMemo { return nil }}} {
		b.Run(mode.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				c := &Counter{enc: base.enc, encoder: base.encoder, words: mode.words()}
				c.Count(text)
			}
		})
	}
	for _, size := range []int{16 << 10, 256 << 10} {
		for _, build := range []struct {
			name string
			fn   func(Encoding) (*bpe, error)
		}{{"full_map", fullBPE}, {"on_demand", newBPE}} {
			b.Run(fmt.Sprintf("fresh_%s_%dKB", build.name, size>>10), func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					c := &Counter{enc: O200kBase, encoder: &lazyEncoder{enc: O200kBase, build: build.fn}, words: newWordMemo()}
					c.Count(text[:size])
				}
			})
		}
	}
}

// BenchmarkEncodeOrdinaryPlain is the baseline for BenchmarkCount.
func BenchmarkEncodeOrdinaryPlain(b *testing.B) {
	c := counterFor(b, O200kBase)
	text, _ := benchText(b, 1<<20)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		c.countPlain(text)
	}
}

// BenchmarkCountPathological is the guarded counter on 1 MB runs that the
// plain encoder takes minutes on (it is quadratic in a regex piece's
// length); there is no plain baseline because it would not finish.
func BenchmarkCountPathological(b *testing.B) {
	c := counterFor(b, O200kBase)
	rng := rand.New(rand.NewPCG(2, 2))
	blob := make([]byte, 3<<18)
	for i := range blob {
		blob[i] = byte(rng.Uint32())
	}
	inputs := []struct{ name, text string }{
		{"spaces_1MB", strings.Repeat(" ", 1<<20)},
		{"emoji_1MB", strings.Repeat("😀", 1<<18)},
		{"base64_1MB", base64.StdEncoding.EncodeToString(blob)},
		{"letters_1MB", strings.Repeat("a", 1<<20)},
		// Mixed emoji never repeat a cut chunk: the guard's worst case.
		{"mixed_emoji_1MB", mixedEmoji(rng, 1<<20)},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.text)))
			for b.Loop() {
				c.Count(in.text)
			}
		})
	}
}

// mixedEmoji returns about n bytes of emoji drawn at random, with no
// white space: one regex piece that never repeats itself.
func mixedEmoji(rng *rand.Rand, n int) string {
	var sb strings.Builder
	for sb.Len() < n {
		sb.WriteRune(rune(0x1f300 + rng.IntN(0x300)))
	}
	return sb.String()
}

// BenchmarkRecountGrown measures re-counting a transcript that grew by one
// message: "grown" counts N messages of which the cache already holds N-1
// (a new last message every iteration), "cold" counts all N with an empty
// cache. The ratio cold/grown should be about N.
func BenchmarkRecountGrown(b *testing.B) {
	const n = 200
	base := counterFor(b, O200kBase)
	text, _ := benchText(b, n*2048)
	msgs := make([]handoff.Message, n)
	for i := range msgs {
		msgs[i] = handoff.Message{Role: handoff.RoleAssistant, Text: text[i*2048 : (i+1)*2048]}
	}
	fresh := func() *Counter {
		return &Counter{enc: base.enc, encoder: base.encoder, cache: newMessageCache(DefaultMessageCacheSize), seed: base.seed}
	}

	b.Run(fmt.Sprintf("grown_N=%d", n), func(b *testing.B) {
		c := fresh()
		c.CountMessages(msgs[:n-1])
		grown := append([]handoff.Message(nil), msgs...)
		i := 0
		for b.Loop() {
			i++
			grown[n-1].Text = fmt.Sprintf("%s #%d", msgs[n-1].Text, i) // a message the cache has not seen
			c.CountMessages(grown)
		}
	})
	b.Run(fmt.Sprintf("cold_N=%d", n), func(b *testing.B) {
		for b.Loop() {
			fresh().CountMessages(msgs)
		}
	})
}
