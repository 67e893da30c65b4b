package capacity

import (
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

// fullBPE is an encoder that has switched to the full map already: the
// build every process paid before on-demand maps.
func fullBPE(enc Encoding) (*bpe, error) {
	e, err := newBPE(enc)
	if err != nil {
		return nil, err
	}
	if !e.buildFull() {
		return nil, unknownEncoding(enc)
	}
	return e, nil
}

// onDemandInputs are texts that stress what the on-demand map must get
// right: invalid UTF-8 (tiktoken-go's pieces hold U+FFFD), bytes that
// begin no token, long letter and whitespace runs, emoji, CJK, special
// tokens' text.
func onDemandInputs() []struct{ name, text string } {
	rng := rand.New(rand.NewPCG(3, 4))
	letters := make([]byte, 3000)
	for i := range letters {
		letters[i] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[rng.IntN(52)]
	}
	return []struct{ name, text string }{
		{"empty", ""},
		{"one_byte", "x"},
		{"invalid_utf8_in_words", "caf\xe9 na\xefve \xff\xfe\xfd fo\x80o\n\xc3(\xa0\xa1"},
		{"lone_continuation", strings.Repeat("\x80", 50) + " ok"},
		{"replacement_char_itself", "a\uFFFDb \uFFFD\uFFFD"},
		{"nul_and_controls", "a\x00b\x01\x02\x7f\tc\r\n"},
		{"letters_3000", string(letters)},
		{"one_letter_run", strings.Repeat("x", 900)},
		{"whitespace_runs", strings.Repeat(" ", 300) + "w" + strings.Repeat("\t", 200) + "\n\n\n " + strings.Repeat("\u00a0", 40)},
		{"emoji", "😀😀 👨‍👩‍👧 🇫🇷 ❤️‍🔥 🧑🏽‍💻"},
		{"cjk", "上下文窗口已满，请继续。日本語のテキスト 한국어 텍스트 中文标点：「」《》"},
		{"special_token_text", "<|endoftext|> <|endofprompt|><|fim_prefix|><|fim_middle|><|fim_suffix|>"},
		{"code", "func (e *bpe) ensure(text string) (full bool) {\n\tif !utf8.ValidString(text) {\n"},
		{"contractions", "I'LL we've THEY'RE it's don't 's 't"},
		{"digits", "1234567890 3.14159 1e-9 0x1F"},
	}
}

// TestOnDemandMatchesFull encodes each input with a fresh on-demand
// encoder and with the full map, token id for token id, then checks the
// on-demand map stayed small (it is the point) and is a subset of the
// vocabulary with the right ranks.
func TestOnDemandMatchesFull(t *testing.T) {
	t.Parallel()
	for _, enc := range bothEncodings {
		full, err := fullBPE(enc)
		if err != nil {
			t.Fatal(err)
		}
		plain := plainFor(t, enc)
		for _, in := range onDemandInputs() {
			e := freshBPE(t, enc)
			got := e.EncodeOrdinary(in.text)
			if want := full.EncodeOrdinary(in.text); !slices.Equal(got, want) {
				t.Errorf("%s/%s: on-demand ids %v, full map %v", enc, in.name, got, want)
			}
			if want := plain.EncodeOrdinary(in.text); !slices.Equal(got, want) {
				t.Errorf("%s/%s: on-demand ids %v, plain tiktoken-go %v", enc, in.name, got, want)
			}
			if e.full.Load() != nil {
				t.Errorf("%s/%s: a %d-byte text built the full map", enc, in.name, len(in.text))
			}
			e.mu.RLock()
			if len(e.ranks) > 5000 {
				t.Errorf("%s/%s: the on-demand map holds %d tokens for %d bytes", enc, in.name, len(e.ranks), len(in.text))
			}
			for key, rank := range e.ranks {
				if r, _, ok := e.vocab.Lookup(key); !ok || r != rank {
					t.Errorf("%s/%s: map has %q → %d, table says %d, %v", enc, in.name, key, rank, r, ok)
				}
			}
			e.mu.RUnlock()
		}
	}
}

// TestOnDemandSwitchesToFullMap checks the budget: texts that together
// pass it make the encoder build the full map once, after which counts
// still match, and a text far past the budget goes straight to it.
func TestOnDemandSwitchesToFullMap(t *testing.T) {
	t.Parallel()
	e := freshBPE(t, O200kBase)
	plain := plainFor(t, O200kBase)
	rng := rand.New(rand.NewPCG(5, 6))
	small := randomText(rng, 2000)
	if got, want := e.EncodeOrdinary(small), plain.EncodeOrdinary(small); !slices.Equal(got, want) || e.full.Load() != nil {
		t.Fatalf("small text: ids equal %v, full built %v; want equal ids from the on-demand map", slices.Equal(got, want), e.full.Load() != nil)
	}
	spentBefore := e.spent.Load()
	big := randomText(rng, int(e.budget)/4)
	if got, want := e.EncodeOrdinary(big), plain.EncodeOrdinary(big); !slices.Equal(got, want) {
		t.Error("big text: ids differ from plain tiktoken-go")
	}
	if e.full.Load() == nil {
		t.Errorf("a %d-byte text (spent %d → %d lookups, budget %d) did not switch to the full map", len(big), spentBefore, e.spent.Load(), e.budget)
	}
	if got, want := e.EncodeOrdinary(small), plain.EncodeOrdinary(small); !slices.Equal(got, want) {
		t.Error("small text after the switch: ids differ")
	}
}

// TestOnDemandConcurrent encodes different texts from many goroutines on
// one fresh encoder, so inserts race with encodes (run it with -race):
// every result must match plain tiktoken-go.
func TestOnDemandConcurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	for _, budget := range []int64{1 << 40, 20000} { // on demand only; switching to the full map mid-way
		e := freshBPE(t, O200kBase)
		e.budget = budget
		plain := plainFor(t, O200kBase)
		var texts []string
		rng := rand.New(rand.NewPCG(7, 8))
		for _, in := range onDemandInputs() {
			texts = append(texts, in.text)
		}
		for range 16 {
			texts = append(texts, randomText(rng, 600))
		}
		c := &Counter{enc: O200kBase, encoder: &lazyEncoder{enc: O200kBase, build: func(Encoding) (*bpe, error) { return e, nil }}, words: newWordMemo()}
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for i := range texts {
					text := texts[(i+g*5)%len(texts)]
					want := plain.EncodeOrdinary(text)
					if got := e.EncodeOrdinary(text); !slices.Equal(got, want) {
						t.Errorf("budget %d: goroutine %d text %d: ids differ", budget, g, i)
					}
					if !hasBlindCut(text) {
						if got := c.Count(text); got != len(want) {
							t.Errorf("budget %d: goroutine %d text %d: Count %d, want %d", budget, g, i, got, len(want))
						}
					}
				}
			})
		}
		wg.Wait()
	}
}

// FuzzOnDemandMatchesFull: for any text, a fresh on-demand encoder gives
// the ids the full map gives, and so does Count through the word memo.
func FuzzOnDemandMatchesFull(f *testing.F) {
	for _, in := range onDemandInputs() {
		f.Add(in.text)
	}
	full, err := fullBPE(O200kBase)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			text = text[:4096]
		}
		want := full.EncodeOrdinary(text)
		if got := freshBPE(t, O200kBase).EncodeOrdinary(text); !slices.Equal(got, want) {
			t.Fatalf("on-demand ids %v, full map %v", got, want)
		}
		if !hasBlindCut(text) {
			if got := freshCounter(t, O200kBase).Count(text); got != len(want) {
				t.Fatalf("Count = %d, full map %d tokens", got, len(want))
			}
		}
	})
}
