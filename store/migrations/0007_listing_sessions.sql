-- 0007: history queries read fewer pages (issue 34).
--
-- A session's number follows from its workflow's agent sessions and
-- their times (SessionNumbers). The listing index gains agent_session,
-- so `handoff list -n 0` numbers every row from the index it already
-- walks instead of reading every row again; the by-session index gains
-- id, so numbering the workflows of a shorter listing (or of a
-- decisions query) reads that index alone, never the table.
DROP INDEX snapshot_summaries_listing;
CREATE INDEX snapshot_summaries_listing ON snapshot_summaries (created_at, id, workflow_id, agent_session, session_number, "trigger",
    schema_version, machine, author, goal, utilization, decisions, open_errors, problem);
DROP INDEX snapshot_summaries_by_session;
CREATE INDEX snapshot_summaries_by_session ON snapshot_summaries (workflow_id, agent_session, created_at, id);

-- Each workflow's readable snapshots by seq, with what a decisions or
-- errors query shows of the one it picks (the last), so picking each
-- workflow's latest snapshot reads this index and not the table.
DROP INDEX snapshot_summaries_readable;
CREATE INDEX snapshot_summaries_readable ON snapshot_summaries (workflow_id, seq, id, session_number, created_at, source_path)
    WHERE problem IS NULL;

-- snapshot_records becomes a table keyed by pos, which places each
-- element where a query finds it without an index: the snapshot's seq
-- times 2^21, plus 2^20 for the errors list, plus the element's index
-- (lists of more than 2^20 elements do not fit; no session comes near).
-- Reading one snapshot's decisions is then one range of the table, rows
-- stored together. As a WITHOUT ROWID table keyed by snapshot id its
-- interior pages held whole rows (a decision's JSON and text, hundreds of
-- bytes), so the tree was deep and a lookup read about six pages. The
-- unique key index stays for deletes (the foreign key) and the
-- rederiving trigger. The triggers that fill the table are dropped while
-- it is rebuilt and created again, computing pos.
DROP TRIGGER session_snapshots_derive;
DROP TRIGGER session_snapshots_rederive;
ALTER TABLE snapshot_records RENAME TO snapshot_records_0006;
CREATE TABLE snapshot_records (
    pos         INTEGER PRIMARY KEY,
    snapshot_id TEXT NOT NULL REFERENCES session_snapshots (id) ON DELETE CASCADE,
    list        TEXT NOT NULL,
    idx         INTEGER NOT NULL,
    type        TEXT NOT NULL,
    kind        TEXT,
    state       TEXT,
    at          TEXT,
    text        TEXT NOT NULL DEFAULT '',
    value       TEXT NOT NULL
);
INSERT INTO snapshot_records (pos, snapshot_id, list, idx, type, kind, state, at, text, value)
    SELECT s.seq * 2097152 + CASE r.list WHEN 'errors' THEN 1048576 ELSE 0 END + r.idx,
        r.snapshot_id, r.list, r.idx, r.type, r.kind, r.state, r.at, r.text, r.value
    FROM snapshot_records_0006 r JOIN snapshot_summaries s ON s.id = r.snapshot_id
    ORDER BY 1;
DROP TABLE snapshot_records_0006;
CREATE UNIQUE INDEX snapshot_records_key ON snapshot_records (snapshot_id, list, idx);

CREATE TRIGGER session_snapshots_derive AFTER INSERT ON session_snapshots
BEGIN
    INSERT INTO snapshot_summaries (seq, id, workflow_id, session_number, agent_session, digest, "trigger", created_at, schema_version,
        machine, author, goal, utilization, decisions, open_errors, problem, bad_lists, source_path)
    SELECT NEW.rowid, NEW.id, NEW.workflow_id, NEW.session_number, NEW.agent_session, NEW.digest, NEW."trigger", NEW.created_at, NEW.schema_version,
        NEW.machine, NEW.author, NEW.goal, NEW.utilization, NEW.decisions, NEW.open_errors, d.problem, d.bad_lists, d.source_path
    FROM snapshot_derived d WHERE d.id = NEW.id;
    INSERT INTO snapshot_records (pos, snapshot_id, list, idx, type, kind, state, at, text, value)
        SELECT s.seq * 2097152 + CASE r.list WHEN 'errors' THEN 1048576 ELSE 0 END + r.idx, r.*
        FROM snapshot_record_rows r JOIN snapshot_summaries s ON s.id = r.snapshot_id WHERE r.snapshot_id = NEW.id;
END;

CREATE TRIGGER session_snapshots_rederive AFTER UPDATE OF snapshot_json ON session_snapshots
WHEN CASE WHEN json_valid(OLD.snapshot_json) AND json_valid(NEW.snapshot_json)
    THEN json_remove(OLD.snapshot_json, '$.session_number') IS NOT json_remove(NEW.snapshot_json, '$.session_number')
    ELSE OLD.snapshot_json IS NOT NEW.snapshot_json END
BEGIN
    UPDATE snapshot_summaries SET (problem, bad_lists, source_path) = (SELECT d.problem, d.bad_lists, d.source_path FROM snapshot_derived d WHERE d.id = NEW.id)
        WHERE id = NEW.id;
    DELETE FROM snapshot_records WHERE snapshot_id = NEW.id;
    INSERT INTO snapshot_records (pos, snapshot_id, list, idx, type, kind, state, at, text, value)
        SELECT s.seq * 2097152 + CASE r.list WHEN 'errors' THEN 1048576 ELSE 0 END + r.idx, r.*
        FROM snapshot_record_rows r JOIN snapshot_summaries s ON s.id = r.snapshot_id WHERE r.snapshot_id = NEW.id;
END;
