package transcript

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/handoff-cli/handoff/redact"
)

// redactOverlap is how far each clipped piece reaches past its cut. Tool
// output is cut to a head and a tail before anything else sees it, and a
// cut through a secret's prefix ("ghp_", "-----BEGIN … PRIVATE KEY-----",
// "AWS_SECRET_ACCESS_KEY=") would leave its body unrecognisable to the
// redactor that runs later on the whole transcript. So each piece is
// redacted here, with this much text beyond the cut for context, and only
// then cut to size: a secret shorter than the overlap (a PEM RSA-4096 key
// is about 3.3 KB) is either recognised whole or lies entirely outside
// what is kept.
const redactOverlap = 4 << 10

// clipString cuts s, which is longer than limit, to a head of limit/2 and
// a tail of the rest around the elision marker, redacting each piece
// before the cut (see redactOverlap). It returns the text kept.
func clipString(s string, limit int) string {
	return clipStringOf(s, limit, len(s))
}

// clipStringOf is clipString for s that may itself be a cut of a text of
// original bytes (tool output cut again as it ages): the marker counts
// what is missing from the original, the earlier marker's few bytes
// included.
func clipStringOf(s string, limit, original int) string {
	headN := limit / 2
	tailN := limit - headN
	head := s[:min(len(s), headN+redactOverlap)]
	tail := s[max(0, len(s)-tailN-redactOverlap):]
	return joinClipped(head, tail, len(s), headN, tailN, original-len(s))
}

// joinClipped builds the clipped form of a text of total bytes from its
// first bytes (head, at least headN of them plus the overlap when the
// text has them) and its last bytes (tail, likewise). Secrets are
// replaced in both pieces before they are cut: the head keeps the text
// before offset headN (a secret that straddles it is kept as its
// placeholder), the tail the text from total-tailN on (likewise). The
// marker between them counts the original bytes left out, plus missing:
// bytes already missing from the text.
func joinClipped(head, tail string, total, headN, tailN, missing int) string {
	headFound := redact.Find(head)
	tailFound := headFound
	if tail != head {
		// A text shorter than a piece is both pieces (tool output aged
		// from 32 KiB to 1 KiB is often a few KiB): one scan, not two.
		tailFound = redact.Find(tail)
	}
	h, headEnd := keepHead(head, headN, headFound)
	tailOff := total - len(tail) // offset of tail[0] in the text
	start := len(tail) - tailN
	for start < len(tail) && !utf8.RuneStart(tail[start]) {
		start++
	}
	if tailOff+start < headEnd { // cannot happen unless a secret spans the middle
		start = headEnd - tailOff
	}
	t, tailStart := keepTail(tail, start, tailFound)
	if tailOff+tailStart < headEnd {
		t, tailStart = keepTail(tail, headEnd-tailOff, tailFound)
	}
	var b strings.Builder
	b.Grow(len(h) + len(t) + 48)
	b.WriteString(h)
	fmt.Fprintf(&b, elisionMarker, tailOff+tailStart-headEnd+missing)
	b.WriteString(t)
	return b.String()
}

// keepHead returns piece's first n bytes (cut back to a rune boundary)
// with its secrets (found: redact.Find(piece)) replaced, and the offset
// in piece where the kept text ends: past n when a secret straddles it.
func keepHead(piece string, n int, found []redact.Finding) (string, int) {
	n = min(n, len(piece))
	for n > 0 && n < len(piece) && !utf8.RuneStart(piece[n]) {
		n--
	}
	var b strings.Builder
	last := 0
	for _, f := range found {
		if f.Start >= n {
			break
		}
		b.WriteString(piece[last:f.Start])
		b.WriteString(redact.Placeholder(f.Kind))
		last = f.End
	}
	if last < n {
		b.WriteString(piece[last:n])
		last = n
	}
	return b.String(), last
}

// keepTail returns piece from offset start on with its secrets (found:
// redact.Find(piece)) replaced, and the offset where the kept text
// begins: before start when a secret straddles it (the secret is kept as
// its placeholder).
func keepTail(piece string, start int, found []redact.Finding) (string, int) {
	start = max(0, min(start, len(piece)))
	var b strings.Builder
	last := start
	for _, f := range found {
		if f.End <= start {
			continue
		}
		if f.Start < start {
			start = f.Start
		} else {
			b.WriteString(piece[last:f.Start])
		}
		b.WriteString(redact.Placeholder(f.Kind))
		last = f.End
	}
	b.WriteString(piece[last:])
	return b.String(), start
}
