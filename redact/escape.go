package redact

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// nextHiding returns the offset, from from on, of a JSON escape that the scan of the
// raw text cannot see through: an escaped ASCII character (\u002d), an
// escaped slash, or a second level of escaping (\\\" , \\\\). The
// common escapes \" \n \t are read by the raw scan itself (as quotes
// and line breaks), which spares most JSONL a second pass.
func nextHiding(s string, from int) int {
	for {
		k := strings.IndexByte(s[from:], '\\')
		if k < 0 || from+k+1 >= len(s) {
			return -1
		}
		p := from + k
		switch s[p+1] {
		case '/':
			return p
		case '\\':
			if p+2 < len(s) && (s[p+2] == '\\' || s[p+2] == '"' || s[p+2] == 'u' || s[p+2] == '/') {
				return p
			}
		case 'u':
			if p+5 < len(s) && s[p+2] == '0' && s[p+3] == '0' && s[p+4] >= '2' && s[p+4] <= '7' {
				return p
			}
		}
		from = p + 2
	}
}

// unescapeView decodes the JSON escapes in s (outside and inside string
// literals alike: s is text, not necessarily JSON). offs[k] is the offset
// in s of the byte or escape that produced byte k of the view, and
// offs[len(view)] is len(s).
func unescapeView(s string) (string, []int) {
	out := make([]byte, 0, len(s))
	offs := make([]int, 0, len(s)+1)
	emit := func(at int, p ...byte) {
		for _, c := range p {
			out = append(out, c)
			offs = append(offs, at)
		}
	}
	for i := 0; i < len(s); {
		k := strings.IndexByte(s[i:], '\\')
		if k != 0 {
			if k < 0 {
				k = len(s) - i
			}
			out = append(out, s[i:i+k]...)
			for j := i; j < i+k; j++ {
				offs = append(offs, j)
			}
			i += k
			continue
		}
		c := s[i]
		if i+1 >= len(s) {
			emit(i, c)
			i++
			continue
		}
		switch e := s[i+1]; e {
		case '"', '\\', '/':
			emit(i, e)
			i += 2
		case 'n':
			emit(i, '\n')
			i += 2
		case 'r':
			emit(i, '\r')
			i += 2
		case 't':
			emit(i, '\t')
			i += 2
		case 'b':
			emit(i, '\b')
			i += 2
		case 'f':
			emit(i, '\f')
			i += 2
		case 'u':
			r1, ok := hex4(s, i+2)
			if !ok {
				emit(i, c)
				i++
				continue
			}
			width := 6
			if utf16.IsSurrogate(r1) {
				if r2, ok2 := hex4(s, i+8); ok2 && i+7 < len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
					if r := utf16.DecodeRune(r1, r2); r != utf8.RuneError {
						r1, width = r, 12
					}
				}
			}
			var buf [4]byte
			n := utf8.EncodeRune(buf[:], r1)
			emit(i, buf[:n]...)
			i += width
		default:
			emit(i, c)
			i++
		}
	}
	offs = append(offs, len(s))
	return string(out), offs
}

// hex4 reads four hex digits at s[i:].
func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// mapBack maps a finding in an unescaped view onto the escaped text:
// the range grows to whole escapes.
func mapBack(f Finding, offs []int, n int) (Finding, bool) {
	if f.Start >= len(offs) || f.End >= len(offs) {
		return f, false
	}
	e := f.End
	for e < len(offs)-1 && e > 0 && offs[e] == offs[e-1] {
		e++
	}
	start, end := offs[f.Start], offs[e]
	if end > n {
		end = n
	}
	return Finding{Kind: f.Kind, Start: start, End: end}, end > start
}

// JSON redacts JSON text and keeps it valid JSON with its layout and key
// order: every string (keys too) is redacted as text, and a string under
// a secret-sounding key ("password", "api_key", "SessionToken") is
// redacted whole, since the key that marks it is not part of it. Text
// that is not valid JSON is redacted as text.
func JSON(b []byte) []byte { return shared().JSON(b) }

// JSON is the package-level JSON with this Redactor.
func (r *Redactor) JSON(b []byte) []byte {
	out, _ := r.jsonCount(b)
	return out
}

// jsonCount redacts JSON text and says how many secrets it replaced. The
// input is returned unchanged (same slice) when nothing was found.
func (r *Redactor) jsonCount(b []byte) ([]byte, int) {
	if !json.Valid(b) {
		s, n := r.redactCount(string(b))
		if n == 0 {
			return b, 0
		}
		return []byte(s), n
	}
	return r.validJSONCount(b)
}

// validJSONCount is jsonCount for b known to be valid JSON (rawJSON has
// just checked it: a tool call's input is not validated twice).
func (r *Redactor) validJSONCount(b []byte) ([]byte, int) {
	type frame struct {
		obj bool
		key string
	}
	var (
		stack []frame
		out   []byte
		last  int
		count int
	)
	context := func() string {
		if len(stack) == 0 {
			return ""
		}
		return stack[len(stack)-1].key
	}
	for i := 0; i < len(b); {
		switch b[i] {
		case '{':
			stack = append(stack, frame{obj: true})
		case '[':
			stack = append(stack, frame{key: context()})
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case '"':
			end := stringEnd(b, i)
			lit := b[i:end]
			var str string
			if bytes.IndexByte(lit, '\\') < 0 {
				str = string(lit[1 : len(lit)-1])
			} else if err := json.Unmarshal(lit, &str); err != nil {
				i = end
				continue
			}
			isKey := len(stack) > 0 && stack[len(stack)-1].obj && nextIsColon(b, end)
			var red string
			var n int
			if isKey {
				stack[len(stack)-1].key = str
				red, n = r.redactCount(str)
			} else if kind, ok := r.jsonKeySecret(context(), str); ok {
				red, n = Placeholder(kind), 1
			} else {
				red, n = r.redactCount(str)
			}
			if n > 0 {
				enc, err := marshal(red)
				if err == nil {
					out = append(out, b[last:i]...)
					out = append(out, enc...)
					last = end
					count += n
				}
			}
			i = end
			continue
		}
		i++
	}
	if count == 0 {
		return b, 0
	}
	return append(out, b[last:]...), count
}

// stringEnd returns the index after the string literal starting at
// b[i] == '"' (the input is valid JSON).
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

func nextIsColon(b []byte, i int) bool {
	for ; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			continue
		case ':':
			return true
		}
		return false
	}
	return false
}

// marshal encodes v without HTML escaping, so redacted text keeps its
// "<" and "&" readable.
func marshal(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// Clip redacts s and then clips it to at most maxBytes bytes, cutting at
// a rune boundary and never through a "[redacted:…]" marker. Clipping
// first and redacting after can cut a secret's prefix away and leave its
// body unrecognisable; callers that shorten text must use this instead.
func Clip(s string, maxBytes int) string { return shared().Clip(s, maxBytes) }

// Clip is the package-level Clip with this Redactor.
func (r *Redactor) Clip(s string, maxBytes int) string {
	out := r.String(s)
	maxBytes = max(maxBytes, 0)
	if len(out) <= maxBytes {
		return out
	}
	return out[:clipAt(out, maxBytes)]
}

// HeadTail redacts s and then, if it is longer than maxBytes, keeps its
// head and tail (half the budget each) around marker(elided), where
// elided is the number of bytes left out. Cuts fall on rune boundaries
// and never inside a "[redacted:…]" marker. It is the redact-first form
// of the head-and-tail clipping tool output gets.
func HeadTail(s string, maxBytes int, elide func(elided int) string) string {
	return shared().HeadTail(s, maxBytes, elide)
}

// HeadTail is the package-level HeadTail with this Redactor.
func (r *Redactor) HeadTail(s string, maxBytes int, elide func(elided int) string) string {
	out := r.String(s)
	maxBytes = max(maxBytes, 0)
	if len(out) <= maxBytes {
		return out
	}
	head := clipAt(out, maxBytes/2)
	tail := len(out) - (maxBytes - maxBytes/2)
	for tail < len(out) && !utf8.RuneStart(out[tail]) {
		tail++
	}
	// A tail that starts inside a marker starts after it instead.
	if k := strings.LastIndex(out[max(0, tail-64):tail], "["); k >= 0 {
		k += max(0, tail-64)
		if strings.HasPrefix(out[k:], marker) {
			if e := strings.IndexByte(out[k:], ']'); e >= 0 && k+e >= tail {
				tail = k + e + 1
			}
		}
	}
	return out[:head] + elide(tail-head) + out[tail:]
}

// clipAt is the cut point at most n bytes into s: on a rune boundary and
// before any "[redacted:…]" marker that n would split.
func clipAt(s string, n int) int {
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	from := max(0, cut-64)
	if k := strings.LastIndexByte(s[from:cut], '['); k >= 0 {
		k += from
		if strings.HasPrefix(s[k:], marker) && strings.IndexByte(s[k:cut], ']') < 0 {
			cut = k
		}
	}
	return cut
}
