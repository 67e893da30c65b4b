package facts

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

func TestNormalizeCommand(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"  go   test ./...  ", "go test ./..."},
		{"cd /home/dev/app && go test ./...", "go test ./..."},
		{`cd "/a b" && cd sub && make test`, "make test"},
		{"go test ./... 2>&1 | tail -20", "go test ./..."},
		{"go test ./... | head -n 50", "go test ./..."},
		{"npm\ttest", "npm test"},
		{"grep -r foo . | wc -l", "grep -r foo . | wc -l"},
	}
	for _, tt := range tests {
		if got := NormalizeCommand(tt.in); got != tt.want {
			t.Errorf("normalizeCommand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestIsTestCommand(t *testing.T) {
	t.Parallel()
	yes := []string{"go test ./...", "cd x && go test -run TestFoo ./pkg", "pytest -q tests/", "python -m pytest", "npm test",
		"npm run test -- --watch=false", "npx jest src", "vitest run", "cargo test", "ctest --output-on-failure", "make test",
		"mvn -q test", "./tests/run.sh", "bundle exec rspec", "vendor/bin/phpunit", "yarn test", "go test ./... 2>&1 | tail"}
	no := []string{"go build ./...", "ls tests", "cat test.go", "git commit -m 'add test'", "go vet ./..."}
	for _, c := range yes {
		if !IsTestCommand(c) {
			t.Errorf("isTestCommand(%q) = false, want true", c)
		}
	}
	for _, c := range no {
		if IsTestCommand(c) {
			t.Errorf("isTestCommand(%q) = true, want false", c)
		}
	}
}

func TestTestStateParsesRunners(t *testing.T) {
	t.Parallel()
	exit1, exit0 := 1, 0
	tests := []struct {
		name, cmd, out string
		exit           *int
		isErr          bool
		status         handoff.TestStatus
		failing        []string
		summary        string
	}{
		{"go fail", "go test ./...", "=== RUN   TestFoo\n--- FAIL: TestFoo (0.00s)\n    foo_test.go:12: got 1\n--- FAIL: TestBar/sub (0.00s)\nFAIL\nFAIL\tgithub.com/x/y\t0.012s\nok  \tgithub.com/x/z\t0.003s\n",
			&exit1, true, handoff.TestsFailing, []string{"TestFoo", "TestBar/sub"}, "ok  \tgithub.com/x/z\t0.003s"},
		{"go pass", "go test ./...", "ok  \tgithub.com/x/y\t0.012s\n", &exit0, false, handoff.TestsPassing, nil, "ok  \tgithub.com/x/y\t0.012s"},
		{"pytest", "pytest", "tests/test_a.py::test_one PASSED\nFAILED tests/test_a.py::test_two - AssertionError: 1 != 2\n==== 1 failed, 1 passed in 0.12s ====\n",
			nil, true, handoff.TestsFailing, []string{"tests/test_a.py::test_two"}, "==== 1 failed, 1 passed in 0.12s ===="},
		{"jest", "npx jest", "FAIL src/a.test.ts\n  ✕ adds numbers (3 ms)\n  ✓ subtracts (1 ms)\nTests:       1 failed, 1 passed, 2 total\n",
			nil, true, handoff.TestsFailing, []string{"adds numbers"}, "Tests:       1 failed, 1 passed, 2 total"},
		{"cargo", "cargo test", "test parse::works ... ok\ntest parse::breaks ... FAILED\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored\n",
			nil, true, handoff.TestsFailing, []string{"parse::breaks"}, "test result: FAILED. 1 passed; 1 failed; 0 ignored"},
		{"unittest", "python -m unittest", "FAIL: test_x (tests.TestX)\n----\nRan 3 tests in 0.001s\n\nFAILED (failures=1)\n",
			nil, false, handoff.TestsFailing, []string{"test_x"}, "FAILED (failures=1)"},
		{"pytest pass no exit code", "pytest", "==== 4 passed in 0.50s ====", nil, false, handoff.TestsPassing, nil, "==== 4 passed in 0.50s ===="},
		{"no signal", "make test", "building...\n", nil, false, handoff.TestsUnknown, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := handoff.ToolResult{Content: tt.out, ExitCode: tt.exit, IsError: tt.isErr}
			ts := TestState(tt.cmd, r, Failed(r), handoff.Message{Index: 4})
			if ts.Status != tt.status {
				t.Errorf("status = %s, want %s", ts.Status, tt.status)
			}
			if !reflect.DeepEqual(ts.FailingTests, tt.failing) {
				t.Errorf("failing = %q, want %q", ts.FailingTests, tt.failing)
			}
			if ts.Summary != strings.TrimSpace(tt.summary) {
				t.Errorf("summary = %q, want %q", ts.Summary, tt.summary)
			}
			if ts.Source.Index != 4 || ts.Command != tt.cmd {
				t.Errorf("source/command = %+v %q", ts.Source, ts.Command)
			}
		})
	}
}

func TestErrorMessageAndClass(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, cmd, out string
		shell          bool
		wantMsg        string
		wantType       string
	}{
		{"go build", "go build ./...", "# github.com/x/y\n./main.go:10:2: undefined: Foo\n", true, "./main.go:10:2: undefined: Foo", "build_error"},
		{"go build, module missing", "go build ./...", "# example.com/ratelimit-api/internal/api\ninternal/api/ratelimit.go:7:2: no required module provides package golang.org/x/time/rate; to add it:\n\tgo get golang.org/x/time/rate\nExit code 1", true, "internal/api/ratelimit.go:7:2: no required module provides package golang.org/x/time/rate; to add it:", "build_error"},
		{"codex exit header", "npm run lint", "Exit code: 2\nWall time: 1.2 seconds\nOutput:\n\nError: Cannot find module 'eslint'\n", true, "Error: Cannot find module 'eslint'", "command_failed"},
		{"test", "go test ./...", "--- FAIL: TestFoo (0.00s)\nFAIL\n", true, "--- FAIL: TestFoo (0.00s)", "test_failure"},
		{"tool", "Edit a.go", "<tool_use_error>String to replace not found in file.\nString: foo</tool_use_error>", false, "String to replace not found in file.", "tool_error"},
		{"empty", "false", "", true, "(no output)", "command_failed"},
		{"python traceback", "python run.py", "Traceback (most recent call last):\n  File \"run.py\", line 3\nValueError: bad value\n", true, "ValueError: bad value", "command_failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ErrorMessage(tt.out); got != tt.wantMsg {
				t.Errorf("errorMessage = %q, want %q", got, tt.wantMsg)
			}
			call := &CallInfo{Name: "Edit", Command: tt.cmd}
			if tt.shell {
				call.Name, call.Kind = "Bash", KindShell
			}
			if got := classifyError(call, tt.out); got != tt.wantType {
				t.Errorf("classifyError = %q, want %q", got, tt.wantType)
			}
		})
	}
	long := strings.Repeat("error: x ", 100)
	if n := len([]rune(ErrorMessage(long))); n > ErrorMessageLimit {
		t.Errorf("message is %d runes, limit %d", n, ErrorMessageLimit)
	}
}

func TestErrorsResolveFoldAndStayOpen(t *testing.T) {
	t.Parallel()
	c := sessiontest.NewConvo(t)
	c.User("make the build pass")
	c.Bash("Building.", "cd /home/dev/app && go build ./...", "./a.go:3: undefined: X", 1)
	c.Bash("Again.", "go build ./...", "./a.go:3: undefined: X", 1)
	c.Bash("Now with the fix.", "go  build ./... 2>&1 | tail -5", "", 0)
	c.Bash("Lint.", "golangci-lint run", "a.go:1: lint error", 1)
	c.Bash("Lint again.", "golangci-lint run", "a.go:1: lint error", 1)
	id := c.Call("Edit it.", "Edit", map[string]string{"file_path": "/home/dev/app/a.go", "old_string": "x", "new_string": "y"})
	c.Result(id, "String to replace not found in file.", true, -1)
	f := Compute(c.Msgs)
	if len(f.Errors) != 3 {
		t.Fatalf("errors = %+v, want 3", f.Errors)
	}
	edit, lint, build := f.Errors[0], f.Errors[1], f.Errors[2] // newest first
	if build.ID != "e1" || build.Resolution != handoff.ResolutionFixed || build.ResolvedBy == nil || build.ResolvedBy.Index != 6 || build.Occurrences != 2 {
		t.Errorf("build error = %+v (resolved by %+v), want fixed by message 6 after 2 occurrences", build, build.ResolvedBy)
	}
	if build.Type != "build_error" || build.Tool != "Bash" || build.Command != "cd /home/dev/app && go build ./..." || build.Source.Index != 2 {
		t.Errorf("build error fields = %+v", build)
	}
	if lint.Resolution != handoff.ResolutionUnresolved || lint.Occurrences != 2 || lint.Type != "command_failed" {
		t.Errorf("lint error = %+v, want unresolved, 2 occurrences", lint)
	}
	if edit.Type != "tool_error" || edit.Command != "Edit /home/dev/app/a.go" || edit.Resolution != handoff.ResolutionUnresolved {
		t.Errorf("edit error = %+v", edit)
	}
}

func TestTasksFromLatestPlan(t *testing.T) {
	t.Parallel()
	c := sessiontest.NewConvo(t)
	c.User("build it")
	c.Result(c.Call("", "TodoWrite", sessiontest.Todos([2]string{"old", "pending"})), "ok", false, -1)
	c.Result(c.Call("", "TodoWrite", sessiontest.Todos([2]string{"Write parser", "completed"}, [2]string{"Add tests", "in_progress"}, [2]string{"Docs", "pending"})), "ok", false, -1)
	f := Compute(c.Msgs)
	want := []handoff.Task{{ID: "1", Content: "Write parser", Status: handoff.TaskCompleted}, {ID: "2", Content: "Add tests", Status: handoff.TaskInProgress}, {ID: "3", Content: "Docs", Status: handoff.TaskPending}}
	if !reflect.DeepEqual(f.Tasks, want) || f.CurrentTaskID != "2" || f.NextTaskID != "3" {
		t.Errorf("tasks = %+v current %q next %q", f.Tasks, f.CurrentTaskID, f.NextTaskID)
	}

	codex := sessiontest.NewConvo(t)
	codex.Call("", "update_plan", map[string]any{"plan": []map[string]string{{"step": "Read code", "status": "completed"}, {"step": "Patch", "status": "pending"}}})
	f = Compute(codex.Msgs)
	if len(f.Tasks) != 2 || f.Tasks[1].Content != "Patch" || f.CurrentTaskID != "" || f.NextTaskID != "2" {
		t.Errorf("codex tasks = %+v current %q next %q", f.Tasks, f.CurrentTaskID, f.NextTaskID)
	}

	withIDs := sessiontest.NewConvo(t)
	withIDs.Call("", "TodoWrite", json.RawMessage(`{"todos":[{"id":"a7","content":"X","status":"in_progress","priority":"high"}]}`))
	f = Compute(withIDs.Msgs)
	if len(f.Tasks) != 1 || f.Tasks[0].ID != "a7" || f.Tasks[0].Priority != "high" || f.CurrentTaskID != "a7" {
		t.Errorf("tasks with ids = %+v", f.Tasks)
	}
}

func TestFilesModified(t *testing.T) {
	t.Parallel()
	c := sessiontest.NewConvo(t)
	c.Call("", "Read", map[string]string{"file_path": "/r/read_only.go"})
	c.Call("", "Edit", map[string]string{"file_path": "/r/a.go"})
	c.Call("", "MultiEdit", map[string]any{"file_path": "/r/a.go", "edits": []any{}})
	c.Call("", "Write", map[string]string{"file_path": "/r/b.go", "content": "package b"})
	c.Call("", "NotebookEdit", map[string]string{"notebook_path": "/r/n.ipynb"})
	c.Call("", "apply_patch", "*** Begin Patch\n*** Update File: src/c.rs\n@@\n-a\n+b\n*** Add File: src/d.rs\n+x\n*** Delete File: src/e.rs\n*** End Patch\n")
	c.Call("", "shell", map[string]any{"command": []string{"apply_patch", "*** Begin Patch\n*** Update File: src/f.rs\n*** End Patch"}})
	c.Call("", "Bash", map[string]string{"command": "git apply <<'EOF'\n--- a/g.txt\n+++ b/g.txt\n@@\nEOF"})
	c.Call("", "apply_patch", map[string]string{"input": "--- a/h.txt\n+++ b/h.txt\n@@ -1 +1 @@\n"})
	c.Call("", "str_replace_editor", map[string]string{"command": "create", "path": "/w/i.py"})
	c.Call("", "str_replace_editor", map[string]string{"command": "view", "path": "/w/viewed.py"})
	side := c.Call("", "Write", map[string]string{"file_path": "/r/sub.go"})
	c.Msgs[len(c.Msgs)-1].Sidechain = true
	_ = side
	f := Compute(c.Msgs)
	var paths []string
	for _, fc := range f.FilesModified {
		paths = append(paths, fc.Path)
	}
	want := []string{"/r/a.go", "/r/b.go", "/r/n.ipynb", "src/c.rs", "src/d.rs", "src/e.rs", "src/f.rs", "g.txt", "h.txt", "/w/i.py", "/r/sub.go"}
	if !reflect.DeepEqual(paths, want) {
		t.Errorf("files = %q\nwant    %q", paths, want)
	}
	if a := f.FilesModified[0]; a.Edits != 2 || !reflect.DeepEqual(a.Operations, []string{"Edit", "MultiEdit"}) {
		t.Errorf("a.go = %+v", a)
	}
	if f.ToolCalls != 12 {
		t.Errorf("tool calls = %d, want 12", f.ToolCalls)
	}
}

func TestGoalSkipsHarnessText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		msgs []handoff.Message
		want string
	}{
		{"wrappers skipped", []handoff.Message{
			{Role: handoff.RoleUser, Text: "<command-name>/init</command-name>\n<command-message>init</command-message>"},
			{Role: handoff.RoleUser, Text: "Caveat: The messages below were generated by the user while running local commands. DO NOT respond."},
			{Role: handoff.RoleUser, Text: "<local-command-stdout>done</local-command-stdout>"},
			{Role: handoff.RoleUser, Text: "skill body", Meta: true},
			{Role: handoff.RoleUser, Text: "[Request interrupted by user]"},
			{Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{{Content: "x"}}},
			{Role: handoff.RoleUser, Text: "<system-reminder>be nice</system-reminder>\nAdd rate limiting to the API."},
			{Role: handoff.RoleUser, Text: "Also add docs."},
		}, "Add rate limiting to the API."},
		{"compact summary fallback", []handoff.Message{
			{Role: handoff.RoleUser, CompactSummary: true, Text: "This session is being continued from a previous conversation.\nSummary:\n1. Primary Request and Intent:\n   Port the CLI to Go.\n   Keep flags.\n2. Key Technical Concepts:\n   - cobra"},
		}, "Port the CLI to Go.\nKeep flags."},
		{"real request beats summary", []handoff.Message{
			{Role: handoff.RoleUser, CompactSummary: true, Text: "1. Primary Request and Intent: old"},
			{Role: handoff.RoleUser, Text: "now fix the tests"},
		}, "now fix the tests"},
		{"sidechain prompt ignored", []handoff.Message{
			{Role: handoff.RoleUser, Text: "search the code", Sidechain: true},
			{Role: handoff.RoleUser, Text: "ship it"},
		}, "ship it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Compute(tt.msgs).Goal; got != tt.want {
				t.Errorf("goal = %q, want %q", got, tt.want)
			}
		})
	}
	long := strings.Repeat("word ", 400)
	f := Compute([]handoff.Message{{Role: handoff.RoleUser, Text: long}, {Role: handoff.RoleUser, Text: "last one"}})
	if n := len([]rune(f.Goal)); n > goalLimit {
		t.Errorf("goal has %d runes, limit %d", n, goalLimit)
	}
	if f.LastUserRequest != "last one" {
		t.Errorf("last request = %q", f.LastUserRequest)
	}
}

// TestFailuresThatAreNotErrors covers failures a successor has nothing to
// fix in: searches and read-only looks that found nothing (however the
// command is shaped), a cd the harness blocked, a process left running.
func TestFailuresThatAreNotErrors(t *testing.T) {
	running := func(c *sessiontest.Convo, command, out string) {
		id := c.Call("", "execute_bash", map[string]string{"command": command})
		code := -1
		c.Push(handoff.Message{Role: handoff.RoleTool, ToolResults: []handoff.ToolResult{{CallID: id, Content: out, ExitCode: &code}}})
	}
	tests := []struct {
		name  string
		build func(c *sessiontest.Convo)
		kind  string
	}{
		{"grep after a pipe, bare Error", func(c *sessiontest.Convo) {
			c.Bash("", `tail -20 build.log | grep -i "undefined\|warning"`, "Error", 1)
		}, IgnoreNoMatch},
		{"alternation inside quotes is not a pipe", func(c *sessiontest.Convo) {
			c.Bash("", `rg -n "Docker|docker" /repo/specs/plan.md`, "Chunk ID: 1\nWall time: 0.05 seconds\nProcess exited with code 1\nOriginal token count: 0\nOutput:\n", 1)
		}, IgnoreNoMatch},
		{"search and wc of a missing file, with echo", func(c *sessiontest.Convo) {
			c.Bash("", `grep -n "^## " docs/a.md | tail -15; echo "--- total lines ---"; wc -l docs/a.md`,
				"ugrep: warning: docs/a.md: No such file or directory\n--- total lines ---\nwc: docs/a.md: open: No such file or directory", 1)
		}, IgnoreNoMatch},
		{"cd blocked by the harness", func(c *sessiontest.Convo) {
			c.Bash("", "cd /tmp && wget https://example.com/a.deb", "cd to '/tmp' was blocked. For security, Claude Code may only change directories to child directories of the allowed working directories for this session.", 1)
		}, IgnoreHarness},
		{"server left serving", func(c *sessiontest.Convo) {
			running(c, "cd /workspace/app && python3 -m http.server 8000", "Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ...")
		}, ignoreRunning},
		{"harness stopped waiting", func(c *sessiontest.Convo) {
			running(c, "npm run dev", "> dev\n> vite\n[The command has no new output after 30 seconds. You may wait longer to see additional output.]")
		}, ignoreRunning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t).User("do it")
			tt.build(c)
			f := Compute(c.Msgs)
			if len(f.Errors) != 0 {
				t.Fatalf("errors = %+v, want none", f.Errors)
			}
			if f.Ignored[tt.kind] != 1 {
				t.Errorf("ignored = %v, want one %q", f.Ignored, tt.kind)
			}
		})
	}
	// A real failure is still one: a server that could not start.
	c := sessiontest.NewConvo(t).User("run it")
	c.Bash("", "python3 -m http.server 8000", "OSError: [Errno 98] Address already in use", 1)
	if f := Compute(c.Msgs); len(f.Errors) != 1 {
		t.Errorf("a server that failed to start: errors = %+v, want one", f.Errors)
	}
}

// TestErrorHeadline checks the line an error is quoted by: never a
// banner, a bare "Error" or a line of the patch being applied.
func TestErrorHeadline(t *testing.T) {
	tests := []struct{ name, out, want string }{
		{"banner", "============================= test session starts ==============================\nplatform darwin -- Python 3.13.3\ncollected 10 items\n\nspecs/library_spec.py EEEEs                                  [ 50%]\nspecs/cli_spec.py .....                                                  [100%]",
			"specs/library_spec.py EEEEs                                  [ 50%]"},
		{"bare Error", "Error", "(no output)"},
		{"patch body", "**Update: `docs/SUMMARY.md`**\n\n```diff\n@@\n ### Challenge 1\n+- **Hooks**: install callbacks; fails when the hook errors out\n-Old text that failed\n```\n\napply_patch verification failed: Failed to find expected lines in docs/SUMMARY.md",
			"apply_patch verification failed: Failed to find expected lines in docs/SUMMARY.md"},
		{"only pass lines", "=== 3 passed in 0.1s ===", "(no failing line in the output)"},
	}
	for _, tt := range tests {
		if got := ErrorMessage(tt.out); got != tt.want {
			t.Errorf("%s: errorMessage = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestCallLessEditRetryCloses: a patch the format gave no call input for
// fails, and the same tool's later patch of the same file goes through.
func TestCallLessEditRetryCloses(t *testing.T) {
	c := sessiontest.NewConvo(t).User("update the summary")
	id := c.Call("", "apply_patch", json.RawMessage(`null`))
	c.Result(id, "**Update: `docs/SUMMARY.md`**\n\n```diff\n@@\n+new line\n```\n\napply_patch verification failed: Failed to find expected lines in /home/dev/app/docs/SUMMARY.md", false, -1)
	id = c.Call("", "apply_patch", json.RawMessage(`null`))
	c.Result(id, "**Update: `docs/SUMMARY.md`**\n\n```diff\n@@\n+new line\n```", false, -1)
	f := Compute(c.Msgs)
	if len(f.Errors) != 1 || f.Errors[0].Resolution != handoff.ResolutionFixed {
		t.Fatalf("errors = %+v, want one fixed", f.Errors)
	}
}

// TestLaterEvidenceClosesErrors covers successes that answer a failure
// without repeating its exact command.
func TestLaterEvidenceClosesErrors(t *testing.T) {
	tests := []struct {
		name  string
		build func(c *sessiontest.Convo)
	}{
		{"same program and URL, other flags", func(c *sessiontest.Convo) {
			c.Bash("", "wget https://example.com/pkg/keyring_1.1-1_all.deb", "keyring_1.1-1_all.deb: Permission denied", 1)
			c.Bash("", "wget -P /tmp https://example.com/pkg/keyring_1.1-1_all.deb", "saved", 0)
		}},
		{"installed by another manager", func(c *sessiontest.Convo) {
			c.Bash("", "pip3 install --user pre-commit", "error: externally-managed-environment", 1)
			c.Bash("", "brew install pre-commit==4.2.0", "==> Pouring pre-commit--4.2.0", 0)
		}},
		{"green tests then a commit", func(c *sessiontest.Convo) {
			c.Bash("", "go build ./...", "./a.go:3:1: syntax error: unexpected }", 1)
			c.Bash("", "go test ./pkg/...", "ok  \tx/pkg\t0.1s", 0)
			c.Bash("", `git commit -am "fix build"`, "[main 1a2b3c4] fix build\n 1 file changed", 0)
		}},
		{"hook failed, then the commit went through", func(c *sessiontest.Convo) {
			c.Bash("", `git commit -m "wip"`, "ruff.....................................................................Failed\n- hook id: ruff", 1)
			c.Bash("", "ruff check --fix bookminder", "Found 2 errors (2 fixed, 0 remaining).", 0)
			c.Bash("", `git add -A && git commit -m "wip"`, "ruff.....................................................................Passed\n[main 9f8e7d6] wip", 0)
		}},
		{"the person pasted a run that worked", func(c *sessiontest.Convo) {
			c.Bash("", "npm run deploy -- --yes", "Error: GitHub CLI is not authenticated. Run: gh auth login", 1)
			c.User("me@host:~/app$ npm run deploy -- --yes\n\n> app@1.0.0 deploy\n[deploy] Applying to main...\n{\"url\": \"https://api.github.com/repos/me/app\"}\n[deploy] Done.")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t).User("do the work")
			tt.build(c)
			f := Compute(c.Msgs)
			if len(f.Errors) != 1 || f.Errors[0].Resolution != handoff.ResolutionFixed {
				t.Fatalf("errors = %+v, want one fixed", f.Errors)
			}
		})
	}
	// Not closed: a green test run without a commit leaves a build error
	// of another program open; a pasted run that failed again too.
	open := []func(c *sessiontest.Convo){
		func(c *sessiontest.Convo) {
			c.Bash("", "make install", "make: *** No rule to make target 'install'.  Stop.", 2)
			c.Bash("", "go test ./...", "ok  \tx\t0.1s", 0)
		},
		func(c *sessiontest.Convo) {
			c.Bash("", "npm run deploy -- --yes", "Error: GitHub CLI is not authenticated.", 1)
			c.User("$ npm run deploy -- --yes\nError: GitHub CLI is not authenticated.")
		},
		func(c *sessiontest.Convo) {
			c.Bash("", "wget https://example.com/a.deb", "403 Forbidden", 8)
			c.Bash("", "wget https://example.com/b.deb", "saved", 0)
		},
	}
	for i, build := range open {
		c := sessiontest.NewConvo(t).User("do the work")
		build(c)
		if f := Compute(c.Msgs); len(f.Errors) != 1 || f.Errors[0].Resolution != handoff.ResolutionUnresolved {
			t.Errorf("case %d: errors = %+v, want one unresolved", i, f.Errors)
		}
	}
}
