package facts

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// testCommandRe recognises test runners.
var testCommandRe = prose.LazyRE(rulebook.Pattern("facts.test-command"))

// IsTestCommand reports whether a shell command runs a test suite.
func IsTestCommand(cmd string) bool {
	return testCommandRe.MatchString(NormalizeCommand(cmd))
}

// runnerRe names a test runner family and captures what follows it.
var runnerRe = prose.LazyRE(rulebook.Pattern("facts.runner"))

// SuiteCovers reports whether the green run broad covers the failed run
// narrow: the same runner, and broad's targets include narrow's ("go test
// ./..." covers "go test ./pkg -run X"; "pytest" covers "pytest
// tests/a.py::t"; "npm test" covers "npm test -- a.test.ts").
func SuiteCovers(broad, narrow string) bool {
	b := runnerRe.FindStringSubmatch(NormalizeCommand(broad))
	n := runnerRe.FindStringSubmatch(NormalizeCommand(narrow))
	if b == nil || n == nil || runnerFamily(b[1]) != runnerFamily(n[1]) {
		return false
	}
	bt, bSel := testTargets(b[2])
	nt, _ := testTargets(n[2])
	if bSel {
		return false // a selected subset covers nothing but itself
	}
	if len(bt) == 0 {
		return true
	}
	for _, t := range nt {
		covered := false
		for _, p := range bt {
			p = strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/")
			if p == "." || p == "" || strings.HasPrefix(strings.TrimPrefix(t, "./"), strings.TrimPrefix(p, "./")) {
				covered = true
				break
			}
		}
		if !covered {
			return false
		}
	}
	return len(nt) > 0 || len(bt) == 0
}

func runnerFamily(r string) string {
	r = strings.ToLower(r)
	switch {
	case strings.Contains(r, "pytest") || strings.Contains(r, "py.test"):
		return "pytest"
	case strings.HasPrefix(r, "npm") || strings.HasPrefix(r, "pnpm") || strings.HasPrefix(r, "yarn") || strings.HasPrefix(r, "bun"):
		return "npm " + r[strings.LastIndex(r, " ")+1:]
	}
	return r
}

// testTargets splits a runner's arguments into targets, and reports a
// selection (-run, -k, --filter, -t, ::name) that narrows the run.
func testTargets(args string) (targets []string, selected bool) {
	f := strings.Fields(args)
	for i := 0; i < len(f); i++ {
		a := f[i]
		switch {
		case a == "-run" || a == "-k" || a == "-t" || a == "--filter" || a == "-testNamePattern" || a == "--testNamePattern" || a == "-only-testing":
			selected = true
			i++
		case strings.HasPrefix(a, "-run=") || strings.HasPrefix(a, "-k=") || strings.HasPrefix(a, "--filter=") || strings.HasPrefix(a, "-only-testing:"):
			selected = true
		case strings.HasPrefix(a, "-") || a == "--" || strings.ContainsAny(a, "|>&;"):
		default:
			if strings.Contains(a, "::") {
				a, _, _ = strings.Cut(a, "::")
			}
			targets = append(targets, strings.Trim(a, `"'`))
		}
	}
	return targets, selected
}

var (
	goFailRe      = prose.LazyRE(rulebook.Pattern("facts.go-fail"))
	pytestFailRe  = prose.LazyRE(rulebook.Pattern("facts.pytest-fail"))
	pytestFail2Re = prose.LazyRE(rulebook.Pattern("facts.pytest-fail2"))
	jestFailRe    = prose.LazyRE(rulebook.Pattern("facts.jest-fail"))
	cargoFailRe   = prose.LazyRE(rulebook.Pattern("facts.cargo-fail"))
	genericFailRe = prose.LazyRE(rulebook.Pattern("facts.generic-fail"))
	rspecFailRe   = prose.LazyRE(rulebook.Pattern("facts.rspec-fail"))
	swiftFailRe   = prose.LazyRE(rulebook.Pattern("facts.swift-fail"))
	summaryRe     = prose.LazyRE(rulebook.Pattern("facts.summary"))
	failSummaryRe = prose.LazyRE(rulebook.Pattern("facts.fail-summary"))
	zeroFailRe    = prose.LazyRE(rulebook.Pattern("facts.zero-fail"))
)

// TestState reads the outcome of a test run from its result.
func TestState(command string, r handoff.ToolResult, fail bool, m handoff.Message) *handoff.TestState {
	ts := &handoff.TestState{Command: strings.TrimSpace(command), Source: m.Ref()}
	out := r.Content
	seen := map[string]bool{}
	for _, re := range []prose.LazyRegexp{goFailRe, pytestFailRe, pytestFail2Re, jestFailRe, cargoFailRe, genericFailRe, rspecFailRe, swiftFailRe} {
		for _, sm := range re.FindAllStringSubmatch(out, -1) {
			name := strings.TrimSpace(sm[1])
			if name != "" && !seen[name] {
				seen[name] = true
				ts.FailingTests = append(ts.FailingTests, name)
			}
		}
	}
	lines := strings.Split(out, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l != "" && summaryRe.MatchString(l) {
			ts.Summary = prose.Truncate(l, 200)
			break
		}
	}
	ts.Summary = failedRunSummary(ts.Summary, out, fail) // checks_failwords.go
	summaryFails := ts.Summary != "" && failSummaryRe.MatchString(ts.Summary) && !zeroFailRe.MatchString(ts.Summary)
	code, known := ExitCode(r)
	switch {
	case fail && bareFailure(r, out):
		ts.Status = handoff.TestsUnknown
	case fail || len(ts.FailingTests) > 0 || summaryFails:
		ts.Status = handoff.TestsFailing
	case (known && code == 0) || ts.Summary != "":
		ts.Status = handoff.TestsPassing
	default:
		ts.Status = handoff.TestsUnknown
	}
	return ts
}
