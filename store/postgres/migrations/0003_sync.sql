-- 0003: what a team's stores need to converge under handoff sync, as
-- SQLite's step 0004: the time of a workflow's last status move
-- (status_changed_at), who made each snapshot (machine, author), summary
-- columns so listings never decode JSON, and session numbers that may be
-- renumbered when a synced snapshot lands before this store's own (the
-- identity and content of a stored snapshot still never change; its
-- session number, in the column and in the JSON, and its summary may).

ALTER TABLE workflows ADD COLUMN status_changed_at timestamptz;
UPDATE workflows SET status_changed_at = paused_at;

ALTER TABLE session_snapshots ADD COLUMN machine text NOT NULL DEFAULT '';
ALTER TABLE session_snapshots ADD COLUMN author text NOT NULL DEFAULT '';
ALTER TABLE session_snapshots ADD COLUMN goal text NOT NULL DEFAULT '';
ALTER TABLE session_snapshots ADD COLUMN utilization double precision NOT NULL DEFAULT 0;
ALTER TABLE session_snapshots ADD COLUMN decisions integer NOT NULL DEFAULT 0;
ALTER TABLE session_snapshots ADD COLUMN open_errors integer NOT NULL DEFAULT 0;

DROP TRIGGER session_snapshots_immutable ON session_snapshots;

UPDATE session_snapshots SET
    goal = COALESCE(snapshot_json ->> 'goal', ''),
    utilization = COALESCE((snapshot_json -> 'usage' ->> 'context_utilization')::double precision, 0),
    decisions = (SELECT COUNT(*) FROM jsonb_array_elements(CASE WHEN jsonb_typeof(snapshot_json -> 'decisions') = 'array'
        THEN snapshot_json -> 'decisions' ELSE '[]'::jsonb END) d WHERE COALESCE(d ->> 'superseded_by', '') = ''),
    open_errors = (SELECT COUNT(*) FROM jsonb_array_elements(CASE WHEN jsonb_typeof(snapshot_json -> 'errors') = 'array'
        THEN snapshot_json -> 'errors' ELSE '[]'::jsonb END) e WHERE e ->> 'resolution' IN ('unresolved', 'deferred'))
WHERE jsonb_typeof(snapshot_json) = 'object';

CREATE OR REPLACE FUNCTION session_snapshots_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.id IS DISTINCT FROM OLD.id OR NEW.workflow_id IS DISTINCT FROM OLD.workflow_id
        OR NEW.agent_session IS DISTINCT FROM OLD.agent_session OR NEW.digest IS DISTINCT FROM OLD.digest
        OR NEW."trigger" IS DISTINCT FROM OLD."trigger" OR NEW.schema_version IS DISTINCT FROM OLD.schema_version
        OR NEW.created_at IS DISTINCT FROM OLD.created_at OR NEW.content_hash IS DISTINCT FROM OLD.content_hash
        OR NEW.machine IS DISTINCT FROM OLD.machine OR NEW.author IS DISTINCT FROM OLD.author
        OR (CASE WHEN jsonb_typeof(OLD.snapshot_json) = 'object' AND jsonb_typeof(NEW.snapshot_json) = 'object'
            THEN (NEW.snapshot_json - 'session_number') IS DISTINCT FROM (OLD.snapshot_json - 'session_number')
            ELSE NEW.snapshot_json IS DISTINCT FROM OLD.snapshot_json END) THEN
        RAISE EXCEPTION 'snapshots are immutable once stored' USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER session_snapshots_immutable BEFORE UPDATE ON session_snapshots
    FOR EACH ROW EXECUTE FUNCTION session_snapshots_refuse_update();

CREATE INDEX session_snapshots_by_workflow_time ON session_snapshots (workflow_id, created_at DESC, id DESC);
CREATE INDEX workflows_by_activity ON workflows (updated_at DESC, id);
CREATE INDEX workflow_events_by_time ON workflow_events (workflow_id, created_at, id);
