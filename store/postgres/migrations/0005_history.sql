-- 0005: history queries that never decode a snapshot, as SQLite's step
-- 0006: session_snapshots.problem says why a row's JSON is not the
-- snapshot it is stored under (NULL when it is), bad_lists names its
-- decisions or errors when they are not lists, source_path keeps the
-- transcript path the JSON records, and snapshot_records holds each
-- element of a snapshot's decisions and errors lists with the columns
-- the filters read. Triggers derive all of it from the JSON on insert
-- and whenever the JSON changes; existing rows are derived here. (The
-- summary columns stay on session_snapshots: PostgreSQL keeps the large
-- JSON out of line, so reading them does not read it; SQLite keeps them
-- in a table of their own.)

-- status_synced_at: as SQLite's workflows.status_synced_at, the status
-- move this store last exchanged in handoff sync (store.MergeRole).
ALTER TABLE workflows ADD COLUMN status_synced_at timestamptz;

ALTER TABLE session_snapshots ADD COLUMN problem text;
ALTER TABLE session_snapshots ADD COLUMN bad_lists text;
ALTER TABLE session_snapshots ADD COLUMN source_path text NOT NULL DEFAULT '';

CREATE TABLE snapshot_records (
    snapshot_id text NOT NULL REFERENCES session_snapshots (id) ON DELETE CASCADE,
    list        text NOT NULL,
    idx         integer NOT NULL,
    type        text NOT NULL,
    kind        text,
    state       text,
    at          text,
    text        text NOT NULL DEFAULT '',
    value       text NOT NULL,
    PRIMARY KEY (snapshot_id, list, idx)
);

-- Each workflow's readable snapshots, last stored first.
CREATE INDEX session_snapshots_readable ON session_snapshots (workflow_id, seq DESC) WHERE problem IS NULL;
-- The damaged ones, which every history query reports: usually none.
CREATE INDEX session_snapshots_damaged ON session_snapshots (created_at DESC, id) WHERE problem IS NOT NULL OR bad_lists IS NOT NULL;

CREATE FUNCTION handoff_snapshot_problem(j jsonb, sid text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN jsonb_typeof(j) IS DISTINCT FROM 'object' THEN 'its stored JSON does not decode'
        WHEN j ->> 'id' IS DISTINCT FROM sid THEN 'its stored JSON is another snapshot' END
$$;

CREATE FUNCTION handoff_snapshot_records(j jsonb, sid text)
RETURNS TABLE (snapshot_id text, list text, idx integer, type text, kind text, state text, at text, text text, value text)
LANGUAGE sql IMMUTABLE AS $$
    SELECT sid, 'decisions', (r.ord - 1)::integer, jsonb_typeof(r.value),
        CASE WHEN jsonb_typeof(r.value) = 'object' THEN r.value ->> 'decision_type' END,
        CASE WHEN jsonb_typeof(r.value) = 'object' THEN r.value ->> 'superseded_by' END,
        CASE WHEN jsonb_typeof(r.value) = 'object' THEN r.value ->> 'timestamp' END,
        CASE WHEN jsonb_typeof(r.value) = 'object' THEN lower(COALESCE(r.value ->> 'description', '') || chr(10) ||
            COALESCE(r.value ->> 'rationale', '') || chr(10) || COALESCE(r.value ->> 'alternatives_considered', '')) ELSE '' END,
        r.value::text
    FROM jsonb_array_elements(CASE WHEN handoff_snapshot_problem(j, sid) IS NULL AND jsonb_typeof(j -> 'decisions') = 'array'
        THEN j -> 'decisions' ELSE '[]'::jsonb END) WITH ORDINALITY AS r(value, ord)
    UNION ALL
    SELECT sid, 'errors', (r.ord - 1)::integer, jsonb_typeof(r.value),
        CASE WHEN jsonb_typeof(r.value) = 'object' THEN r.value ->> 'error_type' END,
        CASE WHEN jsonb_typeof(r.value) = 'object' THEN r.value ->> 'resolution' END,
        NULL,
        CASE WHEN jsonb_typeof(r.value) = 'object' THEN lower(COALESCE(r.value ->> 'error_message', '') || chr(10) ||
            COALESCE(r.value ->> 'context', '') || chr(10) || COALESCE(r.value ->> 'command', '') || chr(10) ||
            COALESCE(r.value ->> 'resolution_notes', '')) ELSE '' END,
        r.value::text
    FROM jsonb_array_elements(CASE WHEN handoff_snapshot_problem(j, sid) IS NULL AND jsonb_typeof(j -> 'errors') = 'array'
        THEN j -> 'errors' ELSE '[]'::jsonb END) WITH ORDINALITY AS r(value, ord)
$$;

CREATE FUNCTION handoff_snapshot_bad_lists(j jsonb, sid text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN handoff_snapshot_problem(j, sid) IS NULL THEN
        NULLIF(trim(CASE WHEN jsonb_typeof(j -> 'decisions') NOT IN ('array', 'null') THEN 'decisions ' ELSE '' END ||
            CASE WHEN jsonb_typeof(j -> 'errors') NOT IN ('array', 'null') THEN 'errors' ELSE '' END), '') END
$$;

UPDATE session_snapshots SET bad_lists = handoff_snapshot_bad_lists(snapshot_json, id), problem = handoff_snapshot_problem(snapshot_json, id),
    source_path = COALESCE(CASE WHEN handoff_snapshot_problem(snapshot_json, id) IS NULL THEN snapshot_json #>> '{source,path}' END, '');
INSERT INTO snapshot_records SELECT r.* FROM session_snapshots s, handoff_snapshot_records(s.snapshot_json, s.id) r;

CREATE FUNCTION session_snapshots_derive() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.problem := handoff_snapshot_problem(NEW.snapshot_json, NEW.id);
    NEW.bad_lists := handoff_snapshot_bad_lists(NEW.snapshot_json, NEW.id);
    NEW.source_path := COALESCE(CASE WHEN NEW.problem IS NULL THEN NEW.snapshot_json #>> '{source,path}' END, '');
    RETURN NEW;
END;
$$;

CREATE TRIGGER session_snapshots_derive BEFORE INSERT OR UPDATE OF snapshot_json ON session_snapshots
    FOR EACH ROW EXECUTE FUNCTION session_snapshots_derive();

CREATE FUNCTION session_snapshots_derive_records() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        DELETE FROM snapshot_records WHERE snapshot_id = NEW.id;
    END IF;
    INSERT INTO snapshot_records SELECT * FROM handoff_snapshot_records(NEW.snapshot_json, NEW.id);
    RETURN NULL;
END;
$$;

CREATE TRIGGER session_snapshots_derive_records AFTER INSERT ON session_snapshots
    FOR EACH ROW EXECUTE FUNCTION session_snapshots_derive_records();
-- A renumbering rewrites only the JSON's session_number, for every later
-- snapshot of the workflow: the records stay as they were, and deriving
-- them again per row made out-of-order saves quadratic in writes.
CREATE TRIGGER session_snapshots_rederive_records AFTER UPDATE OF snapshot_json ON session_snapshots
    FOR EACH ROW WHEN (CASE WHEN jsonb_typeof(OLD.snapshot_json) = 'object' AND jsonb_typeof(NEW.snapshot_json) = 'object'
        THEN (OLD.snapshot_json - 'session_number') IS DISTINCT FROM (NEW.snapshot_json - 'session_number')
        ELSE OLD.snapshot_json IS DISTINCT FROM NEW.snapshot_json END)
    EXECUTE FUNCTION session_snapshots_derive_records();
