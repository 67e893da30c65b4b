-- 0002: a session is an agent session, as SQLite's migration 0003. A
-- session of a workflow is one agent session (agent_session: "id:" + the
-- agent's own session id, else "path:" + the transcript's absolute path,
-- else "stdin:" + a hash of its opening messages) holding one or more
-- snapshots; digest identifies the transcript content a snapshot was built
-- from, so an unchanged re-compile stores nothing.
--
-- Existing rows carry over: rows of one workflow with the same agent
-- session id (in their stored JSON) become one session; rows without one
-- stay a session each. Sessions are renumbered 1..n gap-free in the order
-- of their first snapshot (seq), and the number inside each stored JSON is
-- rewritten to match, with the immutability trigger disabled for this
-- transaction only. content_hash leaves the session number out, so it
-- stays valid.

ALTER TABLE session_snapshots DROP CONSTRAINT session_snapshots_workflow_id_session_number_key;
ALTER TABLE session_snapshots ADD COLUMN agent_session text NOT NULL DEFAULT '';
ALTER TABLE session_snapshots ADD COLUMN digest text NOT NULL DEFAULT '';

ALTER TABLE session_snapshots DISABLE TRIGGER session_snapshots_immutable;

CREATE TEMPORARY TABLE handoff_old_max ON COMMIT DROP AS
    SELECT workflow_id, MAX(session_number) AS old_max FROM session_snapshots GROUP BY workflow_id;

WITH keyed AS (
    SELECT seq, id, workflow_id,
        CASE WHEN COALESCE(snapshot_json ->> 'session_id', '') <> ''
            THEN 'id:' || (snapshot_json ->> 'session_id') ELSE '' END AS agent_session
    FROM session_snapshots
),
firsts AS (
    SELECT *, MIN(seq) OVER (PARTITION BY workflow_id,
        CASE WHEN agent_session = '' THEN 'row:' || id ELSE agent_session END) AS first_seq
    FROM keyed
),
numbered AS (
    SELECT *, DENSE_RANK() OVER (PARTITION BY workflow_id ORDER BY first_seq) AS n FROM firsts
)
UPDATE session_snapshots s
SET session_number = numbered.n,
    agent_session = numbered.agent_session,
    snapshot_json = CASE WHEN jsonb_typeof(s.snapshot_json) = 'object'
        THEN jsonb_set(s.snapshot_json, '{session_number}', to_jsonb(numbered.n)) ELSE s.snapshot_json END
FROM numbered WHERE numbered.id = s.id;

ALTER TABLE session_snapshots ENABLE TRIGGER session_snapshots_immutable;

-- The session count keeps any session a resume started beyond the last
-- snapshot, on top of the renumbered sessions.
UPDATE workflows w SET session_count = m.new_max + GREATEST(0, w.session_count - o.old_max)
FROM handoff_old_max o,
    (SELECT workflow_id, MAX(session_number) AS new_max FROM session_snapshots GROUP BY workflow_id) m
WHERE o.workflow_id = w.id AND m.workflow_id = w.id;

CREATE INDEX session_snapshots_by_session ON session_snapshots (workflow_id, agent_session, seq DESC);
CREATE INDEX session_snapshots_by_number ON session_snapshots (workflow_id, session_number);
