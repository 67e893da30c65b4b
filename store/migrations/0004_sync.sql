-- 0004: what a team's stores need to converge under handoff sync.
--
-- workflows.status_changed_at dates the workflow's last status move, so two
-- stores that moved one workflow differently while apart can tell which
-- move came last (store.MergeStatus states the rule).
--
-- session_snapshots gains who made a snapshot (machine, author) and a
-- summary of its JSON (goal, utilization, decisions in force, open errors)
-- so listings read columns instead of decoding every snapshot.
--
-- Session numbers become a function of the workflow's snapshots (sessions
-- ordered by their first snapshot's time, then agent session), so stores
-- holding the same snapshots number them alike; a store therefore
-- renumbers when a synced snapshot lands before its own. The immutability
-- trigger is replaced by two: the identity and content of a stored
-- snapshot still never change, but its session number (the column and the
-- same field inside the JSON) and the summary columns may.

DROP TRIGGER session_snapshots_immutable;

ALTER TABLE workflows ADD COLUMN status_changed_at TIMESTAMP;
UPDATE workflows SET status_changed_at = paused_at;

ALTER TABLE session_snapshots ADD COLUMN machine TEXT NOT NULL DEFAULT '';
ALTER TABLE session_snapshots ADD COLUMN author TEXT NOT NULL DEFAULT '';
ALTER TABLE session_snapshots ADD COLUMN goal TEXT NOT NULL DEFAULT '';
ALTER TABLE session_snapshots ADD COLUMN utilization REAL NOT NULL DEFAULT 0;
ALTER TABLE session_snapshots ADD COLUMN decisions INTEGER NOT NULL DEFAULT 0;
ALTER TABLE session_snapshots ADD COLUMN open_errors INTEGER NOT NULL DEFAULT 0;

UPDATE session_snapshots SET
    goal = COALESCE(json_extract(snapshot_json, '$.goal'), ''),
    utilization = COALESCE(json_extract(snapshot_json, '$.usage.context_utilization'), 0),
    decisions = (SELECT COUNT(*) FROM json_each(snapshot_json, '$.decisions')
        WHERE COALESCE(json_extract(value, '$.superseded_by'), '') = ''),
    open_errors = (SELECT COUNT(*) FROM json_each(snapshot_json, '$.errors')
        WHERE json_extract(value, '$.resolution') IN ('unresolved', 'deferred'))
WHERE json_valid(snapshot_json);

CREATE INDEX session_snapshots_by_workflow_time ON session_snapshots (workflow_id, created_at, id);
CREATE INDEX workflows_by_activity ON workflows (updated_at DESC, id);
CREATE INDEX workflow_events_by_time ON workflow_events (workflow_id, created_at, id);

CREATE TRIGGER session_snapshots_identity
BEFORE UPDATE OF id, workflow_id, agent_session, digest, "trigger", schema_version, created_at, machine, author ON session_snapshots
BEGIN
    SELECT RAISE(ABORT, 'snapshots are immutable once stored');
END;

CREATE TRIGGER session_snapshots_immutable
BEFORE UPDATE OF snapshot_json ON session_snapshots
WHEN CASE WHEN json_valid(OLD.snapshot_json) AND json_valid(NEW.snapshot_json)
    THEN json_remove(NEW.snapshot_json, '$.session_number') IS NOT json_remove(OLD.snapshot_json, '$.session_number')
    ELSE NEW.snapshot_json IS NOT OLD.snapshot_json END
BEGIN
    SELECT RAISE(ABORT, 'snapshots are immutable once stored');
END;
