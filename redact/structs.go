package redact

import (
	"bytes"
	"encoding/json"
	"reflect"
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

// Transcript is the package-level Transcript with this Redactor. Like
// Snapshot it walks every exported string field by reflection, so a field
// added to the transcript types is redacted without a change here; a tool
// call's JSON input is redacted as JSON and stays valid JSON.
func (r *Redactor) Transcript(t *handoff.Transcript) int {
	if t == nil {
		return 0
	}
	return r.walk(reflect.ValueOf(t).Elem())
}

// rawJSON redacts a json.RawMessage (a tool call's input). Input that is
// not valid JSON is redacted as text and stored as a JSON string, so the
// result is always valid JSON.
func (r *Redactor) rawJSON(raw json.RawMessage) (json.RawMessage, int) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return raw, 0
	}
	if !json.Valid(raw) {
		text, n := r.redactCount(string(raw))
		out, err := marshal(text)
		if err != nil { // a Go string always marshals; keep the output valid anyway
			return json.RawMessage(`""`), n + 1
		}
		return out, n
	}
	out, n := r.validJSONCount(raw)
	return json.RawMessage(out), n
}

// rawMessageType is json.RawMessage, which walk redacts as JSON rather
// than skipping as bytes.
var rawMessageType = reflect.TypeFor[json.RawMessage]()

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
		if v.Type() == rawMessageType {
			if !v.CanSet() {
				return 0
			}
			out, n := r.rawJSON(v.Bytes())
			if n > 0 {
				v.SetBytes(out)
			}
			return n
		}
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
		keys := v.MapKeys()
		for _, k := range keys {
			val := reflect.New(v.Type().Elem()).Elem()
			val.Set(v.MapIndex(k))
			c := r.walk(val)
			nk := k
			if k.Kind() == reflect.String {
				if red, ck := r.redactCount(k.String()); ck > 0 {
					nk = reflect.New(k.Type()).Elem()
					nk.SetString(red)
					c += ck
				}
			}
			if c > 0 {
				v.SetMapIndex(k, reflect.Value{})
				v.SetMapIndex(nk, val)
				n += c
			}
		}
		return n
	}
	return 0
}
