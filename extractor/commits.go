package extractor

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

var (
	// gitCommitRe is git's own summary of a new commit: "[main 1a2b3c4]
	// message" (also "(root-commit)", detached HEAD).
	gitCommitRe = screened(`(?m)^\[([^\s\]]+)(?: \(root-commit\))? ([0-9a-f]{7,40})\] (.+?)\s*$`, mayGitCommit)
	// aiderCommitRe is Aider's auto-commit line.
	aiderCommitRe = lazyRE(rulebook.Pattern("facts.aider-commit"))
	switchedRe    = lazyRE(rulebook.Pattern("facts.switched"))
)

// commitLog collects the session's commits and the branch it worked on.
type commitLog struct {
	list   []handoff.Commit
	branch string
}

// observeShell reads a successful shell result for commits and branch
// switches.
func (l *commitLog) observeShell(m handoff.Message, content string) {
	defer l.observeRetractions(content)
	if strings.Contains(content, "] ") {
		for _, sm := range gitCommitRe.FindAllStringSubmatch(content, -1) {
			l.add(handoff.Commit{Hash: sm[2], Message: truncate(sm[3], 200), Branch: sm[1], Source: m.Ref()})
			if sm[1] != "HEAD" && sm[1] != "detached" {
				l.branch = sm[1]
			}
		}
	}
	if strings.Contains(content, "branch") {
		if sm := switchedRe.FindStringSubmatch(content); sm != nil {
			l.branch = sm[1] + sm[2]
		}
	}
}

// observeHarness reads harness text (Aider) for its auto-commits.
func (l *commitLog) observeHarness(m handoff.Message, text string) {
	for _, h := range undoneHashes(text) {
		l.remove(h)
	}
	if !strings.Contains(text, "Commit ") {
		return
	}
	for _, sm := range aiderCommitRe.FindAllStringSubmatch(text, -1) {
		l.add(handoff.Commit{Hash: sm[1], Message: truncate(sm[2], 200), Source: m.Ref()})
	}
}

func (l *commitLog) add(c handoff.Commit) {
	for _, o := range l.list {
		if o.Hash == c.Hash {
			return
		}
	}
	l.list = append(l.list, c)
}
