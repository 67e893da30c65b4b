-- 0005: full-text search over snapshots (handoff search). FTS4, which
-- mattn/go-sqlite3 compiles in by default (FTS5 needs a build tag that the
-- README's plain go install and go test do not pass). snapshot_search
-- holds each snapshot's words (store.TermText: lower-case letters and
-- digits, space-separated, so the simple tokenizer splits them exactly as
-- PostgreSQL's 'simple' configuration does), one column per field;
-- snapshot_search_docs maps its docid to the snapshot, keeps what ranking
-- needs of it (workflow, agent session, time: a search never reads the
-- wide snapshot rows of its candidates) and the fields' text for snippets. Snapshots stored before this step are
-- indexed by the store right after it is applied.

CREATE VIRTUAL TABLE snapshot_search USING fts4(decisions, errors, requests, files, prompt, tokenize=simple);

CREATE TABLE snapshot_search_docs (
    docid       INTEGER PRIMARY KEY AUTOINCREMENT,
    snapshot_id TEXT NOT NULL UNIQUE,
    workflow_id TEXT NOT NULL DEFAULT '',
    session_key TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMP,
    grp         INTEGER NOT NULL DEFAULT 0, -- store.SessionGroup of workflow and session key
    at          INTEGER NOT NULL DEFAULT 0, -- created_at in Unix microseconds
    decisions   TEXT NOT NULL DEFAULT '',
    errors      TEXT NOT NULL DEFAULT '',
    requests    TEXT NOT NULL DEFAULT '',
    files       TEXT NOT NULL DEFAULT '',
    prompt      TEXT NOT NULL DEFAULT ''
);

-- A deleted snapshot (gc, a cascade from its workflow) leaves the index.
CREATE TRIGGER session_snapshots_unsearch AFTER DELETE ON session_snapshots
BEGIN
    DELETE FROM snapshot_search WHERE docid = (SELECT docid FROM snapshot_search_docs WHERE snapshot_id = OLD.id);
    DELETE FROM snapshot_search_docs WHERE snapshot_id = OLD.id;
END;
