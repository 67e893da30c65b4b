package transcript

import (
	"encoding/json"
	"strconv"
)

// validObject reports whether b is one valid JSON object, the condition
// for reading its members in one walk (readMembers) instead of with
// encoding/json.
func validObject(b []byte) bool {
	i := skipSpace(b, 0)
	return i < len(b) && b[i] == '{' && validJSON(b)
}

// fields names where readFields puts an object's members, by key folded
// as encoding/json matches field names: strings are unquoted, raw values
// left as slices of the object (valid as long as it is), and any other
// value decoded into its target by encoding/json.
type fields struct {
	strs  map[string]*string
	raws  map[string]*json.RawMessage
	other map[string]any
}

// readFields fills f's targets from obj, a member of a validated line,
// as json.Unmarshal into a struct with those fields would; false (the
// caller then asks encoding/json) when obj is no object or a value is of
// another type.
func readFields(obj []byte, f fields) bool {
	if i := skipSpace(obj, 0); i >= len(obj) || obj[i] != '{' {
		return false
	}
	return readMembers(obj, func(k string, v []byte, ok *bool) {
		if dst, found := f.strs[k]; found {
			*ok = setString(dst, v)
		} else if dst, found := f.raws[k]; found {
			*dst = v
		} else if dst, found := f.other[k]; found {
			*ok = json.Unmarshal(v, dst) == nil
		}
	})
}

// readObject decodes an object member into the struct *dst points to as
// encoding/json decodes into a pointer field: null sets it to nil, an
// object is read (by read) into the struct already there or a new one,
// and anything else is a type error (false: the caller falls back).
func readObject[T any](dst **T, v []byte, read func(*T, []byte) bool) bool {
	switch {
	case string(v) == "null":
		*dst = nil
		return true
	case v[0] != '{':
		return false
	}
	if *dst == nil {
		*dst = new(T)
	}
	return read(*dst, v)
}

// readRawArray stores the elements of a JSON array member, raw slices of
// it, in dst as encoding/json fills a []json.RawMessage (null leaves nil,
// [] is empty but not nil); false for any other value.
func readRawArray(dst *[]json.RawMessage, v []byte) bool {
	switch {
	case string(v) == "null":
		*dst = nil
		return true
	case v[0] != '[':
		return false
	}
	elems := []json.RawMessage{}
	arrayElements(v, func(e []byte) { elems = append(elems, e) })
	*dst = elems
	return true
}

// setInt stores a JSON number in dst as encoding/json fills an int (null
// leaves dst as it is); false for a number that is no int64 (a fraction,
// an exponent, an overflow) or any other value, a type error.
func setInt(dst *int, v []byte) bool {
	if string(v) == "null" {
		return true
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		return false
	}
	*dst = int(n)
	return true
}
