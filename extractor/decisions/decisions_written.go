package decisions

import (
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// Decisions an agent wrote down in a file rather than said: a research or
// design document with "### Decision: Use FastAPI …" records, a status
// file's "Key Architectural Decisions" section, an ADR. The prose scan
// never sees them (they are tool-call input), yet they are the decisions
// most deliberately taken.
const (
	writtenEntryLimit   = 160 // runes per decision entry
	writtenSectionLimit = 8   // entries read under one decisions heading
)

var (
	// decisionTitleRe is a heading or label that is itself one decision:
	// "### Decision: Use X", "D2: keep Y", "**Decision**: Z", "ADR-003: W".
	decisionTitleRe = prose.LazyRE(rulebook.Pattern("decisions.decision-title"))
	// decisionsHeadingRe is a heading whose section lists decisions: its
	// words are decisions, optionally qualified ("Key Architectural
	// Decisions", "Design decisions made"), or a bare "Design",
	// "Architecture", "Approach" heading. "Decision Tree" or "Decision
	// Capture System" names a thing, not a list of choices.
	decisionsHeadingRe = prose.LazyRE(rulebook.Pattern("decisions.decisions-heading"))
	altsHeadingRe      = prose.LazyRE(rulebook.Pattern("decisions.alts-heading"))
	writtenHeadingRe   = prose.LazyRE(rulebook.Pattern("decisions.written-heading"))
	// writtenRationaleRe and writtenAltsRe label the lines a decision
	// record gives its why and what it was chosen over.
	writtenRationaleRe = prose.LazyRE(rulebook.Pattern("decisions.written-rationale"))
	writtenAltsRe      = prose.LazyRE(rulebook.Pattern("decisions.written-alts"))
	// heredocRe is a shell command that writes a file from a here-document:
	// `cat > path <<'EOF'` or `cat <<'EOF' > path`, the body up to EOF.
	heredocRe = prose.LazyRE(rulebook.Pattern("decisions.heredoc"))
)

// writtenEntry is one decision read from a written file.
type writtenEntry struct {
	text, rationale string
	label           string // decisionLabel of its title, "" when none
	alts            []string
}

// writtenDecisions returns the decisions written into prose files, each
// named with the file it was recorded in.
func writtenDecisions(files []fileText) []writtenEntry {
	var out []writtenEntry
	for _, f := range files {
		if !facts.ProseFile(f.path) {
			continue
		}
		for _, e := range decisionEntries(f.text) {
			e.text += " (" + path.Base(f.path) + ")"
			out = append(out, e)
		}
	}
	return out
}

// fileText is the text one call writes into one file.
type fileText struct{ path, text string }

// writtenFiles returns the text a call writes per file, in path order: an
// edit tool's new text, a patch's added lines, a shell here-document's
// body.
func writtenFiles(c handoff.ToolCall, heads *facts.Headlines) []fileText {
	out := map[string]string{}
	for p, w := range facts.WrittenText(c, heads) {
		out[p] = w.Text
	}
	if len(out) == 0 {
		cmd := facts.ShellCommand(heads.Object(c.Input))
		for _, m := range heredocRe.FindAllStringSubmatch(cmd, -1) {
			p := m[1] + m[4]
			if p != "" {
				out[strings.Trim(p, `'"`)] += m[5] + "\n"
			}
		}
	}
	files := make([]fileText, 0, len(out))
	for _, p := range slices.Sorted(maps.Keys(out)) {
		files = append(files, fileText{p, out[p]})
	}
	return files
}

// messageWrites holds what the calls of the message at index at write:
// Confirm and ScanWritten both read them, and gathering a long patch's
// text twice was a twentieth of a large Codex compile.
type messageWrites struct {
	at    int
	read  bool
	files []fileText
}

// written returns the files the calls of message m, at index at, write.
func (s *Set) written(at int, m handoff.Message) []fileText {
	if s.writes.read && s.writes.at == at {
		return s.writes.files
	}
	var files []fileText
	for _, c := range m.ToolCalls {
		files = append(files, writtenFiles(c, s.Heads)...)
	}
	s.writes = messageWrites{at: at, read: true, files: files}
	return files
}

// decisionEntries reads a document's decisions: each "Decision: X" title
// with its rationale and alternatives lines, and the entries of a
// decisions section (list items, a sub-heading with the items under it
// joined, or the section's lead paragraph). Fenced blocks are examples
// or code, not the document's own choices.
func decisionEntries(text string) []writtenEntry {
	var r decisionReader
	for _, raw := range strings.Split(facts.StripCode(text), "\n") {
		r.line(raw)
	}
	r.flush()
	return r.out
}

// decisionReader is decisionEntries' state as it reads a document line by
// line.
type decisionReader struct {
	out []writtenEntry
	// section is the heading level of the decisions section being read,
	// negative inside a single record ("### Decision: X"), 0 outside.
	section int
	cur     *writtenEntry
	// curHeading marks an entry begun by a sub-heading; inAlts and inWhy
	// lines under an alternatives heading or label, and a rationale's
	// paragraph.
	curHeading, inAlts, inWhy bool
	taken                     int // entries begun in this section
}

// flush keeps the current entry when it says enough.
func (r *decisionReader) flush() {
	if r.cur != nil && len([]rune(r.cur.text)) >= 8 {
		r.cur.text = prose.Truncate(r.cur.text, writtenEntryLimit)
		r.cur.rationale = prose.ClipSentences(r.cur.rationale, prose.RationaleLimit)
		r.out = append(r.out, *r.cur)
	}
	r.cur, r.curHeading, r.inAlts, r.inWhy = nil, false, false, false
}

// start begins an entry of a decisions section, up to
// writtenSectionLimit of them.
func (r *decisionReader) start(text string, heading bool) {
	r.flush()
	if r.taken < writtenSectionLimit {
		r.cur, r.curHeading = &writtenEntry{text: text}, heading
		r.taken++
	}
}

// line reads one line of the document.
func (r *decisionReader) line(raw string) {
	t := strings.TrimSpace(raw)
	if t == "" || facts.RuleLineRe.MatchString(t) {
		r.inWhy = false // a paragraph ends
		return
	}
	level, title := 0, ""
	if m := writtenHeadingRe.FindStringSubmatch(t); m != nil {
		level, title = len(m[1]), strings.Trim(m[2], "*_ ")
	}
	if m := decisionTitleRe.FindStringSubmatch(t); m != nil {
		r.flush()
		r.cur = &writtenEntry{text: strings.Trim(m[2], "*_ "), label: Label(m[1])}
		if level > 0 && r.section <= 0 {
			r.section = -level
		}
		return
	}
	if level > 0 {
		r.heading(level, title)
		return
	}
	if r.section == 0 && r.cur == nil {
		return
	}
	if r.labelled(t) {
		return
	}
	r.body(raw, t)
}

// heading reads a heading: an alternatives heading, the end of the
// section, an entry of it, or the start of a decisions section.
func (r *decisionReader) heading(level int, title string) {
	r.inAlts = r.cur != nil && altsHeadingRe.MatchString(title)
	if r.inAlts {
		return
	}
	switch {
	case r.section != 0 && level <= abs(r.section):
		r.flush()
		r.section = 0
	case r.section > 0:
		r.start(strings.TrimLeft(prose.CleanLine(title), "0123456789.) "), true)
		return
	}
	if r.section == 0 && decisionsHeadingRe.MatchString(title) {
		r.flush()
		r.section, r.taken = level, 0
	}
}

// labelled reads a "Rationale:" or "Alternatives:" line of the current
// entry, false when t is neither.
func (r *decisionReader) labelled(t string) bool {
	if r.cur == nil {
		return false
	}
	if m := writtenRationaleRe.FindStringSubmatch(t); m != nil {
		r.cur.rationale, r.inAlts, r.inWhy = m[1], false, true
		return true
	}
	if m := writtenAltsRe.FindStringSubmatch(t); m != nil {
		r.inAlts = true
		if m[1] != "" {
			r.cur.alts = append(r.cur.alts, altName(m[1]))
		}
		return true
	}
	return false
}

// body reads a line of text or a list item: a rationale wrapping on, an
// alternative, a new entry or an item joined to the current one.
func (r *decisionReader) body(raw, t string) {
	item := facts.NoteItemRe.MatchString(t)
	if r.inWhy && r.cur != nil && !item && writtenAltsRe.FindStringSubmatch(t) == nil {
		// The rationale's paragraph wraps onto this line.
		r.cur.rationale += " " + t
		return
	}
	r.inWhy = false
	top := item && len(raw)-len(strings.TrimLeft(raw, " \t")) == 0
	switch {
	case r.inAlts && item && r.cur != nil:
		r.cur.alts = append(r.cur.alts, altName(prose.CleanLine(t)))
	case r.section > 0 && top && !r.curHeading:
		r.start(prose.CleanLine(t), false)
	case r.section > 0 && !item && r.cur == nil && r.taken == 0:
		r.start(facts.LeadSentence(t), false)
	case r.section > 0 && r.cur != nil && item && len([]rune(r.cur.text)) < writtenEntryLimit:
		sep := "; "
		if !strings.Contains(r.cur.text, ":") && !strings.Contains(r.cur.text, ";") {
			sep = ": "
		}
		r.cur.text += sep + prose.CleanLine(t)
	}
}

// altName is an alternative's name without the reason it was rejected:
// "WebSocket-first transport: rejected for …" is "WebSocket-first
// transport".
func altName(s string) string {
	if i := strings.Index(s, ":"); i > 0 {
		s = s[:i]
	}
	return prose.Truncate(strings.TrimSpace(s), prose.AlternativeLimit)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// ScanWritten adds the decisions the calls of one assistant message, at
// index at, write down, sourced to that message.
func (s *Set) ScanWritten(at int, m handoff.Message, task string) {
	for _, e := range writtenDecisions(s.written(at, m)) {
		cand := candidate{Decision: handoff.Decision{
			Timestamp: m.Timestamp, TaskID: task, Source: m.Ref(),
			Description: prose.Truncate(e.text, prose.DescriptionLimit), Rationale: e.rationale,
			Alternatives: e.alts,
		}, alts: e.alts, label: e.label}
		cand.Type = s.Classify(e.text, false)
		s.Add(cand)
	}
}
