package main

import (
	"context"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
)

// searcher is full-text search; both stores have it.
type searcher interface {
	Search(ctx context.Context, q store.SearchQuery) ([]store.SearchHit, error)
}

// searchOptions are the flags of `handoff search`.
type searchOptions struct {
	app      *app
	workflow string
	limit    int
	json     bool
}

func (a *app) newSearchCmd() *cobra.Command {
	o := &searchOptions{app: a}
	cmd := &cobra.Command{
		Use:   "search TEXT...",
		Short: "Find what was decided, broke, asked or changed, across every stored snapshot",
		Long: `search looks for every word of TEXT in the decisions (what, why, instead of
what), errors (message, context, command, notes), requests (goal, the
person's messages, constraints), files modified and the prompt's lead (next
step, where the session stopped, the compaction summary) of every stored
snapshot, and lists the sessions that match, best first: each session's
newest matching snapshot, the fields the words are in, and a snippet.
Words are letters and digits, case ignored ("auth.go" is "auth" and "go").`,
		Example: `  handoff search redis cache
  handoff search "connection refused" --workflow 7f3c
  handoff search migration --json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Context(), strings.Join(args, " "))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.workflow, "workflow", "", "only this workflow (`id` or unique prefix)")
	f.IntVarP(&o.limit, "limit", "n", store.DefaultSearchLimit, "at most `N` sessions")
	f.BoolVar(&o.json, "json", false, "print JSON")
	return cmd
}

func (o *searchOptions) run(ctx context.Context, text string) error {
	a := o.app
	if o.limit < 1 || o.limit > store.MaxSearchLimit {
		return handoff.Errorf(handoff.EINVALID, "--limit must be 1..%d, got %d", store.MaxSearchLimit, o.limit)
	}
	s, err := a.openStore(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	se, ok := s.(searcher)
	if !ok {
		return handoff.Errorf(handoff.EINTERNAL, "search: this store cannot search")
	}
	q := store.SearchQuery{Text: text, Limit: o.limit}
	if o.workflow != "" {
		wf, err := session.Resolve(ctx, s, session.Ref{Workflow: o.workflow})
		if err != nil {
			return err
		}
		q.WorkflowID = wf.ID
	}
	hits, err := se.Search(ctx, q)
	if err != nil {
		return err
	}
	if o.json {
		if hits == nil {
			hits = []store.SearchHit{}
		}
		return writeJSON(a.stdout, hits)
	}
	if len(hits) == 0 {
		a.status("nothing found for %q", text)
		return nil
	}
	tb := a.newTable("WORKFLOW", "SESSION", "SNAPSHOT", "CREATED", "FOUND IN", "SNIPPET").keep(0, 2)
	for _, h := range hits {
		tb.row(tb.id(h.WorkflowID), cellf("%d", h.SessionNumber), h.SnapshotID, h.CreatedAt.Local().Format(time.DateTime),
			strings.Join(h.Fields, ","), oneLine(h.Snippet))
	}
	return tb.flush()
}
