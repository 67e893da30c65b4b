package capacity

import (
	"sync"
	"sync/atomic"
	"unicode/utf8"

	tiktoken "github.com/pkoukk/tiktoken-go"

	"github.com/handoff-cli/handoff/capacity/internal/ranks"
)

// bpe is the one way this package encodes text: tiktoken-go's encoder
// over a rank map that holds only the tokens the texts encoded so far can
// use, filled on demand from the embedded table (ranks.Vocab.Lookup), so a
// program that counts a few kilobytes never builds the 200k-entry map.
//
// Why this is exact. tiktoken-go v0.1.8 reads its rank map in two places
// only: encodeOrdinaryNative looks up each regex piece whole
// (encoder[piece]) and bytePairMerge/bytePairEncode look up substrings of
// a piece (ranks[string(piece[i:j])]). The pieces are substrings of
// string([]rune(text)) (it works on runes, so invalid UTF-8 bytes are
// U+FFFD there). A substring no longer than the longest token that is not
// in the map is not a token anyway, and a longer one never is; so a map
// holding every token that is a substring of that text answers every
// lookup the encoder makes on it exactly as the full map would. Before
// each encode, ensure adds those tokens: each start position times each
// length up to the longest token starting with that byte.
//
// What it relies on in tiktoken-go: NewCoreBPE keeps the map it is given
// without copying it, and encoding reads the map only as above. A release
// that copied the map would see an empty one and count every text as
// single bytes; one that looked up other strings would miss tokens. The
// property tests (TestCountsMatchPlainTiktokenOnTranscripts,
// TestCountsMatchPlainTiktokenOnAdversarialText, FuzzOnDemandMatchesFull)
// encode with fresh on-demand encoders and compare with tiktoken-go built
// its own way over the full map, so either change fails them.
//
// Enumeration is bounded: once the lookups spent pass budget (about the
// cost of building the full map), bpe builds the full encoder once
// (newTiktoken) and uses it from then on without locking, so a long text
// (a blob, a long run of letters) costs about what the full build always
// did.
//
// It is safe for concurrent use: the map is written under mu's write lock
// and read by every encode under its read lock (tiktoken-go itself does
// not lock the map); the full encoder is never written after it is
// published.
type bpe struct {
	enc    Encoding
	vocab  ranks.Vocab
	budget int64
	spent  atomic.Int64 // lookups ensure has made or decided against

	// full is the encoder over the whole map, once built. If that build
	// fails (a damaged embedded table, which package ranks' tests rule
	// out) enumeration simply goes on: counts stay exact, only slower.
	full     atomic.Pointer[tiktoken.Tiktoken]
	fullOnce sync.Once

	mu      sync.RWMutex
	partial *tiktoken.Tiktoken // reads ranks
	ranks   map[string]int     // guarded by mu
	have    []uint64           // bit per rank: in ranks already; guarded by mu
}

// newBPE builds an on-demand encoder for enc: the regexps and an empty
// map, no table build.
func newBPE(enc Encoding) (*bpe, error) {
	spec, vocab, err := openSpec(enc)
	if err != nil {
		return nil, err
	}
	tk, m, err := emptyTiktoken(enc, spec, 0)
	if err != nil {
		return nil, err
	}
	return &bpe{
		enc:     enc,
		vocab:   vocab,
		budget:  int64(onDemandBudget * vocab.Len()),
		partial: tk,
		ranks:   m,
		have:    make([]uint64, (vocab.Len()+63)/64),
	}, nil
}

// onDemandBudget is the lookups an on-demand encoder may spend, per token
// of its vocabulary, before it builds the full map instead. A lookup costs
// 7–17 ns on a warm table (ranks' BenchmarkLookup), more on a page not yet
// touched, and a found token's insert as much again; the full build costs
// 75–110 ns a token (BenchmarkBuildCounter); so two lookups a token stays
// under half the full build, and a text that needs more pays at most
// about 1.5 times it. A 2.3 MB compile spends about 36k lookups (its
// prompt's words, each once thanks to the word memo), far below the
// 400k of o200k_base.
const onDemandBudget = 2

// EncodeOrdinary returns the token ids of text, exactly those of
// tiktoken-go's EncodeOrdinary over the full vocabulary.
func (e *bpe) EncodeOrdinary(text string) []int {
	if tk := e.full.Load(); tk != nil {
		return tk.EncodeOrdinary(text)
	}
	if e.ensure(text) {
		return e.full.Load().EncodeOrdinary(text)
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.partial.EncodeOrdinary(text)
}

// ensure adds to the map every token that is a substring of text as
// tiktoken-go sees it, or builds the full encoder when that would pass the
// budget; it reports whether the full encoder is ready.
func (e *bpe) ensure(text string) (full bool) {
	if !utf8.ValidString(text) {
		text = string([]rune(text)) // tiktoken-go's pieces hold U+FFFD for invalid bytes
	}
	cost := 0
	for i := 0; i < len(text); i++ {
		cost += min(e.vocab.MaxLenFrom(text[i]), len(text)-i)
	}
	if e.spent.Add(int64(cost)) > e.budget && e.buildFull() {
		return true
	}
	var buf [128]ranks.Token
	add := buf[:0]
	for i := 0; i < len(text); i++ {
		add, _ = e.vocab.AppendPrefixes(add, text[i:])
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, tok := range add {
		if w, bit := tok.Rank/64, uint64(1)<<(tok.Rank%64); e.have[w]&bit == 0 {
			e.have[w] |= bit
			e.ranks[tok.Key] = tok.Rank
		}
	}
	return false
}

// buildFull builds the full encoder once and reports whether it is ready.
func (e *bpe) buildFull() bool {
	e.fullOnce.Do(func() {
		if tk, err := newTiktoken(e.enc); err == nil {
			e.full.Store(tk)
		}
	})
	return e.full.Load() != nil
}
