package facts

import (
	"path"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// fileSet records modified files; list returns them in order of last
// modification, because the files the session touched last are the ones a
// successor is about to open again.
type fileSet struct {
	order []string
	byPat map[string]*handoff.FileChange
	// last is each path's sequence number of its latest modification.
	last map[string]int
	seq  int
	// codeEdits counts modifications of files that are not prose
	// (documentation, notes): the edits a test run can vouch for.
	codeEdits int
	// proposed are the files of the last assistant turn's SEARCH/REPLACE
	// blocks, so that Aider's "Applied edit to" line does not count them
	// twice.
	proposed map[string]bool
	// calls are the tool calls seen, in order, and edits the paths each
	// edit call touched: an edit still in flight when the transcript
	// ends is not a change made (see inFlight).
	calls []*CallInfo
	edits map[*CallInfo][]string
	// commits holds the edits of each Aider commit, for /undo.
	commits commitEdits
}

// NewFileSet returns an empty set of modified files.
func NewFileSet() *fileSet {
	return &fileSet{byPat: map[string]*handoff.FileChange{}, last: map[string]int{}, edits: map[*CallInfo][]string{}}
}

// Touch records that op (write, edit, delete) changed the file at p.
func (s *fileSet) Touch(p, op string) {
	p = strings.TrimSpace(p)
	if p == "" || p == "/dev/null" {
		return
	}
	fc, ok := s.byPat[p]
	if !ok {
		fc = &handoff.FileChange{Path: p}
		s.byPat[p] = fc
		s.order = append(s.order, p)
	}
	s.seq++
	s.last[p] = s.seq
	if s.commits.pending == nil {
		s.commits.pending = map[string]int{}
	}
	s.commits.pending[p]++
	if !ProseFile(p) {
		s.codeEdits++
	}
	fc.Edits++
	for _, o := range fc.Operations {
		if o == op {
			return
		}
	}
	fc.Operations = append(fc.Operations, op)
}

// List returns the files in order of their last change.
func (s *fileSet) List() []handoff.FileChange {
	order := slices.Clone(s.order)
	slices.SortStableFunc(order, func(a, b string) int { return s.last[a] - s.last[b] })
	unsure := s.inFlight()
	out := make([]handoff.FileChange, 0, len(order))
	for _, p := range order {
		fc := *s.byPat[p]
		if fc.Edits -= unsure[p]; fc.Edits <= 0 {
			continue
		}
		out = append(out, fc)
	}
	return out
}

// inFlight counts, per path, the edits of calls still in flight when the
// transcript ends: the calls after the last one that got a result, in a
// transcript whose calls get results. Such a call was interrupted or
// never finished (the person stopped it, the session ended), so whether
// its change was made is unknown; a successor must not read it as done.
func (s *fileSet) inFlight() map[string]int {
	last := -1
	for i, c := range s.calls {
		if c.answered {
			last = i
		}
	}
	if last < 0 {
		return nil // a format without results: every call counts
	}
	var out map[string]int
	for _, c := range s.calls[last+1:] {
		for _, p := range s.edits[c] {
			if out == nil {
				out = map[string]int{}
			}
			out[strings.TrimSpace(p)]++
		}
	}
	return out
}

// ProseFile reports whether a path holds prose (Markdown, plain text,
// reStructuredText), which no test run covers.
func ProseFile(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".txt", ".rst", ".adoc":
		return true
	}
	return false
}

// AddCall records the files a modifying call touched.
func (s *fileSet) AddCall(c *CallInfo) {
	s.calls = append(s.calls, c)
	if c.Kind == KindShell {
		s.moveAndRemove(c.Command)
	}
	if c.Kind != KindEdit && len(c.Paths) == 0 {
		return
	}
	s.edits[c] = c.Paths
	op := c.Name
	if c.Kind == KindShell {
		op = "shell"
		if strings.Contains(c.Command, "*** Begin Patch") || strings.HasPrefix(strings.TrimSpace(c.Command), "apply_patch") {
			op = "apply_patch"
		}
	}
	for _, p := range c.Paths {
		s.Touch(p, op)
	}
}

var (
	// resultEditRe finds the file a result says was written, for calls
	// whose input does not name it (SpecStory, trimmed records).
	resultEditRe   = prose.LazyRE(rulebook.Pattern("facts.result-edit"))
	codexUpdatedRe = prose.LazyRE(rulebook.Pattern("facts.codex-updated"))
)

// addResult records files a result says were written when its call named
// none: SpecStory's Edit results, Codex apply_patch summaries.
func (s *fileSet) addResult(c *CallInfo, content string) {
	if c != nil && (len(c.Paths) > 0 || c.Kind == KindShell) {
		return
	}
	op := "edit"
	if c != nil {
		op = c.Name
		if !editNameHint(c.Name) {
			return
		}
	}
	head := prose.HeadOf(content, 1500)
	for _, m := range resultEditRe.FindAllStringSubmatch(head, 4) {
		for _, g := range m[1:] {
			if g != "" {
				s.Touch(strings.TrimRight(g, ".:,"), op)
			}
		}
	}
	if i := strings.Index(head, "Updated the following files:"); i >= 0 {
		for _, m := range codexUpdatedRe.FindAllStringSubmatch(head[i:], -1) {
			s.Touch(m[1], op)
		}
	}
}

var (
	searchBlockRe = prose.LazyRE(rulebook.Pattern("facts.search-block"))
	appliedEditRe = prose.LazyRE(rulebook.Pattern("facts.applied-edit"))
)

// addAssistantText records Aider SEARCH/REPLACE blocks: the file name is
// the line above the block's fence.
func (s *fileSet) addAssistantText(text string) {
	s.proposed = nil
	if !strings.Contains(text, "<<<<<<< SEARCH") {
		return
	}
	for _, m := range searchBlockRe.FindAllStringSubmatch(text, -1) {
		p := strings.Trim(strings.TrimSpace(m[1]), "`*:")
		if p == "" || strings.Contains(p, " ") {
			continue
		}
		s.Touch(p, "search_replace")
		if s.proposed == nil {
			s.proposed = map[string]bool{}
		}
		s.proposed[p] = true
	}
}

// addHarnessText records Aider's own "Applied edit to FILE" lines for
// files no SEARCH/REPLACE block of the turn named (whole-file edits).
func (s *fileSet) addHarnessText(text string) {
	defer s.harnessCommits(text)
	if !strings.Contains(text, "Applied edit to") {
		return
	}
	for _, m := range appliedEditRe.FindAllStringSubmatch(text, -1) {
		p := strings.Trim(m[1], "`")
		if s.proposed[p] || strings.HasPrefix(p, "-") || strings.Contains(p, "->") {
			continue
		}
		s.Touch(p, "aider")
	}
}
