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
// encoding the whole text at once. Only a run of more than
// maxUnsplitChunk bytes with no such position (a megabyte of spaces, one
// emoji repeated, a letters-only blob) is cut at a fixed size, and its
// count is then an approximation: close, not exact.
func (c *Counter) Count(text string) int {
	total := 0
	forEachChunk(text, maxUnsplitChunk, func(chunk string, _ bool) {
		total += len(c.encoder.EncodeOrdinary(chunk))
	})
	return total
}

// countPlain is the unguarded tokenizer, for tests and benchmarks that
// compare against it.
func (c *Counter) countPlain(text string) int {
	return len(c.encoder.EncodeOrdinary(text))
}
