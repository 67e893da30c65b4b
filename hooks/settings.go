package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
)

// hookGroup is one matcher group of a settings "hooks" event list.
type hookGroup struct {
	Matcher string        `json:"matcher,omitempty"`
	Hooks   []hookCommand `json:"hooks"`
}

type hookCommand struct {
	Type    string `json:"type"`
	Command string `json:"command"`
}

// installedEvents lists the events handoff installs, in order, with their
// matcher: PreCompact for every trigger, SessionStart only when there is
// something to resume (after a compaction, on --resume/--continue), Stop
// (no matcher). PostToolUse is left out: it would re-read the transcript
// after every tool call, and Stop already checks capacity once per turn.
func installedEvents() []struct{ event, matcher string } {
	return []struct{ event, matcher string }{
		{EventPreCompact, ""},
		{EventSessionStart, SourceCompact + "|" + SourceResume},
		{EventStop, ""},
	}
}

// ClaudeSettings returns the settings.json fragment that installs
// handoffPath as Claude Code's PreCompact, SessionStart (matcher
// "compact|resume") and Stop hook, running `<handoffPath> hook claude`,
// indented for a person to paste.
func ClaudeSettings(handoffPath string) ([]byte, error) {
	return MergeClaudeSettings(nil, handoffPath)
}

// MergeClaudeSettings merges the hooks of ClaudeSettings into an existing
// settings.json (empty means none) without touching anything else: other
// keys, other events and other hooks of the same event stay as they were,
// in their order, and a multi-line file keeps its layout byte for byte
// outside the lines added (see splice.go). An event that already runs `handoff … hook claude`, in
// any form (another path, extra flags, another matcher), is left alone, so
// merging twice is the same as merging once; when nothing needs adding the
// input is returned unchanged, byte for byte. A file that is not a JSON
// object, or whose "hooks" is not shaped as Claude Code reads it, is an
// EINVALID error rather than something to overwrite.
func MergeClaudeSettings(existing []byte, handoffPath string) ([]byte, error) {
	return mergeSettings(existing, handoffPath, "claude")
}

// CodexHooks returns the hooks.json (~/.codex/hooks.json or
// <repo>/.codex/hooks.json) that installs `<handoffPath> hook codex` for
// Codex CLI's PreCompact, SessionStart and Stop events.
func CodexHooks(handoffPath string) ([]byte, error) {
	return MergeCodexHooks(nil, handoffPath)
}

// MergeCodexHooks merges CodexHooks into an existing hooks.json, with the
// guarantees of MergeClaudeSettings.
func MergeCodexHooks(existing []byte, handoffPath string) ([]byte, error) {
	return mergeSettings(existing, handoffPath, "codex")
}

func mergeSettings(existing []byte, handoffPath, agent string) ([]byte, error) {
	if strings.TrimSpace(handoffPath) == "" {
		return nil, handoff.Errorf(handoff.EINVALID, "the path of the handoff binary is empty")
	}
	if strings.ContainsAny(handoffPath, "\n\r\x00") {
		return nil, handoff.Errorf(handoff.EINVALID, "the path of the handoff binary %q contains a line break or NUL", handoffPath)
	}
	command := shellQuote(handoffPath) + " hook " + agent

	root := object{}
	if len(bytes.TrimSpace(existing)) > 0 {
		var err error
		if root, err = parseObject(existing); err != nil {
			return nil, handoff.Errorf(handoff.EINVALID, "settings file is not a JSON object: %w", err)
		}
	}
	hooks := object{}
	if raw, ok := root.get("hooks"); ok && !isNull(raw) {
		var err error
		if hooks, err = parseObject(raw); err != nil {
			return nil, handoff.Errorf(handoff.EINVALID, `settings "hooks" is not a JSON object: %w`, err)
		}
	}

	var missing []string
	ourGroups := map[string]json.RawMessage{}
	for _, ev := range installedEvents() {
		var groups []json.RawMessage
		if raw, ok := hooks.get(ev.event); ok && !isNull(raw) {
			if err := json.Unmarshal(raw, &groups); err != nil {
				return nil, handoff.Errorf(handoff.EINVALID, `settings "hooks.%s" is not a list of matcher groups: %w`, ev.event, err)
			}
		}
		installed, err := runsHandoff(groups, agent)
		if err != nil {
			return nil, handoff.Errorf(handoff.EINVALID, `settings "hooks.%s": %w`, ev.event, err)
		}
		if installed {
			continue
		}
		ours, err := marshalCompact(hookGroup{Matcher: ev.matcher, Hooks: []hookCommand{{Type: "command", Command: command}}})
		if err != nil {
			return nil, err
		}
		missing = append(missing, ev.event)
		ourGroups[ev.event] = ours
		groups = append(groups, ours)
		list, err := marshalCompact(groups)
		if err != nil {
			return nil, err
		}
		hooks.set(ev.event, list)
	}
	if len(missing) == 0 {
		return existing, nil
	}
	// A file a person laid out over several lines keeps its layout: the
	// hooks are spliced in. A one-line (or empty) file is written out
	// indented, as there is no layout to keep.
	if r := rootSpan(existing); bytes.Contains(existing[r.start:r.end], []byte("\n")) {
		if spliced, err := spliceHooks(existing, missing, ourGroups); err == nil {
			return spliced, nil
		}
		// Unreachable for a document parseObject accepted; re-encoding
		// the whole file is still correct, only a bigger diff.
	}
	hooksRaw, err := marshalCompact(hooks)
	if err != nil {
		return nil, err
	}
	root.set("hooks", hooksRaw)
	compact, err := marshalCompact(root)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return nil, handoff.Errorf(handoff.EINTERNAL, "indent settings: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// runsHandoff reports whether any hook in groups runs `handoff … hook
// <agent>`.
func runsHandoff(groups []json.RawMessage, agent string) (bool, error) {
	for i, raw := range groups {
		var g struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		}
		if err := json.Unmarshal(raw, &g); err != nil {
			return false, fmt.Errorf("matcher group %d is not an object with a hooks list: %w", i+1, err)
		}
		for _, h := range g.Hooks {
			if isHandoffHook(h.Command, agent) {
				return true, nil
			}
		}
	}
	return false, nil
}

// isHandoffHook reports whether a hook command runs a program named
// handoff (any directory, with or without .exe) with the arguments `hook <agent>`.
func isHandoffHook(command, agent string) bool {
	words := shellWords(command)
	for i := 1; i+1 < len(words); i++ {
		if words[i] == "hook" && words[i+1] == agent {
			prog := words[0]
			if j := strings.LastIndexAny(prog, `/\`); j >= 0 {
				prog = prog[j+1:]
			}
			return strings.TrimSuffix(strings.ToLower(prog), ".exe") == "handoff"
		}
	}
	return false
}

// shellWords splits a command the way a POSIX shell splits simple words:
// blanks separate, single quotes are literal, double quotes and backslash
// escape. It is only used to recognise handoff's own hook, so it does not
// need expansions.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			inWord = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				cur.WriteString(s[i+1:])
				i = len(s)
				break
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case c == '"':
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				cur.WriteByte(s[i])
			}
		case c == '\\' && i+1 < len(s):
			inWord = true
			i++
			cur.WriteByte(s[i])
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// shellQuote returns s as one shell word: unchanged when it has only
// characters no shell treats specially, else in single quotes.
func shellQuote(s string) string {
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@%,=", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// object is a JSON object that keeps its members' order, so merging into
// a person's settings file does not reorder it.
type object []member

type member struct {
	key   string
	value json.RawMessage
}

func parseObject(data []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("found %v where an object should start", tok)
	}
	obj := object{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("object key %v is not a string", tok)
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, fmt.Errorf("value of %q: %w", key, err)
		}
		obj = append(obj, member{key, value})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("data after the object")
	}
	return obj, nil
}

func (o object) get(key string) (json.RawMessage, bool) {
	for _, m := range o {
		if m.key == key {
			return m.value, true
		}
	}
	return nil, false
}

// set replaces key's value in place, or appends the member.
func (o *object) set(key string, value json.RawMessage) {
	for i := range *o {
		if (*o)[i].key == key {
			(*o)[i].value = value
			return
		}
	}
	*o = append(*o, member{key, value})
}

// MarshalJSON writes the members in order.
func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		key, err := marshalCompact(m.key)
		if err != nil {
			return nil, err
		}
		b.Write(key)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshalCompact encodes v without HTML escaping (settings hold shell
// commands with && and >) and without the encoder's trailing newline.
func marshalCompact(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, handoff.Errorf(handoff.EINTERNAL, "encode settings: %w", err)
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// MCPServerName is the key handoff's MCP server is registered under.
const MCPServerName = "handoff"

// MergeClaudeMCP registers `<handoffPath> mcp` as a stdio MCP server in a
// Claude Code .mcp.json (project scope; empty existing means none), with
// the guarantees of MergeClaudeSettings: every other key and server stays
// as it was, and when a server named "handoff" or any server running
// `handoff mcp` is already there the input is returned unchanged, so a
// person's own entry (another path, --db, --dir) is never overwritten.
// Claude Code asks before it first starts a server from .mcp.json.
func MergeClaudeMCP(existing []byte, handoffPath string) ([]byte, error) {
	if strings.TrimSpace(handoffPath) == "" {
		return nil, handoff.Errorf(handoff.EINVALID, "the path of the handoff binary is empty")
	}
	root := object{}
	if len(bytes.TrimSpace(existing)) > 0 {
		var err error
		if root, err = parseObject(existing); err != nil {
			return nil, handoff.Errorf(handoff.EINVALID, "MCP config is not a JSON object: %w", err)
		}
	}
	servers := object{}
	if raw, ok := root.get("mcpServers"); ok && !isNull(raw) {
		var err error
		if servers, err = parseObject(raw); err != nil {
			return nil, handoff.Errorf(handoff.EINVALID, `MCP config "mcpServers" is not a JSON object: %w`, err)
		}
	}
	if _, ok := servers.get(MCPServerName); ok {
		return existing, nil
	}
	for _, m := range servers {
		var srv struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		}
		if json.Unmarshal(m.value, &srv) == nil && isHandoffBinary(srv.Command) && slices.Contains(srv.Args, "mcp") {
			return existing, nil
		}
	}
	ours, err := marshalCompact(struct {
		Type    string   `json:"type"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}{"stdio", handoffPath, []string{"mcp"}})
	if err != nil {
		return nil, err
	}
	servers.set(MCPServerName, ours)
	serversRaw, err := marshalCompact(servers)
	if err != nil {
		return nil, err
	}
	root.set("mcpServers", serversRaw)
	compact, err := marshalCompact(root)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return nil, handoff.Errorf(handoff.EINTERNAL, "indent MCP config: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// isHandoffBinary reports whether command names a program called handoff
// (any directory, with or without .exe).
func isHandoffBinary(command string) bool {
	if j := strings.LastIndexAny(command, `/\`); j >= 0 {
		command = command[j+1:]
	}
	return strings.TrimSuffix(strings.ToLower(command), ".exe") == "handoff"
}
