package facts

import (
	"path"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// What a read-only call did, for handoff.Turn.ReadOnly: a successor
// needs to know that the agent looked, and where, not each look.
const (
	LookRead   = "read"
	LookSearch = "search"
	LookList   = "list"
	LookGit    = "git"
	LookPlan   = "plan"
	lookWeb    = "web"
)

// ReadOnlyCall says what a call that succeeded only looked at: "" for a
// call that changed something, failed, or has no result yet. Shell calls
// are judged by their command, editor tools by their subcommand, plan
// tools by their shape, and other tools by a path, pattern, query or URL
// input with a reading verb in their name. target is the path it looked
// at, when it names one. heads judges r once per Build (nil: every time).
func ReadOnlyCall(c handoff.ToolCall, info *CallInfo, r handoff.ToolResult, ok bool, heads *Headlines) (kind, target string) {
	if !ok {
		return "", ""
	}
	// A search that found nothing answered its question and folds with
	// the other looks; any other failed look (`ls` of a missing
	// directory, a probe that said no) keeps its own line with its exit,
	// since the fold reports every call in it as ok.
	if heads.Failed(r) && IgnoredResult(info, r) != IgnoreNoMatch {
		return "", ""
	}
	switch info.Kind {
	case KindEdit:
		return "", ""
	case KindPlan:
		return LookPlan, ""
	case KindShell:
		return ReadOnlyShell(info.Command)
	}
	in := DecodeObject(c.Input)
	if ec := Str(in, "command"); ec == "view" {
		return LookRead, firstPath(in)
	}
	if hasAny(in, contentKeys) || editNameHint(c.Name) || !readVerbName(c.Name) {
		return "", ""
	}
	p := firstPath(in)
	words := nameWords(c.Name)
	switch {
	case Str(in, "url") != "" || slices.Contains(words, "web") || slices.Contains(words, "websearch"):
		return lookWeb, ""
	case Str(in, "pattern") != "" || Str(in, "query") != "" || slices.Contains(words, "grep") || slices.Contains(words, "search"):
		return LookSearch, p
	case slices.Contains(words, "ls") || slices.Contains(words, "list") || slices.Contains(words, "glob"):
		return LookList, p
	case p != "":
		return LookRead, p
	}
	return "", ""
}

func readVerbName(name string) bool {
	for _, w := range nameWords(name) {
		switch w {
		case "read", "view", "list", "ls", "glob", "grep", "search", "find", "fetch", "get", "cat", "open", "show", "look", "query", "websearch", "webfetch":
			return true
		}
	}
	return false
}

// nameWords splits a tool name into lower-case words at _, -, ., and
// case changes: "mcp__github__get_issue" → mcp github get issue,
// "WebSearch" → web search.
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || r == ' ':
			flush()
			prevLower = false
			continue
		case r >= 'A' && r <= 'Z' && prevLower:
			flush()
		}
		cur = append(cur, r)
		prevLower = r >= 'a' && r <= 'z'
	}
	flush()
	return words
}

// redirectRe is an output redirection into a file; /dev/null and fd
// duplications (2>&1) write nothing.
var redirectRe = prose.LazyRE(rulebook.Pattern("facts.redirect"))

// ReadOnlyShell judges a shell command: read-only when every stage of
// every segment runs a program that only reads (ls, cat, sed -n, nl, rg,
// grep, find without -exec/-delete, head, tail, wc, git status/log/diff/
// show, …) and nothing is redirected into a file. The first look decides
// the kind and names the target; the stages after it filter its output.
func ReadOnlyShell(cmd string) (kind, target string) {
	if cmd == "" || strings.Contains(cmd, "<<") {
		return "", ""
	}
	for _, m := range redirectRe.FindAllStringSubmatch(cmd, -1) {
		if t := m[1] + m[2]; t != "/dev/null" {
			return "", ""
		}
	}
	for _, seg := range segSplitRe.Split(cmd, -1) {
		for _, stage := range splitUnquoted(seg, '|') {
			f := strings.Fields(stage)
			for len(f) > 0 && strings.Contains(f[0], "=") && !strings.HasPrefix(f[0], "-") {
				f = f[1:] // VAR=value
			}
			f = withoutRedirects(f)
			if len(f) == 0 {
				continue
			}
			k, t := readOnlyStage(f)
			if k == "" {
				return "", ""
			}
			if k != "cd" && kind == "" {
				kind = k // the first look decides; later stages filter it
			}
			if target == "" {
				target = t
			}
		}
	}
	return kind, target
}

// readOnlyStage judges one program and its arguments; "cd" for the
// stages that only move (cd, pwd, echo, true).
func readOnlyStage(f []string) (kind, target string) {
	prog := path.Base(f[0])
	args := f[1:]
	switch prog {
	case "cd", "pwd", "echo", "printf", "true", "clear", "sleep":
		return "cd", ""
	case "cat", "head", "tail", "nl", "wc", "less", "more", "file", "stat", "bat", "jq", "sort", "uniq", "cut", "tr", "column", "diff", "cmp", "md5sum", "sha256sum", "xxd", "od", "readlink", "realpath", "basename", "dirname", "which", "type":
		return LookRead, lastPathArg(args)
	case "sed":
		return sedStage(args)
	case "awk":
		if strings.Contains(strings.Join(args, " "), "system(") || strings.Contains(strings.Join(args, " "), "print >") {
			return "", ""
		}
		return LookRead, lastPathArg(args)
	case "ls", "tree", "du", "fd":
		return LookList, listTarget(args)
	case "find":
		return findStage(args)
	case "grep", "egrep", "fgrep", "rg", "ag", "ack":
		return LookSearch, ""
	case "git":
		return gitStage(args)
	}
	return "", ""
}

// sedStage: sed -n prints what it reads; -i edits in place.
func sedStage(args []string) (kind, target string) {
	for _, a := range args {
		if strings.HasPrefix(a, "-i") || strings.HasPrefix(a, "--in-place") {
			return "", ""
		}
	}
	if !slices.Contains(args, "-n") {
		return "", ""
	}
	return LookRead, lastPathArg(args)
}

// listTarget is the directory a listing names last, "" when it names
// none plainly (a glob, a variable).
func listTarget(args []string) string {
	for i := len(args) - 1; i >= 0; i-- {
		if a := strings.Trim(args[i], `"'`); a != "" && !strings.HasPrefix(a, "-") && !strings.ContainsAny(a, " *?$") {
			return a
		}
	}
	return ""
}

// findStage: find lists, unless it runs or deletes what it finds.
func findStage(args []string) (kind, target string) {
	for _, a := range args {
		switch a {
		case "-exec", "-execdir", "-delete", "-ok", "-okdir", "-fprint", "-fprintf", "-fls":
			return "", ""
		}
	}
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		return LookList, args[0]
	}
	return LookList, ""
}

// gitStage: git's reading subcommands, and the listing forms of branch,
// remote and tag.
func gitStage(args []string) (kind, target string) {
	for len(args) > 1 && (args[0] == "-C" || args[0] == "-c") {
		args = args[2:]
	}
	if len(args) == 0 {
		return "", ""
	}
	switch args[0] {
	case "status", "log", "diff", "show", "blame", "ls-files", "rev-parse", "shortlog", "describe":
		return LookGit, ""
	case "grep":
		return LookSearch, ""
	case "branch", "remote", "tag", "stash":
		// Listing forms only: no name to create, delete or move.
		for _, a := range args[1:] {
			if !strings.HasPrefix(a, "-") || a == "-d" || a == "-D" || a == "-m" || a == "-M" || a == "--delete" {
				return "", ""
			}
		}
		if args[0] == "stash" {
			return "", ""
		}
		return LookGit, ""
	}
	return "", ""
}

// lastPathArg is the last argument that is not a flag or a sed/awk
// script: the file a read reads.
func lastPathArg(args []string) string {
	for i := len(args) - 1; i >= 0; i-- {
		a := strings.Trim(args[i], `"'`)
		if a == "" || strings.HasPrefix(a, "-") || strings.ContainsAny(a, " {}$*?") {
			continue
		}
		if strings.Contains(a, "/") || strings.Contains(a, ".") {
			return a
		}
	}
	return ""
}

// redirectTokenRe is a redirection word: 2>/dev/null, >&2, <in.txt.
var redirectTokenRe = prose.LazyRE(rulebook.Pattern("facts.redirect-token"))

// withoutRedirects drops a stage's redirections (and the file word after
// a bare "2>"), which are no arguments of its program.
func withoutRedirects(f []string) []string {
	out := f[:0:0]
	for i := 0; i < len(f); i++ {
		if redirectTokenRe.MatchString(f[i]) {
			if strings.TrimLeft(f[i], "0123456789<>&") == "" {
				i++ // "2> file": the file is the next word
			}
			continue
		}
		out = append(out, f[i])
	}
	return out
}
