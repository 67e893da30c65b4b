package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// searchWords is the weighted tsvector of one snapshot's fields ($2..$6
// their words): decisions and errors A, requests B, prompt C, files D.
const searchWords = `setweight(to_tsvector('simple', $2), 'A') || setweight(to_tsvector('simple', $3), 'A') ||
	setweight(to_tsvector('simple', $4), 'B') || setweight(to_tsvector('simple', $6), 'C') || setweight(to_tsvector('simple', $5), 'D')`

// indexSnapshot adds snap, of agent session agentSession, to the search
// index inside tx.
func indexSnapshot(ctx context.Context, tx *sqlx.Tx, snap *handoff.Snapshot, agentSession string) error {
	doc := store.SearchDocOf(snap)
	_, err := tx.ExecContext(ctx, `INSERT INTO snapshot_search (snapshot_id, decisions, errors, requests, files, prompt, workflow_id, session_key, created_at, words)
		VALUES ($1, $7, $8, $9, $10, $11, $12, $13, $14, `+searchWords+`) ON CONFLICT (snapshot_id) DO NOTHING`,
		snap.ID, store.TermText(doc[0]), store.TermText(doc[1]), store.TermText(doc[2]), store.TermText(doc[3]), store.TermText(doc[4]),
		doc[0], doc[1], doc[2], doc[3], doc[4], snap.WorkflowID, store.IndexSessionKey(snap.ID, agentSession), snap.CreatedAt)
	if err != nil {
		return classify("index snapshot "+snap.ID, err)
	}
	return nil
}

// indexMissing indexes the snapshots stored before the search index
// existed, a batch per transaction; damaged rows are indexed empty.
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
			WHERE NOT EXISTS (SELECT 1 FROM snapshot_search d WHERE d.snapshot_id = s.id) LIMIT 200`); err != nil {
			return classify("find snapshots to index", err)
		}
		if len(rows) == 0 {
			return nil
		}
		err := s.inTx(ctx, "index snapshots for search", true, func(tx *sqlx.Tx) error {
			for _, r := range rows {
				snap, err := decodeSnapshot(r.ID, r.JSON)
				if err != nil {
					snap = &handoff.Snapshot{ID: r.ID}
				}
				snap.WorkflowID, snap.CreatedAt = r.WorkflowID, r.CreatedAt
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
// as store.Store.Search does, ranked by ts_rank_cd over the weighted
// fields; the candidates' ranking, the per-session choice and the
// snippets are the shared store code.
func (s *Store) Search(ctx context.Context, q store.SearchQuery) ([]store.SearchHit, error) {
	terms, err := store.QueryTerms(q.Text)
	if err != nil {
		return nil, err
	}
	limit := q.Limit
	if limit == 0 {
		limit = store.DefaultSearchLimit
	}
	if limit < 0 || limit > store.MaxSearchLimit {
		return nil, handoff.Errorf(handoff.EINVALID, "search: limit must be 1..%d, got %d", store.MaxSearchLimit, q.Limit)
	}
	query := `SELECT f.snapshot_id, f.workflow_id, f.session_key, f.created_at, ts_rank_cd('{0.2, 0.4, 0.6, 1.0}', f.words, q) AS score
		FROM snapshot_search f, to_tsquery('simple', $1) q
		WHERE f.words @@ q`
	args := []any{strings.Join(terms, " & ")} // terms are letters and digits: nothing to escape
	if q.WorkflowID != "" {
		query += " AND f.workflow_id = $2"
		args = append(args, q.WorkflowID)
	}
	rs, err := s.db.QueryxContext(ctx, query, args...)
	if err != nil {
		return nil, classify("search", err)
	}
	defer rs.Close()
	var cands []store.Candidate
	for rs.Next() {
		var c store.Candidate
		if err := rs.Scan(&c.ID, &c.WorkflowID, &c.SessionKey, &c.CreatedAt, &c.Score); err != nil {
			return nil, classify("search", err)
		}
		c.CreatedAt = c.CreatedAt.UTC()
		c.Group, c.At = store.SessionGroup(c.WorkflowID, c.SessionKey), c.CreatedAt.UnixMicro()
		cands = append(cands, c)
	}
	if err := rs.Err(); err != nil {
		return nil, classify("search", err)
	}
	top := store.TopSessions(cands, limit)
	out := make([]store.SearchHit, 0, len(top))
	for _, c := range top {
		var doc store.SearchDoc
		if err := s.db.QueryRowxContext(ctx, `SELECT f.decisions, f.errors, f.requests, f.files, f.prompt, s.session_number
			FROM snapshot_search f JOIN session_snapshots s ON s.id = f.snapshot_id WHERE f.snapshot_id = $1`, c.ID).
			Scan(&doc[0], &doc[1], &doc[2], &doc[3], &doc[4], &c.SessionNumber); err != nil {
			return nil, classify(fmt.Sprintf("search: read snapshot %s", c.ID), err)
		}
		out = append(out, store.Highlight(c, doc, terms))
	}
	return out, store.Renumber(ctx, s.db, snapshotSessions, out, store.HitRef)
}
