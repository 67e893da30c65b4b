-- 0001: workflows, their session snapshots, their events, and the
-- extraction cache. Timestamps are TIMESTAMP-declared TEXT holding UTC in a
-- fixed-width RFC 3339 form (2006-01-02T15:04:05.000000000Z), so they sort
-- as text and the driver scans them straight into time.Time.

CREATE TABLE workflows (
    id            TEXT PRIMARY KEY NOT NULL CHECK (id <> ''),
    name          TEXT NOT NULL DEFAULT '',
    dir           TEXT NOT NULL DEFAULT '',
    status        TEXT NOT NULL CHECK (status <> ''),
    paused_at     TIMESTAMP,
    pause_reason  TEXT NOT NULL DEFAULT '',
    session_count INTEGER NOT NULL DEFAULT 0 CHECK (session_count >= 0),
    created_at    TIMESTAMP NOT NULL,
    updated_at    TIMESTAMP NOT NULL
);

CREATE TABLE session_snapshots (
    id             TEXT PRIMARY KEY NOT NULL CHECK (id <> ''),
    workflow_id    TEXT NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    session_number INTEGER NOT NULL CHECK (session_number > 0),
    "trigger"      TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    snapshot_json  TEXT NOT NULL,
    created_at     TIMESTAMP NOT NULL,
    UNIQUE (workflow_id, session_number)
);

CREATE INDEX session_snapshots_by_created ON session_snapshots (created_at);

CREATE TABLE workflow_events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    workflow_id TEXT NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    type        TEXT NOT NULL,
    snapshot_id TEXT REFERENCES session_snapshots (id) ON DELETE SET NULL,
    detail      TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMP NOT NULL
);

CREATE INDEX workflow_events_by_workflow ON workflow_events (workflow_id, id);

CREATE TABLE extraction_cache (
    key        TEXT PRIMARY KEY NOT NULL,
    value      BLOB NOT NULL,
    created_at TIMESTAMP NOT NULL
);

-- Marks the file as handoff's ("HAND"), so Open can tell a handoff database
-- from another program's SQLite file.
PRAGMA application_id = 1212239428;
