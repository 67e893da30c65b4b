package transcript

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Factory's droid keeps each session as ~/.factory/sessions/<project
// directory with / as ->/<uuid>.jsonl (beside <uuid>.settings.json): a
// first line {type: "session_start", id, title, cwd, …}, then
// {type: "message", id, timestamp, message: {role, content}} lines whose
// content is Anthropic Messages blocks (text, thinking, tool_use,
// tool_result with is_error), read by the OpenAI Chat reader, which
// reads those blocks. Other entry types are skipped.

type droidEntry struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Title     string          `json:"title"`
	Cwd       string          `json:"cwd"`
	Timestamp string          `json:"timestamp"`
	Message   json.RawMessage `json:"message"`
}

type droidParser struct{ chat *openaiParser }

func newDroidParser() formatParser {
	return &droidParser{chat: &openaiParser{toolNames: map[string]string{}, mode: modeLines}}
}

func (p *droidParser) pending() []handoff.Message { return nil }
func (p *droidParser) finish(*Decoder) error      { return nil }

func (p *droidParser) record(d *Decoder, line []byte, lineNo int) error {
	e, ok := droidEntryFast(line)
	if !ok {
		e = droidEntry{}
		if err := decodeJSON(line, &e); err != nil {
			return fmt.Errorf("malformed entry: %w", jsonReason(err))
		}
	}
	switch e.Type {
	case "session_start":
		d.t.Session.ID, d.t.Session.CWD, d.t.Session.Title = e.ID, e.Cwd, e.Title
	case "message":
		if len(e.Message) == 0 {
			return fmt.Errorf("message entry without a message")
		}
		from := len(d.t.Messages)
		if err := p.chat.message(d, e.Message, lineNo); err != nil {
			return err
		}
		ts := parseTime(e.Timestamp)
		d.seeTime(ts)
		for i := from; i < len(d.t.Messages); i++ {
			if d.t.Messages[i].Timestamp.IsZero() {
				d.t.Messages[i].Timestamp = ts
			}
			if d.t.Messages[i].ID == "" {
				d.t.Messages[i].ID = e.ID
			}
		}
	}
	return nil
}

// droidEntryFast reads an entry line as json.Unmarshal into droidEntry
// would, in one walk (readFields); its Message is a slice of the line,
// read before record returns. ok is false for anything else.
func droidEntryFast(line []byte) (e droidEntry, ok bool) {
	ok = validObject(line) && readFields(line, fields{
		strs: map[string]*string{"type": &e.Type, "id": &e.ID, "title": &e.Title, "cwd": &e.Cwd, "timestamp": &e.Timestamp},
		raws: map[string]*json.RawMessage{"message": &e.Message},
	})
	return e, ok
}

// droidLine recognises droid's session_start line.
func droidLine(l *jsonLine) bool {
	return l.typ == "session_start" && l.has("cwd") && l.has("id")
}

// findDroid lists droid's sessions of dir.
func findDroid(_ context.Context, home, dir string) []SessionRef {
	return filesIn(filepath.Join(home, ".factory", "sessions", strings.ReplaceAll(dir, "/", "-"), "*.jsonl"))
}
