package facts

import (
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// Limits on file notes.
const (
	fileNoteLimit = 4800 // runes kept per file
	maxFileNotes  = 6
	// A last message this short ("Done!", "Perfect, committed.") says
	// nothing of the state; a report this long before it does.
	shortLastLimit = 300
	longReportMin  = 600
	reportLimit    = 1400
	reasoningLimit = 600
	proseLineLimit = 240 // a paragraph under a kept heading: its lead
)

var (
	// notesFileRe names the files agents keep their own notes in.
	notesFileRe = prose.LazyRE(rulebook.Pattern("facts.notes-file"))
	// notesDirRe names folders of decision records.
	notesDirRe = prose.LazyRE(rulebook.Pattern("facts.notes-dir"))
	// noteHeadingRe is a heading whose section a successor needs: what was
	// decided, what stands and what is next.
	noteHeadingRe = prose.LazyRE(rulebook.Pattern("facts.note-heading"))
	// mdHeadingRe is a heading: markdown's, a bold line, or a label line
	// ("NEXT:", "Status:") that heads the lines below it.
	mdHeadingRe = prose.LazyRE(rulebook.Pattern("facts.md-heading"))
	// openStateRe says something is still to do or not working.
	openStateRe = prose.LazyRE(rulebook.Pattern("facts.open-state"))
	// stateLineRe is a line that carries state by itself, under any
	// heading: a status mark, a checkbox, or a state word leading it.
	stateLineRe = prose.LazyRE(rulebook.Pattern("facts.state-line"))
	// ItalicLineRe is a line set wholly in italics: a document's header or
	// footer ("*Last Updated: …*"), never its state.
	ItalicLineRe = prose.LazyRE(rulebook.Pattern("facts.italic-line"))
	// BoilerplateRe starts a line that dates or frames a document.
	BoilerplateRe = prose.LazyRE(rulebook.Pattern("facts.boilerplate"))
	NoteItemRe    = prose.LazyRE(rulebook.Pattern("facts.note-item"))
	RuleLineRe    = prose.LazyRE(rulebook.Pattern("facts.rule-line"))
)

// isNotesFile reports whether an agent's edit of p writes its own notes.
func isNotesFile(p string) bool {
	// Files under a dot-directory (.codex/prompts, .claude/commands) are
	// the harness's configuration, not the agent's notes.
	for _, part := range strings.Split(path.Dir(p), "/") {
		if len(part) > 1 && strings.HasPrefix(part, ".") && part != ".." {
			return false
		}
	}
	ext := strings.ToLower(path.Ext(p))
	if ext != ".md" && ext != ".txt" && ext != ".markdown" {
		return false
	}
	return notesFileRe.MatchString(path.Base(p)) || notesDirRe.MatchString(p)
}

// noteWrite is one call's writing into a notes file.
type noteWrite struct {
	Text string
	// whole: the call wrote the whole file (Write content), so what was
	// written before is gone; an edit or a patch changes a part only.
	whole bool
	// removed is the text an edit replaced (old text, a patch's removed
	// lines): what older writes said there is no longer in the file.
	removed string
	src     handoff.MessageRef
}

// FileNotes reads what the assistant wrote into notes files, by the shape
// of its edit calls (a path plus content, new text or a patch), and of it
// the lines that carry state: the sections under headings a successor
// needs and any line marked done, broken or next. An edit of a big
// document changes a part of it, so a file's note joins its edits newest
// first, back to the last time the whole file was written. The files
// written last come first, and a history file (an archive, "previous
// notes") after every current one. These are the assistant's own words,
// not tool output.
func FileNotes(main []handoff.Message, cwd string, heads *Headlines) []handoff.FileNote {
	writes := map[string][]noteWrite{}
	var order []string
	for _, m := range main {
		if m.Role != handoff.RoleAssistant {
			continue
		}
		for _, c := range m.ToolCalls {
			for p, w := range WrittenText(c, heads) {
				if !isNotesFile(p) {
					continue
				}
				rel := relativePath(p, cwd)
				if _, ok := writes[rel]; !ok {
					order = append(order, rel)
				}
				w.src = m.Ref()
				writes[rel] = append(writes[rel], w)
			}
		}
	}
	var out []handoff.FileNote
	for _, p := range order {
		if note, ok := joinWrites(p, writes[p]); ok {
			out = append(out, note)
		}
	}
	// Current files before history files; within each, newest writing
	// first.
	slices.SortStableFunc(out, func(a, b handoff.FileNote) int {
		if x, y := a.History(), b.History(); x != y {
			if x {
				return 1
			}
			return -1
		}
		return b.Source.Index - a.Source.Index
	})
	if len(out) > maxFileNotes {
		out = out[:maxFileNotes]
	}
	return out
}

// joinWrites makes one file's note from its writes: the state lines of
// each, newest first, back to the newest whole-file write, each line once.
func joinWrites(p string, ws []noteWrite) (handoff.FileNote, bool) {
	var lines []string
	seen := map[string]bool{}
	size := 0
	var removed []string
	for i := len(ws) - 1; i >= 0 && size < fileNoteLimit; i-- {
		// Within a write, the sections that say something is open come
		// first: a long list of finished modules must not crowd out the
		// broken one below it.
		for _, l := range strings.Split(strings.Join(openFirst(NoteLines(ws[i].Text)), "\n"), "\n") {
			if l == "" {
				continue
			}
			key := strings.ToLower(l)
			if seen[key] || replacedLater(l, removed) {
				continue
			}
			seen[key] = true
			lines = append(lines, l)
			size += utf8.RuneCountInString(l) + 1
		}
		if ws[i].whole {
			break
		}
		if ws[i].removed != "" {
			removed = append(removed, ws[i].removed)
		}
	}
	if len(lines) == 0 {
		return handoff.FileNote{}, false
	}
	text := prose.ClipSentences(strings.Join(lines, "\n"), fileNoteLimit)
	return handoff.FileNote{Path: p, Text: text, Source: ws[len(ws)-1].src}, true
}

// replacedLater reports whether a line an older write added was replaced
// by a newer edit (it lies in the text that edit removed).
func replacedLater(line string, removed []string) bool {
	for _, r := range removed {
		if strings.Contains(r, line) {
			return true
		}
	}
	return false
}

// LateReport returns the assistant's last long report when its very last
// message is a short close ("Done!", "Perfect, committed."): the report
// says where things stand (status, findings, "Next Priority") and the
// close does not, even when all it reports is finished work. Only its
// state lines are kept, the open ones first.
func LateReport(main []handoff.Message) (string, handoff.MessageRef, bool) {
	var texts []handoff.Message
	for i := len(main) - 1; i >= 0 && len(texts) < 2; i-- {
		if m := main[i]; m.Role == handoff.RoleAssistant && WithoutThinking(m.Text) != "" {
			texts = append(texts, m)
		}
	}
	if len(texts) < 2 {
		return "", handoff.MessageRef{}, false
	}
	last, report := WithoutThinking(texts[0].Text), WithoutThinking(texts[1].Text)
	if utf8.RuneCountInString(last) > shortLastLimit || strings.Count(last, "\n") > 2 || utf8.RuneCountInString(report) < longReportMin {
		return "", handoff.MessageRef{}, false
	}
	blocks := openFirst(NoteLines(StripCode(report)))
	if len(blocks) == 0 {
		return "", handoff.MessageRef{}, false
	}
	return prose.ClipSentences(strings.Join(blocks, "\n"), reportLimit), texts[1].Ref(), true
}

// openFirst groups lines into blocks at their headings and puts the
// blocks that say something is still open (next, status, broken) first.
func openFirst(lines []string) []string {
	var blocks []string
	for _, l := range lines {
		if len(blocks) == 0 || mdHeadingRe.MatchString(l) {
			blocks = append(blocks, l)
			continue
		}
		blocks[len(blocks)-1] += "\n" + l
	}
	// A stable partition: open blocks first, each block matched once (a
	// sort's comparator ran the regexp n·log n times).
	open, rest := blocks[:0:0], blocks[:0:0]
	for _, b := range blocks {
		if openStateRe.MatchString(b) {
			open = append(open, b)
		} else {
			rest = append(rest, b)
		}
	}
	return append(open, rest...)
}

// ReasoningWork returns what the assistant was in the middle of when the
// session ended inside a tool loop: tool calls after its last visible
// words (or none said at all), and reasoning logged after them (Codex
// reasoning summaries, Claude thinking). The newest reasoning with a body
// states the work; the headlines of the reasoning after it, the step it
// had reached.
func ReasoningWork(main []handoff.Message) (string, handoff.MessageRef, bool) {
	lastText := -1
	for i, m := range main {
		if m.Role == handoff.RoleAssistant && WithoutThinking(m.Text) != "" {
			lastText = i
		}
	}
	calls := 0
	var thoughts []handoff.Message
	for _, m := range main[lastText+1:] {
		if m.Role != handoff.RoleAssistant {
			continue
		}
		calls += len(m.ToolCalls)
		if strings.TrimSpace(m.Thinking) != "" {
			thoughts = append(thoughts, m)
		}
	}
	if calls == 0 || len(thoughts) == 0 {
		return "", handoff.MessageRef{}, false
	}
	body := len(thoughts) - 1
	for body > 0 && !hasBody(thoughts[body].Thinking) {
		body--
	}
	text := prose.ClipSentences(SpaceRun.ReplaceAllString(strings.TrimSpace(thoughts[body].Thinking), " "), reasoningLimit)
	var then []string
	for _, m := range thoughts[body+1:] {
		then = append(then, headline(m.Thinking))
	}
	if len(then) > 0 {
		text += "\nThen: " + strings.Join(then, "; ")
	}
	return text, thoughts[len(thoughts)-1].Ref(), true
}

// hasBody reports whether reasoning says more than a one-line headline.
func hasBody(s string) bool {
	s = strings.TrimSpace(s)
	return strings.Contains(s, "\n") || utf8.RuneCountInString(s) > 120
}

// headline is reasoning's first line without emphasis ("**Verifying
// URL handling**" → "Verifying URL handling").
func headline(s string) string {
	return prose.Truncate(strings.Trim(prose.FirstLine(strings.TrimSpace(s)), "*# "), 120)
}

// WrittenText returns, per file, the text a call writes: Write content
// (the whole file), Edit/MultiEdit new text, or a patch's added lines
// (a part of it).
func WrittenText(c handoff.ToolCall, heads *Headlines) map[string]noteWrite {
	out := map[string]noteWrite{}
	in := heads.Object(c.Input)
	if p := firstPath(in); p != "" {
		var parts []string
		whole := false
		for _, k := range []string{"content", "file_text", "new_string", "new_str", "text"} {
			if v := Str(in, k); v != "" {
				parts = append(parts, v)
				whole = whole || k == "content" || k == "file_text"
			}
		}
		if edits, ok := in["edits"].([]any); ok {
			for _, e := range edits {
				if obj, ok := e.(map[string]any); ok {
					if v := Str(obj, "new_string"); v != "" {
						parts = append(parts, v)
					}
				}
			}
		}
		var gone []string
		for _, k := range []string{"old_string", "old_str"} {
			if v := Str(in, k); v != "" {
				gone = append(gone, v)
			}
		}
		if edits, ok := in["edits"].([]any); ok {
			for _, e := range edits {
				if obj, ok := e.(map[string]any); ok {
					if v := Str(obj, "old_string"); v != "" {
						gone = append(gone, v)
					}
				}
			}
		}
		if len(parts) > 0 {
			out[p] = noteWrite{Text: strings.Join(parts, "\n"), whole: whole, removed: strings.Join(gone, "\n")}
		}
		return out
	}
	if patch := patchText(c.Input); patch != "" {
		var cur string
		for _, line := range strings.Split(patch, "\n") {
			if m := patchHeaderRe.FindStringSubmatch(line); m != nil {
				cur = strings.TrimSpace(m[1] + m[2] + m[3])
				continue
			}
			switch {
			case cur == "":
			case strings.HasPrefix(line, "+") && !strings.HasPrefix(line, "+++"):
				w := out[cur]
				w.Text += line[1:] + "\n"
				out[cur] = w
			case strings.HasPrefix(line, "-") && !strings.HasPrefix(line, "---"):
				w := out[cur]
				w.removed += line[1:] + "\n"
				out[cur] = w
			}
		}
	}
	return out
}

// NoteLines keeps the lines of a notes text that carry state: the
// headings a successor needs with the lines under them, and any line
// marked done, broken, next or with a checkbox, with the heading it sits
// under. A document's italic header and footer lines, dates and rules
// are dropped. A short text without headings is kept whole.
func NoteLines(text string) []string {
	var out []string
	heading, headingOut, keep, sawHeading := "", false, false, false
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || ItalicLineRe.MatchString(t) || BoilerplateRe.MatchString(t) || RuleLineRe.MatchString(t) || strings.HasPrefix(t, "```") {
			continue
		}
		if mdHeadingRe.MatchString(t) {
			if headingOut && out[len(out)-1] == heading {
				out = out[:len(out)-1] // a heading with nothing kept under it
			}
			sawHeading = true
			heading, headingOut = t, false
			keep = noteHeadingRe.MatchString(t)
			if keep {
				out = append(out, t)
				headingOut = true
			}
			continue
		}
		if !keep && !stateLineRe.MatchString(t) {
			continue
		}
		if heading != "" && !headingOut {
			out = append(out, heading)
			headingOut = true
		}
		if !NoteItemRe.MatchString(t) && !stateLineRe.MatchString(t) {
			t = LeadSentence(t) // a paragraph: its first sentence
		}
		out = append(out, t)
	}
	if headingOut && out[len(out)-1] == heading {
		out = out[:len(out)-1]
	}
	if !sawHeading && utf8.RuneCountInString(text) <= fileNoteLimit/2 {
		var all []string
		for _, l := range strings.Split(text, "\n") {
			if t := strings.TrimSpace(l); t != "" && !ItalicLineRe.MatchString(t) && !BoilerplateRe.MatchString(t) && !RuleLineRe.MatchString(t) {
				all = append(all, t)
			}
		}
		return all
	}
	return out
}

// LeadSentence returns a paragraph's first sentence, at most
// proseLineLimit runes: a sentence ends at ".", "!" or "?" before a space
// and a capital letter, so "main.go" and "e.g. the" stay whole.
func LeadSentence(p string) string {
	for i := 0; i+2 < len(p); i++ {
		if (p[i] == '.' || p[i] == '!' || p[i] == '?') && p[i+1] == ' ' && p[i+2] >= 'A' && p[i+2] <= 'Z' {
			if i+1 < len(p)-2 {
				return prose.ClipSentences(p[:i+1], proseLineLimit) + " …"
			}
			break
		}
	}
	return prose.ClipSentences(p, proseLineLimit)
}

// relativePath names p relative to cwd when it lies inside it.
func relativePath(p, cwd string) string {
	if cwd = strings.TrimSuffix(cwd, "/"); cwd != "" && strings.HasPrefix(p, cwd+"/") {
		return strings.TrimPrefix(p, cwd+"/")
	}
	return p
}
