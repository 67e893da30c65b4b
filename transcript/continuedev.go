package transcript

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Continue (continuedev/continue) keeps each session as
// ~/.continue/sessions/<id>.json (core/util/history.ts; Session in
// core/index.d.ts): {sessionId, title, workspaceDirectory, history:
// [{message: ChatMessage, contextItems, …}]}. A ChatMessage is the OpenAI
// Chat shape in camelCase: role user|assistant|system|tool|thinking,
// content (a string or parts), toolCalls [{id, function: {name,
// arguments}}], toolCallId; the keys are renamed and the message read by
// the OpenAI Chat reader. A thinking message's text is the next
// assistant turn's reasoning and is not shown as a turn. It is read an
// item at a time (jsonRecords).

// continueKeys renames ChatMessage keys to the Chat Completions names,
// continueArgKeys the built-in tools' argument keys to the names
// handoff's facts read (builtin_edit_existing_file {filepath, changes},
// builtin_create_new_file {filepath, contents}).
var (
	continueKeys    = map[string]string{"toolCalls": "tool_calls", "toolCallId": "tool_call_id"}
	continueArgKeys = map[string]string{"filepath": "file_path", "changes": "diff", "contents": "content"}
)

func newContinue() formatParser {
	chat := &openaiParser{toolNames: map[string]string{}, mode: modeLines}
	return &streamParser{name: "Continue session", key: "history",
		member: func(d *Decoder, key string, raw []byte) error {
			d.t.Session.Agent = "continue"
			switch key {
			case "sessionId":
				d.t.Session.ID = jsonText(raw)
			case "title":
				d.t.Session.Title = jsonText(raw)
			case "workspaceDirectory":
				d.t.Session.CWD = strings.TrimPrefix(jsonText(raw), "file://")
			}
			return nil
		},
		element: func(d *Decoder, n int, raw []byte) error {
			d.t.Session.Agent = "continue"
			var item struct {
				Message json.RawMessage `json:"message"`
			}
			if err := decodeJSON(raw, &item); err != nil || len(item.Message) == 0 {
				return d.recordError(n, fmt.Errorf("history item without a message"))
			}
			var head struct {
				Role string `json:"role"`
			}
			_ = decodeJSON(item.Message, &head)
			if head.Role == "thinking" {
				return nil
			}
			from := len(d.t.Messages)
			if err := chat.message(d, renameKeys(item.Message, continueKeys), n); err != nil {
				return d.recordError(n, err)
			}
			for i := from; i < len(d.t.Messages); i++ {
				for j := range d.t.Messages[i].ToolCalls {
					c := &d.t.Messages[i].ToolCalls[j]
					c.Input = renameKeys(c.Input, continueArgKeys)
				}
			}
			return nil
		},
	}
}

var continueRe = lazyRE(`"workspaceDirectory"\s*:`)

// continueDoc recognises a Continue session document.
func continueDoc(b []byte) bool {
	return b[0] == '{' && continueRe.Match(b) && bytesContains(b, `"history"`) && bytesContains(b, `"sessionId"`)
}

// continueLocation is where Continue keeps sessions, for the registry.
const continueLocation = "~/.continue/sessions/<session-id>.json"
