package nextstep

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

func TestCheckKind(t *testing.T) {
	cases := []struct{ cmd, want string }{
		{"make", "build"},
		{"cd build && cmake .. && make -j$(nproc) 2>&1 | head -50", "build"},
		{"make clean", ""},
		{"make test", ""}, // a test runner: TestState's
		{"cmake --build build", "build"},
		{"cargo build --release", "build"},
		{"cargo check", "type check"},
		{"cargo clippy -- -D warnings", "lint"},
		{"go build ./...", "build"},
		{"go vet ./...", "lint"},
		{"npx tsc --noEmit", "type check"},
		{"npm run build", "build"},
		{"pnpm --filter @ship/api type-check", "type check"},
		{"yarn lint", "lint"},
		{"npm install", ""},
		{"npm run dev", ""},
		{"goreleaser check", "config check"},
		{"POSTHOG_API_KEY=x goreleaser release --snapshot --skip=publish --clean", "dry run"},
		{"pdflatex -interaction=nonstopmode paper.tex > build.log 2>&1", "build"},
		{"latexmk -pdf main.tex", "build"},
		{"bash -n scripts/release.sh", "syntax check"},
		{"bash scripts/release.sh", ""},
		{"python3 -m py_compile app.py", "syntax check"},
		{"docker build -t app .", "build"},
		{"swift build", "build"},
		{"./gradlew assemble", "build"},
		{"mvn -q package", "build"},
		{"gcc -O2 -o prog main.c", "build"},
		{"kubectl apply -f k8s/ --dry-run=client", "dry run"},
		{"git push --dry-run", ""},
		{"ruff format .", ""}, // rewrites files: not a check
		{"ruff check .", "lint"},
		{"ls -la build", ""},
	}
	for _, tc := range cases {
		got := ""
		if !facts.IsTestCommand(tc.cmd) {
			if _, kind, _, ok := facts.CheckSegment(tc.cmd); ok {
				got = kind
			}
		}
		if got != tc.want {
			t.Errorf("check kind of %q = %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

func TestCheckKeySameTarget(t *testing.T) {
	same := [][2]string{
		{"pdflatex -interaction=nonstopmode paper.tex > log 2>&1", "pdflatex paper.tex"},
		{"pdflatex src/paper.tex", "cd src && pdflatex paper.tex"},
		{"cd build && make -j4", "make -j$(nproc) 2>&1 | tail -20"},
		{"npx tsc --noEmit", "timeout 60 tsc --noEmit"},
	}
	for _, p := range same {
		if a, b := facts.CheckKey(p[0]), facts.CheckKey(p[1]); a != b || a == "" {
			t.Errorf("CheckKey(%q) = %q, CheckKey(%q) = %q: want one non-empty key", p[0], a, p[1], b)
		}
	}
	differ := [][2]string{
		{"npm run build", "npm run lint"},
		{"bash -n a.sh", "bash -n b.sh"},
		{"goreleaser check", "goreleaser build --snapshot"},
	}
	for _, p := range differ {
		if a, b := facts.CheckKey(p[0]), facts.CheckKey(p[1]); a == b {
			t.Errorf("CheckKey(%q) = CheckKey(%q) = %q, want two checks", p[0], p[1], a)
		}
	}
	if k := facts.CheckKey("go test ./..."); k != "" {
		t.Errorf("a test run is not a check, got key %q", k)
	}
}

func TestCheckOutcome(t *testing.T) {
	cases := []struct {
		name        string
		out         string
		fail, trail bool
		status      handoff.TestStatus
		summary     string
	}{
		{"pass names the artifact", "[ 40%] Linking C shared library libvsla.so\n[100%] Built target vsla_shared\n", false, false, handoff.TestsPassing, "Linking C shared library libvsla.so"},
		{"pass with no line", "", false, false, handoff.TestsPassing, ""},
		{"compiler error", "src/a.c: In function 'f':\nsrc/a.c:3:5: error: 'x' undeclared\nmake: *** [all] Error 2\n", true, false, handoff.TestsFailing, "src/a.c:3:5: error: 'x' undeclared"},
		{"piped to tail exits 0", "src/index.ts(4,7): error TS2322: Type 'string' is not assignable\n", false, false, handoff.TestsFailing, "error TS2322"},
		{"trailing grep found nothing", "", true, true, handoff.TestsUnknown, ""},
		{"trailing step but an error line", "! LaTeX Error: File `preamble.tex' not found.\n", true, true, handoff.TestsFailing, "preamble.tex"},
		{"non-zero exit after output written", "Output written on paper.pdf (25 pages, 4 bytes).\nTranscript written on paper.log.\n", true, false, handoff.TestsUnknown, "25 pages"},
		{"bare Error is the harness's, not the build's", "Error", true, false, handoff.TestsUnknown, ""},
		{"short output is no summary", "Exit code 2", true, false, handoff.TestsFailing, ""},
		{"goreleaser", "  • build succeeded after 12s\n  • thanks for using GoReleaser!\n", false, false, handoff.TestsPassing, "build succeeded after 12s"},
		{"warning is not an error", "a.c:3:5: warning: unused variable 'error'\n", false, false, handoff.TestsPassing, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st, sum := facts.CheckOutcome(handoff.ToolResult{Content: tc.out, IsError: tc.fail}, tc.fail, tc.trail)
			if st != tc.status {
				t.Errorf("status = %q, want %q", st, tc.status)
			}
			if tc.summary == "" && sum != "" || !strings.Contains(sum, tc.summary) {
				t.Errorf("summary = %q, want it to hold %q", sum, tc.summary)
			}
		})
	}
}

// TestChecksNewestWins runs a build that fails twice, is fixed, breaks
// again, and a lint that passes, through ComputeFacts: one entry per
// check, the newest result each, with the run history that explains it.
func TestChecksNewestWins(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("Make the build pass.")
	c.Bash("Building.", "npm run build", "src/a.ts(1,1): error TS2304: Cannot find name 'x'.", 1)
	c.Bash("Again.", "npm run build 2>&1 | tail -5", "src/a.ts(1,1): error TS2304: Cannot find name 'x'.", 0)
	id := c.Call("Fixing.", "Edit", map[string]string{"file_path": "src/a.ts", "old_string": "x", "new_string": "y"})
	c.Result(id, "The file src/a.ts has been updated.", false, -1)
	c.Bash("Building.", "npm run build", "✓ Compiled successfully", 0)
	c.Bash("Lint.", "npm run lint", "", 0)
	c.Bash("Type check.", "npx tsc --noEmit", "src/b.ts(2,2): error TS2322: Type 'string' is not assignable to type 'number'.", 2)
	c.Bash("Tests.", "npm test", "Tests: 3 passed, 3 total", 0)
	f := facts.Compute(c.Msgs)
	if len(f.Checks) != 3 {
		t.Fatalf("checks = %+v, want build, lint and type check", f.Checks)
	}
	build, lint, tsc := f.Checks[0], f.Checks[1], f.Checks[2]
	if build.Command != "npm run build" || build.Status != handoff.TestsPassing || build.Failures != 0 || !strings.Contains(build.Summary, "Compiled successfully") {
		t.Errorf("build = %+v, want the passing run after the fix", build)
	}
	if lint.Kind != "lint" || lint.Status != handoff.TestsPassing {
		t.Errorf("lint = %+v", lint)
	}
	if tsc.Kind != "type check" || tsc.Status != handoff.TestsFailing || !strings.Contains(tsc.Summary, "TS2322") || tsc.Line != 0 && tsc.Source.Index == 0 {
		t.Errorf("type check = %+v, want the failing run with its error line", tsc)
	}
	if f.TestState == nil || f.TestState.Command != "npm test" {
		t.Errorf("the test run belongs to TestState, got %+v", f.TestState)
	}

	// Failing again after a pass: a regression, counted run by run.
	c.Bash("Build.", "npm run build", "Failed to compile.\n./src/c.ts: Module not found", 1)
	c.Bash("Build.", "npm run build", "Failed to compile.\n./src/c.ts: Module not found", 1)
	f = facts.Compute(c.Msgs)
	last := f.Checks[len(f.Checks)-1]
	if last.Command != "npm run build" || last.Status != handoff.TestsFailing || last.Failures != 2 || !last.PassedBefore {
		t.Errorf("build = %+v, want failing twice in a row after an earlier pass", last)
	}
	// The snapshot field survives a JSON round trip (snapshots are stored
	// as JSON).
	raw, err := json.Marshal(handoff.Snapshot{Checks: f.Checks})
	if err != nil {
		t.Fatal(err)
	}
	var back handoff.Snapshot
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Checks) != len(f.Checks) || back.Checks[len(back.Checks)-1] != last {
		t.Errorf("round trip = %+v, want %+v", back.Checks, f.Checks)
	}
}

func TestFailingBuildNextStep(t *testing.T) {
	failing := handoff.CheckState{Command: "cargo build", Kind: "build", Status: handoff.TestsFailing, Summary: "error[E0425]: cannot find value `x`", Source: handoff.MessageRef{Index: 8}}
	cases := []struct {
		name   string
		checks []handoff.CheckState
		ts     *handoff.TestState
		want   string // "" = not the build step
	}{
		{"failing build", []handoff.CheckState{failing}, nil, "Fix the build: `cargo build` failed"},
		{"edited since", []handoff.CheckState{func() handoff.CheckState { c := failing; c.EditsAfter = 3; return c }()}, nil, ""},
		{"passing build", []handoff.CheckState{func() handoff.CheckState { c := failing; c.Status = handoff.TestsPassing; return c }()}, nil, ""},
		{"green tests after", []handoff.CheckState{failing}, &handoff.TestState{Status: handoff.TestsPassing, Source: handoff.MessageRef{Index: 9}}, ""},
		{"failing tests first", []handoff.CheckState{failing}, &handoff.TestState{Status: handoff.TestsFailing, Command: "cargo test", Source: handoff.MessageRef{Index: 9}}, "Fix the failing tests"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := &handoff.Snapshot{Checks: tc.checks, TestState: tc.ts, LatestRequest: "Add the parser.",
				EndState: &handoff.EndState{LastAssistant: "I added the parser module.", LastSource: handoff.MessageRef{Index: 12}}}
			got := For(s)
			if tc.want == "" && strings.Contains(got, "Fix the build") || tc.want != "" && !strings.Contains(got, tc.want) {
				t.Errorf("NextStep = %q, want %q", got, tc.want)
			}
			if strings.Contains(got, "E0425") {
				t.Errorf("NextStep quotes tool output: %q", got)
			}
		})
	}
}

func TestBrokenCheckCoveredByLaterPass(t *testing.T) {
	e := handoff.ErrorRecord{ID: "e1", Type: "build_error", Command: "cd build && make vsla_static", Message: "error: x", Resolution: handoff.ResolutionUnresolved, Source: handoff.MessageRef{Index: 5}}
	s := &handoff.Snapshot{Errors: []handoff.ErrorRecord{e}}
	if got := facts.BrokenCheck(s); got == "" {
		t.Fatal("an open build error with no later pass is broken")
	}
	s.Checks = []handoff.CheckState{{Command: "make -j4", Kind: "build", Status: handoff.TestsPassing, Source: handoff.MessageRef{Index: 9}}}
	if got := facts.BrokenCheck(s); got != "" {
		t.Errorf("brokenCheck = %q, want none: a later full make passed", got)
	}
	s.Checks[0].Source.Index = 3
	if got := facts.BrokenCheck(s); got == "" {
		t.Error("a pass before the failure covers nothing")
	}
}

func TestFailingBuildSuperseded(t *testing.T) {
	s := &handoff.Snapshot{Checks: []handoff.CheckState{
		{Command: "pdflatex src/paper.tex", Kind: "build", Status: handoff.TestsFailing, Summary: "! LaTeX Error: File `preamble.tex' not found.", Source: handoff.MessageRef{Index: 4}},
		{Command: "cd src && bibtex paper && pdflatex other.tex", Kind: "build", Status: handoff.TestsUnknown, Summary: "Output written on other.pdf (25 pages).", Source: handoff.MessageRef{Index: 6}},
	}, EndState: &handoff.EndState{LastAssistant: "The paper compiles.", LastSource: handoff.MessageRef{Index: 9}}}
	if got := For(s); strings.Contains(got, "Fix the build") {
		t.Errorf("NextStep = %q: pdflatex ran again after the failure without failing", got)
	}
	s.Checks = s.Checks[:1]
	if got := For(s); !strings.Contains(got, "Fix the build: `pdflatex src/paper.tex`") {
		t.Errorf("NextStep = %q, want the failing build", got)
	}
}

// TestBareFailureIsUnknown: a call that failed with nothing but "Error"
// and no exit code (the harness could not run it) proves nothing about
// the build or the tests.
func TestBareFailureIsUnknown(t *testing.T) {
	c := sessiontest.NewConvo(t)
	c.User("Fix the build.")
	id := c.Call("Build.", "Bash", map[string]string{"command": "cd build && make"})
	c.Result(id, "Error", true, -1)
	id = c.Call("Tests.", "Bash", map[string]string{"command": "cd build && make && ./tests/run_tests"})
	c.Result(id, "Error", true, -1)
	f := facts.Compute(c.Msgs)
	if len(f.Checks) != 1 || f.Checks[0].Status != handoff.TestsUnknown {
		t.Errorf("checks = %+v, want one with an unknown outcome", f.Checks)
	}
	if f.TestState == nil || f.TestState.Status != handoff.TestsUnknown {
		t.Errorf("test state = %+v, want unknown", f.TestState)
	}
	// With an exit code the failure is the command's own.
	c.Bash("Build.", "make", "", 2)
	if f = facts.Compute(c.Msgs); f.Checks[0].Status != handoff.TestsFailing {
		t.Errorf("make exiting 2 = %+v, want failing", f.Checks[0])
	}
}
