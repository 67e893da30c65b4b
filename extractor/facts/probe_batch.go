package facts

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// A probe batch is one step that runs a script several times on
// different inputs: a validator or guard tried on a case it must accept
// and one it must reject ("validate-pr.sh develop feature/x" passes,
// "validate-pr.sh main feature/x" exits 1 with the rule it enforces).
// The rejection is the answer the step asked for, not an error: issued
// beside a run of the same script that passed, before either result was
// seen, it cannot be a failure the agent then went on to fix. Test
// runners are not scripts here: one failing test file of several run at
// once is a real failure.

// scriptHead names the script a shell command runs ("bash
// scripts/validate.sh", "./tools/check.py"), or "" when it runs none or
// runs tests.
func scriptHead(cmd string) string {
	if IsTestCommand(cmd) {
		return ""
	}
	f := programFields(cmd)
	switch {
	case len(f) == 0:
		return ""
	case isScriptPath(f[0]) && strings.Contains(f[0], "/"):
		return f[0]
	case len(f) > 1 && slices.Contains(scriptInterpreters, path.Base(f[0])) && isScriptPath(f[1]):
		return path.Base(f[0]) + " " + f[1]
	}
	return ""
}

var scriptInterpreters = rulebook.Words("facts.probe-interpreters")

func isScriptPath(s string) bool {
	switch path.Ext(s) {
	case ".sh", ".bash", ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl":
		return true
	}
	return false
}

// probeKey identifies a script run within one step, or "" for a call
// that is no such run.
func probeKey(call *CallInfo) string {
	if !call.Shell() {
		return ""
	}
	head := scriptHead(call.Command)
	if head == "" {
		return ""
	}
	return head + "\x00" + strconv.Itoa(call.step)
}

// probeSucceeded notes a script run that passed and drops a failure of
// the same script in the same step on other inputs already recorded.
func (l *errorLog) probeSucceeded(call *CallInfo) {
	key := probeKey(call)
	if key == "" {
		return
	}
	if l.probeOK == nil {
		l.probeOK = map[string]bool{}
	}
	l.probeOK[key] = true
	for i := len(l.list) - 1; i >= 0; i-- {
		e := l.list[i]
		if e.probe == key && e.rec.Command != call.Command && e.rec.Occurrences == 1 {
			l.drop(i)
			l.ignored[IgnoreProbe]++
		}
	}
}

// drop removes the i-th error, as if it had never been recorded.
func (l *errorLog) drop(i int) {
	e := l.list[i]
	l.list = slices.Delete(l.list, i, i+1)
	l.contexts = slices.Delete(l.contexts, i, i+1)
	l.recent = slices.DeleteFunc(l.recent, func(r *openError) bool { return r == e })
}
