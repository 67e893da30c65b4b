package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/handoff-cli/handoff"
)

func (s *Server) openAPI(w http.ResponseWriter, _ *http.Request) {
	b, err := webFS.ReadFile("web/openapi.json")
	if err != nil { // embedded at build time
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// Loopback reports whether addr (host:port) binds only to the loopback
// interface. An empty host (":7420") binds every interface.
func Loopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, handoff.Errorf(handoff.EINVALID, "address %q: %w", addr, err)
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback(), nil
}

// CheckBind refuses a non-loopback address without a token: the API
// changes workflows and returns transcript-derived text, so it is never
// open to the network unauthenticated.
func CheckBind(addr, token string) error {
	lo, err := Loopback(addr)
	if err != nil {
		return err
	}
	if !lo && token == "" {
		return handoff.Errorf(handoff.EINVALID, "refusing to listen on %s without a token: set --token or HANDOFF_TOKEN, or bind 127.0.0.1", addr)
	}
	return nil
}

// Timeouts of the HTTP server. Writes allow for compiling a long
// transcript posted to /api/transcripts.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 60 * time.Second
	writeTimeout      = 2 * time.Minute
	idleTimeout       = 2 * time.Minute
	shutdownTimeout   = 10 * time.Second
)

// ListenAndServe serves h on addr until ctx is cancelled (the command
// cancels it on SIGINT/SIGTERM), then shuts down gracefully: in-flight
// requests get shutdownTimeout to finish. ready, if not nil, receives the
// bound address once listening (":0" picks a port).
func ListenAndServe(ctx context.Context, addr, token string, h http.Handler, log *slog.Logger, ready func(net.Addr)) error {
	if err := CheckBind(addr, token); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return handoff.Errorf(handoff.EUNAVAILABLE, "listen on %s: %w", addr, err)
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	if ready != nil {
		ready(ln.Addr())
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shut down: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	return nil
}
