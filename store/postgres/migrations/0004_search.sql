-- 0004: full-text search over snapshots (handoff search), as SQLite's step
-- 0005. snapshot_search keeps each snapshot's fields' text (for snippets)
-- and their words (store.TermText: lower-case letters and digits,
-- space-separated) in a weighted tsvector under the 'simple'
-- configuration, so both stores split and match words alike. Snapshots
-- stored before this step are indexed by the store right after it.

CREATE TABLE snapshot_search (
    snapshot_id text PRIMARY KEY REFERENCES session_snapshots (id) ON DELETE CASCADE,
    -- What ranking needs of the snapshot, so a search reads no snapshot row.
    workflow_id text NOT NULL DEFAULT '',
    session_key text NOT NULL DEFAULT '',
    created_at  timestamptz,
    decisions   text NOT NULL DEFAULT '',
    errors      text NOT NULL DEFAULT '',
    requests    text NOT NULL DEFAULT '',
    files       text NOT NULL DEFAULT '',
    prompt      text NOT NULL DEFAULT '',
    words       tsvector NOT NULL
);

CREATE INDEX snapshot_search_words ON snapshot_search USING gin (words);
