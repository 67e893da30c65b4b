package transcript

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"time"
)

// Goose moved its sessions from JSONL files into one SQLite store,
// ~/.local/share/goose/sessions/sessions.db (block/goose
// crates/goose/src/session/session_manager.rs, schema version 5):
// sessions (id "YYYYMMDD_N", name, description, session_type user |
// scheduled | sub_agent | hidden, working_dir, created_at, updated_at,
// total/input/output_tokens, accumulated_*_tokens, …) and messages (id,
// session_id, role, content_json: the message's content items as in the
// JSONL files, created_timestamp in Unix seconds, metadata_json). A row
// is read as a JSONL message line is (gooseParser.message); the
// session's input/output tokens are its latest request's.

// gooseStore is where Goose keeps sessions.db under the home directory.
func gooseStore(home string) string {
	return filepath.Join(home, ".local", "share", "goose", "sessions", "sessions.db")
}

// readGooseStore reads a session from sessions.db (or the folder holding
// it): --session names it, else the newest of the person's sessions.
func readGooseStore(ctx context.Context, path string, d *Decoder) error {
	db, path, err := openStoreIn(path, "sessions.db")
	if err != nil {
		return err
	}
	defer db.Close()
	if !tableColumns(ctx, db, "messages")["content_json"] || !tableColumns(ctx, db, "sessions")["working_dir"] {
		return errNotThisStore
	}
	d.t.Session.Agent = "goose"
	name := "description"
	scols := tableColumns(ctx, db, "sessions")
	if scols["name"] {
		name = "COALESCE(NULLIF(name, ''), description)"
	}
	order := "updated_at DESC"
	if scols["session_type"] {
		order = "session_type != 'user', updated_at DESC"
	}
	q := `SELECT id, ` + name + `, working_dir, input_tokens, output_tokens FROM sessions `
	var args []any
	if d.opts.Session != "" {
		q += `WHERE id = ?`
		args = append(args, d.opts.Session)
	} else {
		q += `ORDER BY ` + order + ` LIMIT 1`
	}
	var id, title, dir string
	var input, output sql.NullInt64
	err = db.QueryRowContext(ctx, q, args...).Scan(&id, &title, &dir, &input, &output)
	switch {
	case err == sql.ErrNoRows && d.opts.Session != "":
		return sessionNotFound(path, d.opts.Session)
	case err == sql.ErrNoRows:
		return fmt.Errorf("%s holds no Goose session", path)
	case err != nil:
		return fmt.Errorf("read the Goose session from %s: %w", path, err)
	}
	d.t.Session.ID, d.t.Session.Title, d.t.Session.CWD = id, title, dir
	p := newGooseParser().(*gooseParser)
	if input.Valid {
		in, out := int(input.Int64), int(output.Int64)
		p.meta = &gooseMeta{InputTokens: &in, OutputTokens: &out}
	}
	rows, err := db.QueryContext(ctx, `SELECT id, role, content_json, created_timestamp FROM messages WHERE session_id = ? ORDER BY created_timestamp, id`, id)
	if err != nil {
		return fmt.Errorf("read the messages of %s: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		var mid int64
		var m gooseMessage
		var content []byte
		if err := rows.Scan(&mid, &m.Role, &content, &m.Created); err != nil {
			return fmt.Errorf("read a message of %s: %w", id, err)
		}
		n := d.storeRecord()
		m.ID = fmt.Sprint(mid)
		decode := jsonDecoder(content)
		if err := decode(content, &m.Content); err != nil {
			if err := d.recordError(n, fmt.Errorf("message %d: malformed content: %w", mid, jsonReason(err))); err != nil {
				return err
			}
			continue
		}
		if err := p.message(d, m, n, decode); err != nil {
			if err := d.recordError(n, err); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read the messages of %s: %w", id, err)
	}
	return p.finish(d)
}

// findGooseStore lists the person's Goose sessions of dir in
// sessions.db.
func findGooseStore(ctx context.Context, home, dir string) []SessionRef {
	path := gooseStore(home)
	db, err := openStoreDB(path)
	if err != nil {
		return nil
	}
	defer db.Close()
	where := `working_dir = ?`
	if tableColumns(ctx, db, "sessions")["session_type"] {
		where += ` AND session_type = 'user'`
	}
	rows, err := db.QueryContext(ctx, `SELECT id, updated_at FROM sessions WHERE `+where+` ORDER BY updated_at DESC LIMIT 20`, dir)
	if err != nil {
		return nil
	}
	defer rows.Close()
	var out []SessionRef
	for rows.Next() {
		var id string
		var updated any
		if rows.Scan(&id, &updated) != nil {
			continue
		}
		out = append(out, SessionRef{Path: path, Session: id, Updated: sqliteTime(updated)})
	}
	return out
}

// sqliteTime reads a TIMESTAMP column: the driver's time.Time, or SQLite's
// "YYYY-MM-DD HH:MM:SS" text, or RFC 3339.
func sqliteTime(v any) time.Time {
	switch t := v.(type) {
	case time.Time:
		return t.UTC()
	case string:
		if ts, err := time.Parse("2006-01-02 15:04:05", t); err == nil {
			return ts
		}
		return parseTime(t)
	case []byte:
		return sqliteTime(string(t))
	}
	return time.Time{}
}

// findGooseAll lists Goose's sessions of dir in sessions.db and in the
// JSONL files of older versions.
func findGooseAll(ctx context.Context, home, dir string) []SessionRef {
	return append(findGooseStore(ctx, home, dir), findGoose(ctx, home, dir)...)
}
