// Package capacity measures how full an agent session's context window is:
// it counts tokens with an offline BPE tokenizer (tiktoken-go with its
// embedded vocabularies), knows the context windows of current model
// families, prefers the provider's own usage figures where a transcript has
// them, and says whether a session should continue, warn, or checkpoint.
package capacity

import (
	"hash/maphash"

	tiktoken "github.com/pkoukk/tiktoken-go"
)

// Counter counts tokens for one encoding. Building one parses a vocabulary
// of 100k–200k entries (a few hundred milliseconds), so a program builds a
// Counter once and shares it. It is safe for concurrent use: the tiktoken
// encoder is read-only after construction (its regexp2 matcher pools its
// runners under a mutex) and the message cache has its own lock.
type Counter struct {
	enc     Encoding
	encoder *tiktoken.Tiktoken
	cache   *messageCache
	seed    maphash.Seed
}

// NewCounter builds a Counter for enc from the vocabulary embedded in
// tiktoken-go-loader; no network is used. An unknown encoding name is an
// EINVALID error.
func NewCounter(enc Encoding) (*Counter, error) {
	encoder, err := newTiktoken(enc)
	if err != nil {
		return nil, err
	}
	return &Counter{
		enc:     enc,
		encoder: encoder,
		cache:   newMessageCache(DefaultMessageCacheSize),
		seed:    maphash.MakeSeed(),
	}, nil
}

// Encoding returns the encoding the Counter was built for, so a caller can
// report which vocabulary its figures come from.
func (c *Counter) Encoding() Encoding { return c.enc }

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
func (c *Counter) Count(text string) int {
	total := 0
	var blindSeen map[string]int // blind chunk → its count, for repeated runs
	forEachChunk(text, chunkLimit, runLimit, func(chunk string, blind bool) {
		if n, ok := blindSeen[chunk]; ok && blind {
			total += n
			return
		}
		n := len(c.encoder.EncodeOrdinary(chunk))
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

// countPlain is the unguarded tokenizer, for tests and benchmarks that
// compare against it.
func (c *Counter) countPlain(text string) int {
	return len(c.encoder.EncodeOrdinary(text))
}
