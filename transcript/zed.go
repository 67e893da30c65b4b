package transcript

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/klauspost/compress/zstd"

	"github.com/handoff-cli/handoff"
)

// Zed's agent panel keeps its threads in threads.db (zed-industries/zed
// crates/agent/src/db.rs): a table threads (id, summary, updated_at RFC
// 3339, data_type "zstd" or "json", data, and in newer versions
// parent_id, folder_paths one path a line, created_at). data is the
// thread as JSON, zstd-compressed: {title, messages, updated_at,
// detailed_summary, cumulative_token_usage, request_token_usage: {user
// message id: TokenUsage}, model: {provider, model}, version: "0.3.0"}.
// A message is serde's externally tagged enum (crates/agent/src/
// thread.rs): {"User": {id, content: [{"Text": s} | {"Mention": {uri,
// content}} | {"Image": …}]}}, {"Agent": {content: [{"Text": s} |
// {"Thinking": {text}} | {"RedactedThinking": s} | {"ToolUse": {id,
// name, input}}], tool_results: {id: {tool_use_id, tool_name, is_error,
// content, output}}}} or "Resume" (the person asking Zed to continue
// after a stop). Threads of version 0.2.0 and older (legacy_thread.rs)
// have {summary, messages: [{id, role, segments: [{type: text |
// thinking, text}], tool_uses: [{id, name, input}], tool_results:
// [{tool_use_id, is_error, content}], is_hidden}], request_token_usage:
// [per message]}. A tool result's content is a string or {"Text": s}
// (the legacy and newer shapes of LanguageModelToolResultContent);
// "Tool canceled by user" is the person stopping the call.
//
// The thread JSON is read a message at a time (jsonRecords), from the
// decompressed stream when it comes from the database, so memory holds
// one message, not the thread. The same JSON is also read as a file
// (`sqlite3 threads.db "select data …" | zstd -d`).

// zedCanceled is what Zed records as the result of a call the person
// stopped.
const zedCanceled = "Tool canceled by user"

type zedTokenUsage struct {
	Input       int `json:"input_tokens"`
	Output      int `json:"output_tokens"`
	CacheCreate int `json:"cache_creation_input_tokens"`
	CacheRead   int `json:"cache_read_input_tokens"`
}

type zedToolResult struct {
	ToolUseID string          `json:"tool_use_id"`
	ToolName  string          `json:"tool_name"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

type zedToolUse struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// zedLegacyMessage is a message of a 0.2.0 (or older) thread.
type zedLegacyMessage struct {
	Role     string `json:"role"`
	Text     string `json:"text"`
	Segments []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"segments"`
	ToolUses    []zedToolUse    `json:"tool_uses"`
	ToolResults []zedToolResult `json:"tool_results"`
	IsHidden    bool            `json:"is_hidden"`
}

// zedThread reads one thread's members and messages into a Decoder.
type zedThread struct {
	// after maps a user message id (0.3.0) or a message's position
	// (legacy) to the last assistant message that answered it, for
	// request_token_usage, which comes after the messages.
	afterUser map[string]int
	afterPos  map[int]int
	userID    string
	pos       int
}

func newZedThread() *zedThread {
	return &zedThread{afterUser: map[string]int{}, afterPos: map[int]int{}}
}

func newZedParser() formatParser {
	z := newZedThread()
	return &streamParser{name: "Zed thread", key: "messages", member: z.member, element: z.element}
}

func (z *zedThread) member(d *Decoder, key string, raw []byte) error {
	d.t.Session.Agent = "zed"
	switch key {
	case "title", "summary":
		if s := jsonText(raw); s != "" {
			d.t.Session.Title = s
		}
	case "updated_at":
		d.seeTime(parseTime(jsonText(raw)))
	case "model":
		var m struct {
			Model string `json:"model"`
		}
		if decodeJSON(raw, &m) == nil && m.Model != "" {
			d.t.Session.Model = m.Model
		}
	case "request_token_usage":
		z.usage(d, raw)
	}
	return nil
}

// usage gives each request's token usage to the assistant message that
// ended it.
func (z *zedThread) usage(d *Decoder, raw []byte) {
	set := func(i int, u zedTokenUsage) {
		if i >= 0 && i < len(d.t.Messages) && u.Input+u.CacheRead+u.CacheCreate > 0 {
			d.t.Messages[i].Usage = &handoff.ProviderUsage{InputTokens: u.Input, OutputTokens: u.Output,
				CacheCreationInputTokens: u.CacheCreate, CacheReadInputTokens: u.CacheRead}
		}
	}
	var byUser map[string]zedTokenUsage
	if decodeJSON(raw, &byUser) == nil {
		for id, u := range byUser {
			if i, ok := z.afterUser[id]; ok {
				set(i, u)
			}
		}
		return
	}
	var byPos []zedTokenUsage
	if decodeJSON(raw, &byPos) == nil {
		for pos, u := range byPos {
			if i, ok := z.afterPos[pos]; ok {
				set(i, u)
			}
		}
	}
}

func (z *zedThread) element(d *Decoder, n int, raw []byte) error {
	d.t.Session.Agent = "zed"
	defer func() { z.pos++ }()
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		if jsonText(raw) == "Resume" {
			d.add(handoff.Message{Line: n, Role: handoff.RoleSystem, Meta: true, Text: "[the person asked Zed to continue where it left off]"})
		}
		return nil
	}
	var tagged map[string]json.RawMessage
	if err := decodeJSON(raw, &tagged); err != nil {
		return d.recordError(n, fmt.Errorf("malformed message: %w", jsonReason(err)))
	}
	switch {
	case tagged["User"] != nil:
		return z.user(d, n, tagged["User"])
	case tagged["Agent"] != nil:
		return z.agent(d, n, tagged["Agent"])
	case tagged["role"] != nil:
		return z.legacy(d, n, raw)
	}
	return d.recordError(n, fmt.Errorf("message is neither User, Agent nor Resume"))
}

// user and agent read a message's body, a value of the record element
// has decoded (valid JSON, read with decodeValid like the values in it).
func (z *zedThread) user(d *Decoder, n int, raw []byte) error {
	var u struct {
		ID      string                       `json:"id"`
		Content []map[string]json.RawMessage `json:"content"`
	}
	if err := decodeValid(raw, &u); err != nil {
		return d.recordError(n, fmt.Errorf("malformed user message: %w", jsonReason(err)))
	}
	m := handoff.Message{ID: u.ID, Line: n, Role: handoff.RoleUser}
	for _, c := range u.Content {
		switch {
		case c["Text"] != nil:
			m.Text = joinText(m.Text, jsonText(c["Text"]))
		case c["Mention"] != nil:
			if ref := zedMention(c["Mention"]); ref != "" {
				m.Text = joinText(m.Text, "@"+ref)
			}
		case c["Image"] != nil:
			m.Text = joinText(m.Text, "[image]")
		}
	}
	z.userID = u.ID
	if strings.TrimSpace(m.Text) != "" {
		d.add(m)
	}
	return nil
}

// zedMention names what a mention points at: a file's path, a URL, or
// the mention's kind.
func zedMention(raw []byte) string {
	var m struct {
		URI map[string]json.RawMessage `json:"uri"`
	}
	if decodeValid(raw, &m) != nil {
		return ""
	}
	for kind, v := range m.URI {
		var fields map[string]json.RawMessage
		if decodeValid(v, &fields) == nil {
			for _, k := range []string{"abs_path", "url", "name"} {
				if s := jsonText(fields[k]); s != "" {
					return s
				}
			}
		}
		return strings.ToLower(kind)
	}
	return ""
}

func (z *zedThread) agent(d *Decoder, n int, raw []byte) error {
	var a struct {
		Content     []map[string]json.RawMessage `json:"content"`
		ToolResults map[string]zedToolResult     `json:"tool_results"`
	}
	if err := decodeValid(raw, &a); err != nil {
		return d.recordError(n, fmt.Errorf("malformed agent message: %w", jsonReason(err)))
	}
	m := handoff.Message{Line: n, Role: handoff.RoleAssistant, Model: d.t.Session.Model}
	for _, c := range a.Content {
		switch {
		case c["Text"] != nil:
			m.Text = joinText(m.Text, jsonText(c["Text"]))
		case c["Thinking"] != nil:
			var t struct {
				Text string `json:"text"`
			}
			_ = decodeValid(c["Thinking"], &t)
			m.Thinking = joinText(m.Thinking, t.Text)
		case c["ToolUse"] != nil:
			var u zedToolUse
			if decodeValid(c["ToolUse"], &u) == nil {
				m.ToolCalls = append(m.ToolCalls, zedCall(u))
			}
		}
	}
	var results []zedToolResult
	for _, c := range m.ToolCalls {
		if r, ok := a.ToolResults[c.ID]; ok {
			results = append(results, r)
			delete(a.ToolResults, c.ID)
		}
	}
	rest := make([]string, 0, len(a.ToolResults))
	for id := range a.ToolResults {
		rest = append(rest, id)
	}
	sort.Strings(rest)
	for _, id := range rest {
		results = append(results, a.ToolResults[id])
	}
	z.addTurn(d, n, m, results)
	return nil
}

// zedCall is a tool use as a ToolCall.
func zedCall(u zedToolUse) handoff.ToolCall {
	return handoff.ToolCall{ID: u.ID, Name: firstNonEmpty(u.Name, "tool"), Input: compactJSON(u.Input)}
}

// addTurn adds an assistant turn and the results of its calls, and says
// when the person stopped a call.
func (z *zedThread) addTurn(d *Decoder, n int, m handoff.Message, results []zedToolResult) {
	if m.Text != "" || m.Thinking != "" || len(m.ToolCalls) > 0 {
		i := d.add(m)
		z.afterPos[z.pos] = i
		if z.userID != "" {
			z.afterUser[z.userID] = i
		}
	}
	names := map[string]string{}
	for _, c := range m.ToolCalls {
		names[c.ID] = c.Name
	}
	var out []handoff.ToolResult
	canceled := false
	for _, r := range results {
		text := zedResultText(r.Content)
		res := handoff.ToolResult{CallID: r.ToolUseID, Name: firstNonEmpty(r.ToolName, names[r.ToolUseID], "tool"), IsError: r.IsError}
		if strings.TrimSpace(text) == zedCanceled {
			res.IsError, canceled = true, true
		}
		if mm := zedExitRe.FindStringSubmatch(text); mm != nil {
			if code, err := strconv.Atoi(mm[1]); err == nil {
				res.ExitCode = &code
			}
		}
		res.Content, res.OriginalBytes = d.clipOutput(text)
		out = append(out, res)
	}
	if len(out) > 0 {
		d.add(handoff.Message{Line: n, Role: handoff.RoleTool, ToolResults: out})
	}
	if canceled {
		d.add(handoff.Message{Line: n, Role: handoff.RoleSystem, Meta: true, Interrupt: true, Text: "[the person stopped the response]"})
	}
}

// zedResultText reads a tool result's content: a string, {"Text": s},
// {"text": s}, {"type": "text", "text": s}, an image, or a list of
// those.
func zedResultText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		return jsonText(raw)
	case '[':
		var parts []json.RawMessage
		_ = decodeValid(raw, &parts)
		var out string
		for _, p := range parts {
			out = joinText(out, zedResultText(p))
		}
		return out
	case '{':
		var obj map[string]json.RawMessage
		_ = decodeValid(raw, &obj)
		for k, v := range obj {
			switch strings.ToLower(k) {
			case "text":
				return zedResultText(v)
			case "image":
				return "[image]"
			}
		}
		if obj["source"] != nil {
			return "[image]"
		}
	}
	return ""
}

func (z *zedThread) legacy(d *Decoder, n int, raw []byte) error {
	var lm zedLegacyMessage
	if err := decodeJSON(raw, &lm); err != nil {
		return d.recordError(n, fmt.Errorf("malformed message: %w", jsonReason(err)))
	}
	m := handoff.Message{Line: n, Text: lm.Text, Meta: lm.IsHidden}
	for _, s := range lm.Segments {
		switch s.Type {
		case "text":
			m.Text = joinText(m.Text, s.Text)
		case "thinking":
			m.Thinking = joinText(m.Thinking, s.Text)
		}
	}
	switch lm.Role {
	case "user":
		m.Role = handoff.RoleUser
		z.userID = ""
		if strings.TrimSpace(m.Text) != "" {
			d.add(m)
		}
		// A 0.1.0 thread keeps the results of a turn on the next user
		// message.
		if len(lm.ToolResults) > 0 {
			z.addTurn(d, n, handoff.Message{}, lm.ToolResults)
		}
	case "assistant":
		m.Role, m.Model = handoff.RoleAssistant, d.t.Session.Model
		for _, u := range lm.ToolUses {
			m.ToolCalls = append(m.ToolCalls, zedCall(u))
		}
		z.addTurn(d, n, m, lm.ToolResults)
	}
	return nil
}

var (
	// zedExitRe reads the exit code Zed's terminal tool reports first
	// (crates/agent/src/tools/terminal_tool.rs).
	zedExitRe   = lazyRE(`^Command "[^\n]*" failed with exit code (-?\d+)\.`)
	zedTaggedRe = lazyRE(`\{\s*"(?:User|Agent)"\s*:\s*\{`)
	zedLegacyRe = lazyRE(`"segments"\s*:\s*\[|"tool_uses"\s*:\s*\[`)
	zedMarkerRe = lazyRE(`"(?:updated_at|cumulative_token_usage|request_token_usage|detailed_summary_state|detailed_summary)"\s*:`)
)

// zedDoc recognises a Zed thread's JSON.
func zedDoc(b []byte) bool {
	return b[0] == '{' && !vscRequestsRe.Match(b) && zedMarkerRe.Match(b) && (zedTaggedRe.Match(b) || zedLegacyRe.Match(b))
}

// readZedStore reads a thread from Zed's threads.db (or the threads
// folder holding it): --session names the thread, else the newest
// top-level one.
func readZedStore(ctx context.Context, path string, d *Decoder) error {
	db, path, err := openStoreIn(path, "threads.db")
	if err != nil {
		return err
	}
	defer db.Close()
	cols := tableColumns(ctx, db, "threads")
	if !cols["data_type"] || !cols["data"] || !cols["summary"] {
		return errNotThisStore
	}
	folders, order := "''", "updated_at DESC"
	if cols["folder_paths"] {
		folders = "COALESCE(folder_paths, '')"
	}
	if cols["parent_id"] {
		order = "parent_id IS NOT NULL, updated_at DESC"
	}
	q := `SELECT id, summary, updated_at, data_type, data, ` + folders + ` FROM threads `
	var args []any
	if d.opts.Session != "" {
		q += `WHERE id = ?`
		args = append(args, d.opts.Session)
	} else {
		q += `ORDER BY ` + order + ` LIMIT 1`
	}
	var id, title, updated, dataType, paths string
	var data []byte
	err = db.QueryRowContext(ctx, q, args...).Scan(&id, &title, &updated, &dataType, &data, &paths)
	switch {
	case err == sql.ErrNoRows && d.opts.Session != "":
		return sessionNotFound(path, d.opts.Session)
	case err == sql.ErrNoRows:
		return fmt.Errorf("%s holds no Zed thread", path)
	case err != nil:
		return fmt.Errorf("read the Zed thread from %s: %w", path, err)
	}
	d.t.Session.Agent, d.t.Session.ID, d.t.Session.Title = "zed", id, title
	if first, _, _ := strings.Cut(paths, "\n"); first != "" {
		d.t.Session.CWD = first
	}
	d.seeTime(parseTime(updated))
	var r io.Reader = bytes.NewReader(data)
	switch dataType {
	case "zstd":
		zr, err := zstd.NewReader(r, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
		if err != nil {
			return fmt.Errorf("read Zed thread %s: %w", id, err)
		}
		defer zr.Close()
		r = zr
	case "json":
	default:
		return handoff.Errorf(handoff.EINVALID, "Zed thread %s: unknown data type %q", id, dataType)
	}
	return readZedJSON(d, r, id)
}

// readZedJSON streams a thread's JSON into d, a message at a time.
func readZedJSON(d *Decoder, r io.Reader, id string) error {
	z := newZedThread()
	s := &jsonRecords{key: "messages", max: d.opts.MaxLineBytes,
		element: func(_ int, raw []byte) error {
			n := d.storeRecord()
			if raw == nil {
				return d.recordError(n, fmt.Errorf("message is larger than the %d-byte limit: skipped", d.opts.MaxLineBytes))
			}
			return z.element(d, n, raw)
		},
		member: func(k string, raw []byte) error { return z.member(d, k, raw) },
	}
	buf := make([]byte, 256<<10)
	for {
		k, err := r.Read(buf)
		if k > 0 {
			if werr := s.write(buf[:k]); werr != nil {
				if handoff.ErrorCode(werr) == handoff.EINVALID {
					return werr
				}
				return handoff.Errorf(handoff.EINVALID, "Zed thread %s: malformed JSON: %v", id, werr)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("read Zed thread %s: %w", id, err)
		}
	}
	if !s.complete() {
		d.warn(d.line, fmt.Sprintf("Zed thread %s ends early after message %d: the rest is missing", id, s.records))
	}
	return nil
}

// tableColumns lists a table's columns.
func tableColumns(ctx context.Context, db *sql.DB, table string) map[string]bool {
	cols := map[string]bool{}
	rows, err := db.QueryContext(ctx, `SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		return cols
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		if rows.Scan(&name) == nil {
			cols[name] = true
		}
	}
	return cols
}

// zedStores are where Zed keeps threads.db under the home directory
// (Linux, then macOS).
func zedStores(home string) []string {
	return []string{
		filepath.Join(home, ".local", "share", "zed", "threads", "threads.db"),
		filepath.Join(home, "Library", "Application Support", "Zed", "threads", "threads.db"),
	}
}

// findZed lists the top-level Zed threads whose folders include dir.
func findZed(ctx context.Context, home, dir string) []SessionRef {
	var out []SessionRef
	for _, path := range zedStores(home) {
		if !isSQLite(path) {
			continue
		}
		out = append(out, zedThreadsOf(ctx, path, dir)...)
	}
	return out
}

func zedThreadsOf(ctx context.Context, path, dir string) []SessionRef {
	db, err := openSQLite(path)
	if err != nil {
		return nil
	}
	defer db.Close()
	cols := tableColumns(ctx, db, "threads")
	if !cols["folder_paths"] {
		return nil
	}
	where := ""
	if cols["parent_id"] {
		where = "WHERE parent_id IS NULL "
	}
	rows, err := db.QueryContext(ctx, `SELECT id, updated_at, COALESCE(folder_paths, '') FROM threads `+where+`ORDER BY updated_at DESC LIMIT 200`)
	if err != nil {
		return nil
	}
	defer rows.Close()
	var out []SessionRef
	for rows.Next() {
		var id, updated, paths string
		if rows.Scan(&id, &updated, &paths) != nil {
			continue
		}
		for _, p := range strings.Split(paths, "\n") {
			if p != "" && filepath.Clean(p) == dir {
				out = append(out, SessionRef{Path: path, Session: id, Updated: parseTime(updated)})
				break
			}
		}
	}
	return out
}
