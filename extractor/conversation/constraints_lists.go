package conversation

import (
	"strings"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

var (
	// ruleListHeadRe is a heading that opens a list of rules ("Constraints:",
	// "**Rules**", "## Requirements", "Don'ts:"): every item under it is a
	// constraint whatever its wording ("No new dependencies", "Batch 3 is
	// someone else's").
	ruleListHeadRe = prose.LazyRE(rulebook.Pattern("conversation.rule-list-head"))
	// formatLeadRe introduces the shape the answer must take ("Output ONLY
	// concrete findings, each as:", "Reply in this format:"); the line after
	// it is the format, and the two are one constraint.
	formatLeadRe = prose.LazyRE(rulebook.Pattern("conversation.format-lead"))
)

// ListedConstraints returns the items of the lists a rule heading opens
// in text (see ruleListHeadRe).
func ListedConstraints(text string) []string {
	var out []string
	for _, list := range listsUnder(text, ruleListHeadRe) {
		out = append(out, list...)
	}
	return out
}

// listsUnder returns, as its items, each list that a line head matches
// opens in text. A list ends at the first line that is neither an item,
// a blank line between items, nor an item's wrapped continuation.
func listsUnder(text string, head prose.LazyRegexp) [][]string {
	var lists [][]string
	in, blank, indent := false, false, 0
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		lead := len(line) - len(strings.TrimLeft(line, " \t"))
		switch {
		case head.MatchString(line):
			in, indent = true, -1
			lists = append(lists, nil)
		case !in:
		case listItemRe.MatchString(trimmed):
			lists[len(lists)-1] = append(lists[len(lists)-1], strings.TrimSpace(listItemRe.ReplaceAllString(trimmed, "")))
			indent = lead
		case trimmed == "":
			// a blank line between items keeps the list open
		case len(lists[len(lists)-1]) > 0 && !blank && indent >= 0 && lead > indent:
			items := lists[len(lists)-1]
			items[len(items)-1] += " " + trimmed // an item's wrapped line
		default:
			in = false
		}
		blank = trimmed == ""
	}
	return lists
}

// withFormat joins a sentence that introduces an output format to the
// line that gives it, and reports whether it did: "Output ONLY findings,
// each as:" says nothing without "[SEVERITY] file:line — issue — fix".
func withFormat(sents []string, j int) (string, bool) {
	if j+1 >= len(sents) || !formatLeadRe.MatchString(sents[j]) {
		return "", false
	}
	next := strings.TrimSpace(sents[j+1])
	if next == "" {
		return "", false
	}
	return strings.TrimSpace(sents[j]) + " " + next, true
}

// codeLineRe is a line of code pasted without a fence ("import {
// PoIValidator } from './PoIValidator';", "const x = require('y');"): a
// statement keyword opening it with a statement's punctuation, or a
// statement's end closing it. Words people open sentences with (from,
// let, using, return) are not keywords here: "let me know before (…)". Code sets
// no rule even when it holds a rule word ("if (!ensure(x)) {").
var codeLineRe = prose.LazyRE(rulebook.Pattern("conversation.code-line"))

// CodeLine reports a sentence that is a line of code.
func CodeLine(s string) bool {
	return codeLineRe.MatchString(s)
}
