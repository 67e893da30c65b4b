package transcript

import (
	"bytes"
	"encoding/json"
	"reflect"

	fastjson "github.com/segmentio/encoding/json"
)

// decodeJSON is json.Unmarshal for the agents' records, in a fraction of
// its time: validJSON checks b once (with encoding/json's nesting limit),
// then segmentio/encoding/json, a drop-in replacement tested against the
// standard library's suite, decodes it without stepping a scanner state
// machine over every byte of a long tool output. Anything the fast path
// refuses (invalid JSON, a type mismatch) is decoded again by
// encoding/json into a zeroed v, so results and error messages are the
// standard library's. v must point at a zero value (a fresh variable),
// since a failed fast decode can leave it half filled.
// FuzzDecodeJSONMatchesEncodingJSON holds it to json.Unmarshal's results.
func decodeJSON(b []byte, v any) error {
	if validJSON(b) && !foldsToASCII(b) && !longDigits(b) && fastjson.Unmarshal(b, v) == nil {
		return nil
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv.Elem().SetZero()
	}
	return json.Unmarshal(b, v)
}

// foldsToASCII reports whether b may hold ſ (U+017F) or the Kelvin sign
// (U+212A), written or escaped: the two non-ASCII letters whose Unicode
// case folding is an ASCII letter, so that encoding/json matches a key
// holding one to an ASCII field name (ſtatus to Status) where the fast
// decoder does not.
func foldsToASCII(b []byte) bool {
	return bytes.Contains(b, []byte(`\u017`)) || bytes.Contains(b, []byte(`\u212`)) ||
		bytes.Contains(b, []byte("\u017f")) || bytes.Contains(b, []byte("\u212a"))
}

// longDigits reports whether b holds a run of 19 or more digits, a
// number that may not fit an int64: the fast decoder wraps it where
// encoding/json reports the overflow.
func longDigits(b []byte) bool {
	run := 0
	for _, c := range b {
		if c >= '0' && c <= '9' {
			run++
			if run >= 19 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// jsonText reads a JSON string value as stringValue does ("" for
// anything else, null and invalid JSON included), without a reflective
// decode: a member of a document read a record at a time has not been
// validated yet, so it is checked (validJSON) before jsonString reads it.
func jsonText(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) < 2 || raw[0] != '"' || !validJSON(raw) {
		return ""
	}
	s, err := jsonString(raw)
	if err != nil {
		return ""
	}
	return s
}
