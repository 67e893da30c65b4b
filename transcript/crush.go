package transcript

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/handoff-cli/handoff"
)

// Crush (charmbracelet/crush) keeps a project's sessions in
// <project>/.crush/crush.db (internal/db/migrations): sessions (id,
// parent_session_id, title, prompt_tokens, completion_tokens,
// updated_at, created_at in Unix seconds) and messages (id, session_id,
// role user|assistant|tool|system, parts, model, created_at). parts is a
// JSON array of {type, data} (internal/message/content.go): text
// {text}, reasoning {thinking}, tool_call {id, name, input (a JSON
// string), finished}, tool_result {tool_call_id, name, content,
// is_error}, finish {reason, time}, image_url and binary. A finish
// reason "canceled" is the person stopping the turn, "error" a failed
// request. The session's prompt/completion tokens are its latest
// request's, the Usage of its last assistant message.

type crushPart struct {
	Type string `json:"type"`
	Data struct {
		Text       string `json:"text"`
		Thinking   string `json:"thinking"`
		ID         string `json:"id"`
		Name       string `json:"name"`
		Input      string `json:"input"`
		ToolCallID string `json:"tool_call_id"`
		Content    string `json:"content"`
		IsError    bool   `json:"is_error"`
		Reason     string `json:"reason"`
		Message    string `json:"message"`
	} `json:"data"`
}

// readCrushStore reads a session from crush.db (or the .crush folder, or
// the project holding it).
func readCrushStore(ctx context.Context, path string, d *Decoder) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		for _, p := range []string{filepath.Join(path, "crush.db"), filepath.Join(path, ".crush", "crush.db")} {
			if isSQLite(p) {
				path = p
				break
			}
		}
	}
	db, err := openStoreDB(path)
	if err != nil {
		return err
	}
	defer db.Close()
	if !hasTables(ctx, db, "sessions", "messages") || hasTables(ctx, db, "session") || !tableColumns(ctx, db, "messages")["parts"] {
		return errNotThisStore
	}
	d.t.Session.Agent = "crush"
	var id, title string
	var created, updated, prompt, completion int64
	q := `SELECT id, title, created_at, updated_at, prompt_tokens, completion_tokens FROM sessions WHERE id = ?`
	args := []any{d.opts.Session}
	if d.opts.Session == "" {
		q = `SELECT id, title, created_at, updated_at, prompt_tokens, completion_tokens FROM sessions ORDER BY parent_session_id IS NOT NULL, updated_at DESC LIMIT 1`
		args = nil
	}
	err = db.QueryRowContext(ctx, q, args...).Scan(&id, &title, &created, &updated, &prompt, &completion)
	switch {
	case err == sql.ErrNoRows && d.opts.Session != "":
		return sessionNotFound(path, d.opts.Session)
	case err == sql.ErrNoRows:
		return fmt.Errorf("%s holds no Crush session", path)
	case err != nil:
		return fmt.Errorf("read the Crush session from %s: %w", path, err)
	}
	d.t.Session.ID, d.t.Session.Title = id, title
	d.t.Session.CWD = filepath.Dir(filepath.Dir(path)) // <project>/.crush/crush.db
	d.seeTime(unixTime(created))
	rows, err := db.QueryContext(ctx, `SELECT id, role, parts, COALESCE(model, ''), created_at FROM messages WHERE session_id = ? ORDER BY created_at, rowid`, id)
	if err != nil {
		return fmt.Errorf("read the messages of %s: %w", id, err)
	}
	defer rows.Close()
	last := -1
	for rows.Next() {
		var mid, role, parts, model string
		var at int64
		if err := rows.Scan(&mid, &role, &parts, &model, &at); err != nil {
			return fmt.Errorf("read a message of %s: %w", id, err)
		}
		n := d.storeRecord()
		if i, err := crushMessage(d, mid, role, []byte(parts), model, unixTime(at), n); err != nil {
			return err
		} else if i >= 0 {
			last = i
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read the messages of %s: %w", id, err)
	}
	if last >= 0 && prompt > 0 && d.t.Messages[last].Usage == nil {
		d.t.Messages[last].Usage = &handoff.ProviderUsage{InputTokens: int(prompt), OutputTokens: int(completion)}
	}
	d.seeTime(unixTime(updated))
	return nil
}

// crushMessage maps one message; it returns the index of an assistant
// message it added, else -1.
func crushMessage(d *Decoder, id, role string, raw []byte, model string, ts time.Time, n int) (int, error) {
	var parts []crushPart
	if err := decodeJSON(raw, &parts); err != nil {
		return -1, d.recordError(n, fmt.Errorf("message %s: malformed parts: %w", id, jsonReason(err)))
	}
	d.seeTime(ts)
	m := handoff.Message{ID: id, Line: n, Timestamp: ts, Model: model}
	finish := ""
	for _, p := range parts {
		switch p.Type {
		case "text":
			m.Text = joinText(m.Text, p.Data.Text)
		case "reasoning":
			m.Thinking = joinText(m.Thinking, p.Data.Thinking)
		case "tool_call":
			in := json.RawMessage(p.Data.Input)
			if !json.Valid(in) {
				in, _ = json.Marshal(p.Data.Input)
			}
			m.ToolCalls = append(m.ToolCalls, handoff.ToolCall{ID: p.Data.ID, Name: p.Data.Name, Input: in})
		case "tool_result":
			r := handoff.ToolResult{CallID: p.Data.ToolCallID, Name: firstNonEmpty(p.Data.Name, "tool"), IsError: p.Data.IsError}
			r.Content, r.OriginalBytes = d.clipOutput(p.Data.Content)
			m.ToolResults = append(m.ToolResults, r)
		case "finish":
			finish = p.Data.Reason
			if p.Data.Message != "" {
				finish += ": " + p.Data.Message
			}
		case "image_url", "binary":
			m.Text = joinText(m.Text, "[image]")
		}
	}
	added := -1
	switch role {
	case "user":
		if strings.TrimSpace(m.Text) != "" {
			m.Role = handoff.RoleUser
			d.add(m)
		}
	case "assistant":
		if m.Text != "" || m.Thinking != "" || len(m.ToolCalls) > 0 {
			m.Role = handoff.RoleAssistant
			if model != "" {
				d.t.Session.Model = model
			}
			added = d.add(m)
		}
	case "tool":
		if len(m.ToolResults) > 0 {
			m.Role, m.Text = handoff.RoleTool, ""
			d.add(m)
		}
	case "system":
		if m.Text != "" {
			m.Role, m.Meta = handoff.RoleSystem, true
			d.add(m)
		}
	}
	switch {
	case finish == "canceled":
		d.add(handoff.Message{Line: n, Timestamp: ts, Role: handoff.RoleSystem, Meta: true, Interrupt: true, Text: "[the person stopped the response]"})
	case strings.HasPrefix(finish, "error"):
		d.add(handoff.Message{Line: n, Timestamp: ts, Role: handoff.RoleSystem, Meta: true, Text: "error: " + finish})
	}
	return added, nil
}

// findCrush lists the newest Crush session of dir (<dir>/.crush/crush.db).
func findCrush(ctx context.Context, _, dir string) []SessionRef {
	path := filepath.Join(dir, ".crush", "crush.db")
	db, err := openStoreDB(path)
	if err != nil {
		return nil
	}
	defer db.Close()
	var id string
	var updated int64
	if db.QueryRowContext(ctx, `SELECT id, updated_at FROM sessions WHERE parent_session_id IS NULL ORDER BY updated_at DESC LIMIT 1`).Scan(&id, &updated) != nil {
		return nil
	}
	return []SessionRef{{Path: path, Session: id, Updated: unixTime(updated)}}
}

// unixTime reads Unix seconds (or milliseconds, which some versions
// write).
func unixTime(n int64) time.Time {
	switch {
	case n <= 0:
		return time.Time{}
	case n > 1e11:
		return time.UnixMilli(n).UTC()
	}
	return time.Unix(n, 0).UTC()
}

// newCrushParser is the parser a Crush decoder needs: Crush has no file
// format of its own, only its database, read by readCrushStore.
func newCrushParser() formatParser {
	return &docParser{name: "Crush session", decode: func(d *Decoder, _ []byte) error {
		return handoff.Errorf(handoff.EINVALID, "a Crush session is read from its database: name .crush/crush.db (or the project) as the file")
	}}
}
