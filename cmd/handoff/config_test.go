package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runNoDB runs handoff in-process with env and no --db, so the database
// comes from the environment or the config file.
func runNoDB(t *testing.T, env map[string]string, stdin string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	a := &app{stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return env[k] }}
	err := a.execute(context.Background(), args)
	return result{stdout.String(), stderr.String(), err}
}

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	xdg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(xdg, "handoff"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(xdg, "handoff", "config.toml"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return xdg
}

// TestConfigFile: the config file gives defaults (budget, extractor,
// model, db) that the environment and flags override.
func TestConfigFile(t *testing.T) {
	t.Parallel()
	f := newFakeLLM(t, firstAssistantDecision)
	db := filepath.Join(t.TempDir(), "from-config.db")
	xdg := writeConfig(t, "budget = 700\nextractor = \"llm\"\nmodel = \"config-model\"\ndb = \""+db+"\"\n")
	env := withEnv(f.configEnv(), "XDG_CONFIG_HOME", xdg)
	sample := readFile(t, sampleTranscript)

	r := runNoDB(t, env, sample, "--no-git")
	if r.err != nil {
		t.Fatalf("compile: %v\n%s", r.err, r.stderr)
	}
	host := strings.TrimPrefix(f.srv.URL, "http://")
	for _, want := range []string{"extractor llm (config-model at " + host + ")", "/700 tokens"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("status line lacks %q:\n%s", want, r.stderr)
		}
	}
	if reqs := f.requests(); len(reqs) == 0 || !strings.Contains(reqs[0], `"config-model"`) {
		t.Errorf("the config's model was not asked (%d requests)", len(reqs))
	}
	if _, err := os.Stat(db); err != nil {
		t.Errorf("the config's database was not used: %v", err)
	}

	// The environment beats the file, and a flag beats both.
	sent := len(f.requests())
	r = runNoDB(t, withEnv(env, "HANDOFF_EXTRACTOR", "heuristic"), sample, "--no-git", "--no-store", "--budget", "900")
	if r.err != nil {
		t.Fatalf("compile: %v\n%s", r.err, r.stderr)
	}
	if !strings.Contains(r.stderr, "extractor heuristic") || !strings.Contains(r.stderr, "/900 tokens") || len(f.requests()) != sent {
		t.Errorf("HANDOFF_EXTRACTOR and --budget did not win:\n%s", r.stderr)
	}
}

func TestConfigFileInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body string
		args       []string
		wantCode   int
		want       string
	}{
		{"unknown key", "budgte = 100\n", []string{"list"}, exitInvalid, "unknown key(s) budgte"},
		{"not TOML", "budget = = 3\n", []string{"list"}, exitInvalid, "config"},
		{"negative budget", "budget = -5\n", []string{"compile"}, exitInvalid, "--budget"},
		{"checkpoint out of range", "checkpoint = 7.5\n", []string{"watch", "x.jsonl"}, exitInvalid, "checkpoint"},
		{"unknown extractor", "extractor = \"gpt\"\n", []string{"--no-git", "--no-store"}, exitInvalid, "use heuristic, llm or hybrid"},
		{"under hook: exit 1", "budgte = 1\n", []string{"hook", "claude"}, exitInternal, "unknown key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"XDG_CONFIG_HOME": writeConfig(t, tt.body), "HANDOFF_DB": filepath.Join(t.TempDir(), "h.db")}
			r := runNoDB(t, env, readFile(t, sampleTranscript), tt.args...)
			if got := exitCode(r.err); got != tt.wantCode || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d (want %d), stderr:\n%s", got, tt.wantCode, r.stderr)
			}
			if r.stdout != "" {
				t.Errorf("stdout on failure: %q", r.stdout)
			}
		})
	}
}
