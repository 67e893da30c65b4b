package server

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/handoff-cli/handoff"
)

// TestPauseNeverOpensStoredPaths: a snapshot's transcript path is written
// by whoever pushed it. Pausing through the API repeats the latest
// snapshot and never opens that path: one stored path is a transcript
// whose content differs (the pause keeps the stored content), another a
// FIFO with no writer (opening it for reading would block the request
// until the test's deadline).
func TestPauseNeverOpensStoredPaths(t *testing.T) {
	f := newFixture(t, nil)
	f.checkpoint("")
	dir := t.TempDir()
	fifo := filepath.Join(dir, "trap.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for i, path := range []string{sampleTranscript, fifo} {
		ctx := context.Background()
		latest, err := f.store.LatestSnapshot(ctx, sampleWF)
		if err != nil {
			t.Fatal(err)
		}
		latest.ID, latest.SessionNumber, latest.CreatedAt = "", 0, time.Time{}
		latest.Source.Path = path
		latest.Goal = "a goal only the stored snapshot has " + itoa(i)
		if err := f.store.SaveSnapshot(ctx, latest, storeInfo()); err != nil {
			t.Fatal(err)
		}
		done := make(chan transition, 1)
		go func() {
			var p transition
			f.json("POST", "/api/workflows/"+sampleWF+"/pause", []byte(`{"reason":"stop `+itoa(i)+`"}`), 200, &p)
			done <- p
		}()
		var p transition
		select {
		case p = <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("pause with a stored path %s did not answer: the server opened it", path)
		}
		var snap handoff.Snapshot
		f.json("GET", "/api/workflows/"+sampleWF+"/snapshots/"+p.SnapshotID, nil, 200, &snap)
		if snap.Goal != latest.Goal || snap.Trigger != handoff.TriggerPause || snap.PauseReason != "stop "+itoa(i) {
			t.Fatalf("pause with stored path %s: goal %.60q trigger %s reason %q; want the stored snapshot repeated", path, snap.Goal, snap.Trigger, snap.PauseReason)
		}
		f.json("POST", "/api/workflows/"+sampleWF+"/resume", nil, 200, nil)
	}
}

// TestServerReadsNoFiles: no non-test file of the server calls what opens
// or inspects a path on the server's disk (the dashboard's files are
// embedded), so no request can make it read one.
func TestServerReadsNoFiles(t *testing.T) {
	forbidden := map[string]bool{
		"os.Open": true, "os.OpenFile": true, "os.ReadFile": true, "os.Stat": true, "os.Lstat": true, "os.ReadDir": true,
		"os.DirFS": true, "transcript.ParseFile": true, "gitstate.Read": true,
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(file, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && forbidden[pkg.Name+"."+sel.Sel.Name] {
				t.Errorf("%s: %s reads the server's disk", fset.Position(sel.Pos()), pkg.Name+"."+sel.Sel.Name)
			}
			return true
		})
	}
	if checked == 0 {
		t.Fatal("no server source files found")
	}
	if _, err := os.Stat("pause.go"); err != nil {
		t.Fatalf("the check runs in the package directory: %v", err)
	}
}
