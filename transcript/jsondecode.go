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
// standard library's; so is anything the two decode differently
// (unlikeStd). v must point at a zero value (a fresh variable), since a
// failed fast decode can leave it half filled.
// FuzzDecodeJSONMatchesEncodingJSON holds it to json.Unmarshal's results.
func decodeJSON(b []byte, v any) error {
	return jsonDecoder(b)(b, v)
}

// jsonDecoder returns decodeJSON's decoder for rec and for the values
// inside it, checked once for the record: the fast one when rec is valid
// JSON the two decoders read alike (then so is every value inside it),
// else encoding/json. A reader decoding a record and then its blocks
// uses it to check the record's bytes once, not once per level.
func jsonDecoder(rec []byte) func(b []byte, v any) error {
	if validJSON(rec) && !unlikeStd(rec) {
		return fastUnmarshal
	}
	return json.Unmarshal
}

// decodeValid is decodeJSON for b known to be valid JSON, a value inside
// a record decodeJSON has read (a content block, a result): it is not
// validated again.
func decodeValid(b []byte, v any) error {
	if unlikeStd(b) {
		return json.Unmarshal(b, v)
	}
	return fastUnmarshal(b, v)
}

// fastUnmarshal decodes b, valid JSON that unlikeStd passes, with the
// fast decoder, and with encoding/json when it refuses.
func fastUnmarshal(b []byte, v any) error {
	if fastjson.Unmarshal(b, v) == nil {
		return nil
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv.Elem().SetZero()
	}
	return json.Unmarshal(b, v)
}

// unlikeStd reports whether b may decode differently with the fast
// decoder, in one pass over it: it holds ſ (U+017F) or the Kelvin sign
// (U+212A), written or escaped, the two non-ASCII letters whose Unicode
// case folding is an ASCII letter, so that encoding/json matches a key
// holding one to an ASCII field name (ſtatus to Status) where the fast
// decoder does not; or a run of 19 or more digits, a number that may not
// fit an int64, which the fast decoder wraps where encoding/json reports
// the overflow.
func unlikeStd(b []byte) bool {
	run := 0
	for i, c := range b {
		if c >= '0' && c <= '9' {
			if run++; run >= 19 {
				return true
			}
			continue
		}
		run = 0
		switch c {
		case '\\':
			if e := b[i+1:]; len(e) >= 5 && e[0] == 'u' && (string(e[1:4]) == "017" || string(e[1:4]) == "212") {
				return true
			}
		case 0xC5: // ſ is C5 BF
			if i+1 < len(b) && b[i+1] == 0xBF {
				return true
			}
		case 0xE2: // K is E2 84 AA
			if i+2 < len(b) && b[i+1] == 0x84 && b[i+2] == 0xAA {
				return true
			}
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
