package extractor

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

func TestClassifyByShape(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, tool, input string
		kind              facts.CallKind
		command           string
		paths             []string
	}{
		{"any tool with cmd", "run_command", `{"cmd":"go test ./..."}`, facts.KindShell, "go test ./...", nil},
		{"argv bash -lc", "shell", `{"command":["bash","-lc","ls -la"]}`, facts.KindShell, "ls -la", nil},
		{"string bash -lc", "shell_command", `{"command":"bash -lc \"npm test\""}`, facts.KindShell, "npm test", nil},
		{"edit by path+content", "my_writer", `{"filename":"a/b.py","content":"x"}`, facts.KindEdit, "my_writer a/b.py", []string{"a/b.py"}},
		{"read is not an edit", "Read", `{"file_path":"/r/a.go"}`, facts.KindOther, "Read /r/a.go", nil},
		{"editor create", "str_replace_editor", `{"command":"create","path":"/w/x.py","file_text":"y"}`, facts.KindEdit, "str_replace_editor create /w/x.py", []string{"/w/x.py"}},
		{"editor view", "str_replace_editor", `{"command":"view","path":"/w/x.py"}`, facts.KindOther, "str_replace_editor view /w/x.py", nil},
		{"free-text patch", "apply_patch", `"*** Begin Patch\n*** Update File: a.go\n*** End Patch"`, facts.KindEdit, "apply_patch a.go", []string{"a.go"}},
		{"patch in heredoc", "exec_command", `{"cmd":"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: n.txt\n+x\n*** End Patch\nEOF"}`, facts.KindShell, "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: n.txt\n+x\n*** End Patch\nEOF", []string{"n.txt"}},
		{"cat heredoc write", "Bash", `{"command":"cat > src/x.ts << 'EOF'\nexport {}\nEOF"}`, facts.KindShell, "cat > src/x.ts << 'EOF'\nexport {}\nEOF", []string{"src/x.ts"}},
		{"console update", "Update", `{"summary":"specs/cli_spec.py"}`, facts.KindEdit, "Update specs/cli_spec.py", []string{"specs/cli_spec.py"}},
		{"gemini console edit", "Edit", `{"summary":"GEMINI.md: ### A... => ### B..."}`, facts.KindEdit, "Edit GEMINI.md", []string{"GEMINI.md"}},
		{"console shell", "Bash", `{"summary":"pytest -q"}`, facts.KindShell, "pytest -q", nil},
		{"plan by shape", "set_plan", `{"plan":[{"step":"a","status":"pending"}]}`, facts.KindPlan, "set_plan", nil},
		{"write_stdin", "write_stdin", `{"session_id":7,"chars":""}`, facts.KindOther, "write_stdin", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sh facts.Shapes
			got := sh.Classify(handoff.ToolCall{Name: tt.tool, Input: json.RawMessage(tt.input)})
			if got.Kind != tt.kind || got.Command != tt.command || !reflect.DeepEqual(got.Paths, tt.paths) {
				t.Errorf("classify = kind %d command %q paths %q; want %d %q %q", got.Kind, got.Command, got.Paths, tt.kind, tt.command, tt.paths)
			}
		})
	}
}

func TestSWEAgentOpenFileEdits(t *testing.T) {
	t.Parallel()
	var sh facts.Shapes
	steps := []struct{ tool, input string }{
		{"bash", `{"command":"open src/m/fields.py 1474"}`},
		{"edit", `{"search":"a","replace":"b"}`},
		{"bash", `{"command":"create repro.py"}`},
		{"bash", `{"command":"edit 1:1\nprint(1)\nend_of_edit"}`},
	}
	var got []string
	for _, s := range steps {
		got = append(got, sh.Classify(handoff.ToolCall{Name: s.tool, Input: json.RawMessage(s.input)}).Paths...)
	}
	if want := []string{"src/m/fields.py", "repro.py", "repro.py"}; !reflect.DeepEqual(got, want) {
		t.Errorf("paths = %q, want %q", got, want)
	}
}

func TestFailedFromContent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, out string
		want      bool
	}{
		{"sandbox", "exec_command failed: SandboxDenied { message: \"x\" }", true},
		{"patch rejected", "apply_patch verification failed: Failed to find expected lines in a.go", true},
		{"traceback", "Traceback (most recent call last):\n  File \"x.py\"\nKeyError: 'a'", true},
		{"not found", "zsh: command not found: pnpm", true},
		{"compiler", "main.c:3:5: error: expected ';'", true},
		{"codex header exit 1", "Chunk ID: ab12\nWall time: 0.1 seconds\nProcess exited with code 1\nOutput:\nboom", true},
		{"codex header exit 0 mentioning error", "Exit code: 0\nWall time: 1 seconds\nOutput:\nhandled error: none\nFAIL count 0", false},
		{"pass output mentioning error", "tests: error handling ... ok\n5 passed", false},
	}
	for _, tt := range tests {
		if got := facts.Failed(handoff.ToolResult{Content: tt.out}); got != tt.want {
			t.Errorf("%s: failed = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestNonErrorsAreIgnored(t *testing.T) {
	t.Parallel()
	shell := func(cmd string) *facts.CallInfo {
		return &facts.CallInfo{Name: "Bash", Kind: facts.KindShell, Command: cmd}
	}
	tests := []struct {
		name string
		call *facts.CallInfo
		out  string
		want string
	}{
		{"grep nothing", shell("grep -rn foo src"), "", facts.IgnoreNoMatch},
		{"rg nothing in codex header", shell("rg -n foo"), "Chunk ID: 1\nWall time: 0 seconds\nProcess exited with code 1\nOriginal token count: 0\nOutput:\n", facts.IgnoreNoMatch},
		{"pipe into grep", shell("ls -la .git/hooks | grep pre-commit"), "", facts.IgnoreNoMatch},
		{"which", shell("which nvcc"), "nvcc not found", facts.IgnoreProbe},
		{"test -f", shell("test -f go.sum"), "", facts.IgnoreProbe},
		{"ls missing", shell("ls -la ../x/"), "ls: cannot access '../x/': No such file or directory", facts.IgnoreProbe},
		{"version", shell("pytest --version"), "bash: pytest: command not found", facts.IgnoreProbe},
		{"git diff exit code", shell("git diff --exit-code"), "diff --git a/x b/x", facts.IgnoreProbe},
		{"rejected", shell("rm -rf build"), "The user doesn't want to proceed with this tool use. The tool use was rejected", facts.IgnoreRejected},
		{"console rejected", nil, "No (tell Claude what to do differently)", facts.IgnoreRejected},
		{"not read yet", &facts.CallInfo{Name: "Write", Kind: facts.KindEdit}, "<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>", facts.IgnoreHarness},
		{"read missing", &facts.CallInfo{Name: "Read"}, "File does not exist.", facts.IgnoreProbe},
		{"real: grep with a bad pattern", shell("grep -E '(' x"), "grep: Unmatched ( or \\(", ""},
		{"real: build", shell("go build ./..."), "./a.go:1: undefined: X", ""},
		{"real: chain ending in a probe is still a chain", shell("make && which foo"), "", ""},
		{"chain ending in grep that matched nothing", shell(`pdflatex -interaction=nonstopmode p.tex > temp.log 2>&1 && grep "undefined" temp.log`), "", facts.IgnoreNoMatch},
		{"chain ending in a piped rg", shell("make -s 2>&1 && cat out.txt | rg -n warning"), "Error", facts.IgnoreNoMatch},
		{"chain ending in git grep", shell("go build ./... && git grep -n TODO"), "", facts.IgnoreNoMatch},
		{"real: chain ending in grep, with output", shell("make && grep x log"), "make: *** [all] Error 2", ""},
		{"harness: compaction failed", nil, "Error: Error during compaction: Error: API Error: Request was aborted.", facts.IgnoreHarness},
		{"harness: API error", &facts.CallInfo{Name: "Task"}, "API Error: 529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}", facts.IgnoreHarness},
		{"real: a project's own API error text later in the output", shell("curl localhost:8080/api"), "{\"error\": \"API Error: bad token\"}", ""},
	}
	for _, tt := range tests {
		if got := facts.IgnoredKind(tt.call, tt.out); got != tt.want {
			t.Errorf("%s: ignoredKind = %q, want %q", tt.name, got, tt.want)
		}
	}
	// grep exits 2 on an error of its own (an unreadable file, a bad
	// pattern): that is no "no match".
	two, one := 2, 1
	chain := shell(`make > log 2>&1 && grep -n "error" log`)
	if got := facts.IgnoredResult(chain, handoff.ToolResult{ExitCode: &two}); got != "" {
		t.Errorf("grep exit 2 at the end of a chain: ignoredResult = %q, want none", got)
	}
	if got := facts.IgnoredResult(chain, handoff.ToolResult{ExitCode: &one}); got != facts.IgnoreNoMatch {
		t.Errorf("grep exit 1 at the end of a chain: ignoredResult = %q, want %q", got, facts.IgnoreNoMatch)
	}
}

func TestHeadlineByScore(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, out, want string }{
		{"codex wrapper", "Chunk ID: 97879c\nWall time: 0.05 seconds\nProcess exited with code 1\nOriginal token count: 12\nOutput:\nTotal output lines: 3\nsrc/a.ts(3,1): error TS2322: Type 'x'", "src/a.ts(3,1): error TS2322: Type 'x'"},
		{"pass lines skipped", "check yaml........Passed\ncheck toml........Passed\nruff..............Failed\n- hook id: ruff", "ruff..............Failed"},
		{"final exception", "Traceback (most recent call last):\n  File \"a.py\", line 1\nImportError: no module x\n\nDuring handling...\nRuntimeError: boom", "RuntimeError: boom"},
		{"pytest assertion", "=== test session starts ===\ntests/a.py::t PASSED\n>       assert 1 == 2\nE       assert 1 == 2\nFAILED tests/a.py::u - assert 1 == 2", "FAILED tests/a.py::u - assert 1 == 2"},
		{"console prefix", "Error: ============ test session starts ============\nE   ModuleNotFoundError: No module named 'x'", "E   ModuleNotFoundError: No module named 'x'"},
	}
	for _, tt := range tests {
		if got := facts.ErrorMessage(tt.out); got != tt.want {
			t.Errorf("%s: headline = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestSuiteCovers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		broad, narrow string
		want          bool
	}{
		{"go test ./...", "go test ./pkg -run TestX", true},
		{"go test ./pkg/...", "go test ./pkg/sub", true},
		{"go test ./other", "go test ./pkg", false},
		{"pytest", "pytest tests/test_a.py::test_one", true},
		{"python -m pytest tests", "pytest tests/test_a.py", true},
		{"pytest -k foo", "pytest tests/test_a.py", false},
		{"npm test", "npm test -- src/a.test.ts", true},
		{"cargo test", "cargo test parse::", true},
		{"make test", "go test ./...", false},
	}
	for _, tt := range tests {
		if got := facts.SuiteCovers(tt.broad, tt.narrow); got != tt.want {
			t.Errorf("suiteCovers(%q, %q) = %v, want %v", tt.broad, tt.narrow, got, tt.want)
		}
	}
}

func TestProgramKeyNormalisesFlags(t *testing.T) {
	t.Parallel()
	a := facts.ProgramKey("cd /x && export PATH=/y:$PATH && gcc -I include test.c build/lib.a -lm -o t")
	b := facts.ProgramKey("gcc -O2 test.c build/lib.a -o t")
	if a == "" || a != b {
		t.Errorf("keys %q and %q differ", a, b)
	}
	if c := facts.ProgramKey("gcc other.c"); c == a {
		t.Errorf("another target shares key %q", c)
	}
}

func unresolvedOf(f facts.Facts) map[string]bool {
	out := map[string]bool{}
	for _, e := range f.Errors {
		if e.Resolution == handoff.ResolutionUnresolved {
			out[e.Command] = true
		}
	}
	return out
}

func TestResolutionEvidence(t *testing.T) {
	t.Parallel()
	c := sessiontest.NewConvo(t)
	c.User("fix it")
	c.Bash("Compile the probe.", "gcc -I inc probe.c -o probe", "probe.c:3:1: error: expected ';'", 1)
	c.Bash("", "gcc -O2 probe.c -o probe", "", 0) // same program + target, other flags
	c.Bash("Run one test.", "go test ./store -run TestPut", "--- FAIL: TestPut (0.00s)\nFAIL", 1)
	c.Bash("", "go test ./...", "ok  \tx/store\t0.1s", 0) // covering suite
	c.Bash("Lint.", "ruff check app/views.py", "app/views.py:3:1: F401 unused import", 1)
	c.Result(c.Call("", "Edit", map[string]string{"file_path": "/r/app/views.py", "old_string": "a", "new_string": "b"}), "ok", false, -1)
	c.Bash("", "python -m app.views", "", 0) // after an edit of the named file
	c.Bash("Install.", "pip install cupy", "error: externally-managed-environment", 1)
	c.Say("That is fixed now by the venv. Moving on.")
	c.Bash("Fetch.", "curl -fsS https://example.test/x", "curl: (6) Could not resolve host", 1)
	c.Say("The host is unreachable, so I'll use the vendored copy instead.")
	c.Bash("", "cp vendor/x .", "", 0)
	c.Bash("Now deploy the manifest to the cluster.", "kubectl apply -f k.yaml", "error: You must be logged in to the server", 1)
	c.Say("Login is needed. I cannot continue without credentials.")
	f := facts.Compute(c.Msgs)
	byCmd := map[string]handoff.ErrorRecord{}
	for _, e := range f.Errors {
		byCmd[e.Command] = e
	}
	want := map[string]handoff.Resolution{
		"gcc -I inc probe.c -o probe":      handoff.ResolutionFixed,
		"go test ./store -run TestPut":     handoff.ResolutionFixed,
		"ruff check app/views.py":          handoff.ResolutionFixed,
		"pip install cupy":                 handoff.ResolutionFixed,
		"curl -fsS https://example.test/x": handoff.ResolutionWorkaround,
		"kubectl apply -f k.yaml":          handoff.ResolutionUnresolved,
	}
	for cmd, res := range want {
		if e, ok := byCmd[cmd]; !ok || e.Resolution != res {
			t.Errorf("%s: %+v, want %s", cmd, e, res)
		}
	}
	if e := byCmd["curl -fsS https://example.test/x"]; e.ResolutionNotes == "" || e.ResolvedBy == nil {
		t.Errorf("workaround has no notes or resolver: %+v", e)
	}
	k := byCmd["kubectl apply -f k.yaml"]
	if k.Context != "Now deploy the manifest to the cluster." || k.ResolutionNotes != "Login is needed. I cannot continue without credentials." {
		t.Errorf("open error context/notes = %q / %q", k.Context, k.ResolutionNotes)
	}
	if f.Errors[0].Command != "kubectl apply -f k.yaml" {
		t.Errorf("errors not newest first: %q first", f.Errors[0].Command)
	}
}

func TestNonErrorsNotRecorded(t *testing.T) {
	t.Parallel()
	c := sessiontest.NewConvo(t)
	c.Bash("", "rg -n TODO src", "", 1)
	c.Bash("", "which nvcc", "", 1)
	c.Bash("", "rm -rf /", "The user doesn't want to proceed with this tool use.", 1)
	c.Result(c.Call("", "Write", map[string]string{"file_path": "a.go", "content": "x"}), "File has not been read yet. Read it first before writing to it.", true, -1)
	f := facts.Compute(c.Msgs)
	if len(f.Errors) != 0 {
		t.Errorf("errors = %+v, want none", f.Errors)
	}
	if want := map[string]int{facts.IgnoreNoMatch: 1, facts.IgnoreProbe: 1, facts.IgnoreRejected: 1, facts.IgnoreHarness: 1}; !reflect.DeepEqual(f.Ignored, want) {
		t.Errorf("ignored = %v, want %v", f.Ignored, want)
	}
}

func TestWriteStdinContinuesExecCommand(t *testing.T) {
	t.Parallel()
	c := sessiontest.NewConvo(t)
	id := c.Call("", "exec_command", map[string]any{"cmd": "pnpm vitest run"})
	c.Result(id, "Chunk ID: 1\nWall time: 10 seconds\nProcess running with session ID 42\nOriginal token count: 3\nOutput:\nRUN v1", false, -1)
	id2 := c.Call("", "write_stdin", map[string]any{"session_id": 42, "chars": ""})
	c.Result(id2, "Chunk ID: 2\nWall time: 3 seconds\nProcess exited with code 1\nOutput:\n ❯ src/a.test.ts (4 tests | 2 failed) 10ms\nTest Files  1 failed (1)", false, -1)
	f := facts.Compute(c.Msgs)
	if len(f.Errors) != 1 || f.Errors[0].Command != "pnpm vitest run" || f.Errors[0].Type != "test_failure" {
		t.Fatalf("errors = %+v, want one test failure of the exec_command", f.Errors)
	}
	if f.TestState == nil || f.TestState.Command != "pnpm vitest run" || f.TestState.Status != handoff.TestsFailing {
		t.Errorf("test state = %+v", f.TestState)
	}
}

func TestTextFormatsEditsTodosCommits(t *testing.T) {
	t.Parallel()
	c := sessiontest.NewConvo(t)
	c.User("add scripts")
	c.Say("Here are the *SEARCH/REPLACE* blocks:\n\nsync.sh\n```bash\n<<<<<<< SEARCH\n=======\necho hi\n>>>>>>> REPLACE\n```\n\nsrc/app.ts\n```typescript\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```")
	c.Push(handoff.Message{Role: handoff.RoleSystem, Meta: true, Text: "Applied edit to sync.sh\nApplied edit to src/app.ts\nApplied edit to notes.md\nCommit dde0244 feat: add sync script"})
	c.Result(c.Call("", "Update", map[string]string{"summary": "specs/cli_spec.py"}), "Updated specs/cli_spec.py with 2 additions", false, -1)
	c.Push(handoff.Message{Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{{Name: "TodoWrite", Content: "☒ Write failing test\n   ◼ Make it pass\n   ☐ Refactor"}}})
	c.Bash("", "git commit -am 'fix: parse dates'", "[feature/dates 1a2b3c4] fix: parse dates\n 1 file changed", 0)
	f := facts.Compute(c.Msgs)
	var paths []string
	for _, fc := range f.FilesModified {
		paths = append(paths, fc.Path)
	}
	if want := []string{"sync.sh", "src/app.ts", "notes.md", "specs/cli_spec.py"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("files = %q, want %q", paths, want)
	}
	if f.FilesModified[0].Edits != 1 {
		t.Errorf("sync.sh counted %d times, want once", f.FilesModified[0].Edits)
	}
	if len(f.Tasks) != 3 || f.Tasks[1].Status != handoff.TaskInProgress || f.Tasks[0].Status != handoff.TaskCompleted || f.CurrentTaskID != "2" {
		t.Errorf("tasks = %+v", f.Tasks)
	}
	if len(f.Commits) != 2 || f.Commits[0].Hash != "dde0244" || f.Commits[1].Hash != "1a2b3c4" || f.Commits[1].Message != "fix: parse dates" || f.Branch != "feature/dates" {
		t.Errorf("commits = %+v branch %q", f.Commits, f.Branch)
	}
}

func TestTestRunnersRecognised(t *testing.T) {
	t.Parallel()
	for _, cmd := range []string{"python manage.py test", "bundle exec rspec spec/a_spec.rb", "xcodebuild -scheme App test", "swift test", "npm run test:unit", "pnpm test", "make test-integration"} {
		if !facts.IsTestCommand(cmd) {
			t.Errorf("isTestCommand(%q) = false", cmd)
		}
	}
	r := handoff.ToolResult{Content: "....\n9 passed, 1 skipped in 0.4s"}
	if ts := facts.TestState("pytest", r, false, handoff.Message{}); ts.Status != handoff.TestsPassing || ts.Summary != "9 passed, 1 skipped in 0.4s" {
		t.Errorf("pytest summary = %+v", ts)
	}
	r = handoff.ToolResult{Content: "Finished in 0.1s\n3 examples, 1 failure\n\nrspec ./spec/a_spec.rb:4 # A works"}
	if ts := facts.TestState("rspec", r, false, handoff.Message{}); ts.Status != handoff.TestsFailing || !reflect.DeepEqual(ts.FailingTests, []string{"./spec/a_spec.rb:4"}) {
		t.Errorf("rspec = %+v", ts)
	}
}
