package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
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
	if limit < 0 || len(body) <= limit && bytes.IndexByte(body, '\\') < 0 {
		if limit >= 0 && len(body) <= limit && plainJSON(body) {
			return string(body), 0, nil
		}
		var s string
		if err := json.Unmarshal(lit, &s); err != nil {
			return "", 0, fmt.Errorf("malformed JSON string: %w", jsonReason(err))
		}
		if limit < 0 || len(s) <= limit {
			return s, 0, nil
		}
	}
	// Keep the first headN and last tailN bytes, each with the overlap
	// the redaction of the pieces needs; the tail is a ring.
	headN := limit / 2
	tailN := limit - headN
	headCap, ringN := headN+redactOverlap, tailN+redactOverlap
	head := make([]byte, 0, headCap)
	tail := make([]byte, ringN) // ring
	total, tailPos := 0, 0
	// emit takes a run of bytes at once: the head is filled by one
	// append, and of what goes past it only the ring's last ringN bytes
	// are copied (tailPos still counts every byte, as byte-by-byte
	// writes would leave it).
	emit := func(p []byte) {
		total += len(p)
		if n := min(headCap-len(head), len(p)); n > 0 {
			head = append(head, p[:n]...)
			p = p[n:]
		}
		if skip := len(p) - ringN; skip > 0 {
			tailPos += skip
			p = p[skip:]
		}
		for len(p) > 0 {
			n := copy(tail[tailPos%ringN:], p)
			tailPos += n
			p = p[n:]
		}
	}
	var rb [utf8.UTFMax]byte
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			if i+1 >= len(body) {
				return "", 0, fmt.Errorf("malformed JSON string: bad escape")
			}
			switch e := body[i+1]; e {
			case '"', '\\', '/':
				emit([]byte{e})
				i += 2
			case 'b':
				emit([]byte{'\b'})
				i += 2
			case 'f':
				emit([]byte{'\f'})
				i += 2
			case 'n':
				emit([]byte{'\n'})
				i += 2
			case 'r':
				emit([]byte{'\r'})
				i += 2
			case 't':
				emit([]byte{'\t'})
				i += 2
			case 'u':
				r, n := hex4(body[i+2:])
				if n < 0 {
					return "", 0, fmt.Errorf("malformed JSON string: bad \\u escape")
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
				emit(rb[:utf8.EncodeRune(rb[:], r)])
			default:
				return "", 0, fmt.Errorf("malformed JSON string: bad escape")
			}
		case c < 0x20 || c == '"':
			return "", 0, fmt.Errorf("malformed JSON string: control character")
		case c < utf8.RuneSelf:
			// A run of plain ASCII is emitted whole.
			j := i + 1
			for j < len(body) && body[j] >= 0x20 && body[j] < utf8.RuneSelf && body[j] != '"' && body[j] != '\\' {
				j++
			}
			emit(body[i:j])
			i = j
		default:
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size == 1 {
				emit([]byte("\uFFFD"))
			} else {
				emit(body[i : i+size])
			}
			i += size
		}
	}
	if tailPos <= ringN {
		// The ring never wrapped: head and ring hold the whole text.
		s := string(head) + string(tail[:tailPos])
		if total <= limit {
			return s, 0, nil
		}
		return clipString(s, limit), total, nil
	}
	start := tailPos % ringN
	t := append(append(make([]byte, 0, ringN), tail[start:]...), tail[:start]...)
	return joinClipped(string(head), string(t), total, headN, tailN, 0), total, nil
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
