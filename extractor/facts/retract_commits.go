package facts

import (
	"strings"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

var (
	// aiderRemovedRe is Aider's answer to /undo: "Removed: 7e3d1b2 msg".
	aiderRemovedRe = prose.LazyRE(rulebook.Pattern("facts.aider-removed"))
	// gitRevertRe is git's summary of a revert commit: `[main abc1234]
	// Revert "msg"`.
	gitRevertRe = prose.LazyRE(rulebook.Pattern("facts.git-revert"))
	// headNowRe is git's answer to a hard reset: "HEAD is now at abc1234 msg".
	headNowRe = prose.LazyRE(rulebook.Pattern("facts.head-now"))
)

// undoneHashes returns the commits harness text says were taken back
// (Aider's /undo).
func undoneHashes(text string) []string {
	if !strings.Contains(text, "Removed: ") {
		return nil
	}
	var out []string
	for _, m := range aiderRemovedRe.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// remove drops the commit hash (either abbreviation) from the log.
func (l *CommitLog) remove(hash string) {
	for i, c := range l.List {
		if strings.HasPrefix(c.Hash, hash) || strings.HasPrefix(hash, c.Hash) {
			l.List = append(l.List[:i], l.List[i+1:]...)
			return
		}
	}
}

// observeRetractions takes back the commits a shell result undid: one a
// `git revert` reverted (matched by its message), and those after the
// commit a `git reset --hard` went back to (when the session made it).
func (l *CommitLog) observeRetractions(content string) {
	if strings.Contains(content, "] Revert \"") {
		for _, m := range gitRevertRe.FindAllStringSubmatch(content, -1) {
			for i := len(l.List) - 1; i >= 0; i-- {
				if l.List[i].Message == m[1] {
					l.List = append(l.List[:i], l.List[i+1:]...)
					break
				}
			}
		}
	}
	if m := headNowRe.FindStringSubmatch(content); m != nil {
		for i, c := range l.List {
			if strings.HasPrefix(c.Hash, m[1]) || strings.HasPrefix(m[1], c.Hash) {
				l.List = l.List[:i+1]
				return
			}
		}
	}
}

// commitEdits remembers which edits each Aider commit holds, so that an
// /undo takes them back with it: the edits since the previous commit.
type commitEdits struct {
	pending  map[string]int
	byCommit map[string]map[string]int
}

// undo takes back the edits of an undone commit: a file whose only
// edits they were leaves the list.
func (s *fileSet) undo(hash string) {
	for h, files := range s.commits.byCommit {
		if !strings.HasPrefix(h, hash) && !strings.HasPrefix(hash, h) {
			continue
		}
		for p, n := range files {
			fc, ok := s.byPat[p]
			if !ok {
				continue
			}
			fc.Edits -= n
			if fc.Edits <= 0 {
				s.drop(p)
			}
		}
		delete(s.commits.byCommit, h)
		return
	}
}

// committed files the edits since the last commit under hash.
func (s *fileSet) committed(hash string) {
	if len(s.commits.pending) == 0 {
		return
	}
	if s.commits.byCommit == nil {
		s.commits.byCommit = map[string]map[string]int{}
	}
	s.commits.byCommit[hash] = s.commits.pending
	s.commits.pending = nil
}

// harnessCommits reads Aider's commit and undo lines for the file list.
func (s *fileSet) harnessCommits(text string) {
	if strings.Contains(text, "Commit ") {
		for _, m := range aiderCommitRe.FindAllStringSubmatch(text, -1) {
			s.committed(m[1])
		}
	}
	for _, h := range undoneHashes(text) {
		s.undo(h)
	}
}
