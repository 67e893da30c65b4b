package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	handoff "github.com/handoff-cli/handoff"
)

// indexSnapshot adds snap, of agent session agentSession, to the search
// index inside tx.
func indexSnapshot(ctx context.Context, tx *sqlx.Tx, snap *handoff.Snapshot, agentSession string) error {
	doc := SearchDocOf(snap)
	key := IndexSessionKey(snap.ID, agentSession)
	res, err := tx.ExecContext(ctx,
		`INSERT INTO snapshot_search_docs (snapshot_id, workflow_id, session_key, created_at, grp, at, decisions, errors, requests, files, prompt)
		 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		snap.ID, snap.WorkflowID, key, formatTime(snap.CreatedAt), int64(SessionGroup(snap.WorkflowID, key)), snap.CreatedAt.UnixMicro(),
		doc[0], doc[1], doc[2], doc[3], doc[4])
	if err != nil {
		return classify("index snapshot "+snap.ID, err)
	}
	docid, err := res.LastInsertId()
	if err != nil {
		return classify("index snapshot "+snap.ID, err)
	}
	if _, err = tx.ExecContext(ctx, "INSERT INTO snapshot_search_rank (docid, grp, at) VALUES (?, ?, ?)",
		docid, int64(SessionGroup(snap.WorkflowID, key)), snap.CreatedAt.UnixMicro()); err != nil {
		return classify("index snapshot "+snap.ID, err)
	}
	_, err = tx.ExecContext(ctx, "INSERT INTO snapshot_search (docid, decisions, errors, requests, files, prompt) VALUES (?, ?, ?, ?, ?, ?)",
		docid, TermText(doc[0]), TermText(doc[1]), TermText(doc[2]), TermText(doc[3]), TermText(doc[4]))
	return classify("index snapshot "+snap.ID, err)
}

// reindexBatch is how many snapshots one indexing transaction takes.
const reindexBatch = 200

// indexMissing indexes every snapshot the search index lacks (those
// stored before it existed), a batch per transaction; damaged rows are
// skipped. It runs right after the migration that adds the index.
func (s *Store) indexMissing(ctx context.Context) error {
	for {
		var rows []struct {
			ID           string    `db:"id"`
			WorkflowID   string    `db:"workflow_id"`
			AgentSession string    `db:"agent_session"`
			CreatedAt    time.Time `db:"created_at"`
			JSON         string    `db:"snapshot_json"`
		}
		if err := s.db.SelectContext(ctx, &rows, `SELECT s.id, s.workflow_id, s.agent_session, s.created_at, s.snapshot_json FROM session_snapshots s
			WHERE NOT EXISTS (SELECT 1 FROM snapshot_search_docs d WHERE d.snapshot_id = s.id) LIMIT ?`, reindexBatch); err != nil {
			return classify("find snapshots to index", err)
		}
		if len(rows) == 0 {
			return nil
		}
		err := s.inTx(ctx, "index snapshots for search", func(tx *sqlx.Tx) error {
			for _, r := range rows {
				snap, err := decodeSnapshot(r.ID, r.JSON)
				if err != nil {
					s.log.Debug("not indexing a damaged snapshot", "id", r.ID, "err", err)
					snap = &handoff.Snapshot{ID: r.ID} // indexed empty, so it is not retried forever
				}
				snap.WorkflowID, snap.CreatedAt = r.WorkflowID, r.CreatedAt // the row's, which ranking uses
				if err := indexSnapshot(ctx, tx, snap, r.AgentSession); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
}

// Search finds the sessions whose snapshots hold every word of q.Text,
// best first: each session's newest matching snapshot, scored by BM25 without length normalisation
// over the fields (decisions and errors weigh most), with the fields that
// matched and a snippet. EINVALID for a query without words.
func (s *Store) Search(ctx context.Context, q SearchQuery) ([]SearchHit, error) {
	terms, err := QueryTerms(q.Text)
	if err != nil {
		return nil, err
	}
	limit, err := q.limit()
	if err != nil {
		return nil, err
	}
	phrases := make([]string, len(terms))
	for i, t := range terms {
		phrases[i] = `"` + t + `"` // terms are letters and digits: nothing to escape
	}
	// CROSS JOIN keeps the full-text scan the outer loop; a candidate's
	// session group and time come from the narrow rank table (a few
	// pages for every snapshot), so no wide row is read until the hits
	// are chosen. Only a workflow filter reads the docs table.
	query := `SELECT r.docid, r.grp, r.at, matchinfo(snapshot_search, 'pcnx') AS info
		FROM snapshot_search CROSS JOIN snapshot_search_rank r ON r.docid = snapshot_search.docid`
	args := []any{strings.Join(phrases, " ")}
	if q.WorkflowID != "" {
		query += ` CROSS JOIN snapshot_search_docs d ON d.docid = r.docid WHERE snapshot_search MATCH ? AND d.workflow_id = ?`
		args = append(args, q.WorkflowID)
	} else {
		query += ` WHERE snapshot_search MATCH ?`
	}
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, classify("search", err)
	}
	defer rows.Close()
	var (
		cands []Candidate
		info  sql.RawBytes // read in place: BM25 keeps nothing of it
		grp   int64
		c     Candidate
	)
	for rows.Next() {
		if err := rows.Scan(&c.Doc, &grp, &c.At, &info); err != nil {
			return nil, classify("search", err)
		}
		c.Group, c.Score = uint64(grp), BM25(info)
		cands = append(cands, c)
	}
	if err := rows.Err(); err != nil {
		return nil, classify("search", err)
	}
	top := TopSessions(cands, limit)
	out := make([]SearchHit, 0, len(top))
	for _, c := range top {
		var doc SearchDoc
		if err := s.db.QueryRowxContext(ctx, `SELECT d.snapshot_id, d.workflow_id, d.created_at, d.decisions, d.errors, d.requests, d.files, d.prompt, s.session_number
			FROM snapshot_search_docs d JOIN session_snapshots s ON s.id = d.snapshot_id WHERE d.docid = ?`, c.Doc).
			Scan(&c.ID, &c.WorkflowID, &c.CreatedAt, &doc[0], &doc[1], &doc[2], &doc[3], &doc[4], &c.SessionNumber); err != nil {
			return nil, classify(fmt.Sprintf("search: read indexed snapshot %d", c.Doc), err)
		}
		out = append(out, Highlight(c, doc, terms))
	}
	return out, Renumber(ctx, s.db, summarySessions, out, HitRef)
}
