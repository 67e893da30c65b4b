package redact

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"

	"github.com/handoff-cli/handoff"
)

// shared is the Redactor behind the package-level functions, compiled on
// first use and never changed afterwards.
var shared = sync.OnceValue(New)

// String returns s with every secret replaced by "[redacted:KIND]".
func String(s string) string { return shared().String(s) }

// Find locates the secrets in s without changing it, for tests and
// diagnostics.
func Find(s string) []Finding { return shared().Find(s) }

// Transcript redacts a parsed transcript in place, before any other stage
// sees it: message text, thinking, tool inputs and results, session
// metadata and parser warnings. It returns how many secrets it replaced.
func Transcript(t *handoff.Transcript) int { return shared().Transcript(t) }

// Snapshot redacts every string field of a snapshot in place: defence in
// depth before a snapshot is stored or printed, in case a secret slipped
// past transcript redaction (a git branch name, a file path). It returns
// how many secrets it replaced.
func Snapshot(s *handoff.Snapshot) int { return shared().Snapshot(s) }

// Transcript is the package-level Transcript with this Redactor.
func (r *Redactor) Transcript(t *handoff.Transcript) int {
	if t == nil {
		return 0
	}
	n := 0
	str := func(p *string) {
		var c int
		*p, c = r.redactCount(*p)
		n += c
	}
	info := &t.Session
	for _, p := range []*string{&info.ID, &info.Format, &info.Source, &info.CWD, &info.GitBranch, &info.Model, &info.Agent, &info.Version} {
		str(p)
	}
	for i := range t.Warnings {
		str(&t.Warnings[i].Reason)
	}
	for i := range t.Messages {
		m := &t.Messages[i]
		str(&m.Text)
		str(&m.Thinking)
		for j := range m.ToolCalls {
			var c int
			m.ToolCalls[j].Input, c = r.rawJSON(m.ToolCalls[j].Input)
			n += c
		}
		for j := range m.ToolResults {
			str(&m.ToolResults[j].Content)
		}
	}
	return n
}

// rawJSON redacts a tool call's JSON input. Every string value is
// redacted as text, and a string under a secret-sounding key ("password",
// "api_key") is redacted whole, since the key that marked it is not part
// of the string. Input that is not valid JSON is redacted as text and
// stored as a JSON string, so the result is always valid JSON.
func (r *Redactor) rawJSON(raw json.RawMessage) (json.RawMessage, int) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return raw, 0
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		text, n := r.redactCount(string(raw))
		out, err := marshal(text)
		if err != nil { // a Go string always marshals; keep the input valid anyway
			return json.RawMessage(`""`), n + 1
		}
		return out, n
	}
	v, n := r.value(v, "")
	if n == 0 {
		return raw, 0
	}
	out, err := marshal(v)
	if err != nil {
		return json.RawMessage(`null`), n
	}
	return out, n
}

// marshal encodes v without HTML escaping, so redacted tool input keeps
// its "<" and "&" readable.
func marshal(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// value redacts a decoded JSON value; key is the object key it sits under.
func (r *Redactor) value(v any, key string) (any, int) {
	switch x := v.(type) {
	case string:
		if kind := r.secretKeyKind(key); kind != "" && !looksLikePlaceholder(x) && len(x) >= 6 && !isCodeWord(x) {
			return Placeholder(kind), 1
		}
		return r.redactCount(x)
	case []any:
		n := 0
		for i := range x {
			var c int
			x[i], c = r.value(x[i], key)
			n += c
		}
		return x, n
	case map[string]any:
		n := 0
		out := make(map[string]any, len(x))
		for k, val := range x {
			nk, c := r.redactCount(k)
			n += c
			nv, c := r.value(val, k)
			n += c
			out[nk] = nv
		}
		return out, n
	}
	return v, 0
}

// secretKeyKind returns the kind of secret a JSON object key names
// ("password" → password, "GITHUB_TOKEN" → token), or "".
func (r *Redactor) secretKeyKind(key string) string {
	if key == "" {
		return ""
	}
	l := asciiLower(key)
	for _, kw := range r.assignments {
		if strings.HasSuffix(l, kw.word) {
			before := len(l) - len(kw.word)
			if before == 0 || !isKeyChar(l[before-1]) {
				return kw.kind
			}
		}
	}
	return ""
}

// Snapshot is the package-level Snapshot with this Redactor.
func (r *Redactor) Snapshot(s *handoff.Snapshot) int {
	if s == nil {
		return 0
	}
	return r.walk(reflect.ValueOf(s).Elem())
}

// walk redacts every settable string reachable from v. Reflection keeps
// this complete as fields are added to the snapshot schema.
func (r *Redactor) walk(v reflect.Value) int {
	switch v.Kind() {
	case reflect.String:
		if !v.CanSet() {
			return 0
		}
		out, n := r.redactCount(v.String())
		if n > 0 {
			v.SetString(out)
		}
		return n
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return r.walk(v.Elem())
	case reflect.Struct:
		n := 0
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				n += r.walk(v.Field(i))
			}
		}
		return n
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return 0 // raw bytes are not text fields
		}
		n := 0
		for i := 0; i < v.Len(); i++ {
			n += r.walk(v.Index(i))
		}
		return n
	case reflect.Map:
		n := 0
		iter := v.MapRange()
		for iter.Next() {
			val := reflect.New(iter.Value().Type()).Elem()
			val.Set(iter.Value())
			if c := r.walk(val); c > 0 {
				v.SetMapIndex(iter.Key(), val)
				n += c
			}
		}
		return n
	}
	return 0
}
