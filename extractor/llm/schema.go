package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
)

// extractionSchema is the JSON Schema of the model's answer. Every
// property is required and no others are allowed, as OpenAI's strict
// structured output demands; optional content is an empty string or list.
const extractionSchema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["decisions", "errors", "user_decisions", "constraints", "current_work", "next_step"],
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
    },
    "user_decisions": {
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
    "constraints": {
      "type": "array",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["source_index", "text"],
        "properties": {
          "source_index": {"type": "integer"},
          "text": {"type": "string"}
        }
      }
    },
    "current_work": {
      "type": "object",
      "additionalProperties": false,
      "required": ["source_index", "text"],
      "properties": {
        "source_index": {"type": "integer"},
        "text": {"type": "string"}
      }
    },
    "next_step": {
      "type": "object",
      "additionalProperties": false,
      "required": ["source_index", "text"],
      "properties": {
        "source_index": {"type": "integer"},
        "text": {"type": "string"}
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
var errInvalidJSON = errors.New("answer is not a JSON object with the schema's lists")

// decisionRecord is a validated decision plus the chosen phrase, which the
// merge step uses to spot later reversals.
type decisionRecord struct {
	Decision handoff.Decision `json:"decision"`
	Chosen   string           `json:"chosen,omitempty"`
}

// records is what one window yielded, in the form the cache stores. The
// person's decisions are among Decisions, citing the person's message.
type records struct {
	Decisions   []decisionRecord      `json:"decisions"`
	Errors      []handoff.ErrorRecord `json:"errors"`
	Constraints []handoff.Constraint  `json:"constraints,omitempty"`
	CurrentWork *extractor.Judged     `json:"current_work,omitempty"`
	NextStep    *extractor.Judged     `json:"next_step,omitempty"`
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

// wireJudged is a constraint, the current work or the next step.
type wireJudged struct {
	SourceIndex *int   `json:"source_index"`
	Text        string `json:"text"`
}

var (
	answerKeys   = []string{"decisions", "errors", "user_decisions", "constraints", "current_work", "next_step"}
	decisionKeys = []string{"source_index", "decision_type", "description", "rationale", "alternatives_considered", "chosen"}
	errorKeys    = []string{"source_index", "error_type", "error_message", "context", "resolution", "resolution_notes"}
	judgedKeys   = []string{"source_index", "text"}
)

// parseAnswer decodes and validates one answer against the window it was
// asked about. Records that fail validation — a bad field, a source that
// is not a message of the window or not of the right kind, text the cited
// message does not support (see grounded) — are dropped and described in
// the returned warnings; errInvalidJSON means nothing in it was usable as
// an answer.
func parseAnswer(content []byte, window []handoff.Message) (records, []string, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(bytes.TrimSpace(content), &top); err != nil {
		return records{}, nil, fmt.Errorf("%w: %v", errInvalidJSON, err)
	}
	present := false
	var warnings []string
	var unexpected []string
	for k := range top {
		if containsString(answerKeys, k) {
			present = true
		} else {
			unexpected = append(unexpected, k)
		}
	}
	if !present {
		return records{}, nil, fmt.Errorf("%w: none of %s present", errInvalidJSON, strings.Join(answerKeys, ", "))
	}
	sort.Strings(unexpected)
	for _, k := range unexpected {
		warnings = append(warnings, fmt.Sprintf("ignored unexpected key %q in answer", k))
	}
	lists := map[string][]json.RawMessage{}
	for _, k := range []string{"decisions", "errors", "user_decisions", "constraints"} {
		raw, ok := top[k]
		if !ok || isNull(raw) {
			continue
		}
		var l []json.RawMessage
		if err := json.Unmarshal(raw, &l); err != nil {
			return records{}, nil, fmt.Errorf("%w: %s is not a list", errInvalidJSON, k)
		}
		lists[k] = l
	}
	w := newCiteWindow(window)
	var out records
	each := func(kind, plural string, list []json.RawMessage, f func(json.RawMessage) ([]string, error)) {
		for i, raw := range list {
			if i >= maxRecords {
				warnings = append(warnings, fmt.Sprintf("dropped %d %s over the limit of %d", len(list)-maxRecords, plural, maxRecords))
				return
			}
			warn, err := f(raw)
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("dropped %s %d: %v", kind, i, err))
				continue
			}
			warnings = append(warnings, warn...)
		}
	}
	each("decision", "decisions", lists["decisions"], func(raw json.RawMessage) ([]string, error) {
		d, warn, err := validateDecision(raw, w, false)
		if err == nil {
			out.Decisions = append(out.Decisions, d)
		}
		return warn, err
	})
	each("error", "errors", lists["errors"], func(raw json.RawMessage) ([]string, error) {
		e, warn, err := validateError(raw, w)
		if err == nil {
			out.Errors = append(out.Errors, e)
		}
		return warn, err
	})
	each("user decision", "user decisions", lists["user_decisions"], func(raw json.RawMessage) ([]string, error) {
		d, warn, err := validateDecision(raw, w, true)
		if err == nil {
			out.Decisions = append(out.Decisions, d)
		}
		return warn, err
	})
	each("constraint", "constraints", lists["constraints"], func(raw json.RawMessage) ([]string, error) {
		j, warn, err := validateJudged(raw, w, "constraint")
		if err == nil && j != nil {
			out.Constraints = append(out.Constraints, handoff.Constraint{Text: j.Text, Source: j.Source})
		}
		return warn, err
	})
	for _, k := range []string{"current_work", "next_step"} {
		raw, ok := top[k]
		if !ok || isNull(raw) {
			continue
		}
		kind := strings.ReplaceAll(k, "_", " ")
		j, warn, err := validateJudged(raw, w, kind)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("dropped %s: %v", kind, err))
			continue
		}
		warnings = append(warnings, warn...)
		if k == "current_work" {
			out.CurrentWork = j
		} else {
			out.NextStep = j
		}
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

// validateDecision checks one decision. byPerson marks the answer's
// user_decisions: those must cite the person's own words (a message of
// theirs, or their answer to a question tool), are grounded in those words
// together with the proposal they answered, and default to the
// clarification type.
func validateDecision(raw json.RawMessage, w *citeWindow, byPerson bool) (decisionRecord, []string, error) {
	var wd wireDecision
	warnings, err := decodeRecord(raw, decisionKeys, &wd)
	if err != nil {
		return decisionRecord{}, nil, err
	}
	switch {
	case wd.SourceIndex == nil:
		return decisionRecord{}, nil, errors.New("no source_index")
	case wd.Type == nil && !byPerson:
		return decisionRecord{}, nil, errors.New("no decision_type")
	case wd.Description == nil || strings.TrimSpace(*wd.Description) == "":
		return decisionRecord{}, nil, errors.New("no description")
	}
	var typ handoff.DecisionType
	if wd.Type != nil {
		typ = handoff.DecisionType(*wd.Type)
	}
	if !typ.Valid() {
		if !byPerson {
			return decisionRecord{}, nil, fmt.Errorf("decision_type %q is not one of the schema's", typ)
		}
		typ = handoff.DecisionClarification
	}
	src, ok := w.byIndex[*wd.SourceIndex]
	if !ok {
		return decisionRecord{}, nil, fmt.Errorf("source_index %d is not a message of the window", *wd.SourceIndex)
	}
	if byPerson && personWords(src, w) == "" {
		return decisionRecord{}, nil, fmt.Errorf("source_index %d is a %s message, not the person's words", src.Index, describeRole(src))
	}
	if !byPerson && !canSourceDecision(src) {
		return decisionRecord{}, nil, fmt.Errorf("source_index %d is a %s message, not something the user or assistant said", src.Index, describeRole(src))
	}
	if err := checkSizes(*wd.Description, wd.Rationale, wd.Chosen); err != nil {
		return decisionRecord{}, nil, err
	}
	// The description must be grounded, and so must what it says was
	// chosen: a description can share topic words ("rate limiting") with
	// a message that never made the choice.
	source := w.decisionSource(src)
	if ok, shared, need := w.grounded(*wd.Description+"\n"+wd.Chosen, source); !ok {
		return decisionRecord{}, nil, groundingError("its description", src.Index, shared, need)
	}
	if len(contentWords(wd.Chosen)) > 0 {
		if ok, shared, need := w.grounded(wd.Chosen, source); !ok {
			return decisionRecord{}, nil, groundingError("its chosen phrase", src.Index, shared, need)
		}
	}
	var alts []string
	for _, a := range wd.Alternatives {
		if err := checkSizes(a); err != nil {
			return decisionRecord{}, nil, err
		}
		if a = strings.TrimSpace(a); a != "" && len(alts) < maxAlternatives {
			alts = append(alts, prose.Truncate(a, prose.AlternativeLimit))
		}
	}
	return decisionRecord{
		Decision: handoff.Decision{
			Timestamp:    src.Timestamp,
			Type:         typ,
			Description:  prose.Truncate(*wd.Description, prose.DescriptionLimit),
			Rationale:    prose.Truncate(wd.Rationale, prose.RationaleLimit),
			Alternatives: alts,
			Source:       src.Ref(),
		},
		Chosen: prose.Truncate(wd.Chosen, prose.AlternativeLimit),
	}, warnings, nil
}

// validateError checks one error note; its error_message must be
// grounded in the cited message's text or tool output.
func validateError(raw json.RawMessage, w *citeWindow) (handoff.ErrorRecord, []string, error) {
	var we wireError
	warnings, err := decodeRecord(raw, errorKeys, &we)
	if err != nil {
		return handoff.ErrorRecord{}, nil, err
	}
	switch {
	case we.SourceIndex == nil:
		return handoff.ErrorRecord{}, nil, errors.New("no source_index")
	case we.Message == nil || strings.TrimSpace(*we.Message) == "":
		return handoff.ErrorRecord{}, nil, errors.New("no error_message")
	case we.Resolution == nil:
		return handoff.ErrorRecord{}, nil, errors.New("no resolution")
	}
	res := handoff.Resolution(*we.Resolution)
	if !res.Valid() {
		return handoff.ErrorRecord{}, nil, fmt.Errorf("resolution %q is not one of the schema's", *we.Resolution)
	}
	src, ok := w.byIndex[*we.SourceIndex]
	if !ok {
		return handoff.ErrorRecord{}, nil, fmt.Errorf("source_index %d is not a message of the window", *we.SourceIndex)
	}
	if !canSourceError(src) {
		return handoff.ErrorRecord{}, nil, fmt.Errorf("source_index %d is tool output that did not fail", src.Index)
	}
	if err := checkSizes(we.Type, *we.Message, we.Context, we.ResolutionNotes); err != nil {
		return handoff.ErrorRecord{}, nil, err
	}
	if ok, shared, need := w.grounded(*we.Message, errorSource(src)); !ok {
		return handoff.ErrorRecord{}, nil, groundingError("its error_message", src.Index, shared, need)
	}
	typ := strings.TrimSpace(we.Type)
	if typ == "" {
		typ = "error"
	}
	return handoff.ErrorRecord{
		Type:            prose.Truncate(typ, errorTypeLimit),
		Message:         prose.Truncate(*we.Message, facts.ErrorMessageLimit),
		Context:         prose.Truncate(we.Context, prose.ContextLimit),
		Resolution:      res,
		ResolutionNotes: prose.Truncate(we.ResolutionNotes, notesLimit),
		Source:          src.Ref(),
	}, warnings, nil
}

// validateJudged checks a constraint ("constraint"), the current work or
// the next step. A constraint must cite the person's words and be grounded
// in them; current work and the next step must cite one of the last
// user/assistant turns (tailTurns) and be grounded in its text. Tool
// output can never be the source, so an instruction planted in it cannot
// come back as the next step. An empty text is no record (nil, no error).
func validateJudged(raw json.RawMessage, w *citeWindow, kind string) (*extractor.Judged, []string, error) {
	var wj wireJudged
	warnings, err := decodeRecord(raw, judgedKeys, &wj)
	if err != nil {
		return nil, nil, err
	}
	text := strings.TrimSpace(wj.Text)
	if text == "" {
		return nil, warnings, nil
	}
	if wj.SourceIndex == nil {
		return nil, nil, errors.New("no source_index")
	}
	if err := checkSizes(text); err != nil {
		return nil, nil, err
	}
	src, ok := w.byIndex[*wj.SourceIndex]
	if !ok {
		return nil, nil, fmt.Errorf("source_index %d is not a message of the window", *wj.SourceIndex)
	}
	var source string
	limit := conversation.StatedNextLimit
	if kind == "constraint" {
		source = personWords(src, w)
		if source == "" {
			return nil, nil, fmt.Errorf("source_index %d is a %s message, not the person's words", src.Index, describeRole(src))
		}
		limit = conversation.ConstraintLimit
	} else {
		source = assistantText(src)
		if source == "" {
			source = personWords(src, w)
		}
		if source == "" {
			return nil, nil, fmt.Errorf("source_index %d is a %s message, not something the user or assistant said", src.Index, describeRole(src))
		}
		if !w.tail[src.Index] {
			return nil, nil, fmt.Errorf("source_index %d is not among the last %d user or assistant turns", src.Index, tailTurns)
		}
	}
	// Grounded in the speaker's own words only: a next step planted in
	// output the speaker pasted is the output's, not theirs.
	if ok, shared, need := w.grounded(text, w.ownWords(source)); !ok {
		return nil, nil, groundingError("its text", src.Index, shared, need)
	}
	return &extractor.Judged{Text: prose.Truncate(text, limit), Source: src.Ref()}, warnings, nil
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
	case m.Role == handoff.RoleUser && facts.UserRequest(m.Text) == "":
		return "harness-text"
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
