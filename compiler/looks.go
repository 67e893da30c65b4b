package compiler

import (
	"fmt"
	"path"
	"strings"

	"github.com/handoff-cli/handoff"
)

// lookKinds orders the kinds of read-only calls and names their counts.
var lookKinds = []struct{ kind, one, many string }{
	{"read", "read %d file", "read %d files"},
	{"search", "%d search", "%d searches"},
	{"list", "%d listing", "%d listings"},
	{"git", "%d git look-up", "%d git look-ups"},
	{"web", "%d web look-up", "%d web look-ups"},
	{"plan", "%d plan update", "%d plan updates"},
}

// lookDirs bounds the directories a folded line names.
const lookDirs = 3

// lookFiles bounds the files the full variant of a folded line names.
const lookFiles = 20

// lookLine folds a run of successful read-only tool calls (oldest first)
// into one line: what kinds of looks, how many, and under which
// directories ("- tool: read 14 files, 2 searches (under `lib/`,
// `app/api/`), all ok"); the full variant names the files instead. What
// was read matters to a successor mostly as where the agent's attention
// was; a line per call would cost a dozen tokens each.
func lookLine(run []handoff.Turn, cwd string) (short, full string) {
	counts := map[string]int{}
	var dirs, files []string
	seen, seenFile := map[string]bool{}, map[string]bool{}
	for i := len(run) - 1; i >= 0; i-- { // newest first
		t := run[i]
		counts[t.ReadOnly]++
		if t.Target == "" {
			continue
		}
		if !seenFile[t.Target] {
			seenFile[t.Target] = true
			files = append(files, t.Target)
		}
		d := relativeTo(t.Target, cwd)
		if t.ReadOnly == "read" || path.Ext(d) != "" {
			d = path.Dir(d)
		}
		d = strings.TrimSuffix(d, "/") + "/"
		if d == "./" || d == "/" || seen[d] {
			continue
		}
		seen[d] = true
		dirs = append(dirs, d)
	}
	var parts []string
	known := 0
	for _, k := range lookKinds {
		if n := counts[k.kind]; n > 0 {
			parts = append(parts, fmt.Sprintf(plural(n, k.one, k.many), n))
			known += n
		}
	}
	if other := len(run) - known; other > 0 {
		parts = append(parts, fmt.Sprintf("%d other read-only %s", other, plural(other, "call", "calls")))
	}
	what := "- tool: " + strings.Join(parts, ", ")
	ok := ", ok"
	if len(run) > 1 {
		ok = ", all ok"
	}
	short = what
	if len(dirs) > 0 {
		shown := make([]string, 0, lookDirs)
		for _, d := range dirs[:min(len(dirs), lookDirs)] {
			shown = append(shown, code(d, 80))
		}
		short += " (under " + strings.Join(shown, ", ")
		if more := len(dirs) - len(shown); more > 0 {
			short += fmt.Sprintf(" and %d more", more)
		}
		short += ")"
	}
	short += ok
	full = short
	if len(files) > 0 {
		full = compactLine(what+ok+"; looked at", files, cwd, lookFiles)
	}
	return short, full
}
