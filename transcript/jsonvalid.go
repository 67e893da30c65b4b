package transcript

import (
	"encoding/binary"
	"math/bits"
)

// validJSON reports whether b is one valid JSON value, exactly as
// json.Valid(b) does, in a fraction of its time. json.Valid steps its
// scanner's state function over every byte; a Claude Code line is mostly
// long string values (tool output, file contents, repeated in
// toolUseResult), and here a string's body is passed over eight bytes at
// a time until its closing quote, a backslash or a control
// byte. Like encoding/json it does not check UTF-8 and refuses nesting
// deeper than 10000. TestValidJSONMatchesEncodingJSON and FuzzValidJSON
// hold it to json.Valid's answers.
func validJSON(b []byte) bool {
	v := jsonValidator{b: b}
	i, ok := v.value(v.space(0))
	return ok && v.space(i) == len(b)
}

// maxJSONDepth is encoding/json's maxNestingDepth.
const maxJSONDepth = 10000

type jsonValidator struct {
	b     []byte
	depth int
}

func (v *jsonValidator) space(i int) int {
	for i < len(v.b) && (v.b[i] == ' ' || v.b[i] == '\t' || v.b[i] == '\n' || v.b[i] == '\r') {
		i++
	}
	return i
}

// value checks the value at b[i] and returns the offset after it.
func (v *jsonValidator) value(i int) (int, bool) {
	b := v.b
	if i >= len(b) {
		return i, false
	}
	switch c := b[i]; {
	case c == '"':
		return v.str(i)
	case c == '{':
		return v.object(i)
	case c == '[':
		return v.array(i)
	case c == 't':
		return v.literal(i, "true")
	case c == 'f':
		return v.literal(i, "false")
	case c == 'n':
		return v.literal(i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return v.number(i)
	}
	return i, false
}

func (v *jsonValidator) literal(i int, word string) (int, bool) {
	if len(v.b)-i < len(word) || string(v.b[i:i+len(word)]) != word {
		return i, false
	}
	return i + len(word), true
}

const (
	swarLo = 0x0101010101010101
	swarHi = 0x8080808080808080
)

func (v *jsonValidator) str(i int) (int, bool) {
	b := v.b
	for i++; i < len(b); {
		// Eight plain bytes at a time: no quote, backslash or control
		// byte among them (the usual SWAR zero-byte test, with
		// lo = 0x01 repeated and hi = 0x80 repeated).
		for i+8 <= len(b) {
			x := binary.LittleEndian.Uint64(b[i:])
			q, bs := x^(swarLo*'"'), x^(swarLo*'\\')
			if m := ((q-swarLo)&^q | (bs-swarLo)&^bs | (x-swarLo*0x20)&^x) & swarHi; m != 0 {
				// The lowest flagged byte is the first stop (the test's
				// false positives only come above a true one): go
				// straight to it, not a byte at a time.
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(b) {
			break
		}
		c := b[i]
		if c >= 0x20 && c != '"' && c != '\\' { // on through the body
			i++
			continue
		}
		switch {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		}
		// A backslash.
		if i+1 >= len(b) {
			return i, false
		}
		switch b[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if len(b)-i < 6 {
				return i, false
			}
			for _, h := range b[i+2 : i+6] {
				if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
					return i, false
				}
			}
			i += 6
		default:
			return i, false
		}
	}
	return i, false
}

func (v *jsonValidator) number(i int) (int, bool) {
	b := v.b
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return i, false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return i, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return i, false
		}
		i = j
	}
	return i, true
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

func (v *jsonValidator) object(i int) (int, bool) { return v.container(i, '}') }

func (v *jsonValidator) array(i int) (int, bool) { return v.container(i, ']') }

// container validates an object (close '}', elements key: value) or an
// array (close ']', elements values) whose opening bracket is at b[i].
func (v *jsonValidator) container(i int, close byte) (int, bool) {
	if v.depth++; v.depth > maxJSONDepth {
		return i, false
	}
	b := v.b
	i = v.space(i + 1)
	if i < len(b) && b[i] == close {
		v.depth--
		return i + 1, true
	}
	for {
		var ok bool
		if close == '}' {
			i, ok = v.member(i)
		} else {
			i, ok = v.value(i)
		}
		if !ok {
			return i, false
		}
		i = v.space(i)
		if i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i = v.space(i + 1)
		case close:
			v.depth--
			return i + 1, true
		default:
			return i, false
		}
	}
}

// member validates an object's `"key": value` at b[i].
func (v *jsonValidator) member(i int) (int, bool) {
	b := v.b
	if i >= len(b) || b[i] != '"' {
		return i, false
	}
	i, ok := v.str(i)
	if !ok {
		return i, false
	}
	i = v.space(i)
	if i >= len(b) || b[i] != ':' {
		return i, false
	}
	return v.value(v.space(i + 1))
}

// objectWalk validates the object at b[i] as object does and hands each
// member to fn as it goes: its key (the bytes between the quotes) and
// the offset of its value, which fn checks (v.value, or objectWalk to
// read an object's members too) and returns the end of. fn's false stops
// the walk, and objectWalk reports false.
func (v *jsonValidator) objectWalk(i int, fn func(key []byte, at int) (int, bool)) (int, bool) {
	if v.depth++; v.depth > maxJSONDepth {
		return i, false
	}
	b := v.b
	i = v.space(i + 1)
	if i < len(b) && b[i] == '}' {
		v.depth--
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return i, false
		}
		kEnd, ok := v.str(i)
		if !ok {
			return kEnd, false
		}
		key := b[i+1 : kEnd-1]
		if i = v.space(kEnd); i >= len(b) || b[i] != ':' {
			return i, false
		}
		if i, ok = fn(key, v.space(i+1)); !ok {
			return i, false
		}
		if i = v.space(i); i >= len(b) {
			return i, false
		}
		switch b[i] {
		case ',':
			i = v.space(i + 1)
		case '}':
			v.depth--
			return i + 1, true
		default:
			return i, false
		}
	}
}
