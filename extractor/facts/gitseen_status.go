package facts

import (
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
)

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
