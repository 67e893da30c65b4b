package transcript

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/handoff-cli/handoff"
)

// VS Code's chat (GitHub Copilot Chat) keeps each chat session as
// workspaceStorage/<hash>/chatSessions/<id>.json (serialized
// ISerializableChatData, microsoft/vscode
// src/vs/workbench/contrib/chat/common/chatModel.ts): {version,
// sessionId, creationDate, customTitle, requests: [{requestId, message:
// {text}, response: [parts], result: {metadata: {promptTokens,
// outputTokens}, errorDetails}, modelId, timestamp, isCanceled}]}. It is
// read a request at a time (jsonRecords).
//
// A request's message is the person's. Its response parts are the
// assistant's turn, in order: markdown ({value}, kind absent or
// markdownContent) is text, thinking is Thinking, a
// toolInvocationSerialized {toolId, toolCallId, invocationMessage,
// pastTenseMessage, resultDetails {input, output, isError},
// toolSpecificData {command | commandLine.original for the terminal}} is
// a call (input: the terminal command, else resultDetails.input, else
// the invocation message) with its result when isComplete (the past
// tense message and output), and a textEditGroup {uri, edits} is an edit
// of uri's file. result.metadata's prompt/output tokens are the last
// assistant turn's Usage; errorDetails is a system Message; isCanceled
// is the person stopping the turn.

type vscRequest struct {
	RequestID string                `json:"requestId"`
	Message   struct{ Text string } `json:"message"`
	Response  []json.RawMessage     `json:"response"`
	ModelID   string                `json:"modelId"`
	Timestamp int64                 `json:"timestamp"`
	Canceled  bool                  `json:"isCanceled"`
	Result    *struct {
		Metadata struct {
			PromptTokens int `json:"promptTokens"`
			OutputTokens int `json:"outputTokens"`
		} `json:"metadata"`
		ErrorDetails *struct {
			Message string `json:"message"`
		} `json:"errorDetails"`
	} `json:"result"`
}

type vscPart struct {
	Kind              string          `json:"kind"`
	Value             json.RawMessage `json:"value"`
	ToolID            string          `json:"toolId"`
	ToolCallID        string          `json:"toolCallId"`
	InvocationMessage json.RawMessage `json:"invocationMessage"`
	PastTenseMessage  json.RawMessage `json:"pastTenseMessage"`
	IsComplete        bool            `json:"isComplete"`
	ResultDetails     json.RawMessage `json:"resultDetails"`
	ToolSpecificData  *struct {
		Kind        string `json:"kind"`
		Command     string `json:"command"`
		CommandLine *struct {
			Original string `json:"original"`
		} `json:"commandLine"`
	} `json:"toolSpecificData"`
	URI   json.RawMessage `json:"uri"`
	Edits json.RawMessage `json:"edits"`
}

func newVSCodeChat() formatParser {
	return &streamParser{name: "VS Code chat session", key: "requests",
		member: func(d *Decoder, key string, raw []byte) error {
			d.t.Session.Agent = "vscode-copilot-chat"
			switch key {
			case "sessionId":
				d.t.Session.ID = jsonText(raw)
			case "customTitle":
				d.t.Session.Title = jsonText(raw)
			case "creationDate":
				d.seeTime(msTime(int64(intValue(raw))))
			}
			return nil
		},
		element: func(d *Decoder, n int, raw []byte) error {
			var r vscRequest
			if err := decodeJSON(raw, &r); err != nil {
				return d.recordError(n, fmt.Errorf("malformed request: %w", jsonReason(err)))
			}
			vscodeRequest(d, r, n)
			return nil
		},
	}
}

func vscodeRequest(d *Decoder, r vscRequest, n int) {
	d.t.Session.Agent = "vscode-copilot-chat"
	ts := msTime(r.Timestamp)
	d.seeTime(ts)
	model := strings.TrimPrefix(r.ModelID, "copilot/")
	if model != "" {
		d.t.Session.Model = model
	}
	if strings.TrimSpace(r.Message.Text) != "" {
		d.add(handoff.Message{ID: r.RequestID, Line: n, Timestamp: ts, Role: handoff.RoleUser, Text: r.Message.Text})
	}
	turn := handoff.Message{Line: n, Timestamp: ts, Role: handoff.RoleAssistant, Model: model}
	last := -1
	flush := func(results []handoff.ToolResult) {
		if turn.Text != "" || turn.Thinking != "" || len(turn.ToolCalls) > 0 {
			last = d.add(turn)
		}
		if len(results) > 0 {
			d.add(handoff.Message{Line: n, Timestamp: ts, Role: handoff.RoleTool, ToolResults: results})
		}
		turn.Text, turn.Thinking, turn.ToolCalls = "", "", nil
	}
	calls := 0
	for _, raw := range r.Response {
		var p vscPart
		if decodeValid(raw, &p) != nil {
			continue
		}
		switch p.Kind {
		case "", "markdownContent":
			turn.Text += vscText(p.Value)
		case "thinking":
			turn.Thinking = joinText(turn.Thinking, vscText(p.Value))
		case "toolInvocationSerialized":
			calls++
			id := firstNonEmpty(p.ToolCallID, fmt.Sprintf("%s-%d", r.RequestID, calls))
			call := handoff.ToolCall{ID: id, Name: firstNonEmpty(p.ToolID, "tool"), Input: vscInput(p)}
			turn.ToolCalls = append(turn.ToolCalls, call)
			var results []handoff.ToolResult
			if p.IsComplete {
				out, isErr := vscOutput(p)
				res := handoff.ToolResult{CallID: id, Name: call.Name, IsError: isErr}
				res.Content, res.OriginalBytes = d.clipOutput(out)
				results = append(results, res)
			}
			flush(results)
		case "textEditGroup":
			path := vscURIPath(p.URI)
			if path == "" {
				continue
			}
			calls++
			id := fmt.Sprintf("%s-edit-%d", r.RequestID, calls)
			in, _ := json.Marshal(map[string]any{"file_path": path, "edits": json.RawMessage(orJSONNull(p.Edits))})
			turn.ToolCalls = append(turn.ToolCalls, handoff.ToolCall{ID: id, Name: "textEdit", Input: in})
			flush([]handoff.ToolResult{{CallID: id, Name: "textEdit", Content: "edited " + path}})
		}
	}
	flush(nil)
	if res := r.Result; res != nil {
		if last >= 0 && res.Metadata.PromptTokens > 0 {
			d.t.Messages[last].Usage = &handoff.ProviderUsage{InputTokens: res.Metadata.PromptTokens, OutputTokens: res.Metadata.OutputTokens}
		}
		if res.ErrorDetails != nil && res.ErrorDetails.Message != "" && !r.Canceled {
			d.add(handoff.Message{Line: n, Timestamp: ts, Role: handoff.RoleSystem, Meta: true, Text: "error: " + res.ErrorDetails.Message})
		}
	}
	if r.Canceled {
		d.add(handoff.Message{Line: n, Timestamp: ts, Role: handoff.RoleSystem, Meta: true, Interrupt: true, Text: "[the person stopped the response]"})
	}
}

// vscText reads a markdown value (valid JSON, from a decoded request): a
// string, or {value}.
func vscText(raw json.RawMessage) string {
	var v struct {
		Value string `json:"value"`
	}
	if i := skipSpace(raw, 0); i < len(raw) && raw[i] == '{' {
		// Not a string: straight to {value}, not through a failed
		// string decode first.
		_ = decodeValid(raw, &v)
		return v.Value
	}
	var s string
	if decodeValid(raw, &s) == nil {
		return s
	}
	_ = decodeValid(raw, &v)
	return v.Value
}

// vscInput is a tool call's input: the terminal command, the recorded
// input, else what the invocation message says it does.
func vscInput(p vscPart) json.RawMessage {
	if t := p.ToolSpecificData; t != nil {
		cmd := t.Command
		if t.CommandLine != nil && t.CommandLine.Original != "" {
			cmd = t.CommandLine.Original
		}
		if cmd != "" {
			in, _ := json.Marshal(map[string]string{"command": cmd})
			return in
		}
	}
	var details struct {
		Input json.RawMessage `json:"input"`
	}
	if decodeValid(p.ResultDetails, &details) == nil && len(details.Input) > 0 {
		var s string
		if decodeValid(details.Input, &s) == nil && json.Valid([]byte(s)) {
			return json.RawMessage(s)
		}
		if details.Input[0] == '{' {
			return details.Input
		}
	}
	in, _ := json.Marshal(map[string]string{"description": vscText(p.InvocationMessage)})
	return in
}

// vscOutput is a finished call's result text and whether it failed.
func vscOutput(p vscPart) (string, bool) {
	out := vscText(p.PastTenseMessage)
	var details struct {
		Output  []json.RawMessage `json:"output"`
		IsError bool              `json:"isError"`
	}
	if decodeValid(p.ResultDetails, &details) == nil {
		for _, o := range details.Output {
			out = joinText(out, vscText(o))
		}
	}
	return out, details.IsError
}

// vscURIPath reads a file URI: {path | fsPath} or "file:///…".
func vscURIPath(raw json.RawMessage) string {
	var u struct {
		Path   string `json:"path"`
		FSPath string `json:"fsPath"`
	}
	if decodeJSON(raw, &u) == nil && (u.FSPath != "" || u.Path != "") {
		return firstNonEmpty(u.FSPath, u.Path)
	}
	var s string
	if decodeJSON(raw, &s) == nil {
		return strings.TrimPrefix(s, "file://")
	}
	return ""
}

func orJSONNull(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	return raw
}

var (
	vscRequestsRe = lazyRE(`"requests"\s*:\s*\[`)
	vscMarkerRe   = lazyRE(`"(?:requesterUsername|responderUsername|initialLocation)"\s*:|"creationDate"\s*:\s*\d`)
)

// vscodeDoc recognises a VS Code chat session document.
func vscodeDoc(b []byte) bool {
	return b[0] == '{' && vscRequestsRe.Match(b) && vscMarkerRe.Match(b)
}
