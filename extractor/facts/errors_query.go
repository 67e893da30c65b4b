package facts

import (
	"path"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// A question asked of the machine fails as its answer: `gh auth status`
// exits 1 to say "not logged in", `systemctl status x` exits 3 to say
// "inactive", and a test run between `git stash` and `git stash pop`
// fails to say "this test fails without my change too". Such a failure
// is recorded while the session runs (a later success or report may
// still settle it), but it is not an error for the successor unless the
// assistant later names the question in a sentence that says it is
// blocked by it; records leaves the others out and counts them as
// probes. The programs whose single-word probes are settled at once
// (which, test -f, --version) are ignoredResult's.

// statusWords are the subcommands that ask how something stands or who
// one is: `gh auth status`, `git status`, `npm whoami`, `kubectl auth
// can-i`, `aws sts get-caller-identity`.
var statusWords = rulebook.Words("facts.status-words")

// askingCommand reports whether cmd only asks a question whose failing
// answer is information: a status or identity subcommand run on its own
// (its output maybe piped), or a stash probe.
func askingCommand(cmd string) bool {
	segs := segments(NormalizeCommand(cmd))
	if stashProbe(segs) {
		return true
	}
	if len(segs) != 1 {
		return false
	}
	stage, _, _ := strings.Cut(segs[0], "|")
	f := strings.Fields(stage)
	for len(f) > 0 && (strings.Contains(f[0], "=") || isWrapper(f[0])) {
		f = f[1:]
	}
	if len(f) == 0 || !IsWord(f[0]) {
		return false // a script's own subcommands are its business
	}
	// The program's subcommand path: up to three words after it, global
	// flags before it skipped ("git -C repo status" reads as git status);
	// a flag after a subcommand word ends it ("gh pr create --title
	// status" asks nothing).
	words := 0
	for i := 1; i < len(f) && words < 3; i++ {
		w := f[i]
		if strings.HasPrefix(w, "-") {
			if words > 0 {
				return false
			}
			continue
		}
		if slices.Contains(statusWords, w) {
			return true
		}
		if !IsWord(w) {
			return false // an argument: the subcommand path has ended
		}
		words++
	}
	return false
}

// stashProbe reports a chain that stashes the working changes, runs
// something on the tree without them and brings them back: `git stash &&
// pytest -k x; git stash pop` asks whether a failure predates the change.
func stashProbe(segs []string) bool {
	if len(segs) < 3 {
		return false
	}
	first, last := strings.Fields(segs[0]), strings.Fields(segs[len(segs)-1])
	if len(first) < 2 || path.Base(first[0]) != "git" || first[1] != "stash" {
		return false
	}
	if len(first) > 2 && !slices.Contains([]string{"push", "save", "-u", "--include-untracked", "-k", "--keep-index", "-q", "--quiet"}, first[2]) {
		return false // git stash list/show/drop ask nothing of the tree
	}
	return len(last) >= 3 && path.Base(last[0]) == "git" && last[1] == "stash" && (last[2] == "pop" || last[2] == "apply")
}

// blockerSayRe is a sentence saying work is held up by something.
var blockerSayRe = prose.LazyRE(rulebook.Pattern("facts.blocker-say"))

// queryBlocked marks the open question errors that an assistant sentence
// names (the command, or its program and subcommand: "gh auth status")
// and says the work is blocked by.
func (l *errorLog) queryBlocked(clean string) {
	if !blockerSayRe.MatchString(clean) {
		return
	}
	var sentences []string
	for _, e := range l.list {
		if !e.query || e.blocker {
			continue
		}
		if sentences == nil {
			sentences = prose.ProseSentences(clean)
		}
		head := queryHead(e.rec.Command)
		for _, s := range sentences {
			if blockerSayRe.MatchString(s) && head != "" && strings.Contains(strings.ToLower(s), head) {
				e.blocker = true
				break
			}
		}
	}
}

// queryHead is how a sentence names a question command: its program and
// the words of its subcommand ("gh auth status"), lower-cased; for a
// stash probe, the command run on the stashed tree.
func queryHead(cmd string) string {
	segs := segments(NormalizeCommand(cmd))
	if stashProbe(segs) {
		segs = segs[1 : len(segs)-1]
	}
	if len(segs) == 0 {
		return ""
	}
	stage, _, _ := strings.Cut(segs[0], "|")
	var head []string
	for _, w := range strings.Fields(stage) {
		if strings.HasPrefix(w, "-") {
			continue
		}
		if !IsWord(w) && len(head) > 0 {
			break
		}
		head = append(head, path.Base(w))
		if len(head) == 3 {
			break
		}
	}
	return strings.ToLower(strings.Join(head, " "))
}

// settledQuestion reports an error that records leaves out: a question's
// failing answer the assistant never said it was blocked by.
func (e *openError) settledQuestion() bool {
	return e.query && !e.blocker
}

// questionRecord marks e, just recorded for call, as a question's answer
// when call only asks one.
func (e *openError) questionRecord(call *CallInfo) {
	e.query = call.Shell() && askingCommand(call.Command)
}
