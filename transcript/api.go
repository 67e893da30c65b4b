package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
)

// API request bodies saved as transcripts.

// Anthropic Messages API request: {model, system, messages[]} where
// system is a string or text blocks and each message's content is a
// string or blocks (text, thinking, tool_use, tool_result with is_error).
// A bare array of such messages reads the same. The blocks are read by
// the OpenAI chat parser, which already understands them; the system
// prompt becomes a system Message (Meta).
func decodeAnthropic(d *Decoder, doc []byte) error {
	p := &openaiParser{toolNames: map[string]string{}}
	msg := func(n int, raw json.RawMessage) error {
		p.records = n - 1
		if err := p.message(d, raw, 0); err != nil {
			return d.recordError(n, err)
		}
		return nil
	}
	doc = bytes.TrimSpace(doc)
	if len(doc) > 0 && doc[0] == '[' {
		return walkJSON(d, doc, "", nil, msg)
	}
	member := func(k string, raw json.RawMessage) {
		switch k {
		case "model":
			d.t.Session.Model = stringValue(raw)
		case "system":
			// The system prompt comes first in the transcript, whatever
			// its place in the object.
			if sys, err := flatContent(raw); err == nil && strings.TrimSpace(sys) != "" {
				d.t.Messages = slices.Insert(d.t.Messages, 0, handoff.Message{Role: handoff.RoleSystem, Text: sys, Meta: true})
				for i := range d.t.Messages {
					d.t.Messages[i].Index = i
				}
			}
		}
	}
	return walkJSON(d, doc, "messages", member, msg)
}

// OpenAI Responses API input: {model, instructions, input[]} or a bare
// array of input items. Items are the same as Codex rollout response
// items (message, function_call, function_call_output, reasoning, …) and
// are read by the Codex parser; an item without "type" but with "role"
// is a message (EasyInputMessage). A string input is one user message.
func decodeResponses(d *Decoder, doc []byte) error {
	p := newCodexParser()
	item := func(n int, raw json.RawMessage) error {
		var pl codexPayload
		if err := json.Unmarshal(raw, &pl); err != nil {
			return d.recordError(n, fmt.Errorf("malformed item: %w", jsonReason(err)))
		}
		if pl.Type == "" && pl.Role != "" {
			pl.Type = "message"
		}
		if pl.Type == "" {
			return d.recordError(n, errors.New("item has no type"))
		}
		p.model = d.t.Session.Model
		p.item(d, handoff.Message{Line: n}, &pl)
		return nil
	}
	doc = bytes.TrimSpace(doc)
	if len(doc) > 0 && doc[0] == '[' {
		return walkJSON(d, doc, "", nil, item)
	}
	// A string input is one user message; walkJSON wants an array, so
	// that case is read from the members.
	var text string
	member := func(k string, raw json.RawMessage) {
		switch k {
		case "model":
			d.t.Session.Model = stringValue(raw)
		case "instructions":
			if s := stringValue(raw); strings.TrimSpace(s) != "" {
				d.t.Messages = slices.Insert(d.t.Messages, 0, handoff.Message{Role: handoff.RoleSystem, Text: s, Meta: true})
				for i := range d.t.Messages {
					d.t.Messages[i].Index = i
				}
				// Items read before it moved up one.
				if p.lastAssist >= 0 {
					p.lastAssist++
				}
				for id, ref := range p.results {
					p.results[id] = resultRef{msg: ref.msg + 1, res: ref.res}
				}
			}
		case "input":
			text = stringValue(raw)
		}
	}
	err := walkJSON(d, doc, "input", member, item)
	if err != nil && text != "" {
		d.add(handoff.Message{Role: handoff.RoleUser, Text: text, Line: 1})
		return nil
	}
	return err
}
