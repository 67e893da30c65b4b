package compiler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/internal/lazyre"
)

// Ranks of the git state the session's own commands showed, beside the
// rank table's git entries: the summary ranks as git state does, better
// when the session's last request asks for git work (commit, push), since
// then it is the work in hand; a `git status` near the end alone is not
// enough, agents check the tree before every report. The paths the
// summary leaves out come after the recent conversation's first turns: a
// long status list is what `git status` answers again in a second. Edits
// after the status are not listed past the summary: the files-modified
// list has them.
const (
	rankGitSeen      = rankGit
	rankGitSeenAsked = rankGit - 4
	rankGitSeenFiles = rankRecent + 50 // + stride 2
	// rankGitSeenStale is a status from the first half of the session
	// that later edits or git steps moved on from.
	rankGitSeenStale = rankGit + 10
	// gitSeenInline is how many paths or hashes of one kind the summary
	// names before "(+N more)".
	gitSeenInline = 3
	// gitSeenChars bounds the length of the paths one list names inline.
	gitSeenChars = 120
	// gitSeenItems bounds the path items after the summary.
	gitSeenItems = 24
)

// gitWorkRe is a request about recording or publishing work: git's own
// verbs, which most languages borrow.
var gitWorkRe = lazyre.New(`(?i)\b(?:git|commit|push|merge|stage|rebase)\w*`)

// gitSeen renders what the session's git commands showed when git itself
// could not be asked (--no-git, another machine): the tree as of the
// newest `git status`, adjusted by the commits and edits after it, and
// what is pushed. Every claim names its message, so a successor can see
// how old it is and run `git status` before trusting it.
func (b *builder) gitSeen(s *handoff.Snapshot) {
	g := s.GitSeen
	if g == nil || s.GitState != nil && s.GitState.Available {
		return
	}
	rank := rankGitSeen
	if gitSeenAsked(s) {
		rank = rankGitSeenAsked
	}
	g = touchedFirst(g, s.FilesModified)
	tree, rest := gitSeenTree(s, g)
	unpushed, last := gitSeenPush(g)
	treeRank := rank
	if g.Status != nil && g.Status.Index < s.Source.Messages/2 && (len(g.Edited) > 0 || g.Changed != nil) {
		treeRank = rankGitSeenStale // the tree has moved on since
	}
	b.add(secGit, treeRank, "git tree", tree)
	b.add(secGit, rank, "git seen", unpushed)
	b.add(secGit, rankGitSeen+1, "git seen", last)
	for i, item := range rest {
		if i == gitSeenItems {
			break
		}
		// Only beside the status line it continues.
		b.addNeeding(secGit, rankGitSeenFiles+2*i, "git files", item, "git tree")
	}
}

// gitSeenAsked reports a session whose last request is git work.
func gitSeenAsked(s *handoff.Snapshot) bool {
	return gitWorkRe.MatchString(s.LatestRequest)
}

// gitSeenTree is the summary of the working tree and the items naming the
// paths it left out.
func gitSeenTree(s *handoff.Snapshot, g *handoff.GitSeen) (string, []string) {
	if g.Status == nil {
		return "", nil
	}
	head := fmt.Sprintf("As of the last `git status` (message %d of %d)", g.Status.Index, s.Source.Messages)
	if g.Branch != "" {
		head += " on branch " + code(g.Branch, 80)
	}
	if len(g.Commits) > 0 {
		head += fmt.Sprintf(", with the %s after it (%s)", plural(len(g.Commits), "commit", fmt.Sprintf("%d commits", len(g.Commits))), codeList(g.Commits, gitSeenInline))
	}
	var parts, rest []string
	for _, set := range []struct {
		say, item string
		paths     []string
	}{
		{"uncommitted changes in ", "uncommitted", g.Modified},
		{"staged, not committed: ", "staged", g.Staged},
		{"untracked ", "untracked", g.Untracked},
	} {
		if len(set.paths) == 0 {
			continue
		}
		// The agents' own state files (history, caches) are counted,
		// not named: they change with every turn.
		work := slices.DeleteFunc(slices.Clone(set.paths), agentState)
		part := set.say + codeList(work, gitSeenInline)
		if n := len(set.paths) - len(work); n > 0 {
			if len(work) > 0 {
				part += " and "
			}
			part += plural(n, "1 file", fmt.Sprintf("%d files", n)) + " of the agents' own state in " + codeList(stateDirs(set.paths), gitSeenInline)
		}
		parts = append(parts, part)
		for _, p := range work[inlined(work, gitSeenInline):] {
			rest = append(rest, "- "+set.item+": "+code(p, 200))
		}
	}
	var text string
	switch {
	case len(parts) > 0:
		text = head + ": " + strings.Join(parts, "; ") + "."
	case g.Clean:
		text = head + ": working tree clean."
	default:
		text = head + "."
	}
	if len(g.Edited) > 0 {
		text += " Edited after it (uncommitted as far as the transcript shows): " + codeList(g.Edited, gitSeenInline) + "."
	}
	if g.Changed != nil {
		text += fmt.Sprintf(" Message %d (%s) may have changed this since: run `git status` first.", g.Changed.Index, code(g.ChangedBy, 80))
	}
	if len(parts) == 0 && !g.Clean && len(g.Edited) == 0 {
		// A status whose lists the transcript cut, or a tree later steps
		// changed in ways not shown: nothing to say of it (the commits
		// are in the push line).
		return "", nil
	}
	return text, rest
}

// gitSeenPush says what is not pushed (the branch against its upstream,
// else the commits no push followed) and, apart, the last push and a
// failed one: the first is what a successor acts on, the second evidence.
func gitSeenPush(g *handoff.GitSeen) (unpushed, last string) {
	switch {
	case g.Upstream != "" && g.Ahead > 0:
		unpushed = fmt.Sprintf("%d %s not pushed to %s", g.Ahead, plural(g.Ahead, "commit", "commits"), code(g.Upstream, 80))
		if len(g.Unpushed) == g.Ahead {
			unpushed += ": " + codeList(g.Unpushed, gitSeenInline)
		}
	case len(g.Unpushed) > 0:
		unpushed = fmt.Sprintf("%s not pushed (no `git push` after %s in the transcript): %s",
			plural(len(g.Unpushed), "Commit", "Commits"), plural(len(g.Unpushed), "it", "them"), codeList(g.Unpushed, gitSeenInline))
	}
	if g.Upstream != "" && g.Behind > 0 {
		unpushed = strings.TrimPrefix(unpushed+"; ", "; ") + fmt.Sprintf("%d %s behind %s", g.Behind, plural(g.Behind, "commit", "commits"), code(g.Upstream, 80))
	}
	if g.PushFailed != nil {
		t := fmt.Sprintf("the `git push` at message %d failed", g.PushFailed.Index)
		if g.PushError != "" {
			t += ": " + code(g.PushError, 160)
		}
		unpushed = strings.TrimPrefix(unpushed+"; ", "; ") + t
	}
	if unpushed != "" {
		unpushed = strings.ToUpper(unpushed[:1]) + unpushed[1:] + "."
	}
	if g.Push != nil {
		last = fmt.Sprintf("Last `git push`: message %d", g.Push.Index)
		if len(g.PushRefs) > 0 {
			last += ", " + code(strings.Join(g.PushRefs, ", "), 160)
		}
		if g.PushRemote != "" {
			last += " to " + code(g.PushRemote, 100)
		}
		if g.Upstream != "" && g.Ahead == 0 && g.Behind == 0 && len(g.Unpushed) == 0 {
			last += "; nothing committed after it"
		}
		last += "."
	} else if g.Upstream != "" && g.Ahead == 0 && g.Behind == 0 {
		last = "Branch up to date with " + code(g.Upstream, 80) + "."
	}
	return unpushed, last
}

// codeList names up to n items in code spans, fewer when they are long,
// with "(+N more)".
func codeList(items []string, n int) string {
	shown := make([]string, 0, min(len(items), n))
	size := 0
	for _, it := range items[:min(len(items), n)] {
		if len(shown) > 0 && size+len(it) > gitSeenChars {
			break
		}
		shown = append(shown, code(it, 120))
		size += len(it)
	}
	text := strings.Join(shown, ", ")
	if len(items) > len(shown) {
		text += fmt.Sprintf(" (+%d more)", len(items)-len(shown))
	}
	return text
}

// inlined is how many of items codeList names.
func inlined(items []string, n int) int {
	size := 0
	for i, it := range items[:min(len(items), n)] {
		if i > 0 && size+len(it) > gitSeenChars {
			return i
		}
		size += len(it)
	}
	return min(len(items), n)
}

// touchedFirst returns g with each status list ordering first the paths
// the session itself modified: git lists alphabetically, and the agent's
// own work is what a successor looks for among tool caches and logs.
func touchedFirst(g *handoff.GitSeen, files []handoff.FileChange) *handoff.GitSeen {
	if len(files) == 0 {
		return g
	}
	touched := func(p string) bool {
		for _, f := range files {
			if f.Path == p || strings.HasSuffix(f.Path, "/"+p) || strings.HasSuffix(p, "/") && strings.HasPrefix(f.Path, p) {
				return true
			}
		}
		return false
	}
	order := func(list []string) []string {
		out := make([]string, 0, len(list))
		for _, first := range []bool{true, false} {
			for _, p := range list {
				if touched(p) == first {
					out = append(out, p)
				}
			}
		}
		return out
	}
	c := *g
	c.Modified, c.Staged, c.Untracked = order(g.Modified), order(g.Staged), order(g.Untracked)
	return &c
}

// agentStateSegment reports a path segment that is a directory coding
// agents keep their own state in (history, caches, session databases)
// inside a project, or an aider history or cache file.
func agentStateSegment(seg string) bool {
	switch seg {
	case ".codex", ".claude", ".gemini", ".cursor", ".specstory":
		return true
	}
	return strings.HasPrefix(seg, ".aider.")
}

// stateDir returns the part of p up to its agent state segment ("srv/.codex/"
// of "srv/.codex/history.jsonl"), and whether it has one.
func stateDir(p string) (string, bool) {
	segs := strings.Split(strings.TrimSuffix(p, "/"), "/")
	for i, seg := range segs {
		if agentStateSegment(seg) {
			d := strings.Join(segs[:i+1], "/")
			if i < len(segs)-1 || strings.HasSuffix(p, "/") {
				d += "/"
			}
			return d, true
		}
	}
	return "", false
}

// stateDirs returns the agent state directories the paths lie in, each
// once, in order.
func stateDirs(paths []string) []string {
	var dirs []string
	for _, p := range paths {
		if d, ok := stateDir(p); ok && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// agentState reports a path inside an agent's own state directory, or an
// aider history file: a `git status` lists them as changed after every
// turn, and a successor has nothing to do with them.
func agentState(p string) bool {
	_, ok := stateDir(p)
	return ok
}
