package rulebook

// factOutputPatterns are the facts layer's patterns that read a command
// and what it printed (exit headers, failure and pass lines, git's commit
// line, the harness's own messages), moved from the extractor verbatim;
// the extractor compiles them with Pattern, behind its own screens.
func factOutputPatterns() []Rule {
	return []Rule{
		{
			ID: "facts.trailing-cut", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches the tail a command's output is cut with (\" 2>&1 | tail -20\"), so two runs of one command compare equal; it matches the empty tail of any command, so a counter-example is one where it finds only that.",
			Pattern:  `\s*(?:2>&1\s*)?(?:\|\s*(?:head|tail)(?:\s+-n)?(?:\s+-?\d+)?\s*)?$`,
			Examples: []string{"go test ./... 2>&1 | tail -20", "make all | head -n 50"},
			Counter:  []string{"go test ./...", "grep -c FAIL build.log"},
		},
		{
			ID: "facts.failure-word", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a line that reports a failure in words: a health state, a count of failed tests or checks (not zero), a summary that some or all failed, or a line led by a cross mark.",
			Pattern:  `(?i)\bunhealthy\b|\bhealth ?check(?:s)? failed\b|\b[1-9]\d*\s+(?:tests?(?:\(s\))?|checks?|specs?|assertions?|cases?|suites?)\s+(?:have\s+|has\s+)?(?:failed|failing)\b|\b(?:tests?|checks?|assertions?)\s+failed:\s*[1-9]|\b(?:some|all)\s+(?:tests?\s+|checks?\s+)?failed\b|^\s*(?:❌|✗|✘|✖)\s*\S`,
			Examples: []string{"❌ 5 TEST(S) FAILED", "api: unhealthy", "Some tests failed."},
			Counter:  []string{"0 tests failed", "All tests passed.", "Tests failed: 0"},
		},
		{
			ID: "facts.check-error", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a line in which a build, compiler, linter or typesetter reports an error, in the forms the common tools print.",
			Pattern:  `(?im)^\s*(?:\S+?:\d+(?::\d+)?:?\s*)?(?:fatal )?error(?:\[\w+\])?(?: TS\d+)?\s*:.*$|^.*\(\d+,\d+\): error TS\d+.*$|^npm ERR!.*$|^make(?:\[\d+\])?: \*\*\*.*$|^! (?-i:[A-Z]).*$|^.*(?:Build error occurred|Failed to compile|BUILD FAILURE|BUILD FAILED|compilation terminated|build failed).*$|^\s*⨯ .*$|^\s*(?-i:\[ERROR\]|ERROR:|FATAL:).*$|^.*: syntax error\b.*$`,
			Examples: []string{"x.c:3: error: y", "make: *** [all] Error 2", "! Undefined control sequence.", "npm ERR! code 1"},
			Counter:  []string{"terrible", "! lower", "0 errors, 2 warnings"},
		},
		{
			ID: "facts.git-commit", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches git's own summary of a new commit (\"[main 1a2b3c4] message\", also \"(root-commit)\" and a detached HEAD) and its branch, hash and message.",
			Pattern:  `(?m)^\[([^\s\]]+)(?: \(root-commit\))? ([0-9a-f]{7,40})\] (.+?)\s*$`,
			Examples: []string{"[main 1a2b3c4] fix it", "x\n[main (root-commit) 1a2b3c4] first\n", "[HEAD 0123456789abcdef] y  \n\n"},
			Counter:  []string{"[a] b", "x[main 1a2b3c4] no", "[  2%] Building C"},
		},
		{
			ID: "facts.diff-mark", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a line that says the output holds a diff or patch, whose +/- body lines are the change's text, never the failure's.",
			Pattern:  "(?m)^(?:```diff|@@|\\*\\*\\* Begin Patch|\\+\\+\\+ |--- a/)",
			Examples: []string{"x\n@@ -1 +1 @@\n", "a\n+++ b/x\n", "*** Begin Patch\n", "--- a/x"},
			Counter:  []string{" @@", "+++b", "x```diff", "--- b/x"},
		},
		{
			ID: "facts.exit-header", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches the exit-code header a format writes into a command's output (Codex's \"Exit code: 1\", \"Process exited with code 2\", \"exit_code=1\") and the code.",
			Pattern:  `(?m)^(?:Exit code:?|Process exited with code|exit_code[=:])\s*(-?\d+)\s*$`,
			Examples: []string{"Exit code: 2\nWall time: 1.2 seconds\nOutput:\n", "Process exited with code 1"},
			Counter:  []string{"The exit code was 2", "Exit code: unknown"},
		},
		{
			ID: "facts.content-fail", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches failure text where the format gives no exit flag: launch and sandbox failures, rejected patches, Python tracebacks, missing commands, compiler errors, failing tests, and a process that crashed behind a pipe that hid its exit status.",
			Pattern:  `(?m)(^exec_command failed:|SandboxDenied|Sandbox\(Denied|^apply_patch verification failed|^Traceback \(most recent call last\):|: command not found|^command not found|^zsh: command not found|^\S+:\d+(?::\d+)?: (?:fatal )?error:|^error(?:\[E\d+\])?: |^fatal: |^--- FAIL: |^FAIL(?:ED)?[: \t]|^Script failed\b|^npm ERR! |^ERR_PNPM_|^(?:malloc|free|realloc|malloc_consolidate)\(\): |^double free or corruption|^corrupted (?:size|double-linked)|(?:^|\s)(?:Aborted|Segmentation fault|Bus error|Illegal instruction|Floating point exception)\s*\(core dumped\)|^Segmentation fault\s*$)`,
			Examples: []string{"Traceback (most recent call last):\n  File \"a.py\", line 1", "bash: rg: command not found", "free(): invalid pointer\nAborted (core dumped)"},
			Counter:  []string{"ok  \texample.com/app\t0.012s", "no errors found"},
		},
		{
			ID: "facts.rejected", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a harness's note that the person rejected or interrupted a tool call.",
			Pattern:  `(?i)(doesn't want to proceed with this tool use|tool use was rejected|user rejected|rejected by (?:the )?user|user (?:denied|declined)|^No \(tell Claude what to do differently\)|^\[Request interrupted by user|operation was aborted by the user|user cancelled)`,
			Examples: []string{"The user doesn't want to proceed with this tool use. The tool use was rejected.", "[Request interrupted by user for tool use]"},
			Counter:  []string{"the server rejected the token", "File created successfully"},
		},
		{
			ID: "facts.harness", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a harness's refusal of a call for how it was made (a file not read first, an edit that changes nothing, a file too large), not a failure of the work.",
			Pattern:  `(?i)(file has not been read yet|has been modified since (?:it was )?(?:last )?read|no changes to make: old_string and new_string are (?:exactly )?the same|exceeds maximum allowed tokens|<tool_use_error>InputValidationError|file (?:is )?too large to read|^Error: Error$|^(?:ERROR: )?cd to '[^']*' was blocked)`,
			Examples: []string{"<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>", "No changes to make: old_string and new_string are exactly the same."},
			Counter:  []string{"Error: Cannot find module 'eslint'", "The file has been updated."},
		},
		{
			ID: "facts.harness-api", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches the harness's own failure answering a slash command or a call: its compaction or its model request failed.",
			Pattern:  `(?i)^(?:Error:\s*)*(?:Error during compaction\b|API Error\b|Request was aborted\b|Error compacting conversation\b)`,
			Examples: []string{`API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, "Error: Error during compaction: Conversation too long"},
			Counter:  []string{"The API error is fixed now.", "Error: Cannot find module 'eslint'"},
		},
		{
			ID: "facts.running", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches output of a process that is still up when the harness stops waiting: a server announcing where it listens, or the harness's own note that the command went quiet.",
			Pattern:  `(?i)(no new output after \d+ seconds|command (?:is )?still running|^serving (?:http )?on\b|\blistening on\b|\bserver (?:is )?(?:running|listening|started) (?:on|at)\b|^\s*(?:➜\s*)?local:\s+https?://|\bready in \d+)`,
			Examples: []string{"Server listening on :8080", "  ➜  Local:   http://localhost:5173/", "VITE v5.0.0  ready in 312 ms"},
			Counter:  []string{"the server stopped", "ok  \texample.com/app\t0.012s"},
		},
		{
			ID: "facts.missing-path", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a complaint that a path does not exist.",
			Pattern:  `(?i)(no such file or directory|cannot access|does not exist|not found|cannot find the path)`,
			Examples: []string{"ls: cannot access 'dist': No such file or directory", "error: pathspec 'x' did not match any file(s) known to git; path does not exist"},
			Counter:  []string{"File created successfully", "found 3 files"},
		},
		{
			ID: "facts.wrapper-line", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a line a harness wraps a command's output in (Codex's \"Chunk ID\", \"Wall time\", \"Exit code\", \"Output:\", a fence, stdout/stderr labels), never the command's own words.",
			Pattern:  `(?i)^(?:chunk id:.*|wall time:?.*|exit code:? -?\d+|process exited with code -?\d+|process running with session id \d+|original token count:.*|total output lines:.*|output:|command exited with.*|\[?stderr\]?:?|\[?stdout\]?:?|` + "```\\w*" + `|script (?:completed|failed)|<\/?tool_use_error>)$`,
			Examples: []string{"Wall time: 1.2 seconds", "Output:", "```bash"},
			Counter:  []string{"Error: Cannot find module 'eslint'", "exit code was 1"},
		},
		{
			ID: "facts.build-error", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches output that says code did not build: a compiler's error forms and the build tools' summaries.",
			Pattern:  `(?i)(undefined: |cannot use |syntax error|error\[E\d+\]|error TS\d+|compilation (?:failed|terminated)|build failed|cannot find package|could not compile|does not compile|undefined reference to|no required module provides|expected ['"]?[;)}\]]|imported and not used|declared and not used|\.go:\d+:\d+: |\.\w+:\d+:\d+: (?:fatal )?error:)`,
			Examples: []string{"internal/api/ratelimit.go:7:2: no required module provides package golang.org/x/time/rate; to add it:", "main.c:(.text+0x1f): undefined reference to `foo_bar'"},
			Counter:  []string{"Error: Cannot find module 'eslint'", "FAILED tests/t.py::test_x - AssertionError"},
		},
		{
			ID: "facts.exception-line", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a line that names a raised exception or error type (\"ValueError: bad\", \"java.lang.NullPointerException\").",
			Pattern:  `^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure)\b(?::|$)`,
			Examples: []string{"ValueError: invalid literal for int()", "java.lang.NullPointerException", "KeyboardInterrupt"},
			Counter:  []string{"  raise ValueError(x)", "valueError: lower"},
		},
		{
			ID: "facts.compiler-line", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a line in a compiler's or a shell's error form (\"file:1: error:\", \"error TS2322\", \"panic: \", \"command not found\").",
			Pattern:  `(?i)(?:^|: )(?:fatal )?error(?:\[\w+\])?:|^error TS\d+|\berror TS\d+:|^panic: |^fatal: |undefined reference to|: command not found|command not found:`,
			Examples: []string{"main.c:3:5: error: expected ';'", "panic: runtime error: index out of range", "bash: rg: command not found"},
			Counter:  []string{"no errors found", "Error handling is done in run()"},
		},
		{
			ID: "facts.assert-line", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a line of a failed assertion: pytest's \"E \" lines, an AssertionError, a test runner's Expected/Received.",
			Pattern:  `^E\s+\S|AssertionError|assert(?:ion)? failed|^\s*Expected\b|^\s*Received\b|expected .* (?:to|but) `,
			Examples: []string{"E       assert 2 == 3", "    Expected: 3", "expected 2 to equal 3"},
			Counter:  []string{"Everything passed", "as expected"},
		},
		{
			ID: "facts.fail-test-line", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a line in which a test runner names a failing test (go's \"--- FAIL:\", pytest's \"FAILED \", jest's \"✕ \", cargo's \"test x ... FAILED\").",
			Pattern:  `^--- FAIL: |^FAILED |^FAIL[: \t]|^[✕×✗] |\(\d+ tests? \| \d+ failed\)| FAILED$|^test \S+ \.\.\. FAILED|^ERROR: test|^\d+\) `,
			Examples: []string{"--- FAIL: TestParse (0.00s)", "FAILED tests/t.py::test_x - AssertionError", "test parser::tests::empty ... FAILED"},
			Counter:  []string{"--- PASS: TestParse (0.00s)", "no tests failed"},
		},
		{
			ID: "facts.pass-line", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a line in which a test runner or check says it passed.",
			Pattern:  `(?i)(^ok\s|^pass(?:ed)?\b|^--- PASS|^\s*[✓✔√] |\.{3,}\s*(?:passed|skipped)|\(no files to check\)\s*skipped$|\b0 (?:failed|errors?|failures)\b.*\bpassed\b|^=+ \d+ passed|^tests?:\s+\d+ passed,?\s+\d+ total$|^test result: ok)`,
			Examples: []string{"ok  \texample.com/app\t0.012s", "--- PASS: TestParse (0.00s)", "test result: ok. 4 passed; 0 failed"},
			Counter:  []string{"--- FAIL: TestParse (0.00s)", "okay, running it"},
		},
		{
			ID: "facts.keyword-line", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a line with a word of failure in it (error, fail, panic, denied, not found, timed out, …), the weakest sign a line explains a failure.",
			Pattern:  `(?i)(error|fail|fatal|panic|exception|denied|not found|no such file|cannot|can't|unable to|invalid|refused|timed? ?out|undefined|unexpected|missing|rejected|conflict|permission)`,
			Examples: []string{"Permission denied (publickey).", "connection timed out"},
			Counter:  []string{"Compiling app v0.1.0", "ok  \texample.com/app\t0.012s"},
		},
		{
			ID: "facts.notice-line", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a tool's notice, warning or hint line (\"[notice] A new release of pip\", \"npm warn\", \"hint:\"), which is not the failure.",
			Pattern:  `(?i)^(?:\[notice\]|warning:|npm warn|deprecat|hint:)`,
			Examples: []string{"[notice] A new release of pip is available: 23.0 -> 24.0", "hint: Updates were rejected because the remote contains work"},
			Counter:  []string{"error: failed to push some refs", "a warning: here"},
		},
	}
}
