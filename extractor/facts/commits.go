package facts

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

var (
	// GitCommitRe is git's own summary of a new commit: "[main 1a2b3c4]
	// message" (also "(root-commit)", detached HEAD).
	GitCommitRe = prose.Screened(rulebook.Pattern("facts.git-commit"), prose.MayGitCommit)
	// aiderCommitRe is Aider's auto-commit line.
	aiderCommitRe = prose.LazyRE(rulebook.Pattern("facts.aider-commit"))
	switchedRe    = prose.LazyRE(rulebook.Pattern("facts.switched"))
)

// CommitLog collects the session's commits and the branch it worked on.
type CommitLog struct {
	List   []handoff.Commit
	branch string
}

// ObserveShell reads a successful shell result for commits and branch
// switches.
func (l *CommitLog) ObserveShell(m handoff.Message, content string) {
	defer l.observeRetractions(content)
	if strings.Contains(content, "] ") {
		for _, sm := range GitCommitRe.FindAllStringSubmatch(content, -1) {
			l.Add(handoff.Commit{Hash: sm[2], Message: prose.Truncate(sm[3], 200), Branch: sm[1], Source: m.Ref()})
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
func (l *CommitLog) observeHarness(m handoff.Message, text string) {
	for _, h := range undoneHashes(text) {
		l.remove(h)
	}
	if !strings.Contains(text, "Commit ") {
		return
	}
	for _, sm := range aiderCommitRe.FindAllStringSubmatch(text, -1) {
		l.Add(handoff.Commit{Hash: sm[1], Message: prose.Truncate(sm[2], 200), Source: m.Ref()})
	}
}

// Add records c unless a commit of the same hash is recorded already.
func (l *CommitLog) Add(c handoff.Commit) {
	for _, o := range l.List {
		if o.Hash == c.Hash {
			return
		}
	}
	l.List = append(l.List, c)
}
