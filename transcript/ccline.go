package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// decodeCCLine fills l from one Claude Code line exactly as
// json.Unmarshal(line, l) would, in fewer passes: validJSON checks the
// line once, then one objectMembers walk (string ends found with
// IndexByte) hands each member to the field that uses it, instead of
// encoding/json's reflective decoder stepping its scanner over every byte
// again, the huge tool outputs included. Whenever the walk meets what it
// does not mirror byte for byte (a key with escapes or non-ASCII letters,
// a value of the wrong type, a nested error), it falls back to
// json.Unmarshal itself, so results and error messages never differ.
func decodeCCLine(line []byte, l *ccLine) error {
	if i := skipSpace(line, 0); i < len(line) && line[i] == '{' && validJSON(line) {
		var fast ccLine
		if fast.read(line) {
			*l = fast
			return nil
		}
	}
	*l = ccLine{}
	return json.Unmarshal(line, l)
}

// read is decodeCCLine's walk over a valid object; false means fall back.
func (l *ccLine) read(obj []byte) bool {
	return readMembers(obj, func(k string, v []byte, ok *bool) {
		switch k {
		case "type":
			*ok = setString(&l.Type, v)
		case "subtype":
			*ok = setString(&l.Subtype, v)
		case "uuid":
			*ok = setString(&l.UUID, v)
		case "sessionid":
			*ok = setString(&l.SessionID, v)
		case "session_id":
			*ok = setString(&l.SessionIDSnake, v)
		case "cwd":
			*ok = setString(&l.CWD, v)
		case "gitbranch":
			*ok = setString(&l.GitBranch, v)
		case "version":
			*ok = setString(&l.Version, v)
		case "agentid":
			*ok = setString(&l.AgentID, v)
		case "model":
			*ok = setString(&l.Model, v)
		case "timestamp":
			l.Timestamp = append(json.RawMessage(nil), v...)
		case "issidechain":
			l.IsSidechain = append(json.RawMessage(nil), v...)
		case "ismeta":
			l.IsMeta = append(json.RawMessage(nil), v...)
		case "iscompactsummary":
			l.IsCompactSummary = append(json.RawMessage(nil), v...)
		case "parent_tool_use_id":
			l.ParentToolUseID = append(json.RawMessage(nil), v...)
		case "content":
			l.Content = append(json.RawMessage(nil), v...)
		case "tooluseresult":
			*ok = l.ToolUseResult.UnmarshalJSON(v) == nil
		case "message":
			*ok = readObject(&l.Message, v, (*ccMessage).read)
		}
	})
}

// read fills m from the line's message object; false means fall back.
func (m *ccMessage) read(obj []byte) bool {
	return readMembers(obj, func(k string, v []byte, ok *bool) {
		switch k {
		case "id":
			*ok = setString(&m.ID, v)
		case "role":
			*ok = setString(&m.Role, v)
		case "model":
			*ok = setString(&m.Model, v)
		case "content":
			*ok = m.Content.UnmarshalJSON(v) == nil
		case "usage":
			*ok = json.Unmarshal(v, &m.Usage) == nil
		}
	})
}

// readMembers walks obj's members, giving member each plainly named key
// (folded as memberName does) and its value; member sets *ok to false
// to give up, as does a key memberName cannot fold. It reports whether
// the walk went through.
func readMembers(obj []byte, member func(k string, v []byte, ok *bool)) bool {
	ok := true
	objectMembers(obj, func(key, v []byte) {
		if !ok {
			return
		}
		k, plain := memberName(key)
		if !plain {
			ok = false
			return
		}
		member(k, v, &ok)
	})
	return ok
}

// memberName is a key lower-cased the way encoding/json matches field
// names; plain is false for a key with escapes or non-ASCII bytes, whose
// matching (unescaping, Unicode folding) is left to encoding/json.
func memberName(key []byte) (string, bool) {
	for _, c := range key {
		if c == '\\' || c >= utf8.RuneSelf {
			return "", false
		}
	}
	if bytes.IndexFunc(key, func(r rune) bool { return 'A' <= r && r <= 'Z' }) < 0 {
		return string(key), true
	}
	return strings.ToLower(string(key)), true
}

// setString stores a JSON string in dst as encoding/json would (null
// leaves dst as it is); false for any other value, a type error.
func setString(dst *string, v []byte) bool {
	if string(v) == "null" {
		return true
	}
	if len(v) == 0 || v[0] != '"' {
		return false
	}
	s, err := jsonString(v)
	if err != nil {
		return false
	}
	*dst = s
	return true
}
