package capacity

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// Bounds of a Counter's word memo: words longer than wordMemoMaxLen are
// rarely repeated and are encoded each time; past wordMemoMaxEntries new
// words are no longer remembered (a few MB at most).
const (
	wordMemoMaxLen     = 48
	wordMemoMaxEntries = 1 << 16
)

// wordMemo remembers the token count of each short piece of text between
// two consecutive safe splits (a "word": " the", "func", "\n\t") that a
// Counter has encoded. tiktoken-go's pre-split regexp (regexp2) costs about
// half a microsecond a byte, and the texts a compile counts repeat their
// words over and over (the same lines reach several candidate sections),
// so most words are answered from the memo. A cut at a safe split never
// changes the tokens (see safeSplit; TestSafeSplitsExactOnTranscripts
// checks every split position of the corpus), so summing the words'
// counts gives exactly the count of the whole text. It has its own lock:
// a Counter is shared.
type wordMemo struct {
	mu     sync.Mutex
	counts map[string]int
}

func newWordMemo() *wordMemo { return &wordMemo{counts: make(map[string]int, 1024)} }

// countWords counts chunk, a run of text between safe splits (or the ends
// of the text), word by word: a short word from the memo, or encoded
// alone and remembered; a long one encoded with the long words next to
// it, in one EncodeOrdinary call (they rarely repeat).
func (m *wordMemo) countWords(encoder *bpe, chunk string) int {
	total := 0
	long := -1 // start of the run of long words not yet encoded
	flush := func(end int) {
		if long >= 0 {
			total += len(encoder.EncodeOrdinary(chunk[long:end]))
			long = -1
		}
	}
	forEachWord(chunk, func(start, end int) {
		w := chunk[start:end]
		if len(w) > wordMemoMaxLen {
			if long < 0 {
				long = start
			}
			return
		}
		flush(start)
		m.mu.Lock()
		n, ok := m.counts[w]
		m.mu.Unlock()
		if !ok {
			n = len(encoder.EncodeOrdinary(w))
			m.mu.Lock()
			if len(m.counts) < wordMemoMaxEntries {
				m.counts[strings.Clone(w)] = n
			}
			m.mu.Unlock()
		}
		total += n
	})
	flush(len(chunk))
	return total
}

// forEachWord calls fn with the bounds of each piece of text between
// consecutive safe splits, in order; together they make up all of text.
func forEachWord(text string, fn func(start, end int)) {
	if text == "" {
		return
	}
	start := 0
	prev, width := utf8.DecodeRuneInString(text)
	for p := width; p < len(text); p += width {
		var r rune
		r, width = utf8.DecodeRuneInString(text[p:])
		if safeSplit(prev, r, text[p+width:]) {
			fn(start, p)
			start = p
		}
		prev = r
	}
	fn(start, len(text))
}
