package main

import (
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestLatestSessionStores: a session in an agent's store (OpenCode's
// storage directory here) competes with the per-file agents by its own
// update time, and is read by its id.
func TestLatestSessionStores(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	proj := t.TempDir()
	base := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	claudeDir := filepath.Join(home, ".claude", "projects", nonAlnum.ReplaceAllString(proj, "-"))
	writeAt(t, filepath.Join(claudeDir, "a.jsonl"), "{}\n", base)
	storage := filepath.Join(home, ".local", "share", "opencode", "storage")
	newer := base.Add(time.Hour).UnixMilli()
	session := func(id, dir, parent string, updated int64) string {
		return `{"id":"` + id + `","directory":"` + dir + `","parentID":"` + parent + `","time":{"created":1,"updated":` + itoa(updated) + `}}`
	}
	writeAt(t, filepath.Join(storage, "session", "p1", "ses_new.json"), session("ses_new", proj, "", newer), base)
	writeAt(t, filepath.Join(storage, "session", "p1", "ses_child.json"), session("ses_child", proj, "ses_new", newer+5), base)
	writeAt(t, filepath.Join(storage, "session", "p2", "ses_other.json"), session("ses_other", "/elsewhere", "", newer+9), base)
	got, err := latestSession(home, proj)
	if err != nil {
		t.Fatal(err)
	}
	if got.path != storage || got.session != "ses_new" || got.agent != "opencode" {
		t.Errorf("latestSession = %+v, want OpenCode's ses_new in %s", got, storage)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
