package conversation

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// People type shell lines into an agent's chat as if it were their
// terminal: "pwd", "git push origin main", "chmod +x run.sh", a file name
// after a prompt sign ("> schemas/index.ts"), the name of a script of
// theirs ("sync-afi"). Aider sends such a line to the model, which offers
// to run it; a successor reads it best as a command that was run, like
// "/run pwd", not as a request in the person's words. shellLines marks
// them RunsCommand by their shape, in any format.

// shellProgram lists programs people type by name: a line that starts
// with one and reads as a command line (shellArgs) ran it.
var shellProgram = rulebook.WordSet("conversation.shell-programs")

// proseWordRe is a word that only prose has: an article, a pronoun, a
// modal or a question word. "go to the file that fails" and "make it
// faster" start with a program's name but are requests.
var proseWordRe = prose.LazyRE(rulebook.Pattern("conversation.prose-word"))

// shellTokenRe is a token a command line is made of: a word, a flag, a
// path, a glob, a quoted string, an assignment, an operator.
var shellTokenRe = prose.LazyRE(rulebook.Pattern("conversation.shell-token"))

// scriptNameRe is a bare name of a script or program of the person's
// own: lower-case words joined by '-' or '_', or a path to one.
var scriptNameRe = prose.LazyRE(rulebook.Pattern("conversation.script-name"))

// pathOnlyRe is a file path or name with an extension, after an
// optional prompt sign: "> schemas/index.ts", "$ ./run.sh".
var pathOnlyRe = prose.LazyRE(rulebook.Pattern("conversation.path-only"))

// ShellLine reports a message of one to three lines, each a command line
// (a known program with command-line arguments, a bare script name, or a
// prompt sign with a file name), and nothing else.
func ShellLine(text string) bool {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if len(lines) > 3 || strings.TrimSpace(text) == "" {
		return false
	}
	for _, l := range lines {
		if !commandLine(strings.TrimSpace(l)) {
			return false
		}
	}
	return true
}

// commandLine reports one line that reads as typed at a shell prompt.
func commandLine(l string) bool {
	l = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(l, "$ "), "% "))
	if l == "" || strings.ContainsAny(l[len(l)-1:], "?!") {
		return false
	}
	if pathOnlyRe.MatchString(l) {
		return true
	}
	fields := strings.Fields(l)
	if len(fields) == 1 && scriptNameRe.MatchString(fields[0]) {
		return true
	}
	if !shellProgram[fields[0]] || len(fields) > 12 || sentenceEndRe.MatchString(l) || strings.Contains(l, ", ") {
		return false
	}
	marked := false
	for _, f := range fields[1:] {
		if proseWordRe.MatchString(f) || !shellTokenRe.MatchString(f) {
			return false
		}
		marked = marked || shellMarkRe.MatchString(f)
	}
	// "make tests pass", "find bugs", "go": a program that is also an
	// English verb runs only with a flag, a path or an operator.
	return marked || !verbProgram[fields[0]]
}

// sentenceEndRe is a full stop after a word: prose, not "./...".
var sentenceEndRe = prose.LazyRE(rulebook.Pattern("conversation.sentence-end"))

// verbProgram lists the programs whose names are English verbs too.
var verbProgram = rulebook.WordSet("conversation.verb-programs")

// shellMarkRe is a token only a command line has: a flag, a path, a
// file name with an extension, a glob, a variable, an operator, a quote.
var shellMarkRe = prose.LazyRE(rulebook.Pattern("conversation.shell-mark"))

// markShellLines marks the requests that are only shell lines RunsCommand.
func markShellLines(reqs []handoff.Request) {
	for i, r := range reqs {
		if r.Command == "" && r.Answers == "" && !r.RunsCommand && !trivialRequest(r.Text) && ShellLine(r.Text) {
			reqs[i].RunsCommand = true
		}
	}
}
