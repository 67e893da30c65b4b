package transcript

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Cursor keeps its chats (composers) in the editor's global state
// database, <Cursor user dir>/globalStorage/state.vscdb, table
// cursorDiskKV (key, value): "composerData:<composerId>" is a chat
// {composerId, name, createdAt, lastUpdatedAt (Unix ms),
// fullConversationHeadersOnly: [{bubbleId, type}]} (older versions keep
// the bubbles inline as conversation: [...]), and
// "bubbleId:<composerId>:<bubbleId>" one message {type: 1 the person's,
// 2 the assistant's, text, thinking {text}, toolFormerData {toolCallId,
// name, status, rawArgs, result}, tokenCount {inputTokens,
// outputTokens}}. A bubble's tool call becomes a call and, once it has a
// result, its result (status error failed). The chat named by --session
// (its composerId), else the most recently updated, is read.

type cursorComposer struct {
	ComposerID    string `json:"composerId"`
	Name          string `json:"name"`
	CreatedAt     int64  `json:"createdAt"`
	LastUpdatedAt int64  `json:"lastUpdatedAt"`
	Headers       []struct {
		BubbleID string `json:"bubbleId"`
	} `json:"fullConversationHeadersOnly"`
	Conversation []json.RawMessage `json:"conversation"`
}

type cursorBubble struct {
	BubbleID string `json:"bubbleId"`
	Type     int    `json:"type"`
	Text     string `json:"text"`
	Thinking *struct {
		Text string `json:"text"`
	} `json:"thinking"`
	Tool *struct {
		ToolCallID string `json:"toolCallId"`
		Name       string `json:"name"`
		Status     string `json:"status"`
		RawArgs    string `json:"rawArgs"`
		Result     string `json:"result"`
	} `json:"toolFormerData"`
	TokenCount *struct {
		InputTokens  int `json:"inputTokens"`
		OutputTokens int `json:"outputTokens"`
	} `json:"tokenCount"`
}

// readCursorStore reads a chat from Cursor's state.vscdb.
func readCursorStore(ctx context.Context, path string, d *Decoder) error {
	db, err := openStoreDB(path)
	if err != nil {
		return err
	}
	defer db.Close()
	if !hasTables(ctx, db, "cursorDiskKV") {
		return errNotThisStore
	}
	c, err := cursorPick(ctx, db, path, d.opts.Session)
	if err != nil {
		return err
	}
	d.t.Session.Agent, d.t.Session.ID, d.t.Session.Title = "cursor", c.ComposerID, c.Name
	d.seeTime(msTime(c.CreatedAt))
	d.seeTime(msTime(c.LastUpdatedAt))
	for _, raw := range c.Conversation {
		if err := cursorBubbleTo(d, raw, d.storeRecord()); err != nil {
			return err
		}
	}
	for _, h := range c.Headers {
		var raw []byte
		err := db.QueryRowContext(ctx, `SELECT value FROM cursorDiskKV WHERE key = ?`, "bubbleId:"+c.ComposerID+":"+h.BubbleID).Scan(&raw)
		n := d.storeRecord()
		switch {
		case err == sql.ErrNoRows:
			if err := d.recordError(n, fmt.Errorf("bubble %s is listed but not stored", h.BubbleID)); err != nil {
				return err
			}
			continue
		case err != nil:
			return fmt.Errorf("read bubble %s of %s: %w", h.BubbleID, c.ComposerID, err)
		}
		if err := cursorBubbleTo(d, raw, n); err != nil {
			return err
		}
	}
	return nil
}

// cursorPick finds the chat to read: the one named, else the most
// recently updated one that has messages.
func cursorPick(ctx context.Context, db *sql.DB, path, want string) (cursorComposer, error) {
	var best cursorComposer
	if want != "" {
		var raw []byte
		err := db.QueryRowContext(ctx, `SELECT value FROM cursorDiskKV WHERE key = ?`, "composerData:"+want).Scan(&raw)
		if err == sql.ErrNoRows {
			return best, sessionNotFound(path, want)
		}
		if err != nil {
			return best, fmt.Errorf("read Cursor chat %s: %w", want, err)
		}
		if err := decodeJSON(raw, &best); err != nil {
			return best, handoff.Errorf(handoff.EINVALID, "Cursor chat %s: %v", want, jsonReason(err))
		}
		return best, nil
	}
	rows, err := db.QueryContext(ctx, `SELECT value FROM cursorDiskKV WHERE key LIKE 'composerData:%'`)
	if err != nil {
		return best, fmt.Errorf("list Cursor chats in %s: %w", path, err)
	}
	defer rows.Close()
	found := false
	for rows.Next() {
		var raw []byte
		if err := rows.Scan(&raw); err != nil {
			return best, fmt.Errorf("list Cursor chats in %s: %w", path, err)
		}
		var c cursorComposer
		if decodeJSON(raw, &c) != nil || len(c.Headers)+len(c.Conversation) == 0 {
			continue
		}
		if !found || c.LastUpdatedAt > best.LastUpdatedAt {
			best, found = c, true
		}
	}
	if err := rows.Err(); err != nil {
		return best, fmt.Errorf("list Cursor chats in %s: %w", path, err)
	}
	if !found {
		return best, fmt.Errorf("%s holds no Cursor chat with messages", path)
	}
	return best, nil
}

// cursorBubbleTo maps one bubble.
func cursorBubbleTo(d *Decoder, raw []byte, n int) error {
	var b cursorBubble
	if err := decodeJSON(raw, &b); err != nil {
		return d.recordError(n, fmt.Errorf("malformed bubble: %w", jsonReason(err)))
	}
	m := handoff.Message{ID: b.BubbleID, Line: n}
	switch b.Type {
	case 1:
		if strings.TrimSpace(b.Text) == "" {
			return nil
		}
		m.Role, m.Text = handoff.RoleUser, b.Text
		keepUserWords(&m)
		d.add(m)
		return nil
	case 2:
	default:
		return d.recordError(n, fmt.Errorf("bubble type %d is neither 1 (user) nor 2 (assistant)", b.Type))
	}
	m.Role, m.Text = handoff.RoleAssistant, b.Text
	if b.Thinking != nil {
		m.Thinking = b.Thinking.Text
	}
	if b.TokenCount != nil && b.TokenCount.InputTokens > 0 {
		m.Usage = &handoff.ProviderUsage{InputTokens: b.TokenCount.InputTokens, OutputTokens: b.TokenCount.OutputTokens}
	}
	var result *handoff.ToolResult
	if t := b.Tool; t != nil && t.Name != "" {
		in := json.RawMessage(t.RawArgs)
		if !json.Valid(in) {
			in, _ = json.Marshal(map[string]string{"arguments": t.RawArgs})
		}
		m.ToolCalls = []handoff.ToolCall{{ID: t.ToolCallID, Name: t.Name, Input: in}}
		if t.Result != "" || t.Status == "error" || t.Status == "completed" {
			r := handoff.ToolResult{CallID: t.ToolCallID, Name: t.Name, IsError: t.Status == "error"}
			r.Content, r.OriginalBytes = d.clipOutput(t.Result)
			result = &r
		}
	}
	if m.Text == "" && m.Thinking == "" && len(m.ToolCalls) == 0 {
		return nil
	}
	d.add(m)
	if result != nil {
		d.add(handoff.Message{Line: n, Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{*result}})
	}
	return nil
}
