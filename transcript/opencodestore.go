package transcript

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// OpenCode's stores: opencode.db (1.2+; tables session, message, part,
// JSON in data columns; packages/opencode/src/session/session.sql.ts)
// and, before it, storage/session/<project>/<id>.json,
// storage/message/<session>/<id>.json and storage/part/<message>/<id>.json.
// OpenCode's ids sort in creation order, which is the order read.

// newOpenCodeExport reads `opencode export` output a message at a time.
func newOpenCodeExport() formatParser {
	r := &ocReader{}
	return &streamParser{name: "OpenCode export", key: "messages",
		member: func(d *Decoder, key string, raw []byte) error {
			if key != "info" {
				return nil
			}
			var s ocSession
			if err := decodeJSON(raw, &s); err != nil {
				return d.recordError(0, fmt.Errorf("session info: %w", jsonReason(err)))
			}
			r.session(d, s)
			return nil
		},
		element: func(d *Decoder, n int, raw []byte) error {
			var m ocMessage
			decode := jsonDecoder(raw)
			if err := decode(raw, &m); err != nil {
				return d.recordError(n, fmt.Errorf("malformed message: %w", jsonReason(err)))
			}
			return r.message(d, m.Info, m.Parts, n, decode)
		},
	}
}

var (
	ocInfoRe     = lazyRE(`"info"\s*:\s*\{`)
	ocSessionRe  = lazyRE(`"(?:projectID|sessionID)"\s*:\s*"`)
	ocMessagesRe = lazyRE(`"messages"\s*:\s*\[`)
)

// openCodeDoc recognises an `opencode export` document.
func openCodeDoc(b []byte) bool {
	return b[0] == '{' && ocInfoRe.Match(b) && ocSessionRe.Match(b) && ocMessagesRe.Match(b)
}

// readOpenCodeStore reads a session from opencode.db or a storage
// directory.
func readOpenCodeStore(ctx context.Context, path string, d *Decoder) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("stat %s: %w", path, err)
	}
	if fi.IsDir() {
		return readOpenCodeDir(ctx, path, d)
	}
	db, err := openSQLite(path)
	if err != nil {
		return err
	}
	defer db.Close()
	if !hasTables(ctx, db, "session", "message", "part") {
		return errNotThisStore
	}
	return readOpenCodeDB(ctx, db, path, d)
}

func readOpenCodeDB(ctx context.Context, db *sql.DB, path string, d *Decoder) error {
	var s ocSession
	var parent sql.NullString
	q := `SELECT id, directory, title, version, time_created, time_updated, parent_id FROM session WHERE id = ?`
	args := []any{d.opts.Session}
	if d.opts.Session == "" {
		q = `SELECT id, directory, title, version, time_created, time_updated, parent_id FROM session ORDER BY parent_id IS NOT NULL, time_updated DESC LIMIT 1`
		args = nil
	}
	err := db.QueryRowContext(ctx, q, args...).Scan(&s.ID, &s.Directory, &s.Title, &s.Version, &s.Time.Created, &s.Time.Updated, &parent)
	switch {
	case err == sql.ErrNoRows && d.opts.Session != "":
		return sessionNotFound(path, d.opts.Session)
	case err == sql.ErrNoRows:
		return fmt.Errorf("%s holds no OpenCode session", path)
	case err != nil:
		return fmt.Errorf("read the OpenCode session from %s: %w", path, err)
	}
	r := &ocReader{}
	r.session(d, s)
	rows, err := db.QueryContext(ctx, `SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id`, s.ID)
	if err != nil {
		return fmt.Errorf("read the messages of %s: %w", s.ID, err)
	}
	type msgRow struct{ id, data string }
	var msgs []msgRow
	for rows.Next() {
		var m msgRow
		if err := rows.Scan(&m.id, &m.data); err != nil {
			rows.Close()
			return fmt.Errorf("read a message of %s: %w", s.ID, err)
		}
		msgs = append(msgs, m)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read the messages of %s: %w", s.ID, err)
	}
	for i, m := range msgs {
		msgs[i].data = "" // read once; let it go
		parts, err := ocDBParts(ctx, db, m.id)
		if err != nil {
			return err
		}
		if err := ocStoredMessage(d, r, m.id, []byte(m.data), parts, i+1); err != nil {
			return err
		}
	}
	return nil
}

// ocDBParts reads a message's parts in order.
func ocDBParts(ctx context.Context, db *sql.DB, messageID string) ([]json.RawMessage, error) {
	rows, err := db.QueryContext(ctx, `SELECT data FROM part WHERE message_id = ? ORDER BY id`, messageID)
	if err != nil {
		return nil, fmt.Errorf("read the parts of message %s: %w", messageID, err)
	}
	defer rows.Close()
	var parts []json.RawMessage
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&data); err != nil {
			return nil, fmt.Errorf("read a part of message %s: %w", messageID, err)
		}
		parts = append(parts, data)
	}
	return parts, rows.Err()
}

// ocStoredMessage maps a stored message (its info JSON without the id)
// and its parts.
func ocStoredMessage(d *Decoder, r *ocReader, id string, data []byte, parts []json.RawMessage, n int) error {
	d.storeRecord()
	var info ocInfo
	if err := decodeJSON(data, &info); err != nil {
		return d.recordError(n, fmt.Errorf("message %s: %w", id, jsonReason(err)))
	}
	if info.ID == "" {
		info.ID = id
	}
	return r.message(d, info, parts, n, decodeJSON)
}

// readOpenCodeDir reads a session from a storage directory (the storage
// folder itself or the folder holding it).
func readOpenCodeDir(ctx context.Context, path string, d *Decoder) error {
	root := path
	if _, err := os.Stat(filepath.Join(root, "storage", "session")); err == nil {
		root = filepath.Join(root, "storage")
	}
	if fi, err := os.Stat(filepath.Join(root, "session")); err != nil || !fi.IsDir() {
		return errNotThisStore
	}
	if _, err := os.Stat(filepath.Join(root, "message")); err != nil {
		return errNotThisStore
	}
	s, err := ocPickSession(root, d.opts.Session)
	if err != nil {
		return err
	}
	r := &ocReader{}
	r.session(d, s)
	files, _ := filepath.Glob(filepath.Join(root, "message", s.ID, "*.json"))
	slices.Sort(files)
	for i, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("read %s: %w", f, err)
		}
		id := strings.TrimSuffix(filepath.Base(f), ".json")
		partFiles, _ := filepath.Glob(filepath.Join(root, "part", id, "*.json"))
		slices.Sort(partFiles)
		var parts []json.RawMessage
		for _, pf := range partFiles {
			b, err := os.ReadFile(pf)
			if err != nil {
				return fmt.Errorf("read %s: %w", pf, err)
			}
			parts = append(parts, b)
		}
		if err := ocStoredMessage(d, r, id, data, parts, i+1); err != nil {
			return err
		}
	}
	return nil
}

// ocPickSession finds the session to read in storage/session/*/: the one
// named, else the most recently updated top-level one.
func ocPickSession(root, want string) (ocSession, error) {
	files, _ := filepath.Glob(filepath.Join(root, "session", "*", "*.json"))
	var best ocSession
	found := false
	for _, f := range files {
		if want != "" && strings.TrimSuffix(filepath.Base(f), ".json") != want {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var s ocSession
		if decodeJSON(b, &s) != nil || s.ID == "" {
			continue
		}
		better := !found || (s.ParentID == "") != (best.ParentID == "") && s.ParentID == "" ||
			(s.ParentID == "") == (best.ParentID == "") && s.Time.Updated > best.Time.Updated
		if better {
			best, found = s, true
		}
	}
	switch {
	case found:
		return best, nil
	case want != "":
		return best, sessionNotFound(root, want)
	}
	return best, fmt.Errorf("%s holds no OpenCode session", root)
}

// findOpenCode lists the newest top-level session OpenCode recorded for
// dir, in opencode.db and in the older storage directory.
func findOpenCode(ctx context.Context, home, dir string) []SessionRef {
	base := filepath.Join(home, ".local", "share", "opencode")
	var out []SessionRef
	if dbPath := filepath.Join(base, "opencode.db"); isSQLite(dbPath) {
		if db, err := openSQLite(dbPath); err == nil {
			var id string
			var updated int64
			err := db.QueryRowContext(ctx, `SELECT id, time_updated FROM session WHERE directory = ? AND parent_id IS NULL ORDER BY time_updated DESC LIMIT 1`, dir).Scan(&id, &updated)
			if err == nil {
				out = append(out, SessionRef{Path: dbPath, Session: id, Updated: msTime(updated)})
			}
			db.Close()
		}
	}
	files, _ := filepath.Glob(filepath.Join(base, "storage", "session", "*", "*.json"))
	var best ocSession
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var s ocSession
		if decodeJSON(b, &s) != nil || s.ParentID != "" || filepath.Clean(s.Directory) != dir {
			continue
		}
		if s.Time.Updated > best.Time.Updated {
			best = s
		}
	}
	if best.ID != "" {
		out = append(out, SessionRef{Path: filepath.Join(base, "storage"), Session: best.ID, Updated: msTime(best.Time.Updated)})
	}
	return out
}
