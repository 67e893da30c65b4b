// Package capacity measures how full an agent session's context window is:
// it counts tokens with an offline BPE tokenizer (tiktoken-go over
// vocabularies embedded in the program, of which a count loads only the
// tokens its text can use), knows the context windows of current model
// families, prefers the provider's own usage figures where a transcript has
// them, and says whether a session should continue, warn, or checkpoint.
package capacity

import (
	"fmt"
	"hash/maphash"
)

// Counter counts tokens for one encoding. Its encoder is built on first
// use, not by NewCounter, and its rank map holds only the tokens of the
// 100k–200k entry vocabulary that the texts counted so far can use (see
// bpe), so a program pays for the vocabulary in proportion to what it
// counts, and past a budget once for the whole of it; a program certain to
// count may call Warm early. Either way a program builds a Counter once
// and shares it. It is safe for concurrent use: the encoder is built once
// under a sync.Once, its rank map is guarded by a read-write lock (bpe),
// tiktoken's regexp2 matcher pools its runners under a mutex and the
// message cache has its own lock.
type Counter struct {
	enc     Encoding
	encoder *lazyEncoder
	cache   *messageCache
	seed    maphash.Seed
	// words remembers the counts of short pieces between safe splits
	// (see wordMemo); nil counts every chunk whole.
	words *wordMemo
}

// NewCounter returns a Counter for enc at once; the vocabulary, embedded in
// the program (no network), is loaded on the first Count or by Warm. An
// unknown encoding name is an EINVALID error, reported here, not later.
func NewCounter(enc Encoding) (*Counter, error) {
	if _, ok := specFor(enc); !ok {
		return nil, unknownEncoding(enc)
	}
	return &Counter{
		enc:     enc,
		encoder: &lazyEncoder{enc: enc},
		cache:   newMessageCache(DefaultMessageCacheSize),
		seed:    maphash.MakeSeed(),
		words:   newWordMemo(),
	}, nil
}

// Encoding returns the encoding the Counter was built for, so a caller can
// report which vocabulary its figures come from.
func (c *Counter) Encoding() Encoding { return c.enc }

// Warm starts building the encoder in the background and returns at once,
// so a caller that will certainly count (compile) overlaps the build with
// reading and parsing the transcript. The build is small since the rank
// map fills on demand (the patterns' regexps, tens of microseconds), so
// Warm matters little now; it is kept for callers that use it. The first
// Count waits for that build instead of starting its own. Calling it
// again, or after the encoder is built, does nothing.
func (c *Counter) Warm() { c.encoder.warm() }

// BuildFull builds the encoder over the whole vocabulary now. A Counter
// otherwise builds it when its counts pass the on-demand budget (see bpe),
// which in a long-running watch falls in the middle of an append and
// costs that append ~50 ms; watch, which counts every message of a
// session for as long as it runs, pays it once at start instead.
func (c *Counter) BuildFull() error {
	e, err := c.encoder.get()
	if err != nil {
		return err
	}
	if !e.buildFull() {
		return fmt.Errorf("build the full %s vocabulary: the embedded table did not load", c.enc)
	}
	return nil
}

// Built reports whether this Counter has needed its tables and has them
// (built successfully or not), so a test can show that a path which
// answers from provider usage never asked for them. The tables are shared
// by the process's Counters of one encoding, so another Counter may have
// paid for them already.
func (c *Counter) Built() bool { return c.encoder.built.Load() }

// Err builds the encoder if no one has yet and returns the error the build
// met, or nil. The tables are embedded and checked by tests, so an error
// means a broken build of the program; Count still answers then, with the
// estimate described there, and a caller that must know whether its
// figures are exact (or that wants to log why not) asks Err.
func (c *Counter) Err() error {
	_, err := c.encoder.get()
	return err
}

// estimate is Count's answer when the tables cannot be built: one token
// per four bytes, rounded up, the usual rule of thumb for English and code.
func estimate(text string) int { return (len(text) + 3) / 4 }

// Count returns the number of tokens in text, treating special-token text
// such as "<|endoftext|>" as ordinary text (transcripts quote anything).
//
// Count is guarded against tiktoken-go's cost on long regex pieces, which
// is quadratic in the piece length (1 MB of spaces took minutes). The text
// is cut into chunks at positions the tokenizer's pre-split pattern never
// crosses (see safeSplit), so on ordinary text the result is identical to
// encoding the whole text at once. Only a stretch of more than runLimit
// bytes with no such position (a megabyte of spaces, one
// emoji repeated, a letters-only blob) is cut at a fixed size, and its
// count is then an approximation: close, not exact. Such a cut chunk that
// repeats one seen earlier in the same call (a run of one character cut
// every runLimit bytes) reuses that chunk's count instead of encoding it
// again.
//
// If the tables cannot be built, Count returns estimate(text) and Err says
// why.
func (c *Counter) Count(text string) int {
	if text == "" {
		return 0 // without building the tables: a message with no text needs none
	}
	encoder, err := c.encoder.get()
	if err != nil {
		return estimate(text)
	}
	total := 0
	var blindSeen map[string]int // blind chunk → its count, for repeated runs
	forEachChunk(text, chunkLimit, runLimit, func(chunk string, blind bool) {
		if n, ok := blindSeen[chunk]; ok && blind {
			total += n
			return
		}
		if !blind && c.words != nil {
			total += c.words.countWords(encoder, chunk)
			return
		}
		n := len(encoder.EncodeOrdinary(chunk))
		if blind && len(blindSeen) < maxBlindMemo {
			if blindSeen == nil {
				blindSeen = make(map[string]int, maxBlindMemo)
			}
			blindSeen[chunk] = n
		}
		total += n
	})
	return total
}
