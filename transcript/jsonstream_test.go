package transcript

import (
	"errors"
	"strings"
	"testing"
)

// TestJSONRecords splits documents fed a byte at a time and whole, and
// expects each record and member once, as written.
func TestJSONRecords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, key, doc string
		records        []string
		members        []string // key=value
		complete       bool
		err            error
	}{
		{"top-level array", "", `[{"a":1}, {"b":"x,]}"} ,[2]]`, []string{`{"a":1}`, `{"b":"x,]}"}`, `[2]`}, nil, true, nil},
		{"keyed array among members", "messages", "{\n \"info\": {\"id\": \"s\"},\n \"messages\": [\n  {\"m\": \"\\\"[\"}\n ],\n \"n\": 3\n}",
			[]string{`{"m": "\"["}`}, []string{`info={"id": "s"}`, `n=3`}, true, nil},
		{"empty array", "messages", `{"messages": []}`, nil, nil, true, nil},
		{"cut short", "", `[{"a":1},{"b":`, []string{`{"a":1}`}, nil, false, nil},
		{"not the document", "messages", `[1]`, nil, nil, false, errNotDocument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, step := range []int{1, len(tt.doc)} {
				var records, members []string
				s := &jsonRecords{key: tt.key,
					element: func(_ int, raw []byte) error { records = append(records, string(raw)); return nil },
					member:  func(k string, raw []byte) error { members = append(members, k+"="+string(raw)); return nil },
				}
				var err error
				for rest := tt.doc; len(rest) > 0 && err == nil; {
					k := min(step, len(rest))
					err = s.write([]byte(rest[:k]))
					rest = rest[k:]
				}
				if !errors.Is(err, tt.err) {
					t.Fatalf("step %d: err %v, want %v", step, err, tt.err)
				}
				if strings.Join(records, "|") != strings.Join(tt.records, "|") || strings.Join(members, "|") != strings.Join(tt.members, "|") {
					t.Errorf("step %d: records %q members %q, want %q %q", step, records, members, tt.records, tt.members)
				}
				if tt.err == nil && s.complete() != tt.complete {
					t.Errorf("step %d: complete = %v", step, s.complete())
				}
			}
		})
	}
}
