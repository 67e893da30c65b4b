package extractor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
)

// extractionSchema is the JSON Schema of the model's answer. Every
// property is required and no others are allowed, as OpenAI's strict
// structured output demands; optional content is an empty string or list.
const extractionSchema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["decisions", "errors"],
  "properties": {
    "decisions": {
      "type": "array",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["source_index", "decision_type", "description", "rationale", "alternatives_considered", "chosen"],
        "properties": {
          "source_index": {"type": "integer"},
          "decision_type": {"type": "string", "enum": ["approach", "library", "architecture", "workaround", "skip", "clarification"]},
          "description": {"type": "string"},
          "rationale": {"type": "string"},
          "alternatives_considered": {"type": "array", "items": {"type": "string"}},
          "chosen": {"type": "string"}
        }
      }
    },
    "errors": {
      "type": "array",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["source_index", "error_type", "error_message", "context", "resolution", "resolution_notes"],
        "properties": {
          "source_index": {"type": "integer"},
          "error_type": {"type": "string"},
          "error_message": {"type": "string"},
          "context": {"type": "string"},
          "resolution": {"type": "string", "enum": ["fixed", "workaround", "deferred", "unresolved"]},
          "resolution_notes": {"type": "string"}
        }
      }
    }
  }
}`

// Bounds on what one answer may hold. A field longer than maxFieldRunes is
// not a summary but pasted output, and the record is dropped; shorter text
// over the display limits is cut to them.
const (
	maxRecords      = 200
	maxFieldRunes   = 4000
	maxAlternatives = 8
	errorTypeLimit  = 40
	notesLimit      = 300
)

// errInvalidJSON marks an answer that is not a JSON object of the expected
// shape at all: worth one more request, unlike single bad records.
var errInvalidJSON = errors.New("answer is not a JSON object with decisions and errors")

// decisionRecord is a validated decision plus the chosen phrase, which the
// merge step uses to spot later reversals.
type decisionRecord struct {
	Decision handoff.Decision `json:"decision"`
	Chosen   string           `json:"chosen,omitempty"`
}

// records is what one window yielded, in the form the cache stores.
type records struct {
	Decisions []decisionRecord      `json:"decisions"`
	Errors    []handoff.ErrorRecord `json:"errors"`
}

// wireDecision and wireError are the answer's records as the model wrote
// them; pointers tell a missing field from an empty one.
type wireDecision struct {
	SourceIndex  *int     `json:"source_index"`
	Type         *string  `json:"decision_type"`
	Description  *string  `json:"description"`
	Rationale    string   `json:"rationale"`
	Alternatives []string `json:"alternatives_considered"`
	Chosen       string   `json:"chosen"`
}

type wireError struct {
	SourceIndex     *int    `json:"source_index"`
	Type            string  `json:"error_type"`
	Message         *string `json:"error_message"`
	Context         string  `json:"context"`
	Resolution      *string `json:"resolution"`
	ResolutionNotes string  `json:"resolution_notes"`
}

var (
	decisionKeys = []string{"source_index", "decision_type", "description", "rationale", "alternatives_considered", "chosen"}
	errorKeys    = []string{"source_index", "error_type", "error_message", "context", "resolution", "resolution_notes"}
)

// parseAnswer decodes and validates one answer against the window it was
// asked about. Records that fail validation are dropped and described in
// the returned warnings; errInvalidJSON means nothing in it was usable as
// an answer.
func parseAnswer(content []byte, window []handoff.Message) (records, []string, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(bytes.TrimSpace(content), &top); err != nil {
		return records{}, nil, fmt.Errorf("%w: %v", errInvalidJSON, err)
	}
	rawDecisions, hasD := top["decisions"]
	rawErrors, hasE := top["errors"]
	if !hasD && !hasE {
		return records{}, nil, fmt.Errorf("%w: neither \"decisions\" nor \"errors\" present", errInvalidJSON)
	}
	var warnings []string
	for k := range top {
		if k != "decisions" && k != "errors" {
			warnings = append(warnings, fmt.Sprintf("ignored unexpected key %q in answer", k))
		}
	}
	var ds, es []json.RawMessage
	if hasD && !isNull(rawDecisions) {
		if err := json.Unmarshal(rawDecisions, &ds); err != nil {
			return records{}, nil, fmt.Errorf("%w: decisions is not a list", errInvalidJSON)
		}
	}
	if hasE && !isNull(rawErrors) {
		if err := json.Unmarshal(rawErrors, &es); err != nil {
			return records{}, nil, fmt.Errorf("%w: errors is not a list", errInvalidJSON)
		}
	}
	byIndex := make(map[int]handoff.Message, len(window))
	for _, m := range window {
		byIndex[m.Index] = m
	}
	var out records
	for i, raw := range ds {
		if i >= maxRecords {
			warnings = append(warnings, fmt.Sprintf("dropped %d decisions over the limit of %d", len(ds)-maxRecords, maxRecords))
			break
		}
		d, warn, err := validateDecision(raw, byIndex)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("dropped decision %d: %v", i, err))
			continue
		}
		warnings = append(warnings, warn...)
		out.Decisions = append(out.Decisions, d)
	}
	for i, raw := range es {
		if i >= maxRecords {
			warnings = append(warnings, fmt.Sprintf("dropped %d errors over the limit of %d", len(es)-maxRecords, maxRecords))
			break
		}
		e, warn, err := validateError(raw, byIndex)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("dropped error %d: %v", i, err))
			continue
		}
		warnings = append(warnings, warn...)
		out.Errors = append(out.Errors, e)
	}
	return out, warnings, nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// decodeRecord decodes one record, reporting keys the schema does not have.
func decodeRecord(raw json.RawMessage, known []string, v any) ([]string, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, fmt.Errorf("not an object")
	}
	var extra []string
	for k := range fields {
		if !containsString(known, k) {
			extra = append(extra, k)
		}
	}
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, fmt.Errorf("field %q has the wrong type (%s)", te.Field, te.Value)
		}
		return nil, err
	}
	var warnings []string
	if len(extra) > 0 {
		sort.Strings(extra)
		warnings = append(warnings, fmt.Sprintf("ignored unexpected keys %s in a record", strings.Join(extra, ", ")))
	}
	return warnings, nil
}

func validateDecision(raw json.RawMessage, byIndex map[int]handoff.Message) (decisionRecord, []string, error) {
	var w wireDecision
	warnings, err := decodeRecord(raw, decisionKeys, &w)
	if err != nil {
		return decisionRecord{}, nil, err
	}
	switch {
	case w.SourceIndex == nil:
		return decisionRecord{}, nil, errors.New("no source_index")
	case w.Type == nil:
		return decisionRecord{}, nil, errors.New("no decision_type")
	case w.Description == nil || strings.TrimSpace(*w.Description) == "":
		return decisionRecord{}, nil, errors.New("no description")
	}
	typ := handoff.DecisionType(*w.Type)
	if !typ.Valid() {
		return decisionRecord{}, nil, fmt.Errorf("decision_type %q is not one of the schema's", *w.Type)
	}
	src, ok := byIndex[*w.SourceIndex]
	if !ok {
		return decisionRecord{}, nil, fmt.Errorf("source_index %d is not a message of the window", *w.SourceIndex)
	}
	if !canSourceDecision(src) {
		return decisionRecord{}, nil, fmt.Errorf("source_index %d is a %s message, not something the user or assistant said", src.Index, describeRole(src))
	}
	if err := checkSizes(*w.Description, w.Rationale, w.Chosen); err != nil {
		return decisionRecord{}, nil, err
	}
	var alts []string
	for _, a := range w.Alternatives {
		if err := checkSizes(a); err != nil {
			return decisionRecord{}, nil, err
		}
		if a = strings.TrimSpace(a); a != "" && len(alts) < maxAlternatives {
			alts = append(alts, truncate(a, alternativeLimit))
		}
	}
	return decisionRecord{
		Decision: handoff.Decision{
			Timestamp:    src.Timestamp,
			Type:         typ,
			Description:  truncate(*w.Description, descriptionLimit),
			Rationale:    truncate(w.Rationale, rationaleLimit),
			Alternatives: alts,
			Source:       src.Ref(),
		},
		Chosen: truncate(w.Chosen, alternativeLimit),
	}, warnings, nil
}

func validateError(raw json.RawMessage, byIndex map[int]handoff.Message) (handoff.ErrorRecord, []string, error) {
	var w wireError
	warnings, err := decodeRecord(raw, errorKeys, &w)
	if err != nil {
		return handoff.ErrorRecord{}, nil, err
	}
	switch {
	case w.SourceIndex == nil:
		return handoff.ErrorRecord{}, nil, errors.New("no source_index")
	case w.Message == nil || strings.TrimSpace(*w.Message) == "":
		return handoff.ErrorRecord{}, nil, errors.New("no error_message")
	case w.Resolution == nil:
		return handoff.ErrorRecord{}, nil, errors.New("no resolution")
	}
	res := handoff.Resolution(*w.Resolution)
	if !res.Valid() {
		return handoff.ErrorRecord{}, nil, fmt.Errorf("resolution %q is not one of the schema's", *w.Resolution)
	}
	src, ok := byIndex[*w.SourceIndex]
	if !ok {
		return handoff.ErrorRecord{}, nil, fmt.Errorf("source_index %d is not a message of the window", *w.SourceIndex)
	}
	if !canSourceError(src) {
		return handoff.ErrorRecord{}, nil, fmt.Errorf("source_index %d is tool output that did not fail", src.Index)
	}
	if err := checkSizes(w.Type, *w.Message, w.Context, w.ResolutionNotes); err != nil {
		return handoff.ErrorRecord{}, nil, err
	}
	typ := strings.TrimSpace(w.Type)
	if typ == "" {
		typ = "error"
	}
	return handoff.ErrorRecord{
		Type:            truncate(typ, errorTypeLimit),
		Message:         truncate(*w.Message, errorMessageLimit),
		Context:         truncate(w.Context, contextLimit),
		Resolution:      res,
		ResolutionNotes: truncate(w.ResolutionNotes, notesLimit),
		Source:          src.Ref(),
	}, warnings, nil
}

// canSourceDecision reports whether a decision may cite m: only what a
// person or the assistant said, never tool output or harness text. This is
// what keeps an instruction planted in a tool result from coming back as a
// decision.
func canSourceDecision(m handoff.Message) bool {
	if m.Meta || strings.TrimSpace(m.Text) == "" {
		return false
	}
	return m.Role == handoff.RoleUser || m.Role == handoff.RoleAssistant
}

// canSourceError reports whether an error may cite m: a failed tool result,
// or something the user or assistant said (a person reporting a failure).
func canSourceError(m handoff.Message) bool {
	for _, r := range m.ToolResults {
		if r.Failed() {
			return true
		}
	}
	return !m.Meta && strings.TrimSpace(m.Text) != "" && (m.Role == handoff.RoleUser || m.Role == handoff.RoleAssistant)
}

func describeRole(m handoff.Message) string {
	switch {
	case m.Meta:
		return "harness-injected"
	case m.Role == handoff.RoleTool || len(m.ToolResults) > 0:
		return "tool-result"
	case strings.TrimSpace(m.Text) == "":
		return "textless " + string(m.Role)
	}
	return string(m.Role)
}

func checkSizes(fields ...string) error {
	for _, f := range fields {
		if utf8.RuneCountInString(f) > maxFieldRunes {
			return fmt.Errorf("a field is %d characters long, over the limit of %d", utf8.RuneCountInString(f), maxFieldRunes)
		}
	}
	return nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// maxObjectStarts bounds the "{" positions firstJSONObject tries, so a
// long reply full of braces costs linear, not quadratic, time.
const maxObjectStarts = 32

// firstJSONObject returns the first complete JSON object in free text: a
// model without structured output tends to wrap its answer in prose or a
// code fence.
func firstJSONObject(text string) ([]byte, bool) {
	tries := 0
	for i := 0; i < len(text) && tries < maxObjectStarts; i++ {
		if text[i] != '{' {
			continue
		}
		tries++
		dec := json.NewDecoder(strings.NewReader(text[i:]))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err == nil {
			return raw, true
		}
	}
	return nil, false
}
