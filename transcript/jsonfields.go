package transcript

import (
	"bytes"
	"slices"
	"strings"
)

// stringField sets a string field from a member's value as
// json.Unmarshal would; false for a value that is not a string (null
// keeps the field, as encoding/json does).
func stringField(dst *string, v []byte) bool {
	if string(v) == "null" {
		return true
	}
	if len(v) == 0 || v[0] != '"' {
		return false
	}
	s, err := jsonString(v)
	*dst = s
	return err == nil
}

// knownMembers walks obj, a valid JSON object (validJSON), handing each
// member whose key is one of known to set, as json.Unmarshal into a
// struct with those fields would see them, but over slices of obj
// (objectMembers) instead of a check and a decode. It is false — the
// caller then asks encoding/json — when obj is no object, set refuses a
// value, or a key is one encoding/json could match to a known field
// another way (another case, escapes).
func knownMembers(obj []byte, known []string, set func(key string, v []byte) bool) bool {
	if i := skipSpace(obj, 0); i >= len(obj) || obj[i] != '{' {
		return false
	}
	ok := true
	objectMembers(obj, func(k, v []byte) {
		if !ok {
			return
		}
		key := string(k)
		if slices.Contains(known, key) {
			ok = set(key, v)
			return
		}
		if bytes.IndexByte(k, '\\') >= 0 || slices.ContainsFunc(known, func(n string) bool { return strings.EqualFold(n, key) }) {
			ok = false
		}
	})
	return ok
}
