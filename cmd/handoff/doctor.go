package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/hooks"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/store/postgres"
)

// doctorReport is what `handoff doctor` found: where things are and what
// would run, so a person can see why handoff behaves as it does.
type doctorReport struct {
	Version      string       `json:"version"`
	Database     string       `json:"database"`
	DatabaseFrom string       `json:"database_from"`
	DatabaseOK   bool         `json:"database_ok"`
	DatabaseNote string       `json:"database_note"`
	Workflows    int          `json:"workflows"`
	Config       string       `json:"config,omitempty"`
	Extractor    string       `json:"extractor"`
	OnPath       bool         `json:"handoff_on_path"`
	Hooks        []hookStatus `json:"hooks"`
}

type hookStatus struct {
	Agent     string `json:"agent"`
	Settings  string `json:"settings"`
	Installed bool   `json:"installed"`
	Note      string `json:"note,omitempty"`
}

func (a *app) newDoctorCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Show the database, config file, extractor and hook status in use",
		Long: `doctor prints where handoff keeps its data and what it would do: the
database (and what chose it), the config file, the extractor (and, for an
LLM, where transcripts would be sent), whether handoff is on PATH, and
whether the Claude Code and Codex hooks are installed for this project.
It changes nothing: the database is opened read-only.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			r := a.doctor(cmd.Context())
			if asJSON {
				return writeJSON(a.stdout, r)
			}
			return printDoctor(a, r)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func (a *app) doctor(ctx context.Context) *doctorReport {
	r := &doctorReport{Version: versionString(), OnPath: onPath(a.getenv("PATH"), "handoff")}
	if a.config != nil && a.config.path != "" {
		r.Config = a.config.path
	}
	path, from, err := a.databasePath()
	r.Database, r.DatabaseFrom = dbLabel(path), from
	switch {
	case err != nil:
		r.DatabaseNote = err.Error()
	default:
		s, err := a.openDoctorStore(ctx, path)
		if err != nil {
			r.DatabaseNote = err.Error()
			if handoff.ErrorCode(err) == handoff.ENOTFOUND {
				r.DatabaseNote = "not created yet (the first compile creates it)"
			}
			break
		}
		defer s.Close()
		wfs, err := s.Workflows(ctx)
		if err != nil {
			r.DatabaseNote = err.Error()
			break
		}
		r.DatabaseOK, r.Workflows = true, len(wfs)
		r.DatabaseNote = "ok"
	}
	if ex, err := a.newExtractor(extractorFlags{}, extractorSetup{}); err != nil {
		r.Extractor = "unusable: " + err.Error()
	} else {
		r.Extractor = ex.describe()
	}
	for _, h := range []struct{ agent, rel string }{{"claude", ".claude/settings.json"}, {"codex", ".codex/hooks.json"}} {
		o := &hookOptions{app: a, agent: h.agent, defaultSettings: h.rel}
		st := hookStatus{Agent: h.agent}
		settings, err := o.settingsPath(ctx)
		if err != nil {
			st.Note = err.Error()
			r.Hooks = append(r.Hooks, st)
			continue
		}
		st.Settings = settings
		st.Installed, st.Note = hooksInstalled(settings, h.agent)
		r.Hooks = append(r.Hooks, st)
	}
	return r
}

// hooksInstalled reports whether the settings file already runs handoff's
// hooks on every event handoff installs: merging into it would change
// nothing.
func hooksInstalled(path, agent string) (bool, string) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, "no settings file"
	}
	if err != nil {
		return false, err.Error()
	}
	merge := hooks.MergeClaudeSettings
	if agent == "codex" {
		merge = hooks.MergeCodexHooks
	}
	merged, err := merge(data, "handoff")
	if err != nil {
		return false, err.Error()
	}
	if string(merged) == string(data) {
		return true, ""
	}
	return false, "not installed (handoff hook " + agent + " --install --write)"
}

func printDoctor(a *app, r *doctorReport) error {
	tb := a.newTable("CHECK", "STATUS", "DETAIL").wrapLast()
	tb.row("version", "ok", r.Version)
	dbStatus := "ok"
	if !r.DatabaseOK {
		dbStatus = "-"
	}
	tb.row("database", dbStatus, fmt.Sprintf("%s (from %s): %s, %d workflow%s", r.Database, r.DatabaseFrom, r.DatabaseNote, r.Workflows, plural(r.Workflows)))
	config := "none"
	if r.Config != "" {
		config = r.Config
	}
	tb.row("config", "ok", config)
	tb.row("extractor", "ok", r.Extractor)
	onPath := "no: go install ./cmd/handoff, and put $(go env GOPATH)/bin on PATH"
	if r.OnPath {
		onPath = "yes"
	}
	tb.row("PATH", map[bool]string{true: "ok", false: "-"}[r.OnPath], onPath)
	for _, h := range r.Hooks {
		status := "-"
		if h.Installed {
			status = "ok"
		}
		detail := filepath.Clean(h.Settings)
		if h.Note != "" {
			detail += ": " + h.Note
		}
		tb.row(h.Agent+" hooks", status, detail)
	}
	return tb.flush()
}

// openDoctorStore opens the database doctor checks: a SQLite file
// read-only (doctor must not create or migrate it), or the PostgreSQL
// team store.
func (a *app) openDoctorStore(ctx context.Context, path string) (cliStore, error) {
	if postgres.IsURL(path) {
		s, err := postgres.Open(ctx, path, postgres.Options{Logger: a.log()})
		if err != nil {
			return nil, fmt.Errorf("open %s: %w", postgresLabel, err)
		}
		return s, nil
	}
	s, err := store.Open(ctx, path, store.Options{ReadOnly: true, Logger: a.log()})
	if err != nil {
		return nil, err
	}
	return s, nil
}
