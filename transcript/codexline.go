package transcript

import "encoding/json"

// decodeCodexLine fills rec from one rollout line exactly as
// json.Unmarshal(line, rec) would, in one pass: the line is validated as
// validJSON does while the envelope's and the payload's members are
// handed to the fields that use them (objectWalk); the members no field
// uses (a reasoning item's encrypted_content, turn_context's
// instructions, an exec event's stdout) are only checked, not stepped
// through by encoding/json's scanner twice (its validity check, then its
// decode). Whenever the walk meets what it does not mirror byte for byte
// (invalid JSON, a key with escapes or non-ASCII letters, a value of the
// wrong type), it falls back to json.Unmarshal itself, so results and
// errors never differ. FuzzDecodeCodexLine holds it to json.Unmarshal's
// answers. The walk decodes a payload into *scratch (zeroed first)
// instead of a new struct: a parser reading line after line reuses one,
// since nothing keeps a payload once its line is handled.
func decodeCodexLine(line []byte, rec *codexRecord, scratch *codexPayload) error {
	var fast codexRecord
	if fast.walk(line, scratch) {
		*rec = fast
		return nil
	}
	*rec = codexRecord{}
	return json.Unmarshal(line, rec)
}

// walk is decodeCodexLine's pass over the line; false means fall back.
func (r *codexRecord) walk(line []byte, scratch *codexPayload) bool {
	v := jsonValidator{b: line}
	i := v.space(0)
	if i >= len(line) || line[i] != '{' {
		return false
	}
	end, ok := v.objectWalk(i, func(key []byte, at int) (int, bool) {
		k, plain := memberName(key)
		if !plain {
			return at, false
		}
		if k == "payload" && at < len(line) && line[at] == '{' {
			// A repeated payload is read into the same struct, as
			// encoding/json does.
			if r.Payload == nil {
				*scratch = codexPayload{}
				r.Payload = scratch
			}
			return v.objectWalk(at, func(key []byte, at int) (int, bool) {
				k, plain := memberName(key)
				if !plain {
					return at, false
				}
				end, ok := v.value(at)
				return end, ok && r.Payload.set(k, line[at:end])
			})
		}
		end, ok := v.value(at)
		return end, ok && r.set(k, line[at:end])
	})
	return ok && v.space(end) == len(line)
}

// set stores an envelope member (key folded as memberName folds it) as
// encoding/json would, but for a payload object, which walk reads; false
// means fall back.
func (r *codexRecord) set(k string, v []byte) bool {
	switch k {
	case "timestamp":
		return setString(&r.Timestamp, v)
	case "type":
		return setString(&r.Type, v)
	case "payload": // not an object: null, or a type error
		if string(v) != "null" {
			return false
		}
		r.Payload = nil
	}
	return true
}

// set stores a payload member as encoding/json would; false means fall
// back. Raw members are slices of the line, as rawJSON's are: the parser
// resolves them before record returns.
func (pl *codexPayload) set(k string, v []byte) bool {
	if dst := pl.stringField(k); dst != nil {
		return setString(dst, v)
	}
	if dst := pl.rawField(k); dst != nil {
		*dst = v
		return true
	}
	switch k {
	case "content":
		pl.Content = v
	case "output":
		pl.Output = v
	case "git":
		return readObject(&pl.Git, v, func(g *codexGit, obj []byte) bool {
			return readMembers(obj, func(k string, v []byte, ok *bool) {
				if k == "branch" {
					*ok = setString(&g.Branch, v)
				}
			})
		})
	case "info":
		return readObject(&pl.Info, v, (*codexTokenInfo).read)
	case "replacement_history":
		return readRawArray(&pl.ReplacementHistory, v)
	}
	return true
}

// read fills info from a token_count event's info object; false means
// fall back.
func (info *codexTokenInfo) read(obj []byte) bool {
	return readMembers(obj, func(k string, v []byte, ok *bool) {
		switch k {
		case "last_token_usage":
			*ok = readObject(&info.LastTokenUsage, v, func(u *codexTokenUsage, obj []byte) bool {
				return readMembers(obj, func(k string, v []byte, ok *bool) {
					switch k {
					case "input_tokens":
						*ok = setInt(&u.InputTokens, v)
					case "cached_input_tokens":
						*ok = setInt(&u.CachedInputTokens, v)
					case "output_tokens":
						*ok = setInt(&u.OutputTokens, v)
					}
				})
			})
		case "model_context_window":
			info.ModelContextWindow = v
		}
	})
}

// stringField is the string field a payload key (folded as memberName
// folds it) decodes into, or nil.
func (pl *codexPayload) stringField(k string) *string {
	switch k {
	case "type":
		return &pl.Type
	case "id":
		return &pl.ID
	case "forked_from_id":
		return &pl.ForkedFromID
	case "cwd":
		return &pl.CWD
	case "cli_version":
		return &pl.CLIVersion
	case "originator":
		return &pl.Originator
	case "model":
		return &pl.Model
	case "role":
		return &pl.Role
	case "name":
		return &pl.Name
	case "call_id":
		return &pl.CallID
	case "aggregated_output":
		return &pl.AggregatedOutput
	}
	return nil
}

// rawField is the json.RawMessage field a payload key decodes into, or
// nil.
func (pl *codexPayload) rawField(k string) *json.RawMessage {
	switch k {
	case "source":
		return &pl.Source
	case "summary":
		return &pl.Summary
	case "arguments":
		return &pl.Arguments
	case "input":
		return &pl.Input
	case "action":
		return &pl.Action
	case "model_context_window":
		return &pl.ModelContextWindow
	case "exit_code":
		return &pl.ExitCode
	case "success":
		return &pl.Success
	case "message":
		return &pl.Message
	case "reason":
		return &pl.Reason
	}
	return nil
}

// codexPart is one item of a content or summary array.
type codexPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// codexParts decodes a content or summary array, a value of a line
// already validated, as json.Unmarshal into []codexPart would (with
// typed false, into items without the Type field: a summary's items are
// read for their text only): one walk over its items, and encoding/json
// itself for anything the walk does not mirror (no array, an item that
// is no object, a member of the wrong type), so results and errors never
// differ.
func codexParts(raw []byte, typed bool) ([]codexPart, error) {
	if len(raw) > 0 && raw[0] == '[' {
		var parts []codexPart
		ok := true
		arrayElements(raw, func(e []byte) {
			var p codexPart
			switch {
			case !ok, string(e) == "null":
			case e[0] == '{':
				ok = readMembers(e, func(k string, v []byte, ok *bool) {
					switch {
					case k == "type" && typed:
						*ok = setString(&p.Type, v)
					case k == "text":
						*ok = setString(&p.Text, v)
					}
				})
			default:
				ok = false
			}
			parts = append(parts, p)
		})
		if ok {
			return parts, nil
		}
	}
	return unmarshalParts(raw, typed)
}

// unmarshalParts is codexParts by encoding/json alone: its fallback, and
// the answer its tests hold the walk to.
func unmarshalParts(raw []byte, typed bool) ([]codexPart, error) {
	if typed {
		var parts []codexPart
		err := json.Unmarshal(raw, &parts)
		return parts, err
	}
	var texts []struct {
		Text string `json:"text"`
	}
	err := json.Unmarshal(raw, &texts)
	parts := make([]codexPart, len(texts))
	for i, t := range texts {
		parts[i].Text = t.Text
	}
	return parts, err
}
