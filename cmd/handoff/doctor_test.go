package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctor: doctor names the database and what chose it, the config
// file, the extractor with its endpoint, PATH, and the hooks installed in
// the project; it creates no database.
func TestDoctor(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	sample := readFile(t, sampleTranscript)
	repo := t.TempDir()
	gitCmd(t, repo, "init", "-q")
	t.Chdir(repo)
	f := newFakeLLM(t, firstAssistantDecision)
	xdg := writeConfig(t, "extractor = \"llm\"\n")
	db := filepath.Join(t.TempDir(), "h.db")
	env := withEnv(withEnv(f.configEnv(), "XDG_CONFIG_HOME", xdg), "HANDOFF_DB", db)

	r := runNoDB(t, env, "", "doctor", "--json")
	if r.err != nil {
		t.Fatalf("doctor: %v\n%s", r.err, r.stderr)
	}
	var rep doctorReport
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(f.srv.URL, "http://")
	if rep.Database != db || rep.DatabaseFrom != "HANDOFF_DB" || rep.DatabaseOK || !strings.HasSuffix(rep.Config, "config.toml") ||
		!strings.Contains(rep.Extractor, "llm") || !strings.Contains(rep.Extractor, host) || len(rep.Hooks) != 2 || rep.Hooks[0].Installed {
		t.Errorf("doctor before install = %+v", rep)
	}
	if _, err := os.Stat(db); err == nil {
		t.Error("doctor created the database")
	}
	if len(f.requests()) != 0 {
		t.Error("doctor sent a request to the LLM")
	}

	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "handoff"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	env = withEnv(env, "PATH", bin)
	if r := runNoDB(t, env, "", "hook", "claude", "--install", "--write"); r.err != nil {
		t.Fatalf("install: %v\n%s", r.err, r.stderr)
	}
	if r := runNoDB(t, env, sample, "--no-git", "-q", "--extractor", "heuristic"); r.err != nil {
		t.Fatalf("compile: %v\n%s", r.err, r.stderr)
	}
	r = runNoDB(t, env, "", "doctor", "--json")
	rep = doctorReport{}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.DatabaseOK || rep.Workflows != 1 || !rep.OnPath || !rep.Hooks[0].Installed || rep.Hooks[1].Installed ||
		rep.Hooks[0].Settings != filepath.Join(repo, ".claude", "settings.json") {
		t.Errorf("doctor after install and compile = %+v", rep)
	}
	if r := runNoDB(t, env, "", "doctor"); r.err != nil || !strings.Contains(r.stdout, "claude hooks\tok") {
		t.Errorf("doctor table:\n%s%v", r.stdout, r.err)
	}
}
