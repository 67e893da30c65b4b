package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
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
			if err := chat.message(d, renameForDecode(item.Message, continueKeys), n); err != nil {
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

// renameForDecode is renameKeys for an object that is decoded afterwards:
// it decodes to the same values, and its members that are not strings are
// the same bytes, but its string members (a message's content, its bulk)
// are slices of raw instead of being compacted or re-encoded. As in
// renameKeys, an object with no key to rename keeps its members' order
// and one with a renamed key is written as json.Marshal writes a map
// (members sorted by key, so that case-insensitive duplicates resolve
// alike; values HTML-escaped). Anything else (not a valid object, a key
// with escapes) is handed to renameKeys.
func renameForDecode(raw json.RawMessage, names map[string]string) json.RawMessage {
	if i := skipSpace(raw, 0); i >= len(raw) || raw[i] != '{' || !validJSON(raw) {
		return renameKeys(raw, names)
	}
	type member struct {
		key   string
		value []byte
	}
	var members []member
	plain, renamed := true, false
	objectMembers(raw, func(key, value []byte) {
		plain = plain && bytes.IndexByte(key, '\\') < 0
		_, rename := names[string(key)]
		renamed = renamed || rename
		members = append(members, member{string(key), value})
	})
	if !plain {
		return renameKeys(raw, names)
	}
	// encode writes a value that is not a string as renameKeys does.
	encode := func(v []byte) []byte {
		if v[0] == '"' {
			return v
		}
		if renamed {
			b, err := json.Marshal(json.RawMessage(v))
			if err != nil {
				return v
			}
			return b
		}
		var c bytes.Buffer
		if json.Compact(&c, v) != nil {
			return v
		}
		return c.Bytes()
	}
	if renamed {
		values := map[string][]byte{}
		for _, m := range members {
			values[m.key] = m.value
		}
		for from, to := range names {
			if v, ok := values[from]; ok {
				if _, taken := values[to]; !taken {
					values[to] = v
					delete(values, from)
				}
			}
		}
		members = members[:0]
		for _, k := range slices.Sorted(maps.Keys(values)) {
			members = append(members, member{k, values[k]})
		}
	}
	out := []byte{'{'}
	for i, m := range members {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(append(append(out, '"'), m.key...), '"', ':') // as it was: valid, no escapes
		out = append(out, encode(m.value)...)
	}
	return append(out, '}')
}

var continueRe = lazyRE(`"workspaceDirectory"\s*:`)

// continueDoc recognises a Continue session document.
func continueDoc(b []byte) bool {
	return b[0] == '{' && continueRe.Match(b) && bytesContains(b, `"history"`) && bytesContains(b, `"sessionId"`)
}

// continueLocation is where Continue keeps sessions, for the registry.
const continueLocation = "~/.continue/sessions/<session-id>.json"
