package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/handoff-cli/handoff"
)

// Newer VS Code versions keep a chat session as chatSessions/<id>.jsonl,
// an append-only mutation log of the same ISerializableChatData the
// .json files hold (microsoft/vscode src/vs/workbench/contrib/chat/
// common/model/objectMutationLog.ts, chatSessionStore.ts): each line is
// {kind, k, v, i}: kind 0 is the whole state v (the first line, and again
// when VS Code compacts the log), 1 sets the value at path k (property
// names and array indexes), 2 pushes v's items onto the array at k after
// cutting it to length i when i is given (a retried or undone request),
// 3 deletes k. The log is replayed onto a state that keeps only what the
// reader maps (vscodeRequest): per request its id, message text, model,
// time, cancel flag, token counts, error and response parts, with tool
// output clipped as it arrives and cut again to the older-output limit
// once a later request begins, so memory grows with the requests, not
// with the tool output; a request that is no longer the latest is kept
// as its JSON (frozenRequest), a third of its size as maps, and decoded
// again only if a later entry changes it. The requests are mapped when
// the log ends.

// vscLogEntry is one log line, decoded in one pass (the value with it).
type vscLogEntry struct {
	Kind int   `json:"kind"`
	K    []any `json:"k"`
	V    any   `json:"v"`
	I    *int  `json:"i"`
}

type vscLogParser struct {
	state    map[string]any
	requests []any
	lines    []int
}

func newVSCodeLog() formatParser { return &vscLogParser{state: map[string]any{}} }

// frozenRequest is a pruned request kept as its JSON text.
type frozenRequest []byte

// freeze keeps a request as its JSON, or as it is if it does not
// encode (it always does: it was decoded from JSON).
func freeze(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	return frozenRequest(b)
}

// request returns request i as maps, decoding it when it was frozen.
func (p *vscLogParser) request(i int) any {
	if f, ok := p.requests[i].(frozenRequest); ok {
		var v any
		if decodeJSON(f, &v) == nil {
			p.requests[i] = v
		}
	}
	return p.requests[i]
}

// update stores request i after a change, frozen again unless it is the
// latest.
func (p *vscLogParser) update(i int, v any) {
	if i < len(p.requests)-1 {
		v = freeze(v)
	}
	p.requests[i] = v
}

func (p *vscLogParser) pending() []handoff.Message { return nil }

func (p *vscLogParser) record(d *Decoder, line []byte, n int) error {
	d.t.Session.Agent = "vscode-copilot-chat"
	var e vscLogEntry
	if err := decodeJSON(line, &e); err != nil {
		return fmt.Errorf("malformed log entry: %w", jsonReason(err))
	}
	v := e.V
	switch e.Kind {
	case 0:
		root, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("initial state is not an object")
		}
		p.state = map[string]any{}
		p.requests, p.lines = nil, nil
		for _, k := range []string{"sessionId", "customTitle", "creationDate"} {
			if x, ok := root[k]; ok {
				p.state[k] = x
			}
		}
		reqs, _ := root["requests"].([]any)
		for _, r := range reqs {
			p.push(d, r, n)
		}
	case 1:
		return p.set(d, e.K, v, n)
	case 2:
		return p.pushAt(d, e.K, v, e.I, n)
	case 3:
		return p.set(d, e.K, nil, n)
	default:
		return fmt.Errorf("unknown log entry kind %d", e.Kind)
	}
	return nil
}

// push appends a request, aging the tool output of the one before.
func (p *vscLogParser) push(d *Decoder, r any, n int) {
	if last := len(p.requests) - 1; last >= 0 {
		prev := p.request(last)
		if d.opts.OlderToolOutputBytes >= 0 {
			clipOutputs(prev, d.opts.OlderToolOutputBytes, false)
		}
		p.requests[last] = freeze(prev)
	}
	p.requests = append(p.requests, pruneVSCRequest(r, d.opts.MaxToolOutputBytes))
	p.lines = append(p.lines, n)
}

// pushAt applies a push entry: requests pushed (or cut) at the top, or
// items pushed inside a request.
func (p *vscLogParser) pushAt(d *Decoder, path []any, v any, cut *int, n int) error {
	items, _ := v.([]any)
	if len(path) == 1 && path[0] == "requests" {
		if cut != nil && *cut >= 0 && *cut < len(p.requests) {
			p.requests, p.lines = p.requests[:*cut], p.lines[:*cut]
		}
		for _, r := range items {
			p.push(d, r, n)
		}
		return nil
	}
	i, rest, ok := p.requestPath(path)
	if !ok {
		return nil
	}
	req := p.request(i)
	arr, _ := getPath(req, rest).([]any)
	if cut != nil && *cut >= 0 && *cut < len(arr) {
		arr = arr[:*cut]
	}
	arr = append(arr, items...)
	p.update(i, pruneVSCRequest(setPath(req, rest, arr), d.opts.MaxToolOutputBytes))
	return nil
}

// set applies a set (or, with v nil, a delete) entry.
func (p *vscLogParser) set(d *Decoder, path []any, v any, n int) error {
	if len(path) == 0 {
		return fmt.Errorf("set entry without a path")
	}
	if key, ok := path[0].(string); ok && key != "requests" {
		if len(path) == 1 {
			p.state[key] = v
		}
		return nil
	}
	if len(path) == 1 {
		reqs, _ := v.([]any)
		p.requests, p.lines = nil, nil
		for _, r := range reqs {
			p.push(d, r, n)
		}
		return nil
	}
	i, rest, ok := p.requestPath(path)
	if !ok {
		return nil
	}
	if len(rest) == 0 {
		p.update(i, pruneVSCRequest(v, d.opts.MaxToolOutputBytes))
		return nil
	}
	p.update(i, pruneVSCRequest(setPath(p.request(i), rest, v), d.opts.MaxToolOutputBytes))
	return nil
}

// requestPath splits ["requests", i, rest…] into i and rest.
func (p *vscLogParser) requestPath(path []any) (int, []any, bool) {
	if len(path) < 2 || path[0] != "requests" {
		return 0, nil, false
	}
	f, ok := path[1].(float64)
	i := int(f)
	if !ok || i < 0 || i >= len(p.requests) {
		return 0, nil, false
	}
	return i, path[2:], true
}

func (p *vscLogParser) finish(d *Decoder) error {
	d.t.Session.Agent = "vscode-copilot-chat"
	if s, ok := p.state["sessionId"].(string); ok {
		d.t.Session.ID = s
	}
	if s, ok := p.state["customTitle"].(string); ok {
		d.t.Session.Title = s
	}
	if f, ok := p.state["creationDate"].(float64); ok {
		d.seeTime(msTime(int64(f)))
	}
	for i, r := range p.requests {
		raw, frozen := r.(frozenRequest)
		if !frozen {
			var err error
			if raw, err = json.Marshal(r); err != nil {
				return fmt.Errorf("request %d: %w", i+1, err)
			}
		}
		var req vscRequest
		if err := decodeJSON(raw, &req); err != nil {
			if err := d.recordError(p.lines[i], fmt.Errorf("request %d is malformed: %w", i+1, jsonReason(err))); err != nil {
				return err
			}
			continue
		}
		vscodeRequest(d, req, p.lines[i])
		p.requests[i] = nil
	}
	return nil
}

// getPath follows path (keys and indexes) into v; nil when it leads
// nowhere.
func getPath(v any, path []any) any {
	for _, k := range path {
		switch c := v.(type) {
		case map[string]any:
			s, _ := k.(string)
			v = c[s]
		case []any:
			f, ok := k.(float64)
			if !ok || int(f) < 0 || int(f) >= len(c) {
				return nil
			}
			v = c[int(f)]
		default:
			return nil
		}
	}
	return v
}

// setPath sets the value at path inside v (deleting a key when val is
// nil) and returns v; a path through something missing changes nothing.
func setPath(v any, path []any, val any) any {
	if len(path) == 0 {
		return val
	}
	switch c := v.(type) {
	case map[string]any:
		s, _ := path[0].(string)
		if len(path) == 1 {
			if val == nil {
				delete(c, s)
			} else {
				c[s] = val
			}
			return c
		}
		if next, ok := c[s]; ok {
			c[s] = setPath(next, path[1:], val)
		} else if _, isKey := path[1].(string); isKey {
			c[s] = setPath(map[string]any{}, path[1:], val)
		}
		return c
	case []any:
		f, ok := path[0].(float64)
		i := int(f)
		if !ok || i < 0 || i > len(c) {
			return c
		}
		if i == len(c) {
			if len(path) == 1 && val != nil {
				return append(c, val)
			}
			return c
		}
		c[i] = setPath(c[i], path[1:], val)
		return c
	}
	return v
}

// vscRequestKey reports a request key vscodeRequest reads.
func vscRequestKey(k string) bool {
	switch k {
	case "requestId", "message", "response", "modelId", "timestamp", "isCanceled", "result":
		return true
	}
	return false
}

// vscPartKey reports a response part key vscodeRequest reads.
func vscPartKey(k string) bool {
	switch k {
	case "kind", "value", "toolId", "toolCallId", "invocationMessage", "pastTenseMessage",
		"isComplete", "resultDetails", "toolSpecificData", "uri", "edits":
		return true
	}
	return false
}

// pruneVSCRequest keeps what vscodeRequest reads of a request, with tool
// output and edit text clipped to limit.
func pruneVSCRequest(v any, limit int) any {
	r, ok := v.(map[string]any)
	if !ok {
		return v
	}
	for k := range r {
		if !vscRequestKey(k) {
			delete(r, k)
		}
	}
	if m, ok := r["message"].(map[string]any); ok {
		r["message"] = map[string]any{"text": m["text"]}
	}
	if res, ok := r["result"].(map[string]any); ok {
		kept := map[string]any{}
		if md, ok := res["metadata"].(map[string]any); ok {
			kept["metadata"] = map[string]any{"promptTokens": md["promptTokens"], "outputTokens": md["outputTokens"]}
		}
		if ed, ok := res["errorDetails"].(map[string]any); ok {
			kept["errorDetails"] = map[string]any{"message": ed["message"]}
		}
		r["result"] = kept
	}
	if parts, ok := r["response"].([]any); ok {
		for _, part := range parts {
			pm, ok := part.(map[string]any)
			if !ok {
				continue
			}
			for k := range pm {
				if !vscPartKey(k) {
					delete(pm, k)
				}
			}
		}
	}
	if limit >= 0 {
		clipOutputs(r, limit, true)
	}
	return r
}

// clipOutputs cuts the strings of a request's tool results (and, with
// edits, its edit groups) longer than limit to their head and tail.
func clipOutputs(req any, limit int, edits bool) {
	r, ok := req.(map[string]any)
	if !ok {
		return
	}
	parts, _ := r["response"].([]any)
	for _, part := range parts {
		pm, ok := part.(map[string]any)
		if !ok {
			continue
		}
		pm["resultDetails"] = clipStrings(pm["resultDetails"], limit)
		if edits {
			pm["edits"] = clipStrings(pm["edits"], limit)
		}
	}
}

// clipStrings cuts every string in v longer than limit.
func clipStrings(v any, limit int) any {
	switch c := v.(type) {
	case string:
		if len(c) > limit {
			return clipString(c, limit)
		}
	case []any:
		for i := range c {
			c[i] = clipStrings(c[i], limit)
		}
	case map[string]any:
		for k := range c {
			c[k] = clipStrings(c[k], limit)
		}
	}
	return v
}

var vscLogStartRe = lazyRE(`^\{\s*"kind"\s*:\s*0\s*,\s*"v"\s*:\s*\{`)

// vscodeLogLine recognises the log's initial entry.
func vscodeLogLine(l *jsonLine) bool {
	return string(bytes.TrimSpace(l.obj["kind"])) == "0" && len(l.obj["v"]) > 0 && vscRequestsRe.Match(l.obj["v"])
}

// vscodeLogDoc recognises the head of a log whose first entry is longer
// than the detection window.
func vscodeLogDoc(b []byte) bool {
	return vscLogStartRe.Match(b) && vscRequestsRe.Match(b)
}
