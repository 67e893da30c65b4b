-- 0006: history queries that never decode a snapshot (handoff list,
-- status, decisions, errors; issue 34), a narrow table for ranking
-- search candidates, and what sync needs to know which statuses this
-- store has already exchanged.
--
-- snapshot_summaries is one narrow row per snapshot: what listings show
-- (the summary columns of 0004, copied at insert), its session number
-- (kept equal on renumbering), seq (the snapshot's rowid: the order
-- snapshots were stored in), and problem, why the row's JSON cannot be
-- read as the snapshot it is stored under (NULL when it can), so
-- listings skip and report damaged rows without decoding any. Listings
-- read this table and never session_snapshots: there the columns added
-- by 0004 sit after the JSON, and reading them walks every overflow page
-- of it.
--
-- snapshot_records holds each element of a snapshot's decisions and
-- errors lists: its JSON (what a query returns and Go decodes), and the
-- columns the filters read (type, superseded_by or resolution,
-- timestamp, and the lower-cased text --grep searches). A readable
-- snapshot whose decisions or errors are not a list names them in its
-- summary's bad_lists, reported as damage.
--
-- Triggers derive both from the stored row, on insert and whenever its
-- JSON or session number changes (a renumbering, or damage done outside
-- handoff), so they cannot drift from what a full decode would find; a
-- deleted snapshot takes its rows with it (foreign keys). Existing rows
-- are derived here.
--
-- snapshot_search_rank is what ranking a search candidate needs (its
-- session group and time), one narrow row per indexed snapshot, so a
-- search matching every snapshot reads a few pages instead of the wide
-- snapshot_search_docs rows that carry the fields' text.

-- status_synced_at is the status_changed_at this store last exchanged
-- with another in handoff sync (store.MergeRole): a status that moved
-- since is this store's own news. NULL for the workflows there were
-- before: their status counts as not synced yet.
ALTER TABLE workflows ADD COLUMN status_synced_at TIMESTAMP;

CREATE TABLE snapshot_summaries (
    seq            INTEGER PRIMARY KEY,
    id             TEXT NOT NULL UNIQUE REFERENCES session_snapshots (id) ON DELETE CASCADE,
    workflow_id    TEXT NOT NULL,
    session_number INTEGER NOT NULL,
    agent_session  TEXT NOT NULL DEFAULT '',
    digest         TEXT NOT NULL DEFAULT '',
    "trigger"      TEXT NOT NULL,
    created_at     TIMESTAMP NOT NULL,
    schema_version INTEGER NOT NULL,
    machine        TEXT NOT NULL DEFAULT '',
    author         TEXT NOT NULL DEFAULT '',
    goal           TEXT NOT NULL DEFAULT '',
    utilization    REAL NOT NULL DEFAULT 0,
    decisions      INTEGER NOT NULL DEFAULT 0,
    open_errors    INTEGER NOT NULL DEFAULT 0,
    problem        TEXT,
    bad_lists      TEXT,
    source_path    TEXT NOT NULL DEFAULT ''
);

-- The listing's order with every column it shows, so handoff list reads
-- the index alone, in order.
CREATE INDEX snapshot_summaries_listing ON snapshot_summaries (created_at, id, workflow_id, session_number, "trigger", schema_version,
    machine, author, goal, utilization, decisions, open_errors, problem);
CREATE INDEX snapshot_summaries_by_workflow ON snapshot_summaries (workflow_id, created_at, id);
CREATE INDEX snapshot_summaries_by_session ON snapshot_summaries (workflow_id, agent_session, created_at);
-- Each workflow's snapshots that read, by seq: "the latest readable
-- snapshot of every workflow" is one step down it per workflow.
CREATE INDEX snapshot_summaries_readable ON snapshot_summaries (workflow_id) WHERE problem IS NULL;
-- The damaged ones, which every history query reports: usually none.
CREATE INDEX snapshot_summaries_damaged ON snapshot_summaries (created_at, id) WHERE problem IS NOT NULL OR bad_lists IS NOT NULL;

CREATE TABLE snapshot_records (
    snapshot_id TEXT NOT NULL REFERENCES session_snapshots (id) ON DELETE CASCADE,
    list        TEXT NOT NULL,
    idx         INTEGER NOT NULL,
    type        TEXT NOT NULL,
    kind        TEXT,
    state       TEXT,
    at          TEXT,
    text        TEXT NOT NULL DEFAULT '',
    value       TEXT NOT NULL,
    PRIMARY KEY (snapshot_id, list, idx)
) WITHOUT ROWID;

CREATE TABLE snapshot_search_rank (
    docid INTEGER PRIMARY KEY,
    grp   INTEGER NOT NULL,
    at    INTEGER NOT NULL
);

INSERT INTO snapshot_search_rank (docid, grp, at) SELECT docid, grp, at FROM snapshot_search_docs;

DROP TRIGGER session_snapshots_unsearch;
CREATE TRIGGER session_snapshots_unsearch AFTER DELETE ON session_snapshots
BEGIN
    DELETE FROM snapshot_search WHERE docid = (SELECT docid FROM snapshot_search_docs WHERE snapshot_id = OLD.id);
    DELETE FROM snapshot_search_rank WHERE docid = (SELECT docid FROM snapshot_search_docs WHERE snapshot_id = OLD.id);
    DELETE FROM snapshot_search_docs WHERE snapshot_id = OLD.id;
END;

-- The derivation, as a view over session_snapshots so the triggers and
-- the backfill share one text. j is the JSON when it is the row's
-- snapshot (valid, an object, its id the row's), else NULL; every
-- json_* call on possibly malformed text sits behind json_valid in a
-- CASE, which SQLite evaluates lazily.
CREATE VIEW snapshot_derived AS
SELECT id, j,
    CASE WHEN j IS NOT NULL THEN NULL
        WHEN NOT json_valid(snapshot_json) THEN 'its stored JSON does not decode'
        WHEN json_type(snapshot_json) <> 'object' THEN 'its stored JSON does not decode'
        ELSE 'its stored JSON is another snapshot' END AS problem,
    COALESCE(CASE WHEN j IS NOT NULL THEN json_extract(j, '$.source.path') END, '') AS source_path,
    NULLIF(trim(CASE WHEN json_type(j, '$.decisions') NOT IN ('array', 'null') THEN 'decisions ' ELSE '' END ||
        CASE WHEN json_type(j, '$.errors') NOT IN ('array', 'null') THEN 'errors' ELSE '' END), '') AS bad_lists
FROM (SELECT id, snapshot_json,
        CASE WHEN json_valid(snapshot_json) THEN
            CASE WHEN json_type(snapshot_json) = 'object' AND json_extract(snapshot_json, '$.id') IS id THEN snapshot_json END
        END AS j
    FROM session_snapshots);

-- One row per element of the decisions and errors lists of the readable
-- snapshots.
CREATE VIEW snapshot_record_rows AS
SELECT d.id AS snapshot_id, 'decisions' AS list, CAST(r.key AS INTEGER) AS idx, r.type AS type,
    CASE WHEN r.type = 'object' THEN json_extract(r.value, '$.decision_type') END AS kind,
    CASE WHEN r.type = 'object' THEN json_extract(r.value, '$.superseded_by') END AS state,
    CASE WHEN r.type = 'object' THEN json_extract(r.value, '$.timestamp') END AS at,
    CASE WHEN r.type = 'object' THEN lower(COALESCE(json_extract(r.value, '$.description'), '') || char(10) ||
        COALESCE(json_extract(r.value, '$.rationale'), '') || char(10) || COALESCE(json_extract(r.value, '$.alternatives_considered'), '')) ELSE '' END AS text,
    CASE WHEN r.type IN ('object', 'array') THEN r.value ELSE json_quote(r.value) END AS value
FROM snapshot_derived d, json_each(CASE WHEN json_type(d.j, '$.decisions') = 'array' THEN d.j END, '$.decisions') r
UNION ALL
SELECT d.id, 'errors', CAST(r.key AS INTEGER), r.type,
    CASE WHEN r.type = 'object' THEN json_extract(r.value, '$.error_type') END,
    CASE WHEN r.type = 'object' THEN json_extract(r.value, '$.resolution') END,
    NULL,
    CASE WHEN r.type = 'object' THEN lower(COALESCE(json_extract(r.value, '$.error_message'), '') || char(10) ||
        COALESCE(json_extract(r.value, '$.context'), '') || char(10) || COALESCE(json_extract(r.value, '$.command'), '') || char(10) ||
        COALESCE(json_extract(r.value, '$.resolution_notes'), '')) ELSE '' END,
    CASE WHEN r.type IN ('object', 'array') THEN r.value ELSE json_quote(r.value) END
FROM snapshot_derived d, json_each(CASE WHEN json_type(d.j, '$.errors') = 'array' THEN d.j END, '$.errors') r;

INSERT INTO snapshot_summaries (seq, id, workflow_id, session_number, agent_session, digest, "trigger", created_at, schema_version,
    machine, author, goal, utilization, decisions, open_errors, problem, bad_lists, source_path)
SELECT s.rowid, s.id, s.workflow_id, s.session_number, s.agent_session, s.digest, s."trigger", s.created_at, s.schema_version,
    s.machine, s.author, s.goal, s.utilization, s.decisions, s.open_errors, d.problem, d.bad_lists, d.source_path
FROM session_snapshots s JOIN snapshot_derived d ON d.id = s.id;

INSERT INTO snapshot_records (snapshot_id, list, idx, type, kind, state, at, text, value) SELECT * FROM snapshot_record_rows;

CREATE TRIGGER session_snapshots_derive AFTER INSERT ON session_snapshots
BEGIN
    INSERT INTO snapshot_summaries (seq, id, workflow_id, session_number, agent_session, digest, "trigger", created_at, schema_version,
        machine, author, goal, utilization, decisions, open_errors, problem, bad_lists, source_path)
    SELECT NEW.rowid, NEW.id, NEW.workflow_id, NEW.session_number, NEW.agent_session, NEW.digest, NEW."trigger", NEW.created_at, NEW.schema_version,
        NEW.machine, NEW.author, NEW.goal, NEW.utilization, NEW.decisions, NEW.open_errors, d.problem, d.bad_lists, d.source_path
    FROM snapshot_derived d WHERE d.id = NEW.id;
    INSERT INTO snapshot_records (snapshot_id, list, idx, type, kind, state, at, text, value)
        SELECT * FROM snapshot_record_rows WHERE snapshot_id = NEW.id;
END;

CREATE TRIGGER session_snapshots_renumbered AFTER UPDATE OF session_number ON session_snapshots
BEGIN
    UPDATE snapshot_summaries SET session_number = NEW.session_number WHERE id = NEW.id;
END;

-- A renumbering rewrites only the JSON's session_number, for every later
-- snapshot of the workflow: what is derived stays as it was, and deriving
-- it again per row made out-of-order saves quadratic in writes.
CREATE TRIGGER session_snapshots_rederive AFTER UPDATE OF snapshot_json ON session_snapshots
WHEN CASE WHEN json_valid(OLD.snapshot_json) AND json_valid(NEW.snapshot_json)
    THEN json_remove(OLD.snapshot_json, '$.session_number') IS NOT json_remove(NEW.snapshot_json, '$.session_number')
    ELSE OLD.snapshot_json IS NOT NEW.snapshot_json END
BEGIN
    UPDATE snapshot_summaries SET (problem, bad_lists, source_path) = (SELECT d.problem, d.bad_lists, d.source_path FROM snapshot_derived d WHERE d.id = NEW.id)
        WHERE id = NEW.id;
    DELETE FROM snapshot_records WHERE snapshot_id = NEW.id;
    INSERT INTO snapshot_records (snapshot_id, list, idx, type, kind, state, at, text, value)
        SELECT * FROM snapshot_record_rows WHERE snapshot_id = NEW.id;
END;
