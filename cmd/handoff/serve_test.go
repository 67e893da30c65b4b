package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/handoff-cli/handoff/store/storetest"
)

// urlWriter hands the first line serve prints (its URL) to a channel.
type urlWriter struct{ c chan string }

func (w urlWriter) Write(p []byte) (int, error) {
	select {
	case w.c <- strings.TrimSpace(string(p)):
	default:
	}
	return len(p), nil
}

func TestServeRefusesOpenBindWithoutToken(t *testing.T) {
	db := filepath.Join(t.TempDir(), "h.db")
	for _, addr := range []string{"0.0.0.0:0", ":0"} {
		r := runCLI(t, db, "", "serve", "--addr", addr)
		if exitCode(r.err) != exitInvalid || !strings.Contains(r.stderr, "without a token") {
			t.Errorf("serve --addr %s: exit %d, stderr %q", addr, exitCode(r.err), r.stderr)
		}
	}
}

// TestServeWithToken starts `handoff serve` off loopback with the token
// from $HANDOFF_TOKEN, reads the CLI's workflow through the API, and stops
// it by cancelling its context (what SIGINT/SIGTERM do).
func TestServeWithToken(t *testing.T) {
	db := filepath.Join(t.TempDir(), "h.db")
	if r := runCLI(t, db, readFile(t, sampleTranscript), "--no-git", "-q"); r.err != nil {
		t.Fatalf("compile: %v %s", r.err, r.stderr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	urls := make(chan string, 1)
	var stderr bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: urlWriter{urls}, stderr: &stderr,
		getenv: func(k string) string {
			if k == "HANDOFF_TOKEN" {
				return "tok-123"
			}
			return ""
		}}
	done := make(chan error, 1)
	go func() { done <- a.execute(ctx, []string{"--db", db, "serve", "--addr", "0.0.0.0:0"}) }()
	var base string
	select {
	case base = <-urls:
	case err := <-done:
		t.Fatalf("serve stopped: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not start")
	}
	base = strings.Replace(base, "0.0.0.0", "127.0.0.1", 1)
	get := func(token string) (int, string) {
		req, _ := http.NewRequest("GET", base+"api/workflows", nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get(""); code != http.StatusUnauthorized {
		t.Errorf("without the token: %d", code)
	}
	if code, body := get("tok-123"); code != 200 || !strings.Contains(body, "ratelimit-api") {
		t.Errorf("with the token: %d %s", code, body)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve after cancel: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not shut down")
	}
}

// TestServeOnPostgres: `handoff serve --db postgres://…` is the team
// server. A snapshot synced from a laptop's SQLite file is served from
// PostgreSQL through the same API. Skipped without HANDOFF_TEST_POSTGRES
// (a failure under CI, which starts a throw-away cluster).
func TestServeOnPostgres(t *testing.T) {
	pg := storetest.FreshPostgres(t)
	db := filepath.Join(t.TempDir(), "h.db")
	if r := runCLI(t, db, readFile(t, sampleTranscript), "--no-git", "-q"); r.err != nil {
		t.Fatalf("compile: %v %s", r.err, r.stderr)
	}
	if r := runCLI(t, db, "", "sync", "--to", pg); r.err != nil {
		t.Fatalf("sync: %v %s", r.err, r.stderr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	urls := make(chan string, 1)
	var stderr bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: urlWriter{urls}, stderr: &stderr, getenv: func(string) string { return "" }}
	done := make(chan error, 1)
	go func() { done <- a.execute(ctx, []string{"--db", pg, "serve", "--addr", "127.0.0.1:0"}) }()
	var base string
	select {
	case base = <-urls:
	case err := <-done:
		t.Fatalf("serve stopped: %v\n%s", err, stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not start")
	}
	resp, err := http.Get(base + "api/workflows")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "ratelimit-api") {
		t.Errorf("GET /api/workflows from PostgreSQL: %d %s", resp.StatusCode, body)
	}
	if strings.Contains(stderr.String(), "postgres://") {
		t.Errorf("the status line shows the database URL (credentials): %s", stderr.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve after cancel: %v", err)
	}
}
