package transcript

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Qwen Code (QwenLM/qwen-code, a fork of Gemini CLI) no longer shares
// Gemini CLI's chat JSON: it records each session as
// ~/.qwen/projects/<project dir, non-alphanumerics as ->/chats/
// <sessionId>.jsonl (packages/core/src/services/chatRecordingService.ts,
// ChatRecord), one record a line: {uuid, parentUuid, sessionId,
// timestamp, type: user | assistant | tool_result | system, subtype?,
// cwd, version, gitBranch, message?: Gemini API Content {role, parts:
// [text (thought: true for reasoning), functionCall {id, name, args},
// functionResponse {id, name, response: {output | error}}]},
// usageMetadata? {promptTokenCount, candidatesTokenCount,
// cachedContentTokenCount, thoughtsTokenCount}, model?, toolCallResult?
// {callId, status, error, resultDisplay}, systemPayload?}. A user
// record's systemPayload.displayText is what the person typed (its parts
// may add hook context, <qwen:user-prompt-submit-context>). A system
// record of subtype chat_compression carries the compressed history
// whose first content is the summary; custom_title names the session;
// slash_command records a command the person ran. The uuid / sessionId
// keys look like Claude Code's, so its lines are recognised first by the
// Gemini-shaped message (parts) or Qwen's own keys.

type qwenRecord struct {
	UUID      string `json:"uuid"`
	SessionID string `json:"sessionId"`
	Timestamp string `json:"timestamp"`
	Type      string `json:"type"`
	Subtype   string `json:"subtype"`
	Cwd       string `json:"cwd"`
	Version   string `json:"version"`
	GitBranch string `json:"gitBranch"`
	Sidechain bool   `json:"isSidechain"`
	Message   *struct {
		Role  string    `json:"role"`
		Parts []gemPart `json:"parts"`
	} `json:"message"`
	Usage *struct {
		Prompt     int `json:"promptTokenCount"`
		Candidates int `json:"candidatesTokenCount"`
		Cached     int `json:"cachedContentTokenCount"`
		Thoughts   int `json:"thoughtsTokenCount"`
	} `json:"usageMetadata"`
	Model      string `json:"model"`
	ToolResult *struct {
		CallID        string          `json:"callId"`
		Status        string          `json:"status"`
		Error         json.RawMessage `json:"error"`
		ResultDisplay json.RawMessage `json:"resultDisplay"`
	} `json:"toolCallResult"`
	Payload json.RawMessage `json:"systemPayload"`
}

type qwenParser struct{ names map[string]string }

func newQwenParser() formatParser { return &qwenParser{names: map[string]string{}} }

func (p *qwenParser) pending() []handoff.Message { return nil }
func (p *qwenParser) finish(*Decoder) error      { return nil }

func (p *qwenParser) record(d *Decoder, line []byte, n int) error {
	var r qwenRecord
	if err := decodeJSON(line, &r); err != nil {
		return fmt.Errorf("malformed record: %w", jsonReason(err))
	}
	s := &d.t.Session
	s.Agent = "qwen-code"
	if s.ID == "" {
		s.ID = r.SessionID
	}
	if r.Cwd != "" {
		s.CWD = r.Cwd
	}
	if r.GitBranch != "" {
		s.GitBranch = r.GitBranch
	}
	if r.Version != "" {
		s.Version = r.Version
	}
	ts := parseTime(r.Timestamp)
	d.seeTime(ts)
	m := handoff.Message{ID: r.UUID, Line: n, Timestamp: ts, Sidechain: r.Sidechain}
	var results []handoff.ToolResult
	if r.Message != nil {
		for _, part := range r.Message.Parts {
			switch {
			case part.FunctionCall != nil:
				fc := part.FunctionCall
				name := firstNonEmpty(fc.Name, "tool")
				p.names[fc.ID] = name
				m.ToolCalls = append(m.ToolCalls, handoff.ToolCall{ID: fc.ID, Name: name, Input: trimJSON(fc.Args)})
			case part.FunctionResponse != nil:
				fr := part.FunctionResponse
				out := gemResponse(fr.Response)
				res := handoff.ToolResult{CallID: fr.ID, Name: firstNonEmpty(fr.Name, p.names[fr.ID], "tool"), ExitCode: gemExitCode(out), IsError: gemIsError(fr.Response)}
				res.Content, res.OriginalBytes = d.clipOutput(gemShellFrame(out))
				results = append(results, res)
			case part.Thought:
				m.Thinking = joinText(m.Thinking, part.Text)
			default:
				m.Text = joinText(m.Text, part.Text)
			}
		}
	}
	switch r.Type {
	case "user":
		m.Role = handoff.RoleUser
		// The prompt record's payload keeps what the person typed; the
		// parts add hook context the harness appended.
		var pl struct {
			DisplayText string `json:"displayText"`
		}
		if decodeJSON(r.Payload, &pl) == nil && strings.TrimSpace(pl.DisplayText) != "" {
			m.Text = pl.DisplayText
		}
		gemUserFlags(&m)
		if r.Subtype != "" && r.Subtype != "mid_turn_user_message" {
			m.Meta = true // a notification, cron or command record, not the person
		}
		if len(results) > 0 {
			d.add(handoff.Message{Line: n, Timestamp: ts, Role: handoff.RoleTool, ToolResults: results})
		}
		if strings.TrimSpace(m.Text) != "" {
			d.add(m)
		}
	case "assistant":
		m.Role = handoff.RoleAssistant
		if r.Model != "" {
			m.Model, s.Model = r.Model, r.Model
		}
		if u := r.Usage; u != nil && u.Prompt > 0 {
			cached := min(u.Cached, u.Prompt)
			m.Usage = &handoff.ProviderUsage{InputTokens: u.Prompt - cached, CacheReadInputTokens: cached, OutputTokens: u.Candidates + u.Thoughts}
		}
		if strings.TrimSpace(m.Text) != "" || m.Thinking != "" || len(m.ToolCalls) > 0 {
			d.add(m)
		}
	case "tool_result":
		p.toolResult(d, r, results, n)
	case "system":
		p.system(d, r, n)
	default:
		return fmt.Errorf("unknown record type %q", r.Type)
	}
	return nil
}

// toolResult adds a tool_result record's results, with the recorded
// status deciding failure, and says when the person cancelled the call.
func (p *qwenParser) toolResult(d *Decoder, r qwenRecord, results []handoff.ToolResult, n int) {
	ts := parseTime(r.Timestamp)
	tr := r.ToolResult
	if tr != nil {
		if len(results) == 0 && tr.CallID != "" {
			out := firstNonEmpty(ampText(tr.Error), jsonText(tr.ResultDisplay))
			res := handoff.ToolResult{CallID: tr.CallID, Name: firstNonEmpty(p.names[tr.CallID], "tool"), ExitCode: gemExitCode(out)}
			res.Content, res.OriginalBytes = d.clipOutput(gemShellFrame(out))
			results = append(results, res)
		}
		if tr.Status == "error" || tr.Status == "cancelled" {
			for i := range results {
				results[i].IsError = true
				if results[i].Content == "" {
					results[i].Content = firstNonEmpty(ampText(tr.Error), tr.Status)
				}
			}
		}
	}
	if len(results) > 0 {
		d.add(handoff.Message{ID: r.UUID, Line: n, Timestamp: ts, Role: handoff.RoleTool, ToolResults: results})
	}
	if tr != nil && tr.Status == "cancelled" {
		d.add(handoff.Message{Line: n, Timestamp: ts, Role: handoff.RoleSystem, Meta: true, Interrupt: true, Text: "[the person stopped the response]"})
	}
}

// system reads the system records a successor needs: the compaction
// summary, the session's title and the person's slash commands.
func (p *qwenParser) system(d *Decoder, r qwenRecord, n int) {
	ts := parseTime(r.Timestamp)
	switch r.Subtype {
	case "chat_compression":
		var pl struct {
			History []struct {
				Role  string    `json:"role"`
				Parts []gemPart `json:"parts"`
			} `json:"compressedHistory"`
		}
		if decodeJSON(r.Payload, &pl) != nil || len(pl.History) == 0 {
			return
		}
		var text string
		for _, part := range pl.History[0].Parts {
			if !part.Thought {
				text = joinText(text, part.Text)
			}
		}
		if strings.TrimSpace(text) != "" {
			d.add(handoff.Message{ID: r.UUID, Line: n, Timestamp: ts, Role: handoff.RoleUser, CompactSummary: true, Text: text})
		}
	case "custom_title":
		var pl struct {
			Title string `json:"customTitle"`
		}
		if decodeJSON(r.Payload, &pl) == nil && pl.Title != "" {
			d.t.Session.Title = pl.Title
		}
	case "slash_command":
		var pl struct {
			Phase   string `json:"phase"`
			Command string `json:"rawCommand"`
		}
		if decodeJSON(r.Payload, &pl) == nil && pl.Phase == "invocation" && pl.Command != "" {
			d.add(handoff.Message{ID: r.UUID, Line: n, Timestamp: ts, Role: handoff.RoleUser, Meta: true, Text: pl.Command})
		}
	}
}

// qwenLine recognises a Qwen Code record: Claude Code's uuid/sessionId
// keys with a Gemini-shaped message, or Qwen's own record keys.
func qwenLine(l *jsonLine) bool {
	if !l.has("sessionId") || !l.has("uuid") {
		return false
	}
	if l.has("systemPayload", "toolCallResult", "usageMetadata", "provenance") || l.typ == "tool_result" {
		return true
	}
	msg := l.obj["message"]
	return len(msg) > 0 && qwenPartsRe.Match(msg)
}

var qwenPartsRe = lazyRE(`^\s*\{\s*"role"\s*:\s*"(?:user|model)"\s*,\s*"parts"\s*:`)

// qwenProjectName is how Qwen Code names a project's folder
// (Storage.sanitizeCwd): every character but ASCII letters and digits as
// '-'.
func qwenProjectName(dir string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return r
		}
		return '-'
	}, dir)
}

// findQwen lists Qwen Code's sessions of dir.
func findQwen(_ context.Context, home, dir string) []SessionRef {
	return filesIn(filepath.Join(home, ".qwen", "projects", qwenProjectName(dir), "chats", "*.jsonl"))
}
