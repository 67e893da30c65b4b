package conversation

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/handoff-cli/handoff/extractor/prose"
)

// personSentences splits the person's text into sentences for the
// constraints: like splitSentences, but a sentence may also start with a
// lower-case letter, as people type in chat ("…is actually the solution.
// we just need to check if …"). Read as one, such a run of sentences
// outgrows constraintLimit and its rule is lost, or a musing and a rule
// are quoted as one. Before a lower-case letter, neither an abbreviation
// ("e.g.", "etc.", "vs.") nor a lone dot ("git add . here") ends a
// sentence.
func personSentences(text string) []string {
	var out []string
	for _, line := range unwrapped(strings.Split(text, "\n")) {
		out = prose.AppendSentencesWhere(out, prose.CleanLine(line), personBreak)
	}
	return out
}

// wrapMinWidth is the shortest line taken to be cut by a fixed width:
// narrower lines end where their writer ended them.
const wrapMinWidth = 60

// unwrapped joins each line hard-wrapped at a fixed width back onto the
// line before it: a message typed or pasted with its lines broken at a
// column ("…must include a canonical before snapshot document and after
// snapshot⏎  document, both produced with…") is one sentence, and read
// line by line its rule was cut at the break. A line continues the one
// before when that one is wide and ends without a stop, and this one is
// indented and opens with a lower-case word (a list item opens with its
// marker, a new sentence with a capital).
func unwrapped(lines []string) []string {
	out := lines[:0:0]
	for _, line := range lines {
		if n := len(out); n > 0 && continuesWrapped(out[n-1], line) {
			out[n-1] = strings.TrimRight(out[n-1], " \t\r") + " " + strings.TrimSpace(line)
			continue
		}
		out = append(out, line)
	}
	return out
}

func continuesWrapped(prev, line string) bool {
	prev = strings.TrimRight(prev, " \t\r")
	if utf8.RuneCountInString(prev) < wrapMinWidth || strings.ContainsAny(prev[len(prev)-1:], ".!?:;") {
		return false
	}
	rest := strings.TrimLeft(line, " \t")
	if len(rest) == len(line) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return unicode.IsLower(r)
}

// personBreak reports whether the stop at byte i of line ends a sentence
// of the person's: a letter follows it, and before a lower-case one it is
// neither a lone dot nor an abbreviation's.
func personBreak(line string, start, i int) bool {
	r, _ := utf8.DecodeRuneInString(line[i+2:])
	if !unicode.IsLetter(r) {
		return false
	}
	return !unicode.IsLower(r) || line[i] != '.' || i > 0 && line[i-1] != ' ' && !abbreviationBefore(line[start:i])
}

// abbreviationBefore reports whether text ends with an abbreviation whose
// full stop follows it: a dotted one ("e.g", "i.e"), a single letter
// ("J", "p"), or a short word that is seldom the last of a sentence.
func abbreviationBefore(text string) bool {
	word := text[strings.LastIndexAny(text, " (\"'“")+1:]
	if utf8.RuneCountInString(word) == 1 || strings.Contains(word, ".") && dottedLetters(word) {
		return true
	}
	switch strings.ToLower(word) {
	case "etc", "vs", "cf", "approx", "incl", "esp", "resp", "ca", "no", "nr", "fig", "sec", "ch", "vol", "bzw", "usw", "ggf":
		return true
	}
	return false
}

// dottedLetters reports an abbreviation written with inner dots ("e.g",
// "i.e", "z.B"): parts of one or two letters, unlike a version ("1.2") or
// a file name.
func dottedLetters(word string) bool {
	for _, part := range strings.Split(word, ".") {
		n := utf8.RuneCountInString(part)
		if n == 0 || n > 2 || strings.IndexFunc(part, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
			return false
		}
	}
	return true
}
