package main

import (
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// recordFlags are what `decisions` and `errors` share.
type recordFlags struct {
	workflow string
	grep     string
	since    string
	all      bool
	limit    int
	json     bool
}

func (f *recordFlags) add(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.workflow, "workflow", "", "only this workflow `id`")
	fs.StringVar(&f.grep, "grep", "", "only records containing `TEXT` (ASCII case ignored)")
	fs.StringVar(&f.since, "since", "", "only records from `WHEN` on: a duration back from now (36h, 7d, 2w), a date (2026-01-31) or an RFC 3339 time")
	fs.BoolVar(&f.all, "all", false, "read every stored snapshot (the history), not only each workflow's latest")
	fs.IntVarP(&f.limit, "limit", "n", 0, "at most `N` records (0 for all)")
	fs.BoolVar(&f.json, "json", false, "print JSON")
}

// filter turns the flags into the store's filter, now being the clock.
func (f *recordFlags) filter(now time.Time) (store.RecordFilter, error) {
	rf := store.RecordFilter{WorkflowID: f.workflow, Grep: f.grep, All: f.all, Limit: f.limit}
	if f.limit < 0 {
		return rf, handoff.Errorf(handoff.EINVALID, "--limit must not be negative, got %d", f.limit)
	}
	if f.since != "" {
		t, err := parseSince(f.since, now)
		if err != nil {
			return rf, err
		}
		rf.Since = t
	}
	return rf, nil
}

// parseSince reads --since: a duration back from now (Go durations plus d
// for days and w for weeks), a date (midnight UTC) or an RFC 3339 time.
func parseSince(v string, now time.Time) (time.Time, error) {
	v = strings.TrimSpace(v)
	if n := len(v); n > 1 && (v[n-1] == 'd' || v[n-1] == 'w') {
		if k, err := strconv.Atoi(v[:n-1]); err == nil && k >= 0 {
			day := 24 * time.Hour
			if v[n-1] == 'w' {
				day *= 7
			}
			return now.Add(-time.Duration(k) * day), nil
		}
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	return time.Time{}, handoff.Errorf(handoff.EINVALID, "--since %q: want a duration (36h, 7d, 2w), a date (2026-01-31) or an RFC 3339 time", v)
}
