package transcript

import "encoding/json"

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
