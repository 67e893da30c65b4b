package postgres_test

import (
	"context"
	"database/sql"
	"net/url"
	"strings"
	"testing"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/postgres"
	"github.com/handoff-cli/handoff/store/storetest"
)

// TestRolesAndGrants checks the README's roles: the owner creates the
// schema; a member role with the documented grants (no right to create
// anything) saves, pauses, resumes, searches and syncs' writes; a viewer
// reads and searches, and its writes are refused.
func TestRolesAndGrants(t *testing.T) {
	ctx := context.Background()
	base := storetest.PostgresURL(t)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() }) // registered first, so it runs after the roles are dropped
	var canCreate bool
	if err := admin.QueryRowContext(ctx, "SELECT rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user").Scan(&canCreate); err != nil {
		t.Fatal(err)
	}
	if !canCreate {
		t.Skip("the test server's user cannot create roles")
	}
	suffix := strings.ToLower(store.NewID(""))
	owner, team, member, viewer, schema := "ho_owner_"+suffix, "ho_team_"+suffix, "ho_ann_"+suffix, "ho_view_"+suffix, "ho_"+suffix
	exec := func(q string) {
		t.Helper()
		if _, err := admin.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, q := range []string{
		"CREATE ROLE " + owner + " LOGIN", "CREATE ROLE " + team + " NOLOGIN",
		"CREATE ROLE " + member + " LOGIN IN ROLE " + team, "CREATE ROLE " + viewer + " LOGIN",
		"CREATE SCHEMA " + schema + " AUTHORIZATION " + owner,
		"GRANT USAGE ON SCHEMA " + schema + " TO " + team + ", " + viewer,
		"ALTER DEFAULT PRIVILEGES FOR ROLE " + owner + " IN SCHEMA " + schema + " GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO " + team,
		"ALTER DEFAULT PRIVILEGES FOR ROLE " + owner + " IN SCHEMA " + schema + " GRANT USAGE, SELECT ON SEQUENCES TO " + team,
		"ALTER DEFAULT PRIVILEGES FOR ROLE " + owner + " IN SCHEMA " + schema + " GRANT SELECT ON TABLES TO " + viewer,
	} {
		exec(q)
	}
	t.Cleanup(func() {
		for _, q := range []string{"DROP SCHEMA " + schema + " CASCADE", "DROP OWNED BY " + owner + ", " + team + ", " + member + ", " + viewer,
			"DROP ROLE " + member, "DROP ROLE " + viewer, "DROP ROLE " + team, "DROP ROLE " + owner} {
			if _, err := admin.ExecContext(ctx, q); err != nil {
				t.Logf("%s: %v", q, err)
			}
		}
	})
	as := func(role string) *postgres.Store {
		t.Helper()
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Set("user", role)
		q.Set("search_path", schema)
		u.User = nil
		u.RawQuery = q.Encode()
		s, err := postgres.Open(ctx, u.String(), postgres.Options{})
		if err != nil {
			t.Fatalf("open as %s: %v", role, err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	as(owner) // creates the tables

	m := as(member)
	snap := storetest.Snap("wf_roles", 1)
	if err := m.PauseSnapshot(ctx, snap, store.WorkflowInfo{}, "lunch"); err != nil {
		t.Fatalf("member pause: %v", err)
	}
	if _, err := m.Resume(ctx, "wf_roles", snap.ID, false); err != nil {
		t.Fatalf("member resume: %v", err)
	}
	early := storetest.Snap("wf_roles", 0)
	early.ID = "snap_rolesearly"
	if _, err := m.ImportSnapshot(ctx, early, store.SnapshotMeta{ID: early.ID, AgentSession: "id:early"}); err != nil {
		t.Fatalf("member import (renumbers): %v", err)
	}
	if hits, err := m.Search(ctx, store.SearchQuery{Text: "postgres"}); err != nil || len(hits) == 0 {
		t.Fatalf("member search: %v, %d hits", err, len(hits))
	}

	v := as(viewer)
	if hits, err := v.Search(ctx, store.SearchQuery{Text: "postgres"}); err != nil || len(hits) == 0 {
		t.Fatalf("viewer search: %v, %d hits", err, len(hits))
	}
	if _, err := v.LatestSnapshot(ctx, "wf_roles"); err != nil {
		t.Fatalf("viewer read: %v", err)
	}
	err = v.SetWorkflowStatus(ctx, "wf_roles", handoff.WorkflowPaused, "")
	if err == nil || !strings.Contains(err.Error(), "permission denied") {
		t.Fatalf("viewer write: %v, want permission denied", err)
	}
}
