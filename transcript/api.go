package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
	doc = bytes.TrimSpace(doc)
	if len(doc) > 0 && doc[0] == '[' {
		var arr []json.RawMessage
		if err := decodeJSONDoc(doc, &arr); err != nil {
			return err
		}
		return p.messages(d, arr, 0)
	}
	var req struct {
		Model    string            `json:"model"`
		System   json.RawMessage   `json:"system"`
		Messages []json.RawMessage `json:"messages"`
	}
	if err := decodeJSONDoc(doc, &req); err != nil {
		return err
	}
	if req.Messages == nil {
		return errors.New(`no "messages" array`)
	}
	d.t.Session.Model = req.Model
	if sys, err := flatContent(req.System); err == nil && strings.TrimSpace(sys) != "" {
		d.add(handoff.Message{Role: handoff.RoleSystem, Text: sys, Meta: true})
	}
	return p.messages(d, req.Messages, 0)
}

// OpenAI Responses API input: {model, instructions, input[]} or a bare
// array of input items. Items are the same as Codex rollout response
// items (message, function_call, function_call_output, reasoning, …) and
// are read by the Codex parser; an item without "type" but with "role"
// is a message (EasyInputMessage). A string input is one user message.
func decodeResponses(d *Decoder, doc []byte) error {
	doc = bytes.TrimSpace(doc)
	var items []json.RawMessage
	if len(doc) > 0 && doc[0] == '[' {
		if err := decodeJSONDoc(doc, &items); err != nil {
			return err
		}
	} else {
		var req struct {
			Model        string          `json:"model"`
			Instructions string          `json:"instructions"`
			Input        json.RawMessage `json:"input"`
		}
		if err := decodeJSONDoc(doc, &req); err != nil {
			return err
		}
		d.t.Session.Model = req.Model
		if strings.TrimSpace(req.Instructions) != "" {
			d.add(handoff.Message{Role: handoff.RoleSystem, Text: req.Instructions, Meta: true})
		}
		in := trimJSON(req.Input)
		switch {
		case len(in) == 0:
			return errors.New(`no "input"`)
		case in[0] == '"':
			d.add(handoff.Message{Role: handoff.RoleUser, Text: stringValue(in), Line: 1})
			return nil
		default:
			if err := json.Unmarshal(in, &items); err != nil {
				return fmt.Errorf(`"input" is not an array: %w`, jsonReason(err))
			}
		}
	}
	p := newCodexParser()
	p.model = d.t.Session.Model
	for i, raw := range items {
		var pl codexPayload
		err := json.Unmarshal(raw, &pl)
		if err == nil && pl.Type == "" && pl.Role != "" {
			pl.Type = "message"
		}
		if err == nil && pl.Type == "" {
			err = errors.New("item has no type")
		}
		if err != nil {
			if err := d.recordError(i+1, err); err != nil {
				return err
			}
			continue
		}
		p.item(d, handoff.Message{Line: i + 1}, &pl)
	}
	return nil
}
