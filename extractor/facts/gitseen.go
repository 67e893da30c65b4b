package facts

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// ReadGitSeen reads what the session's own git commands showed about the
// repository: the newest whole-tree `git status` (porcelain, short or long
// form), adjusted by what the transcript shows after it (staging, commits,
// discards, pushes, the agent's edits); the commits no push followed; and
// the newest push. It returns nil when the session showed nothing of the
// kind.
//
// It says only what git printed: a later step whose effect it cannot tell
// (a checkout, a pull, a commit whose output was cut) is recorded as
// Changed instead of guessed at. cwd, when known, makes the agent's edit
// paths relative like git's.
func ReadGitSeen(msgs []handoff.Message, cwd string) *handoff.GitSeen {
	return ReadGitSeenWith(msgs, cwd, nil)
}

// ReadGitSeenWith is ReadGitSeen sharing heads with the rest of a Build.
func ReadGitSeenWith(msgs []handoff.Message, cwd string, heads *Headlines) *handoff.GitSeen {
	g := &gitSeen{cwd: cwd, heads: heads}
	p := newPairing()
	sh := &Shapes{Heads: heads}
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			info := sh.Classify(c)
			p.Add(c.ID, info)
		}
		for _, r := range m.ToolResults {
			if call, ok := p.settle(r); ok {
				g.Result(m, call, r)
			}
		}
	}
	return g.snapshot()
}

// gitSeen is the state ReadGitSeen builds as it reads.
type gitSeen struct {
	cwd   string
	heads *Headlines
	out   handoff.GitSeen
	seen  bool // anything worth reporting was read
	// aheadKnown is set while Ahead counts against a known upstream.
	aheadKnown bool
}

var (
	gitCmdRe = prose.LazyRE(rulebook.Pattern("facts.git-program"))
	// statusBranchRe is the first line of `git status --short --branch`.
	statusBranchRe = prose.LazyRE(rulebook.Pattern("facts.status-branch"))
	aheadRe        = prose.LazyRE(rulebook.Pattern("facts.ahead"))
	behindRe       = prose.LazyRE(rulebook.Pattern("facts.behind"))
	// Long-form status lines.
	onBranchRe   = prose.LazyRE(rulebook.Pattern("facts.on-branch"))
	upToDateRe   = prose.LazyRE(rulebook.Pattern("facts.up-to-date"))
	branchAhead  = prose.LazyRE(rulebook.Pattern("facts.branch-ahead"))
	branchBehind = prose.LazyRE(rulebook.Pattern("facts.branch-behind"))
	divergedRe   = prose.LazyRE(rulebook.Pattern("facts.diverged"))
	divergedNRe  = prose.LazyRE(rulebook.Pattern("facts.diverged-counts"))
	longEntryRe  = prose.LazyRE(rulebook.Pattern("facts.long-entry"))
	// porcelainRe is one line of `git status --short/--porcelain` with its
	// leading blanks gone (console pastes lose them): a two-letter code,
	// or one letter followed by one blank (a worktree change, " M") or
	// two (an index change, "M ").
	porcelainRe = prose.LazyRE(rulebook.Pattern("facts.porcelain"))
	// longStatusRe is output that opens as git's long status does.
	longStatusRe = prose.LazyRE(rulebook.Pattern("facts.long-status"))
	// pushRefRe is a ref update git push printed.
	pushRefRe    = prose.LazyRE(rulebook.Pattern("facts.push-ref"))
	pushToRe     = prose.LazyRE(rulebook.Pattern("facts.push-to"))
	pushRejectRe = prose.LazyRE(rulebook.Pattern("facts.push-reject"))
)

// Result reads one tool result.
func (g *gitSeen) Result(m handoff.Message, call *CallInfo, r handoff.ToolResult) {
	fail := g.heads.Failed(r)
	if call != nil && call.Kind == KindEdit && !fail {
		g.edited(m, call.Paths, call.Name)
		return
	}
	if call != nil && !call.Shell() {
		return
	}
	out := gitOutput(r.Content)
	if !fail && longStatusRe.MatchString(out) && (call == nil || gitLoosely(call.Command)) {
		// git's long status under another git command: console pastes
		// pair results loosely, and a commit with nothing to commit
		// prints it.
		g.status(m, gitSeg{sub: "status"}, out)
		return
	}
	if call == nil {
		// A result the transcript did not tie to its call (a console
		// paste cut the call's header): only git's own unmistakable
		// output counts.
		g.unpaired(m, out, false)
		return
	}
	if len(call.Paths) > 0 && !fail {
		g.edited(m, call.Paths, "shell")
	}
	segs := gitSegments(call.Command)
	commits := GitCommitRe.FindAllStringSubmatch(out, -1)
	if !slices.ContainsFunc(segs, func(s gitSeg) bool { return s.sub == "commit" || s.sub == "push" }) {
		// git's own commit summary or push report under a command that
		// does not show it (a script, a hook, a call the format paired
		// loosely) still happened.
		g.unpaired(m, out, slices.ContainsFunc(segs, func(s gitSeg) bool { return s.sub == "revert" || s.sub == "cherry-pick" }))
	}
	run := gitRun{m: m, out: out, fail: fail, commits: commits}
	for i, s := range segs {
		g.segment(&run, i, s)
	}
}

// gitRun is one shell call's output as its git segments read it.
type gitRun struct {
	m       handoff.Message
	out     string
	fail    bool
	commits [][]string // gitCommitRe's matches in out
	// committed is set by the chain's first commit segment: the commit
	// summaries in out are all read with it.
	committed bool
}

// segment reads one git invocation of the call by its subcommand.
func (g *gitSeen) segment(run *gitRun, i int, s gitSeg) {
	m, out, fail := run.m, run.out, run.fail
	switch s.sub {
	case "status":
		if !fail {
			g.status(m, s, out)
		}
	case "add", "rm", "mv":
		if !fail {
			g.stage(m, s)
		}
	case "commit":
		if !run.committed {
			run.committed = true
			g.commitSegment(run, s)
		}
	case "push":
		// A failure is the push's own only when it ran first or git
		// said so: an earlier step failing stops the chain before it.
		g.Push(m, s, out, fail && (i == 0 || pushRejectRe.MatchString(out)))
	case "stash":
		if !fail {
			g.stash(m, s)
		}
	case "reset", "checkout", "restore", "clean", "switch", "pull", "merge", "rebase", "cherry-pick", "revert", "am":
		g.mutateSegment(run, s)
	}
}

// commitSegment records the commits git summarised, or a commit of what
// was staged when it printed no summary but did not say there was
// nothing to commit.
func (g *gitSeen) commitSegment(run *gitRun, s gitSeg) {
	if len(run.commits) > 0 {
		for _, c := range run.commits {
			g.commit(run.m, s, c[1], c[2])
		}
		return
	}
	out := run.out
	if !run.fail && !strings.Contains(out, "nothing to commit") && !strings.Contains(out, "no changes added to commit") && !strings.Contains(out, "nothing added to commit") {
		g.commit(run.m, s, "", "")
	}
}

// mutateSegment records a command that changes the tree or the branch,
// and the branch a checkout or switch moved to.
func (g *gitSeen) mutateSegment(run *gitRun, s gitSeg) {
	if (s.sub == "revert" || s.sub == "cherry-pick") && len(run.commits) > 0 {
		return // a new commit on the branch, read above
	}
	if !run.fail {
		g.mutate(run.m, s)
	}
	if sw := switchedRe.FindStringSubmatch(run.out); sw != nil && sw[1] != "" && (s.sub == "checkout" || s.sub == "switch") {
		// The session is on that branch from here on (git says
		// so only when the switch worked, whatever later steps of
		// the chain did).
		g.out.Head = sw[1]
	}
}

// gitLoosely reports a command that runs git but not `git status`.
func gitLoosely(cmd string) bool {
	segs := gitSegments(cmd)
	return len(segs) > 0 && !slices.ContainsFunc(segs, func(s gitSeg) bool { return s.sub == "status" })
}

// unpaired reads a result whose git command is unknown for a commit
// summary and a push's ref updates. Unless the command is known to commit
// only what it brings (a revert, a cherry-pick), what such a commit took
// from the tree is not known: the edits seen before it may be in it.
func (g *gitSeen) unpaired(m handoff.Message, out string, scopeKnown bool) {
	for _, c := range GitCommitRe.FindAllStringSubmatch(out, -1) {
		g.commit(m, gitSeg{sub: "commit"}, c[1], c[2])
		if !scopeKnown && g.out.Status != nil {
			g.out.Edited = nil
			g.changed(m, "git commit → "+c[2])
		}
	}
	if pushToRe.MatchString(out) && hasPushRef(out) {
		g.Push(m, gitSeg{sub: "push"}, out, false)
	}
}

// gitOutput is a result's text without format wrappers (Codex headers,
// SpecStory's command line and fence), lines kept as printed.
func gitOutput(content string) string {
	if _, out, ok := specStoryShell(content); ok {
		content = out
	}
	content = strings.TrimPrefix(content, "Error: ")
	if !WrapperLineRe.MayMatch(content) && !blankBeforeBreak(content) {
		return content // no wrapper line, nothing to trim: as printed
	}
	lines := strings.Split(content, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if WrapperLineRe.MatchString(strings.TrimSpace(l)) {
			continue
		}
		kept = append(kept, strings.TrimRight(l, " \t\r"))
	}
	return strings.Join(kept, "\n")
}

// blankBeforeBreak reports whether a line of s ends in a blank that
// gitOutput trims.
func blankBeforeBreak(s string) bool {
	return strings.Contains(s, " \n") || strings.Contains(s, "\t\n") || strings.Contains(s, "\r\n") ||
		strings.HasSuffix(s, " ") || strings.HasSuffix(s, "\t") || strings.HasSuffix(s, "\r")
}

// stage moves the paths `git add`, `git rm` or `git mv` names into the
// index.
func (g *gitSeen) stage(m handoff.Message, s gitSeg) {
	if g.out.Status == nil {
		return
	}
	all := s.flag('A', "--all") || s.flag('u', "--update")
	ops := s.operands("--chmod", "--pathspec-from-file")
	if s.sub == "add" && !all && slices.Contains(ops, ".") || slices.Contains(ops, ":/") || slices.Contains(ops, "-A") {
		all = true
	}
	var match func(string) bool
	if all {
		untracked := !s.flag('u', "--update")
		match = func(p string) bool { return untracked || !slices.Contains(g.out.Untracked, p) }
	} else {
		match = func(p string) bool { return pathspecMatch(ops, p) }
	}
	var moved []string
	for _, l := range []*[]string{&g.out.Modified, &g.out.Untracked, &g.out.Edited} {
		*l = slices.DeleteFunc(*l, func(p string) bool {
			if match(p) {
				moved = append(moved, p)
				return true
			}
			return false
		})
	}
	if s.sub == "mv" && len(ops) >= 2 {
		moved = append(moved, ops[len(ops)-1])
	}
	for _, p := range moved {
		if !slices.Contains(g.out.Staged, p) {
			g.out.Staged = append(g.out.Staged, p)
		}
	}
	if len(moved) > 0 {
		g.out.Clean = false
	}
}

// pathspecMatch reports whether a path is named by one of the operands: the
// path itself, a folder above it, or a glob.
func pathspecMatch(ops []string, p string) bool {
	for _, o := range ops {
		o = strings.TrimPrefix(o, "./")
		if o == p || strings.HasPrefix(p, strings.TrimSuffix(o, "/")+"/") || strings.HasSuffix(o, "/"+p) {
			return true
		}
		if strings.ContainsAny(o, "*?[") {
			if ok, _ := path.Match(o, p); ok {
				return true
			}
		}
	}
	return false
}

// commit applies a commit: the index is emptied (with -a the tracked
// changes too, with paths those paths), the branch is one more ahead, and
// the commit is unpushed until a push.
func (g *gitSeen) commit(m handoff.Message, s gitSeg, branch, hash string) {
	g.seen = true
	amend := s.flag(0, "--amend")
	if hash != "" && !amend {
		g.out.Unpushed = append(g.out.Unpushed, hash)
	}
	if branch != "" && branch != "HEAD" && branch != "detached" {
		if g.out.Branch != "" && branch != g.out.Branch {
			g.aheadKnown = false // a commit on another branch: the count no longer applies
		}
		g.out.Branch = branch
		g.out.Head = branch
	}
	if g.out.Status == nil {
		return
	}
	if hash == "" {
		// Committed, as far as the output tells, but which commit and
		// what it took are not shown.
		g.changed(m, s.text)
	} else {
		g.out.Commits = append(g.out.Commits, hash)
		if g.aheadKnown && !amend {
			g.out.Ahead++
		}
	}
	ops := s.operands("-m", "--message", "-F", "--file", "-C", "-c", "--reuse-message", "--reedit-message", "--author", "--date", "--fixup", "--squash", "-t", "--template", "--cleanup", "-S", "--trailer")
	switch {
	case len(ops) > 0:
		for _, l := range []*[]string{&g.out.Modified, &g.out.Staged, &g.out.Edited} {
			*l = slices.DeleteFunc(*l, func(p string) bool { return pathspecMatch(ops, p) })
		}
	case s.flag('a', "--all"):
		g.out.Modified, g.out.Staged, g.out.Edited = nil, nil, nil
	default:
		g.out.Staged = nil
	}
}

// Push records a push: a success clears what the branch was ahead, a
// failure is kept with git's first error line.
func (g *gitSeen) Push(m handoff.Message, s gitSeg, out string, fail bool) {
	ref := m.Ref()
	g.seen = true
	rejected := pushRejectRe.MatchString(out)
	var refs []string
	for _, l := range strings.Split(out, "\n") {
		if pushRefRe.MatchString(l) && !strings.Contains(l, "[rejected]") && !strings.Contains(l, "[remote rejected]") {
			refs = append(refs, strings.Join(strings.Fields(l), " "))
		}
	}
	upToDate := strings.Contains(out, "Everything up-to-date")
	if fail || rejected || len(refs) == 0 && !upToDate {
		if !fail {
			return // no evidence either way (output not shown)
		}
		g.out.PushFailed, g.out.PushError = &ref, prose.Truncate(strings.Join(strings.Fields(firstPushError(out)), " "), 200)
		return
	}
	g.out.Push, g.out.PushRefs, g.out.PushFailed, g.out.PushError = &ref, refs, nil, ""
	if len(g.out.PushRefs) > 3 {
		g.out.PushRefs = g.out.PushRefs[:3]
	}
	if sm := pushToRe.FindStringSubmatch(out); sm != nil {
		g.out.PushRemote = sm[1]
	} else if ops := s.operands("-o", "--push-option", "--repo", "--receive-pack", "--exec"); len(ops) > 0 {
		g.out.PushRemote = ops[0]
	}
	// A push of other refs (tags, another branch) leaves this branch as
	// it was.
	if s.flag(0, "--tags") && len(s.operands()) <= 1 {
		return
	}
	if g.out.Branch != "" && len(refs) > 0 && !slices.ContainsFunc(refs, func(r string) bool {
		sm := pushRefRe.FindStringSubmatch(r)
		return sm != nil && (sm[1] == g.out.Branch || strings.HasSuffix(sm[1], "/"+g.out.Branch))
	}) {
		return
	}
	g.out.Unpushed = nil
	if g.aheadKnown {
		g.out.Ahead = 0
	}
}

// firstPushError is the line of a failed push that says why.
func firstPushError(out string) string {
	for _, l := range strings.Split(out, "\n") {
		t := strings.TrimSpace(l)
		if strings.Contains(t, "[rejected]") || strings.Contains(t, "[remote rejected]") || strings.HasPrefix(t, "fatal:") ||
			strings.HasPrefix(t, "error:") || strings.HasPrefix(t, "ERROR:") || strings.HasPrefix(t, "remote: error") {
			return t
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}

// hasPushRef reports ref-update lines in an output.
func hasPushRef(out string) bool {
	for _, l := range strings.Split(out, "\n") {
		if pushRefRe.MatchString(l) {
			return true
		}
	}
	return false
}

// stash applies `git stash` (push): the tracked changes leave the tree;
// other stash commands change it in ways not shown.
func (g *gitSeen) stash(m handoff.Message, s gitSeg) {
	if g.out.Status == nil {
		return
	}
	if len(s.args) > 0 && !strings.HasPrefix(s.args[0], "-") {
		switch s.args[0] {
		case "list", "show":
			return
		case "push", "save":
		default:
			g.changed(m, s.text)
			return
		}
	}
	g.out.Modified, g.out.Staged, g.out.Edited = nil, nil, nil
	if s.flag('u', "--include-untracked") || s.flag('a', "--all") {
		g.out.Untracked = nil
	}
}

// mutate applies the commands that discard changes as far as it can tell
// which (`git checkout -- f`, `git restore f`, `git reset --hard`, `git
// clean`), and marks the others (a branch switch, a pull, a merge) as
// changes it cannot follow.
func (g *gitSeen) mutate(m handoff.Message, s gitSeg) {
	if g.out.Status == nil {
		return
	}
	ops := s.operands("-b", "-B", "-c", "-C", "--source", "-s", "-e", "--exclude", "-m")
	switch {
	case s.sub == "reset" && s.flag(0, "--hard") && len(ops) == 0:
		g.out.Modified, g.out.Staged, g.out.Edited = nil, nil, nil
	case s.sub == "reset" && len(ops) == 0:
		g.out.Modified = append(g.out.Modified, g.out.Staged...)
		g.out.Staged = nil
	case s.sub == "restore" && s.flag('S', "--staged") && len(ops) > 0:
		for _, p := range g.out.Staged {
			if pathspecMatch(ops, p) {
				g.out.Modified = append(g.out.Modified, p)
			}
		}
		g.out.Staged = slices.DeleteFunc(g.out.Staged, func(p string) bool { return pathspecMatch(ops, p) })
	case s.sub == "restore" && len(ops) > 0, s.sub == "checkout" && slices.Contains(s.args, "--") && len(ops) > 0:
		for _, l := range []*[]string{&g.out.Modified, &g.out.Edited} {
			*l = slices.DeleteFunc(*l, func(p string) bool { return pathspecMatch(ops, p) })
		}
	case s.sub == "clean" && (s.flag('f', "--force")) && !s.flag('n', "--dry-run"):
		g.out.Untracked = nil
	case s.sub == "checkout" && len(ops) == 0 && !s.flag('b', "-B"):
		// `git checkout` alone only reports.
	default:
		g.changed(m, s.text)
		g.aheadKnown = false
	}
}

// changed notes a step after the status whose effect is not known.
func (g *gitSeen) changed(m handoff.Message, by string) {
	ref := m.Ref()
	g.out.Changed, g.out.ChangedBy = &ref, prose.Truncate(by, 120)
}

// edited adds the files an edit wrote after the status.
func (g *gitSeen) edited(m handoff.Message, paths []string, _ string) {
	if g.out.Status == nil {
		return
	}
	for _, p := range paths {
		p = g.relative(p)
		if p == "" || slices.Contains(g.out.Modified, p) || slices.Contains(g.out.Untracked, p) ||
			slices.Contains(g.out.Edited, p) || pathspecMatch(g.out.Untracked, p) {
			continue
		}
		g.out.Edited = append(g.out.Edited, p)
		g.out.Clean = false
	}
}

// relative makes an edit's path relative to the session's folder, as git
// prints it.
func (g *gitSeen) relative(p string) string {
	p = filepath.ToSlash(strings.TrimSpace(p))
	if g.cwd != "" {
		p = strings.TrimPrefix(p, strings.TrimSuffix(filepath.ToSlash(g.cwd), "/")+"/")
	}
	return strings.TrimPrefix(p, "./")
}

// snapshot returns what was read, or nil when nothing was.
func (g *gitSeen) snapshot() *handoff.GitSeen {
	if !g.seen {
		return nil
	}
	out := g.out
	if !g.aheadKnown {
		out.Upstream, out.Ahead, out.Behind = "", 0, 0
	}
	if out.Status != nil && len(out.Modified)+len(out.Staged)+len(out.Untracked)+len(out.Edited) > 0 {
		out.Clean = false
	}
	return &out
}
