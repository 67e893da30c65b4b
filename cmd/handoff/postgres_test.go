package main

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/storetest"
)

// cliRun is what one pass of the end-to-end sequence produced, reduced to
// what must not depend on the backend (ids and times aside).
type cliRun struct {
	list      []store.SnapshotSummary
	shown     handoff.Snapshot
	decisions []store.StoredDecision
	errors    []store.StoredError
	pauseID   string
	// outputs is every stdout and stderr the sequence printed.
	outputs []string
}

// runSequence compiles the sample session into db, then again grown by a
// record (a second snapshot of the same session), reads it back
// with list, show, decisions and errors, pauses, checks status, resumes,
// diffs, forks and dry-runs gc, failing t on anything a working store would not produce.
func runSequence(t *testing.T, db, repo, session string) cliRun {
	t.Helper()
	var out cliRun
	run := func(stdin string, args ...string) string {
		t.Helper()
		r := mustRun(t, db, stdin, args...)
		out.outputs = append(out.outputs, r.stdout, r.stderr)
		return r.stdout
	}
	decode := func(data string, v any, what string) {
		t.Helper()
		if err := json.Unmarshal([]byte(data), v); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, data)
		}
	}

	lines := strings.Split(strings.TrimRight(session, "\n"), "\n")
	grown := session + lines[len(lines)-1] + "\n"
	for i, in := range []string{session, grown} {
		if p := run(in, "compile", "--no-git"); !strings.Contains(p, "TestRateLimitBurst") {
			t.Fatalf("compile %d: the prompt lacks the failing test:\n%s", i+1, p)
		}
	}

	decode(run("", "list", "--json"), &out.list, "list --json")
	if len(out.list) != 2 {
		t.Fatalf("list --json: %d snapshots, want 2: %+v", len(out.list), out.list)
	}
	// Newest first, one workflow, one session (one agent session).
	for i, want := range []int{1, 1} {
		if s := out.list[i]; s.SessionNumber != want || s.WorkflowID != sampleWorkflow || s.Trigger != handoff.TriggerManual || s.Decisions == 0 || s.OpenErrors == 0 {
			t.Errorf("list[%d] = %+v, want session %d of %s with decisions and open errors", i, s, want, sampleWorkflow)
		}
	}

	decode(run("", "show", "--json", out.list[0].ID), &out.shown, "show --json")
	if out.shown.ID != out.list[0].ID || out.shown.SessionNumber != 1 || !strings.Contains(out.shown.Goal, "rate limiting") {
		t.Errorf("show --json = id %s session %d goal %q, want %s session 1 about rate limiting", out.shown.ID, out.shown.SessionNumber, out.shown.Goal, out.list[0].ID)
	}
	if len(out.shown.Decisions) == 0 || len(out.shown.Errors) == 0 {
		t.Errorf("show --json: %d decisions, %d errors; the sample has both", len(out.shown.Decisions), len(out.shown.Errors))
	}

	decode(run("", "decisions", "--json"), &out.decisions, "decisions --json")
	if !slices.ContainsFunc(out.decisions, func(d store.StoredDecision) bool {
		return strings.Contains(d.Description, "Redis") && d.WorkflowID == sampleWorkflow
	}) {
		t.Errorf("decisions --json lacks the Redis decision: %+v", out.decisions)
	}
	decode(run("", "errors", "--json"), &out.errors, "errors --json")
	if !slices.ContainsFunc(out.errors, func(e store.StoredError) bool {
		return strings.Contains(e.Message, "TestRateLimitBurst") && e.Resolution == handoff.ResolutionUnresolved
	}) {
		t.Errorf("errors --json lacks the unresolved TestRateLimitBurst failure: %+v", out.errors)
	}

	out.pauseID = strings.TrimSpace(run(session, "pause", "--no-git", "--reason", "end of day"))
	if !strings.HasPrefix(out.pauseID, "snap_") {
		t.Fatalf("pause printed %q, want the snapshot id", out.pauseID)
	}
	st := run("", "status")
	for _, want := range []string{sampleWorkflow, "paused (end of day)", out.pauseID} {
		if !strings.Contains(st, want) {
			t.Errorf("status lacks %q:\n%s", want, st)
		}
	}
	var ov []store.WorkflowOverview
	decode(run("", "status", "--json"), &ov, "status --json")
	if len(ov) != 1 || ov[0].Status != handoff.WorkflowPaused || ov[0].Latest == nil || ov[0].Latest.ID != out.pauseID || ov[0].Latest.SessionNumber != 1 {
		t.Errorf("status --json after pause = %+v", ov)
	}

	if r := run("", "resume", "--dir", repo); !strings.Contains(r, "TestRateLimitBurst") || !strings.Contains(r, out.pauseID) {
		t.Errorf("resume prompt lacks the failing test or the paused snapshot %s:\n%s", out.pauseID, r)
	}
	decode(run("", "status", "--json"), &ov, "status --json after resume")
	if len(ov) != 1 || ov[0].Status != handoff.WorkflowInProgress || ov[0].SessionCount != 2 {
		t.Errorf("status --json after resume = %+v, want in_progress with 2 sessions (the resume starts session 2)", ov)
	}

	// diff reads two snapshots; fork copies one into a new workflow.
	if d := run("", "diff", out.list[1].ID, out.list[0].ID); d == "" {
		t.Errorf("diff %s %s printed nothing", out.list[1].ID, out.list[0].ID)
	}
	var fork handoff.Snapshot
	decode(run("", "fork", out.pauseID, "--workflow", "wf_fork", "--note", "try a token bucket", "--json"), &fork, "fork --json")
	if fork.WorkflowID != "wf_fork" || fork.SessionNumber != 1 || fork.Goal != out.shown.Goal {
		t.Errorf("fork = workflow %s session %d goal %q", fork.WorkflowID, fork.SessionNumber, fork.Goal)
	}
	decode(run("", "status", "--json"), &ov, "status --json after fork")
	if len(ov) != 2 {
		t.Errorf("status --json after fork: %d workflows, want 2", len(ov))
	}
	// Nothing is a month old: gc finds nothing to remove.
	var gc []store.GCCandidate
	decode(run("", "gc", "--dry-run", "--json"), &gc, "gc --dry-run --json")
	if len(gc) != 0 {
		t.Errorf("gc --dry-run found %d candidates in a fresh store: %+v", len(gc), gc)
	}
	return out
}

// withSecret returns u with a password in it, so the test can check that
// no output ever carries it: u's own password if it has one, else a
// made-up one (the throw-away cluster trusts local connections and ignores
// it).
func withSecret(t *testing.T, u string) (string, string) {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	if pw, ok := p.User.Password(); ok && pw != "" {
		return u, pw
	}
	user := p.User.Username()
	if user == "" {
		user = p.Query().Get("user")
	}
	if user == "" {
		user = "postgres"
	}
	const secret = "s3cret-team-password"
	p.User = url.UserPassword(user, secret)
	return p.String(), secret
}

// TestCLIOnPostgres runs the commands end to end with --db a postgres://
// URL and holds their answers to the same run over SQLite.
func TestCLIOnPostgres(t *testing.T) {
	pg, secret := withSecret(t, storetest.FreshPostgres(t))
	repo, session := sessionInRepo(t)

	got := runSequence(t, pg, repo, session)
	for _, o := range got.outputs {
		if strings.Contains(o, secret) {
			t.Fatalf("an output carries the database password:\n%s", o)
		}
	}

	// The same sequence over SQLite answers the same, ids and times aside.
	want := runSequence(t, filepath.Join(t.TempDir(), "h.db"), repo, session)
	descs := func(ds []store.StoredDecision) []string {
		var out []string
		for _, d := range ds {
			out = append(out, d.Description)
		}
		return out
	}
	msgs := func(es []store.StoredError) []string {
		var out []string
		for _, e := range es {
			out = append(out, string(e.Resolution)+" "+e.Message)
		}
		return out
	}
	if g, w := descs(got.decisions), descs(want.decisions); !slices.Equal(g, w) {
		t.Errorf("decisions differ from SQLite's:\npostgres %q\nsqlite   %q", g, w)
	}
	if g, w := msgs(got.errors), msgs(want.errors); !slices.Equal(g, w) {
		t.Errorf("errors differ from SQLite's:\npostgres %q\nsqlite   %q", g, w)
	}
	if got.shown.Goal != want.shown.Goal || len(got.shown.Decisions) != len(want.shown.Decisions) || len(got.shown.Tasks) != len(want.shown.Tasks) {
		t.Errorf("show differs from SQLite's: goal %q/%q, %d/%d decisions, %d/%d tasks",
			got.shown.Goal, want.shown.Goal, len(got.shown.Decisions), len(want.shown.Decisions), len(got.shown.Tasks), len(want.shown.Tasks))
	}
}

// TestPostgresUnreachable: a team store that cannot be reached is a one-line
// "try again" error (exit 4) that names it without its password. No server
// needed.
func TestPostgresUnreachable(t *testing.T) {
	const secret = "hunter2-team"
	db := "postgres://alice:" + secret + "@127.0.0.1:1/handoff?connect_timeout=2"
	for _, args := range [][]string{{"list"}, {"status", "--json"}, {"decisions"}} {
		r := runCLI(t, db, "", args...)
		wantExit(t, r, exitUnavailable, postgresLabel)
		if strings.Contains(r.stderr+r.stdout, secret) {
			t.Errorf("%v: the password leaked:\n%s", args, r.stderr)
		}
	}
}
