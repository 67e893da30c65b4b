package capacity

import (
	"unicode"
	"unicode/utf8"
)

// chunkLimit is the largest number of bytes handed to the tokenizer at
// once; ordinary text is cut at the last safe split before it. Cutting
// costs nothing in accuracy and makes counting faster than encoding the
// whole text at once (BenchmarkCount against BenchmarkEncodeOrdinaryPlain).
const chunkLimit = 2048

// runLimit is how long a stretch with no safe split may grow before it is
// cut blindly. tiktoken-go's byte-pair merge is quadratic in the length of
// one regex piece, and such stretches (a megabyte of spaces, one emoji
// repeated, a letters-only blob) are single pieces, so the cost of a
// megabyte of them that does not repeat itself grows with this limit
// (Count reuses the count of a blind chunk it has already seen in the same
// call, which makes repeated runs cheap). 1 KiB keeps ordinary text exact: the longest
// stretches without a safe split in real transcripts are terminal
// box-drawing lines ("╭────…╮", 3 bytes a rune) and "-----" rules, which
// stay under it. A power of two keeps runs of spaces (o200k has a
// 128-space token), of 4-byte emoji and of repeated letters cut on token
// boundaries, which keeps the blind cut's error small.
const runLimit = 1024

// maxBlindMemo bounds how many distinct blind chunks one Count call
// remembers. A periodic run cut every runLimit bytes repeats after a few
// chunks (the period of the cut positions against the text's own period).
const maxBlindMemo = 16

// forEachChunk calls fn with consecutive chunks of text that together make
// up all of it. Chunks end at safe splits (see safeSplit) and are at most
// chunkMax bytes long, except that a stretch with no safe split is cut at
// a rune boundary every runMax bytes; blind is true for a chunk that ends
// at such a cut. It needs utf8.UTFMax <= runMax <= chunkMax.
func forEachChunk(text string, chunkMax, runMax int, fn func(chunk string, blind bool)) {
	if len(text) <= runMax {
		if text != "" {
			fn(text, false)
		}
		return
	}
	start, lastSafe := 0, 0
	prev, width := utf8.DecodeRuneInString(text)
	for p := width; p < len(text); p += width {
		var r rune
		r, width = utf8.DecodeRuneInString(text[p:])
		end := p + width // where the chunk would end if it took r
		if runStart := max(start, lastSafe); end-runStart > runMax {
			if lastSafe > start {
				fn(text[start:lastSafe], false)
				start = lastSafe
			}
			fn(text[start:p], true) // no safe split in the last runMax bytes
			start = p
		} else if end-start > chunkMax {
			fn(text[start:lastSafe], false) // lastSafe > start: the run fits
			start = lastSafe
		}
		if safeSplit(prev, r, text[p+width:]) {
			lastSafe = p
		}
		prev = r
	}
	if start < len(text) {
		fn(text[start:], false)
	}
}

// safeSplit reports whether the text may be cut between prev and next
// (afterNext is the text that follows next): whether, for both o200k_base
// and cl100k_base, no piece of the tokenizer's pre-split regex spans that
// position and the text before it splits into the same pieces whether or
// not the text after it is there. When both hold, encoding the two sides
// separately gives exactly the tokens of encoding them together.
//
// The patterns (encoder.go) are alternations tried in order at each piece
// start; none has a look-behind or an anchor, so the pieces after a piece
// boundary never depend on what came before it. What a cut can change is
// only a match attempt that started before the cut and read the rune at it;
// each rule makes every such attempt behave on next as it does at the end
// of the text. "Punctuation" below is the pattern's class
// [^\s\p{L}\p{N}]: symbols, emoji, controls, and (in cl100k) marks.
//
//  1. prev is '\n' and next is neither white space nor '/'. A piece holding
//     the '\n' is `\s*[\r\n]+` (tried before `\s+(?!\S)`, and it always
//     matches a white-space run that ends in '\n'), which stops before a
//     non-space, or the tail `[\r\n/]*` of a punctuation piece, which stops
//     before anything but CR, LF and '/'. Letter pieces exclude CR and LF
//     even as their optional first rune.
//  2. prev is a letter and next is not a letter, not a combining mark
//     (o200k's letter classes include marks) and not an apostrophe (the
//     contraction suffix 's 't 're 've 'm 'll 'd): only letter pieces and
//     cl100k's contraction piece hold letters, and they stop there. This is
//     the word boundary: " word" always starts a piece.
//  3. prev is a digit (\p{N}) and next is not: only `\p{N}{1,3}` holds
//     digits. (A cut inside a run of digits would regroup the threes.)
//  4. prev is punctuation and next is a digit: the punctuation piece stops
//     before a digit, and a letter piece that could take prev as its first
//     rune needs a letter (or, in o200k, a mark) next.
//  5. prev is punctuation or a mark and next is white space other than CR
//     and LF: punctuation and letter pieces stop there, the tail
//     `[\r\n/]*` takes only CR, LF and '/'.
//  6. prev and next are white space, next is not CR or LF, and the rune
//     after next is not white space: the run ends right after next, so
//     `\s+(?!\S)` gives the run up to and without next (the last space
//     joins the following piece, " word"), exactly what it gives for the
//     run cut short at next; `\s*[\r\n]+`, tried first, ends at the last
//     CR or LF of the run either way, since next is neither.
//
// Runs of one kind with none of these inside (a megabyte of spaces, one
// emoji repeated, a letters-only blob, a digits-only blob) have no safe
// split. The property tests in split_test.go check these rules against the
// real encoder.
func safeSplit(prev, next rune, afterNext string) bool {
	switch {
	case unicode.IsLetter(prev):
		return next != '\'' && !unicode.IsLetter(next) && !unicode.IsMark(next)
	case unicode.IsNumber(prev):
		return !unicode.IsNumber(next)
	case unicode.IsSpace(prev):
		if prev == '\n' && next != '/' && !unicode.IsSpace(next) {
			return true // rule 1
		}
		if next == '\r' || next == '\n' || !unicode.IsSpace(next) || afterNext == "" {
			return false
		}
		after, _ := utf8.DecodeRuneInString(afterNext)
		return !unicode.IsSpace(after)
	default: // punctuation, symbols, marks, controls
		return unicode.IsNumber(next) || next != '\r' && next != '\n' && unicode.IsSpace(next)
	}
}
