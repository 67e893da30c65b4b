package transcript

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
)

// detectLines is how many non-blank lines Detect examines: enough to get
// past the metadata lines Claude Code writes first (summary,
// file-history-snapshot, permission-mode, …).
const detectLines = 20

// claudeTypes are Claude Code entry types; any of them on a JSON line marks
// the file as Claude Code even without the envelope fields.
var claudeTypes = map[string]bool{
	"user": true, "assistant": true, "summary": true, "file-history-snapshot": true,
	"queue-operation": true, "permission-mode": true, "progress": true, "attachment": true,
	"ai-title": true, "custom-title": true, "last-prompt": true, "worktree-state": true,
	"agent-name": true, "pr-link": true,
}

// codexTypes are Codex CLI rollout entry types.
var codexTypes = map[string]bool{
	"session_meta": true, "response_item": true, "event_msg": true, "turn_context": true,
	"compacted": true, "world_state": true,
}

// Detect decides the format of a transcript from its first bytes (Parse
// gives it up to 64 KiB; the last line may be cut). JSON lines are
// examined one by one, so a metadata line first does not decide the
// answer. Empty input, binary data and JSON of an unknown shape are
// EINVALID errors that name the supported formats.
func Detect(head []byte) (Format, error) {
	head = bytes.TrimPrefix(head, []byte("\uFEFF"))
	trimmed := bytes.TrimSpace(head)
	if len(trimmed) == 0 {
		return FormatAuto, handoff.Errorf(handoff.EINVALID, "empty transcript: no content to detect a format from")
	}
	if looksBinary(trimmed) {
		return FormatAuto, handoff.Errorf(handoff.EINVALID, "unrecognised input: binary data, not a transcript (supported formats: %s)", supportedList())
	}
	if trimmed[0] != '{' && trimmed[0] != '[' {
		return FormatPlain, nil
	}
	return detectJSON(trimmed)
}

// detectJSON classifies input that starts like JSON.
func detectJSON(b []byte) (Format, error) {
	openai := false
	rest := b
	for seen := 0; seen < detectLines && len(rest) > 0; {
		var l []byte
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			l, rest = rest, nil
		}
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		seen++
		switch classifyJSONLine(l) {
		case FormatClaudeCode:
			return FormatClaudeCode, nil
		case FormatOpenAIChat:
			openai = true
		case FormatCodex:
			return FormatCodex, nil
		}
	}
	if openai {
		return FormatOpenAIChat, nil
	}
	// No complete line decided it: a pretty-printed document, or a first
	// line longer than the head. Fall back on the field names present.
	switch {
	case bytes.Contains(b, []byte(`"sessionId"`)) && (bytes.Contains(b, []byte(`"parentUuid"`)) || bytes.Contains(b, []byte(`"leafUuid"`)) || bytes.Contains(b, []byte(`"uuid"`))):
		return FormatClaudeCode, nil
	case bytes.Contains(b, []byte(`"payload"`)) && (bytes.Contains(b, []byte(`"session_meta"`)) || bytes.Contains(b, []byte(`"response_item"`))):
		return FormatCodex, nil
	case bytes.Contains(b, []byte(`"role"`)):
		return FormatOpenAIChat, nil
	}
	return FormatAuto, handoff.Errorf(handoff.EINVALID, "unrecognised JSON transcript: no known message layout (supported formats: %s)", supportedList())
}

// classifyJSONLine says which format one complete JSON line belongs to,
// or FormatAuto when it does not tell.
func classifyJSONLine(l []byte) Format {
	if l[0] == '[' {
		var arr []map[string]json.RawMessage
		if json.Unmarshal(l, &arr) == nil {
			for _, m := range arr {
				if _, ok := m["role"]; ok {
					return FormatOpenAIChat
				}
			}
		}
		return FormatAuto
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(l, &obj) != nil {
		return FormatAuto
	}
	var typ string
	_ = json.Unmarshal(obj["type"], &typ)
	_, hasPayload := obj["payload"]
	if hasPayload && codexTypes[typ] {
		return FormatCodex
	}
	_, hasSession := obj["sessionId"]
	if hasSession && hasAny(obj, "uuid", "parentUuid", "leafUuid", "messageId") {
		return FormatClaudeCode
	}
	if claudeTypes[typ] {
		return FormatClaudeCode
	}
	if hasAny(obj, "role", "messages") {
		return FormatOpenAIChat
	}
	return FormatAuto
}

func hasAny(obj map[string]json.RawMessage, keys ...string) bool {
	for _, k := range keys {
		if _, ok := obj[k]; ok {
			return true
		}
	}
	return false
}

// looksBinary reports whether b is not text: it holds a NUL byte, or more
// than a tenth of it is invalid UTF-8 or control characters. The last few
// bytes may be a rune cut by the head limit, so they are not held against
// it.
func looksBinary(b []byte) bool {
	if bytes.IndexByte(b, 0) >= 0 {
		return true
	}
	bad, total := 0, 0
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		total++
		switch {
		case r == utf8.RuneError && size == 1:
			if len(b)-i > utf8.UTFMax {
				bad++
			}
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r' && r != '\f':
			bad++
		case r == 0x7f:
			bad++
		}
		i += size
	}
	return bad*10 > total
}
