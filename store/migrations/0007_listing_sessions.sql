-- 0007: the listings number sessions from the rows they read (issue 34).
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
