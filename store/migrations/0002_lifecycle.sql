-- 0002: lifecycle support. Snapshots are immutable once stored: the
-- triggers refuse any UPDATE of a stored row (DELETE stays allowed, for
-- retention). start_commit keeps the commit a workflow started from, so
-- every later snapshot can say how far the work has moved. The dir index
-- serves resolving a workflow from the current directory.

CREATE TRIGGER session_snapshots_immutable
BEFORE UPDATE ON session_snapshots
BEGIN
    SELECT RAISE(ABORT, 'snapshots are immutable once stored');
END;

ALTER TABLE workflows ADD COLUMN start_commit TEXT NOT NULL DEFAULT '';

CREATE INDEX workflows_by_dir ON workflows (dir);
