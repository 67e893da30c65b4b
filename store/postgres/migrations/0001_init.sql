-- 0001: workflows, their session snapshots, their events and the cache, in
-- PostgreSQL dialect. The tables mirror the SQLite store's so the CLI sees
-- one model; the differences are Postgres-native types (timestamptz, jsonb,
-- bytea, identity columns) and the content hash that makes a retried or
-- synced write idempotent.

CREATE TABLE workflows (
    id            text PRIMARY KEY CHECK (id <> ''),
    name          text NOT NULL DEFAULT '',
    dir           text NOT NULL DEFAULT '',
    status        text NOT NULL CHECK (status <> ''),
    paused_at     timestamptz,
    pause_reason  text NOT NULL DEFAULT '',
    session_count integer NOT NULL DEFAULT 0 CHECK (session_count >= 0),
    start_commit  text NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL,
    updated_at    timestamptz NOT NULL
);

CREATE INDEX workflows_by_dir ON workflows (dir);

CREATE TABLE session_snapshots (
    -- seq orders snapshots stored in the same instant, as rowid does in SQLite.
    seq            bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
    id             text PRIMARY KEY CHECK (id <> ''),
    workflow_id    text NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    session_number integer NOT NULL CHECK (session_number > 0),
    "trigger"      text NOT NULL,
    schema_version integer NOT NULL,
    snapshot_json  jsonb NOT NULL,
    -- content_hash is sha256 of the snapshot without what a store assigns
    -- (id, session number): the idempotency key of saves and sync.
    content_hash   text NOT NULL UNIQUE,
    created_at     timestamptz NOT NULL,
    UNIQUE (workflow_id, session_number)
);

CREATE INDEX session_snapshots_by_created ON session_snapshots (created_at DESC, seq DESC);
-- The decisions and errors queries look inside these two lists.
CREATE INDEX session_snapshots_decisions ON session_snapshots USING gin ((snapshot_json -> 'decisions') jsonb_path_ops);
CREATE INDEX session_snapshots_errors ON session_snapshots USING gin ((snapshot_json -> 'errors') jsonb_path_ops);

-- Stored snapshots are immutable: any UPDATE is refused (DELETE stays
-- allowed, for retention).
CREATE FUNCTION session_snapshots_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'snapshots are immutable once stored' USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER session_snapshots_immutable BEFORE UPDATE ON session_snapshots
    FOR EACH ROW EXECUTE FUNCTION session_snapshots_refuse_update();

CREATE TABLE workflow_events (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    workflow_id text NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    type        text NOT NULL,
    snapshot_id text REFERENCES session_snapshots (id) ON DELETE SET NULL,
    detail      text NOT NULL DEFAULT '',
    created_at  timestamptz NOT NULL
);

CREATE INDEX workflow_events_by_workflow ON workflow_events (workflow_id, id);

CREATE TABLE extraction_cache (
    key        text PRIMARY KEY,
    value      bytea NOT NULL,
    created_at timestamptz NOT NULL
);
