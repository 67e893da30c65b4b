package extractor

import (
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
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
	return readGitSeenWith(msgs, cwd, nil)
}

// readGitSeenWith is ReadGitSeen sharing heads with the rest of a Build.
func readGitSeenWith(msgs []handoff.Message, cwd string, heads *headlines) *handoff.GitSeen {
	g := &gitSeen{cwd: cwd, heads: heads}
	p := newPairing()
	sh := &shapes{heads: heads}
	for _, m := range msgs {
		for _, c := range m.ToolCalls {
			info := sh.classify(c)
			p.add(c.ID, info)
		}
		for _, r := range m.ToolResults {
			if call, ok := p.settle(r); ok {
				g.result(m, call, r)
			}
		}
	}
	return g.snapshot()
}

// gitSeen is the state ReadGitSeen builds as it reads.
type gitSeen struct {
	cwd   string
	heads *headlines
	out   handoff.GitSeen
	seen  bool // anything worth reporting was read
	// aheadKnown is set while Ahead counts against a known upstream.
	aheadKnown bool
}

var (
	gitCmdRe = lazyRE(`(?:^|/)git$`)
	// statusBranchRe is the first line of `git status --short --branch`.
	statusBranchRe = lazyRE(`^## (?:No commits yet on |Initial commit on )?(\S+?)(?:\.\.\.(\S+))?(?: \[(.+)\])?$`)
	aheadRe        = lazyRE(`\bahead (\d+)`)
	behindRe       = lazyRE(`\bbehind (\d+)`)
	// Long-form status lines.
	onBranchRe   = lazyRE(`^On branch (\S+)`)
	upToDateRe   = lazyRE(`^Your branch is up to date with '([^']+)'`)
	branchAhead  = lazyRE(`^Your branch is ahead of '([^']+)' by (\d+) commits?`)
	branchBehind = lazyRE(`^Your branch is behind '([^']+)' by (\d+) commits?`)
	divergedRe   = lazyRE(`^Your branch and '([^']+)' have diverged`)
	divergedNRe  = lazyRE(`^and have (\d+) and (\d+) different commits`)
	longEntryRe  = lazyRE(`^(?:modified|new file|deleted|renamed|copied|typechange|both modified|both added|both deleted|deleted by us|deleted by them|added by us|added by them):\s+(.+)$`)
	// porcelainRe is one line of `git status --short/--porcelain` with its
	// leading blanks gone (console pastes lose them): a two-letter code,
	// or one letter followed by one blank (a worktree change, " M") or
	// two (an index change, "M ").
	porcelainRe = lazyRE(`^([MADRCUT?!][MADRCUT?!]|[MADRCUT?!] ?) (\S.*)$`)
	// longStatusRe is output that opens as git's long status does.
	longStatusRe = lazyRE(`^\s*(?:On branch \S+|HEAD detached (?:at|from) \S+)\s*\n\s*(?:Your branch |Changes |Untracked files|nothing to commit|All conflicts|You have unmerged|Unmerged paths)`)
	// pushRefRe is a ref update git push printed.
	pushRefRe    = lazyRE(`^\s*[+*!=-]?\s*(?:[0-9a-f]{7,40}\.\.\.?[0-9a-f]{7,40}|\[new branch\]|\[new tag\]|\[new reference\]|\[up to date\])\s+(\S+)\s+->\s+(\S+)`)
	pushToRe     = lazyRE(`(?m)^\s*To (\S+)\s*$`)
	pushRejectRe = lazyRE(`(?m)\[(?:rejected|remote rejected)\]|^error: failed to push|^fatal: `)
)

// result reads one tool result.
func (g *gitSeen) result(m handoff.Message, call *callInfo, r handoff.ToolResult) {
	fail := g.heads.failed(r)
	if call != nil && call.kind == kindEdit && !fail {
		g.edited(m, call.paths, call.Name)
		return
	}
	if call != nil && !call.shell() {
		return
	}
	out := gitOutput(r.Content)
	if !fail && longStatusRe.MatchString(out) && (call == nil || gitLoosely(call.command)) {
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
	if len(call.paths) > 0 && !fail {
		g.edited(m, call.paths, "shell")
	}
	segs := gitSegments(call.command)
	commits := gitCommitRe.FindAllStringSubmatch(out, -1)
	if !slices.ContainsFunc(segs, func(s gitSeg) bool { return s.sub == "commit" || s.sub == "push" }) {
		// git's own commit summary or push report under a command that
		// does not show it (a script, a hook, a call the format paired
		// loosely) still happened.
		g.unpaired(m, out, slices.ContainsFunc(segs, func(s gitSeg) bool { return s.sub == "revert" || s.sub == "cherry-pick" }))
	}
	committed := false
	for i, s := range segs {
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
			if committed {
				continue
			}
			committed = true
			if len(commits) > 0 {
				for _, c := range commits {
					g.commit(m, s, c[1], c[2])
				}
			} else if !fail && !strings.Contains(out, "nothing to commit") && !strings.Contains(out, "no changes added to commit") && !strings.Contains(out, "nothing added to commit") {
				g.commit(m, s, "", "")
			}
		case "push":
			// A failure is the push's own only when it ran first or git
			// said so: an earlier step failing stops the chain before it.
			g.push(m, s, out, fail && (i == 0 || pushRejectRe.MatchString(out)))
		case "stash":
			if !fail {
				g.stash(m, s)
			}
		case "reset", "checkout", "restore", "clean", "switch", "pull", "merge", "rebase", "cherry-pick", "revert", "am":
			if (s.sub == "revert" || s.sub == "cherry-pick") && len(commits) > 0 {
				continue // a new commit on the branch, read above
			}
			if !fail {
				g.mutate(m, s)
			}
			if sw := switchedRe.FindStringSubmatch(out); sw != nil && sw[1] != "" && (s.sub == "checkout" || s.sub == "switch") {
				// The session is on that branch from here on (git says
				// so only when the switch worked, whatever later steps of
				// the chain did).
				g.out.Head = sw[1]
			}
		}
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
	for _, c := range gitCommitRe.FindAllStringSubmatch(out, -1) {
		g.commit(m, gitSeg{sub: "commit"}, c[1], c[2])
		if !scopeKnown && g.out.Status != nil {
			g.out.Edited = nil
			g.changed(m, "git commit → "+c[2])
		}
	}
	if pushToRe.MatchString(out) && hasPushRef(out) {
		g.push(m, gitSeg{sub: "push"}, out, false)
	}
}

// gitOutput is a result's text without format wrappers (Codex headers,
// SpecStory's command line and fence), lines kept as printed.
func gitOutput(content string) string {
	if _, out, ok := specStoryShell(content); ok {
		content = out
	}
	content = strings.TrimPrefix(content, "Error: ")
	if !wrapperLineRe.mayMatch(content) && !blankBeforeBreak(content) {
		return content // no wrapper line, nothing to trim: as printed
	}
	lines := strings.Split(content, "\n")
	kept := lines[:0]
	for _, l := range lines {
		if wrapperLineRe.MatchString(strings.TrimSpace(l)) {
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

// gitSeg is one git invocation of a shell command: its subcommand and
// arguments, quotes removed.
type gitSeg struct {
	sub  string
	args []string
	text string
}

// gitSegments lists the git invocations of a shell command, in order.
func gitSegments(cmd string) []gitSeg {
	if !strings.Contains(cmd, "git") {
		return nil
	}
	var out []gitSeg
	for _, part := range splitShell(cmd) {
		words := shellWords(part)
		i := slices.IndexFunc(words, func(w string) bool { return gitCmdRe.MatchString(w) })
		if i < 0 {
			continue
		}
		j := i + 1
		for j < len(words) && strings.HasPrefix(words[j], "-") {
			switch words[j] {
			case "-C", "-c", "--git-dir", "--work-tree", "--namespace":
				j++
			}
			j++
		}
		if j >= len(words) {
			continue
		}
		out = append(out, gitSeg{sub: words[j], args: words[j+1:], text: strings.TrimSpace(part)})
	}
	return out
}

// splitShell cuts a command line at unquoted &&, ||, ;, | and newlines.
func splitShell(cmd string) []string {
	var parts []string
	var cur strings.Builder
	var quote rune
	rs := []rune(cmd)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(rs) {
				cur.WriteRune(c)
				i++
				c = rs[i]
			}
		case c == '\'' || c == '"':
			quote = c
		case c == ';' || c == '\n' || c == '|' || c == '&':
			parts = append(parts, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteRune(c)
	}
	return append(parts, cur.String())
}

// shellWords splits one simple command into words, removing quotes.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	var quote rune
	in := false
	for _, c := range s {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteRune(c)
			}
		case c == '\'' || c == '"':
			quote, in = c, true
		case c == '(' && !in:
			// An unquoted word cannot start with "(": what follows is a
			// subshell or, in console pastes, the call's description.
			return words
		case c == ' ' || c == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// operands are a segment's arguments that are not options, skipping the
// values of the options named in valued.
func (s gitSeg) operands(valued ...string) []string {
	var out []string
	dashdash := false
	for i := 0; i < len(s.args); i++ {
		a := s.args[i]
		if dashdash {
			out = append(out, a)
			continue
		}
		if a == "--" {
			dashdash = true
			continue
		}
		if strings.HasPrefix(a, "-") {
			// An option that takes its value in the next word, alone
			// ("-m") or ending a bundle of short options ("-am").
			if slices.Contains(valued, a) || len(a) > 2 && a[1] != '-' && !strings.Contains(a, "=") && slices.Contains(valued, "-"+a[len(a)-1:]) {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

// flag reports whether the segment has one of the long options, or a
// short option letter (also inside a bundle such as -am).
func (s gitSeg) flag(short byte, long ...string) bool {
	for _, a := range s.args {
		if a == "--" {
			return false
		}
		if slices.Contains(long, a) {
			return true
		}
		if short != 0 && len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.IndexByte(a[1:], short) >= 0 {
			// A bundle stops at an option that takes a value (-m"msg").
			if k := strings.IndexAny(a[1:], "mFCc"); k < 0 || strings.IndexByte(a[1:], short) < k {
				return true
			}
		}
	}
	return false
}

// status replaces the state with a whole-tree status's; a status limited
// to paths says nothing of the rest and is skipped.
func (g *gitSeen) status(m handoff.Message, s gitSeg, out string) {
	if len(s.operands("-u", "--untracked-files", "--ignore-submodules", "--column")) > 0 {
		return
	}
	short := s.flag('s', "--short", "--porcelain", "--porcelain=v1") || s.flag('b', "--branch") && !strings.Contains(out, "On branch")
	var st handoff.GitSeen
	var ok, aheadKnown bool
	if short {
		st, ok, aheadKnown = readShortStatus(out)
	} else {
		st, ok, aheadKnown = readLongStatus(out)
	}
	if !ok {
		return
	}
	ref := m.Ref()
	st.Status = &ref
	st.Unpushed, st.Push, st.PushRemote, st.PushRefs = g.out.Unpushed, g.out.Push, g.out.PushRemote, g.out.PushRefs
	st.PushFailed, st.PushError = g.out.PushFailed, g.out.PushError
	if st.Branch == "" {
		st.Branch = g.out.Branch
	}
	st.Head = st.Branch
	if st.Head == "" {
		st.Head = g.out.Head
	}
	if aheadKnown {
		// git's count is the truth: keep only as many session commits
		// as it says are unpushed.
		if len(st.Unpushed) > st.Ahead {
			st.Unpushed = st.Unpushed[len(st.Unpushed)-st.Ahead:]
		}
	}
	g.out, g.aheadKnown, g.seen = st, aheadKnown, true
}

// readShortStatus reads `git status --short/--porcelain [--branch]`.
func readShortStatus(out string) (st handoff.GitSeen, ok, aheadKnown bool) {
	text := strings.TrimSpace(out)
	if text == "" || strings.EqualFold(text, "(no content)") || strings.EqualFold(text, "(no output)") {
		st.Clean = true
		return st, true, false
	}
	entries := 0
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimLeft(l, " \t")
		if l == "" {
			continue
		}
		if sm := statusBranchRe.FindStringSubmatch(l); sm != nil {
			st.Branch, st.Upstream = sm[1], sm[2]
			if st.Branch == "HEAD" {
				st.Branch = ""
			}
			if st.Upstream != "" {
				aheadKnown = true
				if n := aheadRe.FindStringSubmatch(sm[3]); n != nil {
					st.Ahead, _ = strconv.Atoi(n[1])
				}
				if n := behindRe.FindStringSubmatch(sm[3]); n != nil {
					st.Behind, _ = strconv.Atoi(n[1])
				}
			}
			ok = true
			continue
		}
		sm := porcelainRe.FindStringSubmatch(l)
		if sm == nil {
			continue
		}
		code, p := sm[1], statusPath(sm[2])
		entries++
		switch {
		case code == "??":
			st.Untracked = append(st.Untracked, p)
		case code == "!!":
		case len(code) == 1: // " X": worktree only
			st.Modified = append(st.Modified, p)
		case code[1] == ' ': // "X ": index only
			st.Staged = append(st.Staged, p)
		default:
			if code[0] != ' ' && code[0] != '?' {
				st.Staged = append(st.Staged, p)
			}
			st.Modified = append(st.Modified, p)
		}
	}
	if entries == 0 && !ok {
		return st, false, false
	}
	st.Clean = entries == 0
	return st, true, aheadKnown
}

// statusPath is a status entry's path: the new name of a rename, quotes
// removed.
func statusPath(p string) string {
	if i := strings.LastIndex(p, " -> "); i >= 0 {
		p = p[i+4:]
	}
	p = strings.TrimSpace(p)
	if len(p) > 1 && p[0] == '"' && p[len(p)-1] == '"' {
		p = strings.ReplaceAll(p[1:len(p)-1], `\"`, `"`)
	}
	return p
}

// readLongStatus reads `git status` in its long form.
func readLongStatus(out string) (st handoff.GitSeen, ok, aheadKnown bool) {
	var list *[]string
	for _, raw := range strings.Split(out, "\n") {
		l := strings.TrimSpace(raw)
		if l == "" {
			list = nil
			continue
		}
		if sm := onBranchRe.FindStringSubmatch(l); sm != nil {
			st.Branch, ok = sm[1], true
			continue
		}
		if strings.HasPrefix(l, "HEAD detached") || strings.HasPrefix(l, "Not currently on any branch") {
			ok = true
			continue
		}
		if sm := upToDateRe.FindStringSubmatch(l); sm != nil {
			st.Upstream, aheadKnown = sm[1], true
			continue
		}
		if sm := branchAhead.FindStringSubmatch(l); sm != nil {
			st.Upstream, aheadKnown = sm[1], true
			st.Ahead, _ = strconv.Atoi(sm[2])
			continue
		}
		if sm := branchBehind.FindStringSubmatch(l); sm != nil {
			st.Upstream, aheadKnown = sm[1], true
			st.Behind, _ = strconv.Atoi(sm[2])
			continue
		}
		if sm := divergedRe.FindStringSubmatch(l); sm != nil {
			st.Upstream, aheadKnown = sm[1], true
			continue
		}
		if sm := divergedNRe.FindStringSubmatch(l); sm != nil {
			st.Ahead, _ = strconv.Atoi(sm[1])
			st.Behind, _ = strconv.Atoi(sm[2])
			continue
		}
		switch {
		case strings.HasPrefix(l, "Changes to be committed"):
			list, ok = &st.Staged, true
			continue
		case strings.HasPrefix(l, "Changes not staged for commit"), strings.HasPrefix(l, "Unmerged paths"):
			list, ok = &st.Modified, true
			continue
		case strings.HasPrefix(l, "Untracked files"):
			list, ok = &st.Untracked, true
			continue
		case strings.HasPrefix(l, "nothing to commit"):
			ok = true
			list = nil
			continue
		case strings.HasPrefix(l, "("), strings.HasPrefix(l, "no changes added"), strings.HasPrefix(l, "nothing added"),
			strings.HasPrefix(l, "Your branch"), strings.HasPrefix(l, "and have"):
			continue
		}
		if list == nil {
			continue
		}
		if list == &st.Untracked {
			*list = append(*list, statusPath(l))
		} else if sm := longEntryRe.FindStringSubmatch(l); sm != nil {
			*list = append(*list, statusPath(sm[1]))
		} else {
			list = nil
		}
	}
	st.Clean = ok && len(st.Staged)+len(st.Modified)+len(st.Untracked) == 0 && strings.Contains(out, "nothing to commit")
	return st, ok, aheadKnown
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

// push records a push: a success clears what the branch was ahead, a
// failure is kept with git's first error line.
func (g *gitSeen) push(m handoff.Message, s gitSeg, out string, fail bool) {
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
		g.out.PushFailed, g.out.PushError = &ref, truncate(strings.Join(strings.Fields(firstPushError(out)), " "), 200)
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
	g.out.Changed, g.out.ChangedBy = &ref, truncate(by, 120)
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
