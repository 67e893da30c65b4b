package transcript

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// describeJSON says what a JSON document that no format claims looks
// like, for the error: its top-level keys, or the keys of its first
// element, so the person sees what handoff saw.
func describeJSON(b []byte) string {
	var keys []string
	kind := "a JSON object"
	if b[0] == '[' {
		kind = "a JSON array"
		arrayElements(b, func(elem []byte) {
			if keys == nil {
				keys = topKeys(elem)
			}
		})
		if keys != nil {
			return fmt.Sprintf("%s of objects with keys %s", kind, strings.Join(keys, ", "))
		}
		return kind
	}
	if keys = topKeys(b); len(keys) > 0 {
		return fmt.Sprintf("%s with keys %s", kind, strings.Join(keys, ", "))
	}
	return kind
}

// topKeys lists up to eight top-level keys of a JSON object, sorted.
func topKeys(obj []byte) []string {
	var keys []string
	objectMembers(obj, func(key, _ []byte) {
		var k string
		if json.Unmarshal(append(append([]byte{'"'}, key...), '"'), &k) == nil {
			keys = append(keys, k)
		}
	})
	slices.Sort(keys)
	if len(keys) > 8 {
		keys = append(keys[:8], "…")
	}
	return keys
}

// looksLike names what head looks like ("an OpenCode export"), or ""
// when detection cannot tell.
func looksLike(head []byte) string {
	f, err := Detect(head)
	if err != nil {
		return ""
	}
	if s, ok := lookup(f); ok {
		return s.info.Looks
	}
	return ""
}
