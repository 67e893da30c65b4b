package extractor

import (
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/handoff-cli/handoff"
)

// Failures that are not problems for a successor are not recorded as
// errors; Facts.Ignored counts them by kind:
//
//   - ignoreNoMatch: a search (grep, rg, find, …) that found nothing;
//   - ignoreProbe: a check whose failure is its answer (which, command -v,
//     test -f, [ -e, ls or a read of a missing path, --version, git diff
//     --exit-code);
//   - ignoreRejected: the person declined or interrupted the tool call;
//   - ignoreHarness: the harness refusing a call on procedure ("File has
//     not been read yet", "old_string and new_string are the same", a
//     `cd` outside the allowed directories that it blocked), or failing
//     itself: a compaction or a model API request that failed or was
//     aborted is the harness's trouble, not the project's;
//   - ignoreRunning: a process the harness stopped waiting for while it
//     was still running (a server left serving, "no new output after N
//     seconds"): it did not fail, it was left running.
const (
	ignoreNoMatch  = "no_match"
	ignoreProbe    = "probe"
	ignoreRejected = "rejected"
	ignoreHarness  = "harness"
	ignoreRunning  = "running"
)

var (
	exitHeaderRe = gated(`(?m)^(?:Exit code:?|Process exited with code|exit_code[=:])\s*(-?\d+)\s*$`)
	// contentFailRe recognises failure text where the format gives no
	// exit flag: launch and sandbox failures, rejected patches, Python
	// tracebacks, missing commands, compiler errors, failing tests, and a
	// process that crashed (glibc's heap checks, a signal's core dump)
	// behind a pipe that hid its exit status.
	contentFailRe = gated(`(?m)(^exec_command failed:|SandboxDenied|Sandbox\(Denied|^apply_patch verification failed|^Traceback \(most recent call last\):|: command not found|^command not found|^zsh: command not found|^\S+:\d+(?::\d+)?: (?:fatal )?error:|^error(?:\[E\d+\])?: |^fatal: |^--- FAIL: |^FAIL(?:ED)?[: \t]|^Script failed\b|^npm ERR! |^ERR_PNPM_|^(?:malloc|free|realloc|malloc_consolidate)\(\): |^double free or corruption|^corrupted (?:size|double-linked)|(?:^|\s)(?:Aborted|Segmentation fault|Bus error|Illegal instruction|Floating point exception)\s*\(core dumped\)|^Segmentation fault\s*$)`)
	rejectedRe    = gated(`(?i)(doesn't want to proceed with this tool use|tool use was rejected|user rejected|rejected by (?:the )?user|user (?:denied|declined)|^No \(tell Claude what to do differently\)|^\[Request interrupted by user|operation was aborted by the user|user cancelled)`)
	harnessRe     = gated(`(?i)(file has not been read yet|has been modified since (?:it was )?(?:last )?read|no changes to make: old_string and new_string are (?:exactly )?the same|exceeds maximum allowed tokens|<tool_use_error>InputValidationError|file (?:is )?too large to read|^Error: Error$|^(?:ERROR: )?cd to '[^']*' was blocked)`)
	// harnessAPIRe is the harness's own failure, answering a slash
	// command or a call: its compaction or its model request failed.
	harnessAPIRe = gated(`(?i)^(?:Error:\s*)*(?:Error during compaction\b|API Error\b|Request was aborted\b|Error compacting conversation\b)`)
	// runningRe is output of a process that is still up when the harness
	// stops waiting: a server announcing where it listens, or the
	// harness's own note that the command went quiet.
	runningRe = gated(`(?i)(no new output after \d+ seconds|command (?:is )?still running|^serving (?:http )?on\b|\blistening on\b|\bserver (?:is )?(?:running|listening|started) (?:on|at)\b|^\s*(?:➜\s*)?local:\s+https?://|\bready in \d+)`)
	// probeWarnRe is a search or read-only tool's own complaint about a
	// path it was given ("grep: x: No such file or directory", "ugrep:
	// warning: …", "wc: x: open: …").
	probeWarnRe   = lazyRE(`(?i)^(?:grep|egrep|fgrep|rg|ugrep|ag|ack|find|fd|ls|cat|head|tail|wc|stat|file|nl|sed):\s`)
	missingPathRe = gated(`(?i)(no such file or directory|cannot access|does not exist|not found|cannot find the path)`)
	wrapperLineRe = gated(`(?i)^(?:chunk id:.*|wall time:?.*|exit code:? -?\d+|process exited with code -?\d+|process running with session id \d+|original token count:.*|total output lines:.*|output:|command exited with.*|\[?stderr\]?:?|\[?stdout\]?:?|` + "```\\w*" + `|script (?:completed|failed)|<\/?tool_use_error>)$`)
)

// exitCode returns the result's exit code: the format's own, else the one
// a Codex header states.
func exitCode(r handoff.ToolResult) (int, bool) {
	if r.ExitCode != nil {
		return *r.ExitCode, true
	}
	// Most results name no exit code: the gate's substring search
	// answers for them without the regexp.
	if head := headOf(r.Content, 600); exitHeaderRe.mayMatch(head) {
		if m := exitHeaderRe.FindStringSubmatch(head); m != nil {
			n, err := strconv.Atoi(m[1])
			return n, err == nil
		}
	}
	return 0, false
}

// failed judges a result: the format's error flag or exit code when it has
// one, the content's shape when it has none.
func failed(r handoff.ToolResult) bool {
	if r.IsError {
		return true
	}
	if code, ok := exitCode(r); ok {
		return code != 0
	}
	return contentFailRe.MatchString(r.Content)
}

// outputBody is a result's text without wrapper headers and blank lines.
//
// A bare "Error" is how Claude Code reports a non-zero exit that printed
// nothing, so it is no output at all.
func outputBody(content string) []string {
	if _, out, ok := specStoryShell(content); ok {
		content = out
	}
	content = strings.TrimPrefix(strings.TrimSpace(content), "Error: ")
	if content == "Error" {
		return nil
	}
	var lines []string
	wrappers := wrapperLineRe.mayMatch(content) // else no line is one
	for _, l := range strings.Split(content, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || (wrappers && wrapperLineRe.MatchString(l)) {
			continue
		}
		lines = append(lines, l)
	}
	if gemShellFramed(content) {
		lines = gemShellLines(lines)
	}
	return lines
}

// ignoredKind says why a failure is not an error for a successor, or ""
// when it is one.
func ignoredKind(call *callInfo, content string) string {
	return ignoredResult(call, handoff.ToolResult{Content: content})
}

// ignoredResult is ignoredKind with the result's exit code, which tells a
// process left running (-1) from one that failed.
func ignoredResult(call *callInfo, r handoff.ToolResult) string {
	content := r.Content
	head := strings.TrimSpace(headOf(content, 2000))
	head = strings.TrimPrefix(head, "Error: ")
	if rejectedRe.MatchString(head) {
		return ignoreRejected
	}
	if harnessRe.MatchString(head) || harnessAPIRe.MatchString(head) {
		return ignoreHarness
	}
	body := outputBody(content)
	// A look that found nothing, whatever shape the command had; a
	// single probe program is judged more finely below.
	looked := ""
	if probesMissing(call, content, body) {
		looked = ignoreNoMatch
	}
	if call == nil {
		return looked
	}
	if code, ok := exitCode(r); ok && code == -1 && runningRe.MatchString(headOf(content, 4000)) {
		return ignoreRunning
	}
	if !call.shell() {
		// A read of a missing file is a probe too.
		if len(body) <= 2 && strings.Contains(strings.ToLower(strings.Join(body, " ")), "does not exist") && strings.HasPrefix(strings.ToLower(call.Name), "read") {
			return ignoreProbe
		}
		return looked
	}
	segs := segments(normalizeCommand(call.command))
	if noMatchLast(segs, r, body) {
		return ignoreNoMatch
	}
	if len(segs) != 1 {
		return looked
	}
	pipeline := splitUnquoted(segs[0], '|')
	last := strings.Fields(pipeline[len(pipeline)-1])
	first := strings.Fields(pipeline[0])
	if len(first) == 0 || len(last) == 0 {
		return looked
	}
	allMissing := len(body) > 0
	for _, l := range body {
		if !missingPathRe.MatchString(l) {
			allMissing = false
			break
		}
	}
	switch prog := path.Base(last[0]); prog {
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "find", "fd", "git":
		if prog == "git" && (len(last) < 2 || last[1] != "grep") {
			break
		}
		if len(body) == 0 || allMissing {
			return ignoreNoMatch
		}
	}
	switch path.Base(first[0]) {
	case "which", "type", "test", "[", "[[", "pgrep", "cmp", "stat", "file", "command", "hash":
		return ignoreProbe
	case "ls", "cat", "head", "tail", "sed", "nl", "wc", "less", "tree":
		if allMissing {
			return ignoreProbe
		}
	case "git":
		if strings.Contains(segs[0], "--exit-code") || strings.Contains(segs[0], "--quiet") || strings.Contains(segs[0], "--verify") {
			return ignoreProbe
		}
	case "diff":
		if strings.Contains(segs[0], " -q") {
			return ignoreProbe
		}
	}
	if len(first) == 2 && (first[1] == "--version" || first[1] == "-v" || first[1] == "-V" || first[1] == "version") {
		return ignoreProbe
	}
	if len(first) == 4 && first[1] == "-m" && (first[3] == "--version" || first[3] == "-V") {
		return ignoreProbe
	}
	return looked
}

// noMatchLast reports a chain whose last stage is a search (grep, rg,
// git grep) that printed nothing and exited 1: grep's "no line matched",
// which is the answer the chain asked for (`make … && grep undefined
// log`: no undefined references), not a failure. Exit 2 and up is a
// search error; a chain of one segment is judged by ignoredResult.
func noMatchLast(segs []string, r handoff.ToolResult, body []string) bool {
	if len(segs) < 2 || len(body) > 0 {
		return false
	}
	if code, ok := exitCode(r); ok && code != 1 {
		return false
	}
	pipeline := splitUnquoted(segs[len(segs)-1], '|')
	last := strings.Fields(pipeline[len(pipeline)-1])
	if len(last) == 0 {
		return false
	}
	switch path.Base(last[0]) {
	case "grep", "egrep", "fgrep", "rg":
		return true
	case "git":
		return len(last) > 1 && last[1] == "grep"
	}
	return false
}

// splitUnquoted splits s at sep where sep is outside quotes, so the
// alternation in `rg "a|b" dir` is not read as a pipe.
func splitUnquoted(s string, sep byte) []string {
	var out []string
	var quote byte
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '\\':
			i++
		case c == sep:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// probesMissing reports output that only says that paths a search or
// read-only tool was given do not exist, apart from text the command
// echoes itself: a look that found nothing, in any number of segments.
func probesMissing(call *callInfo, content string, body []string) bool {
	cmd := ""
	if call != nil {
		cmd = call.command
	}
	if c, _, ok := specStoryShell(content); ok {
		cmd = c
	}
	missing := 0
	for _, l := range body {
		switch {
		case probeWarnRe.MatchString(l) && missingPathRe.MatchString(l):
			missing++
		case cmd != "" && strings.Contains(cmd, l):
		default:
			return false
		}
	}
	return missing > 0
}

var segSplitRe = lazyRE(`\s*(?:&&|\|\||;|\n)\s*`)

// segments splits a command into its sequential parts, without those that
// only set up the environment (cd, export, source, mkdir -p, set).
func segments(cmd string) []string {
	var out []string
	for _, s := range segSplitRe.Split(cmd, -1) {
		s = strings.TrimSpace(s)
		f := strings.Fields(s)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "cd", "export", "source", ".", "set", "pushd", "popd", "mkdir", "unset", "true", "rm", "echo", "clear", "sleep", "printf":
			continue
		}
		out = append(out, s)
	}
	return out
}

// programFields is the words of the program a command runs and its
// arguments: the last segment of a chain (what the chain is for), before
// any pipe, with environment assignments and wrappers (timeout 30, sudo)
// skipped.
func programFields(cmd string) []string {
	segs := segments(normalizeCommand(cmd))
	if len(segs) == 0 {
		return nil
	}
	seg, _, _ := strings.Cut(segs[len(segs)-1], "|")
	f := strings.Fields(seg)
	for len(f) > 0 && (strings.Contains(f[0], "=") || isWrapper(f[0])) {
		if f[0] == "timeout" && len(f) > 1 {
			f = f[1:]
		}
		f = f[1:]
	}
	return f
}

// programKey is the program a command runs and what it runs on, with flags
// dropped: "gcc -I inc a.c -o a" and "gcc a.c -O2 -o a" share "gcc a.c a".
// Environment assignments and wrappers (timeout, sudo) are skipped; the
// last real segment of a chain, what the chain is for, decides.
func programKey(cmd string) string {
	f := programFields(cmd)
	if len(f) == 0 {
		return ""
	}
	key := []string{path.Base(f[0])}
	if len(f) > 1 && isWord(f[1]) {
		key = append(key, f[1])
	}
	files := 0
	for _, a := range f[1:] {
		if strings.HasPrefix(a, "-") || !(strings.Contains(a, ".") || strings.Contains(a, "/")) {
			continue
		}
		key = append(key, strings.Trim(a, `"'`))
		if files++; files == 2 {
			break
		}
	}
	return strings.Join(key, " ")
}

func isWrapper(w string) bool {
	switch w {
	case "sudo", "time", "timeout", "env", "nohup", "exec", "npx", "bunx", "uvx":
		return true
	}
	return false
}

var wordRe = lazyRE(`^[A-Za-z][\w:-]*$`)

func isWord(s string) bool { return wordRe.MatchString(s) }

// helpOnly reports a run that only prints help or a version, which
// proves nothing about an earlier failure.
func helpOnly(cmd string) bool {
	for _, f := range strings.Fields(cmd) {
		switch f {
		case "--help", "-h", "--version", "-V", "help":
			return true
		}
	}
	return false
}

var (
	exceptionLineRe = gated(`^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure)\b(?::|$)`)
	compilerLineRe  = gated(`(?i)(?:^|: )(?:fatal )?error(?:\[\w+\])?:|^error TS\d+|\berror TS\d+:|^panic: |^fatal: |undefined reference to|: command not found|command not found:`)
	assertLineRe    = gated(`^E\s+\S|AssertionError|assert(?:ion)? failed|^\s*Expected\b|^\s*Received\b|expected .* (?:to|but) `)
	failTestLineRe  = gated(`^--- FAIL: |^FAILED |^FAIL[: \t]|^[✕×✗] |\(\d+ tests? \| \d+ failed\)| FAILED$|^test \S+ \.\.\. FAILED|^ERROR: test|^\d+\) `)
	passLineRe      = gated(`(?i)(^ok\s|^pass(?:ed)?\b|^--- PASS|^\s*[✓✔√] |\.{3,}\s*(?:passed|skipped)|\(no files to check\)\s*skipped$|\b0 (?:failed|errors?|failures)\b.*\bpassed\b|^=+ \d+ passed|^tests?:\s+\d+ passed,?\s+\d+ total$|^test result: ok)`)
	keywordLineRe   = gated(`(?i)(error|fail|fatal|panic|exception|denied|not found|no such file|cannot|can't|unable to|invalid|refused|timed? ?out|undefined|unexpected|missing|rejected|conflict|permission)`)
	noticeLineRe    = gated(`(?i)^(?:\[notice\]|warning:|npm warn|deprecat|hint:)`)
	// bannerLineRe is a runner's section header ("=== test session starts
	// ===", "----- Captured stdout -----"): it frames output, it never
	// says what went wrong.
	bannerLineRe = lazyRE(`^[=\-_*#~]{3,}\s*[^=\-]*?\s*[=\-_*#~]{3,}$`)
	// progressFailRe is a test runner's progress line with failures or
	// errors in it ("tests/a_spec.py ..FE.s [ 50%]").
	progressFailRe = lazyRE(`^\S+\s+[.sxFE]*[FE][.sxFE]*\s*(?:\[\s*\d+%\])?$`)
	// diffMarkRe says the output holds a diff or patch, whose +/- body
	// lines are the change's text, never the failure's.
	diffMarkRe     = screened("(?m)^(?:```diff|@@|\\*\\*\\* Begin Patch|\\+\\+\\+ |--- a/)", mayDiffMark)
	diffBodyLineRe = lazyRE(`^(?:[+-]$|[+-][^+-]|\+-|-\+|\+\+[^+]|--[^-])`)
)

// scoredPrefix is how much of a line lineScore reads.
const scoredPrefix = 400

// lineScore rates how much a line of failure output tells a successor;
// zero means never a headline.
func lineScore(l string) int { return everyLine.score(l) }

// lineScorer is lineScore for the lines of one output. A gated pattern
// none of whose literals the whole output holds matches none of its
// lines, so it is left out of every line's score (its flag false): one
// substring search of the output instead of one per line, with the same
// score for every line of it.
type lineScorer struct {
	pass, exception, compiler, failTest, assert, notice, keyword bool
}

// everyLine is the lineScorer that tries every pattern.
var everyLine = lineScorer{true, true, true, true, true, true, true}

// scorerFor is the lineScorer for lines taken from text.
func scorerFor(text string) lineScorer {
	var lower lowered
	may := func(g gatedRegexp) bool { return g.gate().mayMatchWith(text, &lower) }
	return lineScorer{
		pass: may(passLineRe), exception: may(exceptionLineRe), compiler: may(compilerLineRe),
		failTest: may(failTestLineRe), assert: may(assertLineRe), notice: may(noticeLineRe), keyword: may(keywordLineRe),
	}
}

// score is lineScore(l), trying only the patterns sc keeps.
func (sc lineScorer) score(l string) int {
	if (sc.pass && passLineRe.MatchString(l)) || strings.Trim(l, "=-_*#~^ .") == "" || bannerLineRe.MatchString(l) || goPackageHeader(l) {
		return 0
	}
	switch {
	case sc.exception && exceptionLineRe.MatchString(l):
		return 10
	case sc.compiler && compilerLineRe.MatchString(l):
		return 9
	case sc.failTest && failTestLineRe.MatchString(l):
		return 8
	case sc.assert && assertLineRe.MatchString(l):
		return 7
	case progressFailRe.MatchString(l):
		return 6
	case sc.notice && noticeLineRe.MatchString(l):
		return 1
	case sc.keyword && keywordLineRe.MatchString(l):
		return 5
	case strings.HasPrefix(l, "Traceback"):
		return 2
	}
	return 1
}

// goPackageHeader reports go build's "# example.com/pkg" line, which names
// the package whose errors follow and never says what went wrong.
func goPackageHeader(l string) bool {
	rest, ok := strings.CutPrefix(l, "# ")
	return ok && rest != "" && strings.IndexFunc(rest, unicode.IsSpace) < 0
}

// errorMessage picks the most informative line of a failure by score (the
// final exception of a traceback, the first compiler error, a failing
// test), never a pass line or a wrapper header, and the line after it
// when that adds detail, within errorMessageLimit.
func errorMessage(content string) string {
	return truncate(failingLine(content), errorMessageLimit)
}

// failingLine is errorMessage before the cut, so the files a long line
// names are all seen.
func failingLine(content string) string {
	content, note := harnessPayload(content) // never the harness's wrapper line
	lines := outputBody(toolErrTagRe.ReplaceAllString(content, ""))
	if diffMarkRe.MatchString(content) {
		kept := lines[:0]
		for _, l := range lines {
			if !diffBodyLineRe.MatchString(l) {
				kept = append(kept, l)
			}
		}
		lines = kept
	}
	if len(lines) == 0 {
		return "(no output)"
	}
	// The headline is the last line scoring 10 when there is one, else
	// the first line with the highest score: look for the 10 from the end
	// (exceptionLineRe's gate makes that cheap), then score forward and
	// stop at the first 9. What makes a line a headline shows in its
	// first few hundred bytes; scoring a whole minified or base64 line
	// costs the regexes' time for nothing.
	sc := everyLine
	if len(lines) > 1 {
		sc = scorerFor(strings.Join(lines, "\n"))
	}
	best, bestScore := -1, 0
	for i := len(lines) - 1; i >= 0 && sc.exception; i-- {
		if l := headOf(lines[i], scoredPrefix); exceptionLineRe.MatchString(l) && sc.score(l) == 10 {
			best, bestScore = i, 10
			break
		}
	}
	for i := 0; best < 0 || bestScore < 9; i++ {
		if i == len(lines) {
			break
		}
		if s := sc.score(headOf(lines[i], scoredPrefix)); s > bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		return "(no failing line in the output)" // only banners and pass lines
	}
	msg := lines[best]
	if best+1 < len(lines) && bestScore < 10 && len([]rune(msg)) < 120 && len(lines[best+1]) >= 12 && sc.score(lines[best+1]) >= 5 {
		msg += " / " + lines[best+1]
	}
	if note != "" {
		msg += " (" + note + ")"
	}
	return msg
}

var toolErrTagRe = lazyRE(`</?tool_use_error>`)

var (
	buildErrorRe = gated(`(?i)(undefined: |cannot use |syntax error|error\[E\d+\]|error TS\d+|compilation (?:failed|terminated)|build failed|cannot find package|could not compile|does not compile|undefined reference to|no required module provides|expected ['"]?[;)}\]]|imported and not used|declared and not used|\.go:\d+:\d+: |\.\w+:\d+:\d+: (?:fatal )?error:)`)
	buildCmdRe   = lazyRE(`(?i)(^|\s|&&|;)(go (build|vet|install)|cargo (build|check)|make(\s|$)|tsc(\s|$)|npm run build|yarn build|pnpm build|cmake --build|gcc |g\+\+ |clang |nvcc |javac |mvn (compile|package)|gradlew? build|swift build|xcodebuild(?: build)?\s)`)
	testFailRe   = lazyRE(`(?m)(^=+ test session starts =+$|^--- FAIL: |^FAILED |^FAIL: | FAILED$|✕ |^Tests:.*\bfailed\b|AssertionError|^=+ .*\bfailed\b|\(\d+ tests? \| \d+ failed\))`)
)

// classifyError names the class of a failure from the command and output.
func classifyError(call *callInfo, content string) string {
	shell := call.shell()
	command := ""
	if call != nil {
		command = call.command
	}
	switch {
	case shell && isTestCommand(command):
		return "test_failure"
	case testFailRe.MatchString(content):
		return "test_failure"
	case buildErrorRe.MatchString(content) || (shell && buildCmdRe.MatchString(normalizeCommand(command))):
		return "build_error"
	case shell:
		return "command_failed"
	}
	return "tool_error"
}

// openError is an error record with what its resolution is judged by.
type openError struct {
	rec     handoff.ErrorRecord
	key     string // tool + normalized command
	prog    string // programKey of the command
	files   []string
	args    []string // the paths and URLs the command works on
	pkgs    []string // the packages a failed install was for
	hook    bool     // a commit hook's "....Failed" line
	edited  bool     // a file it names was edited since
	last    int      // message index of the latest occurrence
	notes   int      // assistant turns seen since the latest occurrence
	pending bool     // the assistant announced a workaround; a success confirms it
	// workedAround is the first success after a workaround was announced
	// (pending): the error is settled as worked around at the end unless
	// later evidence says it was fixed (see confirmWorkaround).
	workedAround *handoff.MessageRef
	// probe is the probe batch the failing call belongs to (probeKey).
	probe string
	// query marks a question's failing answer (askingCommand); blocker,
	// a later sentence saying the work is blocked by it (queryBlocked).
	query, blocker bool
}

// errorLog folds failures and resolves them against later evidence.
type errorLog struct {
	list     []*openError
	contexts []string
	// recent are errors still within reach of the assistant's next turns.
	recent  []*openError
	ignored map[string]int
	// green is the message index of the latest passing test run, -1
	// before any.
	green int
	heads *headlines // nil: no cache
	// probeOK holds the probe batches (probeKey) with a run that passed.
	probeOK map[string]bool
}

func newErrorLog() *errorLog { return &errorLog{ignored: map[string]int{}, green: -1} }

// noteTurns is how many assistant turns after a failure may diagnose it or
// say it was fixed or worked around.
const noteTurns = 3

func errorKey(tool, command string) string {
	return strings.ToLower(tool) + "\x00" + normalizeCommand(command)
}

var fileRefRe = lazyRE(`[\w./-]*[\w-]\.(?:go|py|rs|ts|tsx|js|jsx|c|h|cc|cpp|hpp|cu|java|kt|swift|rb|php|cs|sh|md|json|ya?ml|toml|sql|txt|css|html|vue|plist|mjs|cjs)\b`)

// observe records one result: a failure becomes (or repeats) an error; a
// success resolves what it answers.
func (l *errorLog) observe(m handoff.Message, r handoff.ToolResult, call *callInfo, fail bool) {
	if call != nil && call.wrapper {
		return // its nested calls' results are the outcome
	}
	tool, command, said := r.Name, "", ""
	if call != nil {
		command, said = call.command, call.said
		if tool == "" {
			tool = call.Name
		}
	}
	if !fail {
		if call == nil || (call.kind == kindOther && call.command == call.Name) {
			if rc := resultCall(tool, r); rc != nil {
				call = rc
			}
		}
		l.success(m, call)
		return
	}
	if kind := ignoredResult(call, r); kind != "" {
		l.ignored[kind]++
		return
	}
	probe := probeKey(call)
	if probe != "" && l.probeOK[probe] {
		// The rejected case of a probe batch whose accepted case passed.
		l.ignored[ignoreProbe]++
		return
	}
	full := l.heads.failingLine(r.Content)
	msg := truncate(full, errorMessageLimit)
	key := errorKey(tool, command)
	if command == "" || command == tool {
		key += "\x00" + msg // without a command, only the same message is a repeat
	}
	for i := len(l.list) - 1; i >= 0; i-- {
		if e := l.list[i]; e.key == key && e.rec.Resolution == handoff.ResolutionUnresolved {
			e.rec.Occurrences++
			e.rec.Message = msg
			e.last, e.notes, e.pending, e.edited, e.workedAround = m.Index, 0, false, false, nil
			l.remember(e)
			return
		}
	}
	e := &openError{
		rec: handoff.ErrorRecord{
			ID:          "e" + strconv.Itoa(len(l.list)+1),
			Type:        classifyError(call, r.Content),
			Message:     msg,
			Context:     lastSentences(said, 1),
			Command:     command,
			Tool:        tool,
			Resolution:  handoff.ResolutionUnresolved,
			Source:      m.Ref(),
			Occurrences: 1,
		},
		key:   key,
		last:  m.Index,
		probe: probe,
	}
	if call.shell() {
		e.prog = programKey(command)
		e.args = principalArgs(command)
		e.pkgs = installPackages(command)
	}
	e.hook = hookFailedRe.MatchString(r.Content)
	e.questionRecord(call)
	seen := map[string]bool{}
	for _, s := range append(fileRefRe.FindAllString(full, 4), fileRefRe.FindAllString(command, 4)...) {
		b := path.Base(s)
		if !seen[b] {
			seen[b] = true
			e.files = append(e.files, b)
		}
	}
	if call != nil && call.kind == kindEdit {
		for _, p := range call.paths {
			if b := path.Base(p); !seen[b] {
				seen[b] = true
				e.files = append(e.files, b)
			}
		}
	}
	l.list = append(l.list, e)
	l.contexts = append(l.contexts, said)
	l.remember(e)
}

func (l *errorLog) remember(e *openError) {
	for _, r := range l.recent {
		if r == e {
			return
		}
	}
	l.recent = append(l.recent, e)
}

// success resolves the open errors a successful call answers: the same
// command, the same program on the same target, a broader green run of
// the same test suite, or any success touching a file named in the error
// after that file was edited. It also confirms announced workarounds.
func (l *errorLog) success(m handoff.Message, call *callInfo) {
	if call == nil {
		return
	}
	l.probeSucceeded(call)
	ref := m.Ref()
	key := errorKey(call.Name, call.command)
	prog := ""
	test := false
	help := false
	var args, pkgs []string
	if call.shell() {
		prog = programKey(call.command)
		test = isTestCommand(call.command)
		help = helpOnly(call.command)
		args = principalArgs(call.command)
		pkgs = installPackages(call.command)
	}
	var bases []string
	if call.kind == kindEdit {
		for _, p := range call.paths {
			bases = append(bases, path.Base(p))
		}
	}
	for _, e := range l.list {
		if e.rec.Resolution != handoff.ResolutionUnresolved {
			continue
		}
		switch {
		case e.key == key && call.command != "" && call.command != call.Name:
			e.resolve(handoff.ResolutionFixed, ref)
		case help:
			e.confirmWorkaround(ref)
		case prog != "" && sameProgramKey(e.prog, prog):
			e.resolve(aliasResolution(e, prog), ref)
		case prog != "" && len(e.args) > 0 && aliasedHead(e.prog) == aliasedHead(prog) && argsCovered(e.args, args):
			e.resolve(aliasResolution(e, prog), ref) // the same program on the same target, other flags or directory
		case prog != "" && e.shellish() && chainCovers(e.rec.Command, call.command):
			e.resolve(handoff.ResolutionFixed, ref) // every step of the failed chain went through
		case len(e.pkgs) > 0 && sharesItem(e.pkgs, pkgs):
			e.resolve(handoff.ResolutionFixed, ref) // installed after all, maybe by another manager
		case test && e.rec.Type == "test_failure" && suiteCovers(call.command, e.rec.Command):
			e.resolve(handoff.ResolutionFixed, ref)
		case len(bases) > 0 && sharesFile(e.files, bases):
			if call.kind == kindEdit && e.rec.Tool == call.Name || !e.shellish() {
				e.resolve(handoff.ResolutionFixed, ref) // the edit that failed went through
			} else {
				e.edited = true
			}
		case e.edited && call.shell() && (mentionsAny(call.command, e.files) || (prog != "" && firstWord(prog) == firstWord(e.prog))):
			e.resolve(handoff.ResolutionFixed, ref)
		default:
			e.confirmWorkaround(ref)
		}
	}
}

// workaround reports whether e is settled as worked around, or will be
// unless later evidence says it was fixed.
func (e *openError) workaround() bool {
	return e.rec.Resolution == handoff.ResolutionWorkaround || e.workaroundLater()
}

// workaroundLater reports whether e is open but will be settled as
// worked around by records: a success followed an announced workaround
// and nothing since showed it fixed.
func (e *openError) workaroundLater() bool {
	return e.rec.Resolution == handoff.ResolutionUnresolved && e.workedAround != nil
}

// confirmWorkaround notes the first success after the assistant
// announced a workaround for e (pending). It does not settle e yet:
// records settles it as worked around only if nothing later says it was
// fixed. A rerun of the failed command, the same program on the same
// target or a green run of its suite says so, whatever words came before
// ("passes 1 instead of the burst argument" diagnoses a bug; it does not
// announce a way around it), and the edit that fixes the bug often comes
// first.
func (e *openError) confirmWorkaround(ref handoff.MessageRef) {
	if e.pending && e.workedAround == nil {
		e.workedAround = &ref
	}
}

// resultCall stands in for the call of a result the format gave none for
// (SpecStory's apply_patch, console pastes): an edit tool's result that
// names files is an edit of them, so a failed edit of the same file by
// the same tool is answered by it.
func resultCall(name string, r handoff.ToolResult) *callInfo {
	if name == "" || !editNameHint(name) {
		return nil
	}
	files := fileRefRe.FindAllString(headOf(r.Content, 400), 4)
	if len(files) == 0 {
		return nil
	}
	return &callInfo{Name: name, kind: kindEdit, paths: files, command: name + " " + strings.Join(files, " ")}
}

var (
	// hookFailedRe is a commit hook's verdict line as pre-commit prints
	// it ("ruff.......Failed").
	hookFailedRe = lazyRE(`(?m)\.{4,}\s*Failed\s*$`)
	installRe    = lazyRE(`(?i)(?:^|\s)(?:pip3?|python3?\s+-m\s+pip|uv\s+pip|uv\s+tool|uv|pipx|poetry|brew|apt-get|apt|dnf|yum|apk|npm|pnpm|yarn|bun|cargo|gem|go|conda|mamba|port|choco|winget)\s+(?:install|add|get|i)\s+(.*)$`)
)

// installPackages lists the packages an install command asks for, bare
// names in lower case ("cupy-cuda12x", "pre-commit"): the same package
// installed by pip, pipx or brew is the same need met.
func installPackages(cmd string) []string {
	var out []string
	for _, seg := range segments(normalizeCommand(cmd)) {
		m := installRe.FindStringSubmatch(seg)
		if m == nil {
			continue
		}
		for _, a := range strings.Fields(m[1]) {
			if strings.HasPrefix(a, "-") || strings.ContainsAny(a, "|>&;") {
				continue
			}
			a = strings.ToLower(strings.Trim(a, `"'`))
			if i := strings.IndexAny(a, "=<>~[@"); i > 0 {
				a = a[:i]
			}
			a = path.Base(a)
			if a != "" && a != "." {
				out = append(out, a)
			}
		}
	}
	return out
}

// principalArgs are what a command works on: the paths and URLs of its
// last real segment, without the values of flags ("wget -P /tmp URL"
// works on URL), so a retry with other flags is the same attempt.
func principalArgs(cmd string) []string {
	segs := segments(normalizeCommand(cmd))
	if len(segs) == 0 {
		return nil
	}
	f := strings.Fields(splitUnquoted(segs[len(segs)-1], '|')[0])
	var out []string
	for i := 1; i < len(f); i++ {
		a := strings.Trim(f[i], `"'`)
		if strings.HasPrefix(a, "-") {
			if !strings.Contains(a, "=") && len(a) == 2 && i+1 < len(f) && !strings.HasPrefix(f[i+1], "-") && !strings.Contains(f[i+1], "://") {
				i++ // a short flag's value (-P /tmp, -o out)
			}
			continue
		}
		if strings.Contains(a, "://") || strings.Contains(a, "/") || strings.Contains(a, ".") {
			out = append(out, a)
		}
	}
	return out
}

// programHead is a programKey's program and subcommand.
func programHead(key string) string {
	f := strings.Fields(key)
	if len(f) > 1 && isWord(f[1]) {
		return f[0] + " " + f[1]
	}
	if len(f) > 0 {
		return f[0]
	}
	return ""
}

func subset(small, big []string) bool {
	for _, s := range small {
		found := false
		for _, b := range big {
			if s == b {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func sharesItem(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// tested notes a passing test run.
func (l *errorLog) tested(m handoff.Message) { l.green = m.Index }

// committed resolves what a successful commit settles: a commit hook
// that failed before (the hooks passed this time), and build, test and
// lint failures that a passing test run after them already answered.
func (l *errorLog) committed(m handoff.Message) {
	ref := m.Ref()
	for _, e := range l.list {
		if e.rec.Resolution != handoff.ResolutionUnresolved || e.last >= m.Index {
			continue
		}
		switch {
		case e.hook:
			e.resolve(handoff.ResolutionFixed, ref)
		case (e.rec.Type == "build_error" || e.rec.Type == "test_failure") && l.green > e.last:
			e.resolve(handoff.ResolutionFixed, ref)
		}
	}
}

var userFailRe = lazyRE(`(?im)^(?:error\b|fatal\b|failed\b|x |✗|×)`)

// userPasted reads a message of the person's: when it quotes the command
// of an open error followed by output that shows no failure, the person
// ran it themselves and it worked.
func (l *errorLog) userPasted(m handoff.Message, text string) {
	for _, e := range l.list {
		cmd := strings.TrimSpace(firstLine(e.rec.Command))
		if e.rec.Resolution != handoff.ResolutionUnresolved || len(cmd) < 6 || e.prog == "" {
			continue
		}
		i := strings.Index(text, cmd)
		if i < 0 {
			continue
		}
		after := strings.TrimSpace(text[i+len(cmd):])
		if after == "" || contentFailRe.MatchString(after) || userFailRe.MatchString(after) {
			continue
		}
		e.resolve(handoff.ResolutionFixed, m.Ref())
		e.rec.ResolutionNotes = "the person ran it and pasted output that shows no failure"
	}
}

func (e *openError) shellish() bool { return e.prog != "" }

func (e *openError) resolve(res handoff.Resolution, ref handoff.MessageRef) {
	e.rec.Resolution = res
	e.rec.ResolvedBy = &ref
	e.pending = false
}

func firstWord(s string) string {
	w, _, _ := strings.Cut(s, " ")
	return w
}

func sharesFile(files, bases []string) bool {
	for _, f := range files {
		for _, b := range bases {
			if f == b {
				return true
			}
		}
	}
	return false
}

func mentionsAny(cmd string, files []string) bool {
	for _, f := range files {
		if strings.Contains(cmd, f) {
			return true
		}
	}
	return false
}

var (
	fixedSayRe      = lazyRE(`(?i)\b(fixed|works|working now|is working|now works|resolved|succeeded|succeeds now|passes now|now pass(?:es)?|(?:compiles?|compiled|builds?|built|installed|ran|completed) (?:now|successfully|fine|cleanly)|successfully (?:compiled|built|installed|ran|created|completed)|that worked|all tests pass|tests? (?:now )?pass(?:ing)?)\b`)
	workaroundSayRe = lazyRE(`(?i)\b(instead|work ?around|worked around|alternative(?:ly)?|different approach|fall ?back|not needed|unnecessary|no need|can be ignored|safe to ignore|harmless|expected(?: since| because| —| -|,)|skip(?:ping)? (?:it|this|that)|doesn't matter|not (?:a|an) (?:problem|issue))\b`)
	// hopeSayRe is a check still to run, not a report: "let me see if
	// the integration works", "run it again to confirm it passes". said
	// blanks it before looking for "works" or "fixed". ("This should fix
	// it" stays a claim of a fix.)
	hopeSayRe    = lazyRE(`(?i)\b(?:see|check|test|verify|confirm|ensure|make sure|whether|once|until)\b[^.!?\n]{0,60}?\b(?:works|working|fix(?:es|ed)?|resolved?s?|succeeds?|pass(?:es)?)\b`)
	negatedSayRe = lazyRE(`(?i)\b(still (?:fail|broken|error|not)|not (?:yet )?(?:fixed|resolved|working)|isn't (?:fixed|working)|(?:didn't|doesn't|does not|did not|won't|not) work|failed again)`)
)

// said reads an assistant turn of the main thread against the errors of
// the last few turns: its first sentences become the diagnosis of errors
// that have none, "fixed" resolves them, "instead"/"not needed" marks a
// workaround that the next success confirms.
func (l *errorLog) said(m handoff.Message, text string) {
	if len(l.list) == 0 {
		return
	}
	clean := fenceRe.ReplaceAllString(text, " ")
	l.laterReport(m, clean)
	l.queryBlocked(clean)
	if len(l.recent) == 0 {
		return
	}
	fixed := fixedSayRe.MatchString(hopeSayRe.ReplaceAllString(clean, " ")) && !negatedSayRe.MatchString(clean)
	work := workaroundSayRe.MatchString(clean)
	note := firstSentences(clean, 2)
	ref := m.Ref()
	keep := l.recent[:0]
	for _, e := range l.recent {
		if e.rec.Resolution != handoff.ResolutionUnresolved {
			continue
		}
		if e.rec.ResolutionNotes == "" && note != "" {
			e.rec.ResolutionNotes = truncate(note, errorNotesLimit)
		}
		switch {
		case fixed:
			e.resolve(handoff.ResolutionFixed, ref)
			if note != "" {
				e.rec.ResolutionNotes = truncate(note, errorNotesLimit)
			}
			continue
		case work:
			e.pending = true
			if note != "" {
				e.rec.ResolutionNotes = truncate(note, errorNotesLimit)
			}
		}
		if e.notes++; e.notes < noteTurns {
			keep = append(keep, e)
		}
	}
	l.recent = keep
}

// records lists the errors newest first (by latest occurrence), without
// the questions' answers (settledQuestion), which count as probes.
func (l *errorLog) records() ([]handoff.ErrorRecord, []string) {
	idx := make([]int, 0, len(l.list))
	for i, e := range l.list {
		if e.settledQuestion() {
			l.ignored[ignoreProbe]++
			continue
		}
		idx = append(idx, i)
	}
	sort.SliceStable(idx, func(a, b int) bool { return l.list[idx[a]].last > l.list[idx[b]].last })
	out := make([]handoff.ErrorRecord, len(idx))
	ctx := make([]string, len(idx))
	for i, j := range idx {
		e := l.list[j]
		out[i] = e.rec
		if e.workaroundLater() {
			out[i].Resolution = handoff.ResolutionWorkaround
			out[i].ResolvedBy = e.workedAround
		}
		ctx[i] = l.contexts[j]
	}
	return out, ctx
}

var (
	fenceRe = lazyRE("(?s)```.*?(?:```|$)")
)

// firstSentences returns the first n sentences of prose, code removed.
func firstSentences(text string, n int) string {
	var out []string
	for _, s := range proseSentences(fenceRe.ReplaceAllString(text, " ")) {
		s = strings.TrimSpace(strings.TrimLeft(s, "#*->• "))
		if len(s) < 12 || !strings.Contains(s, " ") {
			continue
		}
		out = append(out, s)
		if len(out) == n {
			break
		}
	}
	return strings.Join(out, " ")
}

// lastSentences returns the last n sentences of prose, code removed: what
// the assistant said it was about to do.
func lastSentences(text string, n int) string {
	all := proseSentences(fenceRe.ReplaceAllString(text, " "))
	var out []string
	for i := len(all) - 1; i >= 0 && len(out) < n; i-- {
		if s := strings.TrimSpace(strings.TrimLeft(all[i], "#*->• ")); len(s) >= 12 && strings.Contains(s, " ") {
			out = append([]string{s}, out...)
		}
	}
	return truncate(strings.Join(out, " "), errorContextLimit)
}
