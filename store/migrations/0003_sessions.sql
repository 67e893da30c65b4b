-- 0003: a session is an agent session. Until now every stored snapshot was
-- its own session (UNIQUE (workflow_id, session_number)), so compiling one
-- transcript three times made three "sessions". From here a session of a
-- workflow is one agent session (agent_session: "id:" + the agent's own
-- session id, else "path:" + the transcript's absolute path, else
-- "stdin:" + a hash of its opening messages) holding one or more
-- snapshots; digest identifies the transcript content a snapshot was built
-- from, so an unchanged re-compile stores nothing.
--
-- SQLite cannot drop a table constraint, so session_snapshots is rebuilt.
-- workflow_events refers to it and is rebuilt with it (dropping a referenced
-- table with foreign keys on would null every event's snapshot_id): both
-- new tables are filled, the old ones dropped, the new ones renamed (which
-- also renames the reference), all in this step's one transaction.
--
-- Existing rows carry over: rows of one workflow with the same agent
-- session id (in their stored JSON) become one session; rows without one
-- stay a session each. Sessions are renumbered 1..n gap-free in the order
-- of their first snapshot, and the number inside each stored JSON is
-- rewritten to match (the immutability trigger is recreated afterwards).
-- Old rows have no digest, so the next compile of such a session adds a
-- snapshot rather than matching.

CREATE TABLE session_snapshots_new (
    id             TEXT PRIMARY KEY NOT NULL CHECK (id <> ''),
    workflow_id    TEXT NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    session_number INTEGER NOT NULL CHECK (session_number > 0),
    agent_session  TEXT NOT NULL DEFAULT '',
    digest         TEXT NOT NULL DEFAULT '',
    "trigger"      TEXT NOT NULL,
    schema_version INTEGER NOT NULL,
    snapshot_json  TEXT NOT NULL,
    created_at     TIMESTAMP NOT NULL
);

WITH keyed AS (
    SELECT s.rowid AS rn, s.*,
        CASE
            WHEN json_valid(s.snapshot_json) AND COALESCE(json_extract(s.snapshot_json, '$.session_id'), '') <> ''
                THEN 'id:' || json_extract(s.snapshot_json, '$.session_id')
            ELSE ''
        END AS agent_session
    FROM session_snapshots s
),
grouped AS (
    SELECT *,
        -- A row without an agent session is a group of its own.
        CASE WHEN agent_session = '' THEN 'row:' || id ELSE agent_session END AS grp
    FROM keyed
),
firsts AS (
    SELECT *, MIN(rn) OVER (PARTITION BY workflow_id, grp) AS first_rn FROM grouped
),
numbered AS (
    SELECT *, DENSE_RANK() OVER (PARTITION BY workflow_id ORDER BY first_rn) AS n FROM firsts
)
INSERT INTO session_snapshots_new (id, workflow_id, session_number, agent_session, digest, "trigger", schema_version, snapshot_json, created_at)
SELECT id, workflow_id, n, agent_session, '', "trigger", schema_version,
    CASE WHEN json_valid(snapshot_json) THEN json_set(snapshot_json, '$.session_number', n) ELSE snapshot_json END,
    created_at
FROM numbered ORDER BY rn;

CREATE TABLE workflow_events_new (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    workflow_id TEXT NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    type        TEXT NOT NULL,
    snapshot_id TEXT REFERENCES session_snapshots_new (id) ON DELETE SET NULL,
    detail      TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMP NOT NULL
);

INSERT INTO workflow_events_new (id, workflow_id, type, snapshot_id, detail, created_at)
SELECT id, workflow_id, type, snapshot_id, detail, created_at FROM workflow_events ORDER BY id;

-- The session count never went down: it keeps any session a resume started
-- beyond the last snapshot, on top of the renumbered sessions.
UPDATE workflows SET session_count = COALESCE(
    (SELECT MAX(session_number) FROM session_snapshots_new n WHERE n.workflow_id = workflows.id), 0)
    + MAX(0, session_count - COALESCE(
    (SELECT MAX(session_number) FROM session_snapshots o WHERE o.workflow_id = workflows.id), 0));

DROP TABLE workflow_events;
DROP TABLE session_snapshots;
ALTER TABLE session_snapshots_new RENAME TO session_snapshots;
ALTER TABLE workflow_events_new RENAME TO workflow_events;

CREATE INDEX session_snapshots_by_created ON session_snapshots (created_at);
CREATE INDEX session_snapshots_by_session ON session_snapshots (workflow_id, agent_session);
CREATE INDEX session_snapshots_by_number ON session_snapshots (workflow_id, session_number);
CREATE INDEX workflow_events_by_workflow ON workflow_events (workflow_id, id);

CREATE TRIGGER session_snapshots_immutable
BEFORE UPDATE ON session_snapshots
BEGIN
    SELECT RAISE(ABORT, 'snapshots are immutable once stored');
END;
