package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// rawJSON holds a JSON value as a slice of the line being decoded, without
// the copy json.RawMessage makes. It is valid only until the parser
// returns from record (the line buffer is reused), so it must be resolved
// there; it lets a huge tool output be clipped while it is unquoted
// instead of first being copied whole.
type rawJSON []byte

// UnmarshalJSON implements json.Unmarshaler.
func (r *rawJSON) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

// toolText resolves tool result content (a JSON string, an array of text
// and image blocks, or anything else as its JSON text) to text cut to the
// output limit. It returns the text kept and the original size (0 when
// nothing was cut). A string is unquoted straight into the head and tail
// it keeps, so memory stays at the limit whatever the output's size.
func (d *Decoder) toolText(raw []byte) (string, int, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return "", 0, nil
	case raw[0] == '"':
		return clipJSONString(raw, d.opts.MaxToolOutputBytes)
	case raw[0] == '[':
		var rc resultContent
		if err := rc.UnmarshalJSON(raw); err != nil {
			return "", 0, err
		}
		s, n := d.clipOutput(string(rc))
		return s, n, nil
	}
	s, n := d.clipOutput(string(raw))
	return s, n, nil
}

// clipJSONString unquotes a JSON string literal, keeping only its first
// and last limit/2 bytes (around the elision marker) when the text is
// longer than limit; a negative limit keeps all. The result is the same
// as json.Unmarshal followed by Decoder.clipOutput, without the full-size
// copy.
func clipJSONString(lit []byte, limit int) (string, int, error) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", 0, fmt.Errorf("malformed JSON string")
	}
	body := lit[1 : len(lit)-1]
	if limit < 0 {
		var s string
		if err := json.Unmarshal(lit, &s); err != nil {
			return "", 0, fmt.Errorf("malformed JSON string: %w", jsonReason(err))
		}
		return s, 0, nil
	}
	if len(body) <= limit {
		if bytes.IndexByte(body, '\\') < 0 {
			if plainJSON(body) {
				return string(body), 0, nil
			}
			var s string
			if err := json.Unmarshal(lit, &s); err != nil {
				return "", 0, fmt.Errorf("malformed JSON string: %w", jsonReason(err))
			}
			if len(s) <= limit {
				return s, 0, nil
			}
		} else {
			// Unquoting valid UTF-8 never lengthens the text, so it
			// fits the limit: one buffer the size of the literal, no
			// ring. (A fixed head-and-ring pair here cost 40 KiB per
			// short result with an escape, two thirds of all a Claude
			// Code parse allocated.) Bytes that are not UTF-8 become
			// U+FFFD and may outgrow it: then the general path below.
			w := clipSink{headCap: len(body)}
			w.head.Grow(len(body))
			if err := unquoteJSON(body, &w); err != nil {
				return "", 0, err
			}
			if !w.overflow {
				return w.head.String(), 0, nil
			}
		}
	}
	// Keep the first headN and last tailN bytes, each with the overlap
	// the redaction of the pieces needs; the tail is a ring.
	headN := limit / 2
	tailN := limit - headN
	w := clipSink{headCap: headN + redactOverlap, ringN: tailN + redactOverlap}
	w.head.Grow(min(w.headCap, len(body)))
	if err := unquoteJSON(body, &w); err != nil {
		return "", 0, err
	}
	if w.tailPos <= w.ringN {
		// The ring never wrapped: head and ring hold the whole text.
		s := w.head.String() + string(w.tail[:w.tailPos])
		if w.total <= limit {
			return s, 0, nil
		}
		return clipString(s, limit), w.total, nil
	}
	start := w.tailPos % w.ringN
	t := append(append(make([]byte, 0, w.ringN), w.tail[start:]...), w.tail[:start]...)
	return joinClipped(w.head.String(), string(t), w.total, headN, tailN, 0), w.total, nil
}

// clipSink receives unquoted text: its first headCap bytes in head, the
// rest through a ring of the last ringN bytes, allocated only when the
// head is full (with no ring, overflow records that the head was).
type clipSink struct {
	headCap, ringN int
	head           strings.Builder
	tail           []byte // ring
	total, tailPos int    // bytes written; bytes past the head
	overflow       bool
}

// write takes a run of bytes at once: the head is filled by one append,
// and of what goes past it only the ring's last ringN bytes are copied
// (tailPos still counts every byte, as byte-by-byte writes would leave
// it).
func (w *clipSink) write(p []byte) {
	w.total += len(p)
	if n := min(w.headCap-w.head.Len(), len(p)); n > 0 {
		w.head.Write(p[:n])
		p = p[n:]
	}
	if len(p) == 0 {
		return
	}
	if w.ringN == 0 {
		w.overflow = true
		return
	}
	if w.tail == nil {
		w.tail = make([]byte, w.ringN)
	}
	if skip := len(p) - w.ringN; skip > 0 {
		w.tailPos += skip
		p = p[skip:]
	}
	for len(p) > 0 {
		n := copy(w.tail[w.tailPos%w.ringN:], p)
		w.tailPos += n
		p = p[n:]
	}
}

// writeByte is write of one byte.
func (w *clipSink) writeByte(c byte) {
	if w.head.Len() < w.headCap {
		w.total++
		w.head.WriteByte(c)
		return
	}
	w.write([]byte{c})
}

// unquoteJSON decodes a JSON string literal's body into w, as
// encoding/json does (a lone or mismatched surrogate, or a byte that is
// not UTF-8, becomes U+FFFD).
func unquoteJSON(body []byte, w *clipSink) error {
	var rb [utf8.UTFMax]byte
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			if i+1 >= len(body) {
				return fmt.Errorf("malformed JSON string: bad escape")
			}
			switch e := body[i+1]; e {
			case '"', '\\', '/':
				w.writeByte(e)
				i += 2
			case 'b':
				w.writeByte('\b')
				i += 2
			case 'f':
				w.writeByte('\f')
				i += 2
			case 'n':
				w.writeByte('\n')
				i += 2
			case 'r':
				w.writeByte('\r')
				i += 2
			case 't':
				w.writeByte('\t')
				i += 2
			case 'u':
				r, n := hex4(body[i+2:])
				if n < 0 {
					return fmt.Errorf("malformed JSON string: bad \\u escape")
				}
				i += 6
				if utf16.IsSurrogate(r) {
					if r2, n2 := hex4(after(body, i+2)); n2 >= 0 && i+1 < len(body) && body[i] == '\\' && body[i+1] == 'u' {
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							r = dec
							i += 6
						} else {
							r = utf8.RuneError
						}
					} else {
						r = utf8.RuneError
					}
				}
				w.write(rb[:utf8.EncodeRune(rb[:], r)])
			default:
				return fmt.Errorf("malformed JSON string: bad escape")
			}
		case c < 0x20 || c == '"':
			return fmt.Errorf("malformed JSON string: control character")
		case c < utf8.RuneSelf:
			// A run of plain ASCII is written whole.
			j := i + 1
			for j < len(body) && body[j] >= 0x20 && body[j] < utf8.RuneSelf && body[j] != '"' && body[j] != '\\' {
				j++
			}
			w.write(body[i:j])
			i = j
		default:
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size == 1 {
				w.write([]byte("\uFFFD"))
			} else {
				w.write(body[i : i+size])
			}
			i += size
		}
	}
	return nil
}

// plainJSON reports whether a string literal's body needs no unquoting:
// valid UTF-8 with no quote and no control character.
func plainJSON(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == '"' {
			return false
		}
	}
	return utf8.Valid(b)
}

// lastRuneStart is the index of the last byte that starts a rune, or -1.
func lastRuneStart(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return -1
}

func after(b []byte, i int) []byte {
	if i > len(b) {
		return nil
	}
	return b[i:]
}

// hex4 reads four hex digits; n is -1 when they are not.
func hex4(b []byte) (rune, int) {
	if len(b) < 4 {
		return 0, -1
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, -1
		}
		r = r*16 + rune(c)
	}
	return r, 4
}
