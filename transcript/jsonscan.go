package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// objectMembers calls fn with each top-level member of the JSON object
// obj: its key (still quoted, escapes undecoded) and its raw value. It
// reads an object the line's json.Unmarshal has already validated, in
// one pass that finds string ends with IndexByte, so a member that is a
// huge string (toolUseResult's stdout repeats the whole tool output) is
// passed over at memchr speed instead of being checked and decoded again
// by a nested json.Unmarshal. Malformed input ends the walk early.
func objectMembers(obj []byte, fn func(key, value []byte)) {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return
	}
	i++
	for {
		i = skipSpace(obj, i)
		if i >= len(obj) || obj[i] != '"' {
			return
		}
		kEnd := stringEnd(obj, i)
		if kEnd < 0 {
			return
		}
		key := obj[i+1 : kEnd-1]
		i = skipSpace(obj, kEnd)
		if i >= len(obj) || obj[i] != ':' {
			return
		}
		i = skipSpace(obj, i+1)
		vEnd := valueEnd(obj, i)
		if vEnd < 0 {
			return
		}
		fn(key, obj[i:vEnd])
		i = skipSpace(obj, vEnd)
		if i >= len(obj) || obj[i] != ',' {
			return
		}
		i++
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the offset just past the string literal starting at
// b[i] (a quote), or -1.
func stringEnd(b []byte, i int) int {
	for j := i + 1; ; {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		q := j + k
		n := 0 // backslashes just before the quote
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
}

// valueEnd returns the offset just past the JSON value starting at b[i],
// or -1.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := stringEnd(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	return j
}

// arrayElements calls fn with each element of the JSON array arr, raw,
// in one pass; like objectMembers it expects input already validated.
func arrayElements(arr []byte, fn func(elem []byte)) {
	i := skipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return
	}
	i = skipSpace(arr, i+1)
	if i < len(arr) && arr[i] == ']' {
		return
	}
	for {
		end := valueEnd(arr, i)
		if end < 0 {
			return
		}
		fn(arr[i:end])
		i = skipSpace(arr, end)
		if i >= len(arr) || arr[i] != ',' {
			return
		}
		i = skipSpace(arr, i+1)
	}
}

// jsonString decodes a JSON string value already validated: without
// escapes it is the bytes between the quotes (the line was made valid
// UTF-8 before decoding); null is "". Anything else is the type error
// encoding/json would report.
func jsonString(v []byte) (string, error) {
	switch {
	case len(v) >= 2 && v[0] == '"' && bytes.IndexByte(v, '\\') < 0:
		return string(v[1 : len(v)-1]), nil
	case string(v) == "null":
		return "", nil
	case len(v) > 0 && v[0] == '"':
		if s, ok := unquoteValid(v); ok {
			return s, nil
		}
		var s string
		err := json.Unmarshal(v, &s)
		return s, err
	}
	return "", fmt.Errorf("expected a JSON string, got %.20s", v)
}

// unquoteValid decodes the escapes of a JSON string literal the line's
// decode has already validated, in one pass, as encoding/json does (a lone
// or mismatched surrogate becomes U+FFFD); json.Unmarshal would check the
// whole literal again before decoding it. ok is false for anything it does
// not expect of a valid literal (the caller then asks encoding/json).
func unquoteValid(v []byte) (s string, ok bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	body := v[1 : len(v)-1]
	// A Builder hands its buffer over as the string: the decoded text
	// (a whole tool output) is written once, not built and then copied.
	var out strings.Builder
	out.Grow(len(body))
	for len(body) > 0 {
		i := bytes.IndexByte(body, '\\')
		if i < 0 {
			out.Write(body)
			break
		}
		out.Write(body[:i])
		body = body[i:]
		if len(body) < 2 {
			return "", false
		}
		switch c := body[1]; c {
		case '"', '\\', '/':
			out.WriteByte(c)
		case 'b':
			out.WriteByte('\b')
		case 'f':
			out.WriteByte('\f')
		case 'n':
			out.WriteByte('\n')
		case 'r':
			out.WriteByte('\r')
		case 't':
			out.WriteByte('\t')
		case 'u':
			r, n := hex4(body[2:])
			if n < 0 {
				return "", false
			}
			body = body[6:]
			if utf16.IsSurrogate(r) {
				r2, n2 := rune(-1), -1
				if len(body) >= 6 && body[0] == '\\' && body[1] == 'u' {
					r2, n2 = hex4(body[2:])
				}
				if dec := utf16.DecodeRune(r, r2); n2 >= 0 && dec != utf8.RuneError {
					out.WriteRune(dec)
					body = body[6:]
					continue
				}
				r = utf8.RuneError
			}
			out.WriteRune(r)
			continue
		default:
			return "", false
		}
		body = body[2:]
	}
	return out.String(), true
}
