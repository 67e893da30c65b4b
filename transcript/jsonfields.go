package transcript

// validObject reports whether b is one valid JSON object, the condition
// for reading its members in one walk (readMembers) instead of with
// encoding/json.
func validObject(b []byte) bool {
	i := skipSpace(b, 0)
	return i < len(b) && b[i] == '{' && validJSON(b)
}
