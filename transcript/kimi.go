package transcript

import (
	"fmt"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Kimi CLI (MoonshotAI/kimi-cli) keeps a session's context as
// ~/.kimi/sessions/<md5 of the work dir>/<session id>/context.jsonl
// (src/kimi_cli/soul/context.py): one message a line in the OpenAI Chat
// shape (role user|assistant|tool, content a string or parts,
// tool_calls, tool_call_id), which the OpenAI Chat reader reads (a
// tool result starting "<system>ERROR" failed), plus
// bookkeeping lines whose role starts with "_": {"role": "_usage",
// "token_count": N}, the tokens in context after the latest turn (the
// Usage of the latest assistant message), and {"role": "_checkpoint",
// "id": N}, a restore point, skipped.

type kimiParser struct {
	chat          *openaiParser
	lastAssistant int
}

func newKimiParser() formatParser {
	return &kimiParser{chat: &openaiParser{toolNames: map[string]string{}, mode: modeLines}, lastAssistant: -1}
}

func (p *kimiParser) pending() []handoff.Message { return nil }
func (p *kimiParser) finish(*Decoder) error      { return nil }

func (p *kimiParser) record(d *Decoder, line []byte, lineNo int) error {
	var head struct {
		Role       string `json:"role"`
		TokenCount int    `json:"token_count"`
	}
	if err := decodeJSON(line, &head); err != nil {
		return fmt.Errorf("malformed line: %w", jsonReason(err))
	}
	switch head.Role {
	case "_usage":
		if p.lastAssistant >= 0 && head.TokenCount > 0 {
			d.t.Messages[p.lastAssistant].Usage = &handoff.ProviderUsage{InputTokens: head.TokenCount}
		}
		return nil
	case "_checkpoint", "_system_prompt":
		return nil
	}
	d.t.Session.Agent = "kimi-cli"
	from := len(d.t.Messages)
	if err := p.chat.message(d, line, lineNo); err != nil {
		return err
	}
	for i := from; i < len(d.t.Messages); i++ {
		m := &d.t.Messages[i]
		if m.Role == handoff.RoleAssistant {
			p.lastAssistant = i
		}
		for j := range m.ToolCalls {
			// StrReplaceFile's {path, edit: {old, new}} is an edit.
			m.ToolCalls[j].Input = renameKeys(m.ToolCalls[j].Input, kimiKeys)
		}
		for j := range m.ToolResults {
			if r := &m.ToolResults[j]; strings.HasPrefix(r.Content, "<system>ERROR") {
				r.IsError = true
			}
		}
	}
	return nil
}

// kimiKeys renames Kimi's tool input keys to the names handoff reads.
var kimiKeys = map[string]string{"edit": "edits"}

// kimiLine recognises Kimi CLI's bookkeeping lines, which only its
// context file has.
func kimiLine(l *jsonLine) bool {
	var role string
	_ = decodeJSON(l.obj["role"], &role)
	return role == "_checkpoint" && l.has("id") || role == "_usage" && l.has("token_count")
}
