package extractor

import (
	"path"
	"strings"

	"github.com/handoff-cli/handoff"
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
	decisionTitleRe = lazyRE(`(?i)^(?:#{1,6}\s*)?(?:[-*+]\s+)?(?:\*\*)?(decision|d\d{1,2}|adr[- ]?\d{1,4})(?:\*\*)?(?:\s*[:—–]|\s+-)\s*(?:\*\*)?\s*(.{3,})$`)
	// decisionsHeadingRe is a heading whose section lists decisions: its
	// words are decisions, optionally qualified ("Key Architectural
	// Decisions", "Design decisions made"), or a bare "Design",
	// "Architecture", "Approach" heading. "Decision Tree" or "Decision
	// Capture System" names a thing, not a list of choices.
	decisionsHeadingRe = lazyRE(`(?i)^(?:\d{1,2}[.)]?\s*)?(?:(?:(?:key|main|major|important|architectur\w*|design|technical|technology|tech|implementation|recent|core|our|the|made|chosen|final|accepted)\s+)*decisions?(?:\s+made|\s+log|\s+record)?|(?:(?:the|our|chosen|final|proposed|selected|overall)\s+)?(?:design|architecture|approach))\s*(?:\([^)]*\))?\s*:?$`)
	altsHeadingRe      = lazyRE(`(?i)^(?:alternatives?(?: considered)?|options considered|rejected(?: options| alternatives)?)\s*:?$`)
	writtenHeadingRe   = lazyRE(`^(#{1,6})\s+(.+?)\s*#*$`)
	// writtenRationaleRe and writtenAltsRe label the lines a decision
	// record gives its why and what it was chosen over.
	writtenRationaleRe = lazyRE(`(?i)^(?:[-*+]\s+)?(?:\*\*)?(?:rationale|why|reason|because)(?:\*\*)?\s*:\s*(?:\*\*)?\s*(.+)$`)
	writtenAltsRe      = lazyRE(`(?i)^(?:[-*+]\s+)?(?:\*\*)?(?:alternatives?(?: considered)?|rejected|options considered)(?:\*\*)?\s*:\s*(?:\*\*)?\s*(.*)$`)
	// heredocRe is a shell command that writes a file from a here-document:
	// `cat > path <<'EOF'` or `cat <<'EOF' > path`, the body up to EOF.
	heredocRe = lazyRE(`(?s)\b(?:cat|tee)\s+(?:>>?\s*([^\s<>|;&]+)\s+<<-?\s*['"]?(\w+)['"]?|<<-?\s*['"]?(\w+)['"]?\s*>>?\s*([^\s<>|;&]+))[^\n]*\n(.*?)\n[ \t]*(?:EOF|END|MD|DOC|EOT|\w+)[ \t]*(?:\n|$)`)
)

// writtenEntry is one decision read from a written file.
type writtenEntry struct {
	text, rationale string
	label           string // decisionLabel of its title, "" when none
	alts            []string
}

// writtenDecisions returns the decisions a call writes into prose files,
// each named with the file it was recorded in.
func writtenDecisions(c handoff.ToolCall) []writtenEntry {
	var out []writtenEntry
	for p, w := range writtenFiles(c) {
		if !proseFile(p) {
			continue
		}
		for _, e := range decisionEntries(w) {
			e.text += " (" + path.Base(p) + ")"
			out = append(out, e)
		}
	}
	return out
}

// writtenFiles returns the text a call writes per file: an edit tool's
// new text, a patch's added lines, a shell here-document's body.
func writtenFiles(c handoff.ToolCall) map[string]string {
	out := map[string]string{}
	for p, w := range writtenText(c, nil) {
		out[p] = w.text
	}
	if len(out) > 0 {
		return out
	}
	cmd := shellCommand(decodeObject(c.Input))
	for _, m := range heredocRe.FindAllStringSubmatch(cmd, -1) {
		p := m[1] + m[4]
		if p != "" {
			out[strings.Trim(p, `'"`)] += m[5] + "\n"
		}
	}
	return out
}

// decisionEntries reads a document's decisions: each "Decision: X" title
// with its rationale and alternatives lines, and the entries of a
// decisions section (list items, a sub-heading with the items under it
// joined, or the section's lead paragraph). Fenced blocks are examples
// or code, not the document's own choices.
func decisionEntries(text string) []writtenEntry {
	var out []writtenEntry
	// section is the heading level of the decisions section being read,
	// negative inside a single record ("### Decision: X"), 0 outside.
	section := 0
	var cur *writtenEntry
	curHeading, inAlts, inWhy, taken := false, false, false, 0
	flush := func() {
		if cur != nil && len([]rune(cur.text)) >= 8 {
			cur.text = truncate(cur.text, writtenEntryLimit)
			cur.rationale = clipSentences(cur.rationale, rationaleLimit)
			out = append(out, *cur)
		}
		cur, curHeading, inAlts, inWhy = nil, false, false, false
	}
	start := func(text string, heading bool) {
		flush()
		if taken < writtenSectionLimit {
			cur, curHeading = &writtenEntry{text: text}, heading
			taken++
		}
	}
	for _, raw := range strings.Split(stripCode(text), "\n") {
		t := strings.TrimSpace(raw)
		if t == "" || ruleLineRe.MatchString(t) {
			inWhy = false // a paragraph ends
			continue
		}
		level, title := 0, ""
		if m := writtenHeadingRe.FindStringSubmatch(t); m != nil {
			level, title = len(m[1]), strings.Trim(m[2], "*_ ")
		}
		if m := decisionTitleRe.FindStringSubmatch(t); m != nil {
			flush()
			cur = &writtenEntry{text: strings.Trim(m[2], "*_ "), label: decisionLabel(m[1])}
			if level > 0 && section <= 0 {
				section = -level
			}
			continue
		}
		if level > 0 {
			inAlts = cur != nil && altsHeadingRe.MatchString(title)
			if inAlts {
				continue
			}
			switch {
			case section != 0 && level <= abs(section):
				flush()
				section = 0
			case section > 0:
				start(strings.TrimLeft(cleanLine(title), "0123456789.) "), true)
				continue
			}
			if section == 0 && decisionsHeadingRe.MatchString(title) {
				flush()
				section, taken = level, 0
			}
			continue
		}
		if section == 0 && cur == nil {
			continue
		}
		if m := writtenRationaleRe.FindStringSubmatch(t); m != nil && cur != nil {
			cur.rationale, inAlts, inWhy = m[1], false, true
			continue
		}
		if m := writtenAltsRe.FindStringSubmatch(t); m != nil && cur != nil {
			inAlts = true
			if m[1] != "" {
				cur.alts = append(cur.alts, altName(m[1]))
			}
			continue
		}
		item := noteItemRe.MatchString(t)
		if inWhy && cur != nil && !item && writtenAltsRe.FindStringSubmatch(t) == nil {
			// The rationale's paragraph wraps onto this line.
			cur.rationale += " " + t
			continue
		}
		inWhy = false
		top := item && len(raw)-len(strings.TrimLeft(raw, " \t")) == 0
		switch {
		case inAlts && item && cur != nil:
			cur.alts = append(cur.alts, altName(cleanLine(t)))
		case section > 0 && top && !curHeading:
			start(cleanLine(t), false)
		case section > 0 && !item && cur == nil && taken == 0:
			start(leadSentence(t), false)
		case section > 0 && cur != nil && item && len([]rune(cur.text)) < writtenEntryLimit:
			sep := "; "
			if !strings.Contains(cur.text, ":") && !strings.Contains(cur.text, ";") {
				sep = ": "
			}
			cur.text += sep + cleanLine(t)
		}
	}
	flush()
	return out
}

// altName is an alternative's name without the reason it was rejected:
// "WebSocket-first transport: rejected for …" is "WebSocket-first
// transport".
func altName(s string) string {
	if i := strings.Index(s, ":"); i > 0 {
		s = s[:i]
	}
	return truncate(strings.TrimSpace(s), alternativeLimit)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// scanWritten adds the decisions the calls of one assistant message write
// down, sourced to that message.
func (s *decisionSet) scanWritten(m handoff.Message, task string) {
	for _, c := range m.ToolCalls {
		for _, e := range writtenDecisions(c) {
			cand := candidate{Decision: handoff.Decision{
				Timestamp: m.Timestamp, TaskID: task, Source: m.Ref(),
				Description: truncate(e.text, descriptionLimit), Rationale: e.rationale,
				Alternatives: e.alts,
			}, alts: e.alts, label: e.label}
			cand.Type = s.classify(e.text, false)
			s.add(cand)
		}
	}
}
