// Package server is handoff's HTTP adapter: a JSON API and a dashboard over
// the same use-case layer (package session) and the same database the CLI
// uses, so a browser, a script on another machine and the terminal see and
// change workflows the same way.
package server

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/session"
	"github.com/handoff-cli/handoff/store"
)

// Store is what the server needs from a database: the use cases' Store
// plus the listings only a reader of many workflows needs. *store.Store
// satisfies it.
type Store interface {
	session.Store
	// OverviewPage lists a page of workflows with their latest
	// snapshots' summaries, without decoding any snapshot.
	OverviewPage(ctx context.Context, f store.OverviewFilter) (*store.OverviewPage, error)
	// ListSnapshots summarises a workflow's snapshots, newest first.
	ListSnapshots(ctx context.Context, f store.ListFilter) ([]store.SnapshotSummary, []error, error)
	// Events lists a workflow's events, oldest first.
	Events(ctx context.Context, workflowID string) ([]handoff.Event, error)
	// Search finds the sessions whose snapshots hold every word of a
	// query, best first.
	Search(ctx context.Context, q store.SearchQuery) ([]store.SearchHit, error)
}

var _ Store = (*store.Store)(nil)

// Default body limits: a JSON request is a few fields; a transcript can be
// long but is bounded so one request cannot exhaust memory.
const (
	DefaultMaxJSONBytes       = 64 << 10
	DefaultMaxTranscriptBytes = 32 << 20
)

// snapCacheSize bounds the decoded snapshots kept (a few MB at most).
const snapCacheSize = 512

// Config is what New needs.
type Config struct {
	// Store is the database; required.
	Store Store
	// Counter counts tokens for compiled prompts and new snapshots;
	// required. It is shared by every request (it is safe for that).
	Counter *capacity.Counter
	// Token, when set, is required as "Authorization: Bearer TOKEN" (or
	// the cookie the dashboard's ?token= login sets) on every request.
	Token string
	// MaxTranscriptBytes bounds POST /api/transcripts bodies; 0 is
	// DefaultMaxTranscriptBytes.
	MaxTranscriptBytes int64
	// Logger receives request failures; nil discards them.
	Logger *slog.Logger
}

// Server serves the API and the dashboard.
type Server struct {
	cfg     Config
	log     *slog.Logger
	handler http.Handler
	pages   *pages
	cache   *snapCache
}

// New builds the server's handler tree.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil || cfg.Counter == nil {
		return nil, handoff.Errorf(handoff.EINTERNAL, "server: a store and a counter are required")
	}
	if cfg.MaxTranscriptBytes <= 0 {
		cfg.MaxTranscriptBytes = DefaultMaxTranscriptBytes
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p, err := newPages()
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, log: log, pages: p, cache: newSnapCache(snapCacheSize)}
	mux := http.NewServeMux()
	s.routes(mux)
	s.handler = s.secure(mux)
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

func (s *Server) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/openapi.json", s.openAPI)
	mux.HandleFunc("GET /api/workflows", s.api(s.listWorkflows))
	mux.HandleFunc("GET /api/workflows/{id}", s.api(s.getWorkflow))
	mux.HandleFunc("POST /api/workflows/{id}/pause", s.api(s.pauseWorkflow))
	mux.HandleFunc("POST /api/workflows/{id}/resume", s.api(s.resumeWorkflow))
	mux.HandleFunc("GET /api/workflows/{id}/snapshots", s.api(s.listSnapshots))
	mux.HandleFunc("GET /api/workflows/{id}/snapshots/{sid}", s.api(s.getSnapshot))
	mux.HandleFunc("GET /api/workflows/{id}/snapshots/{sid}/decisions", s.api(s.snapshotDecisions))
	mux.HandleFunc("GET /api/workflows/{id}/snapshots/{sid}/errors", s.api(s.snapshotErrors))
	mux.HandleFunc("GET /api/workflows/{id}/snapshots/{sid}/git-changes", s.api(s.snapshotGit))
	mux.HandleFunc("GET /api/workflows/{id}/snapshots/{sid}/prompt", s.api(s.snapshotPrompt))
	mux.HandleFunc("GET /api/workflows/{id}/events", s.api(s.listEvents))
	mux.HandleFunc("GET /api/workflows/{id}/diff", s.api(s.diff))
	mux.HandleFunc("POST /api/transcripts", s.api(s.postTranscript))
	mux.HandleFunc("GET /api/search", s.api(s.search))
	mux.HandleFunc("/api/", s.api(func(*http.Request) (int, any, error) {
		return 0, nil, handoff.Errorf(handoff.ENOTFOUND, "no such API endpoint")
	}))

	mux.HandleFunc("GET /{$}", s.page(s.indexPage))
	mux.HandleFunc("GET /workflows/{id}", s.page(s.workflowPage))
	mux.HandleFunc("GET /search", s.page(s.searchPage))
	mux.HandleFunc("GET /static/{file}", func(w http.ResponseWriter, r *http.Request) {
		// The file by its decoded name, from web/static only: serving the
		// request's path let "/static/..%2flayout.html" (one segment to
		// the mux, "../layout.html" once decoded) reach the templates.
		name := r.PathValue("file")
		if !fs.ValidPath(name) || strings.ContainsAny(name, `/\`) || name == "." {
			http.NotFound(w, r)
			return
		}
		http.ServeFileFS(w, r, staticFS(), "static/"+name)
	})
}
