package capacity

import (
	"unicode"
	"unicode/utf8"
)

// maxUnsplitChunk is the largest number of bytes handed to the tokenizer at
// once. Ordinary text is cut at the last safe split before this size, so it
// only decides how long a run with no safe split may get before it is cut
// blindly. tiktoken-go's byte-pair merge is quadratic in the piece length:
// at 1 KiB a megabyte of one pathological run costs about a thousand
// 1 KiB encodes (well under a second in all), and a power of two keeps
// runs of spaces and of 4-byte emoji cut on token-sized boundaries, which
// keeps the blind cut's error small.
const maxUnsplitChunk = 1024

// forEachChunk calls fn with consecutive chunks of text that together make
// up all of it. Chunks end at safe splits (see safeSplit) and are at most
// limit bytes long, except that a chunk is cut after limit bytes at a rune
// boundary when it holds no safe split at all.
func forEachChunk(text string, limit int, fn func(string)) {
	if len(text) <= limit {
		if text != "" {
			fn(text)
		}
		return
	}
	start, lastSafe := 0, 0
	prev, _ := utf8.DecodeRuneInString(text)
	for p, r := range text {
		if p == 0 {
			continue
		}
		if p-start >= limit {
			cut := lastSafe
			if cut <= start {
				cut = p // no safe split in the chunk: cut blindly here
			}
			fn(text[start:cut])
			start = cut
		}
		if safeSplit(prev, r) {
			lastSafe = p
		}
		prev = r
	}
	if start < len(text) {
		fn(text[start:])
	}
}

// safeSplit reports whether the tokenizer's pre-split regex never lets one
// piece span the boundary between the rune before (prev) and the rune at
// the position (next), for both o200k_base and cl100k_base, and whether the
// text before the boundary is split into the same pieces whether or not
// the text after it is there. When both hold, encoding the two sides
// separately gives exactly the tokens of encoding them together.
//
// The patterns (encoder.go) are alternations tried in order at each piece
// start; none has a look-behind or an anchor, so the pieces after a piece
// boundary never depend on what came before it. What can differ when the
// text is cut at p is only a match attempt that started before p and read
// the rune at p; each rule below makes every such attempt behave the same
// on the rune at p as on the end of the text:
//
//   - prev is '\n' and next is neither white space nor '/': a piece holding
//     the '\n' is either `\s*[\r\n]+` (tried before `\s+(?!\S)`, and it
//     always matches a white-space run ending in '\n'), which stops before a
//     non-space, or the tail `[\r\n/]*` / `[\r\n]*` of a punctuation piece,
//     which stops before anything but CR, LF and '/'. The letter pieces
//     exclude '\r' and '\n' even as their optional first rune.
//   - prev is a letter and next is not a letter, not a combining mark (o200k
//     puts marks in its letter classes) and not an apostrophe (the optional
//     contraction suffix 's 't 're 've 'm 'll 'd): only letter pieces and
//     cl100k's contraction piece can hold a letter, and they stop there.
//     This covers the word boundary " word", which always starts a piece.
//   - prev is a digit (\p{N}) and next is not: only `\p{N}{1,3}` holds
//     digits, and it stops there (a cut inside a run of digits would regroup
//     the threes, so that is never done).
//   - prev is ASCII punctuation and next is a digit: the punctuation piece
//     `[^\s\p{L}\p{N}]+[\r\n/]*` stops before a digit, and a letter piece
//     that could take the punctuation as its first rune needs a letter next.
//
// Runs of white space, of punctuation or symbols (emoji), and of letters or
// digits have no safe split inside them. The property test in
// split_test.go checks this reasoning against the real encoder.
func safeSplit(prev, next rune) bool {
	switch {
	case prev == '\n':
		return next != '/' && !unicode.IsSpace(next)
	case unicode.IsLetter(prev):
		return next != '\'' && !unicode.IsLetter(next) && !unicode.IsMark(next)
	case unicode.IsNumber(prev):
		return !unicode.IsNumber(next)
	case prev < utf8.RuneSelf && unicode.IsPunct(prev) || prev < utf8.RuneSelf && unicode.IsSymbol(prev):
		return unicode.IsNumber(next)
	}
	return false
}
