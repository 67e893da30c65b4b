package conversation

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// ParseNote reads a handoff note (handoff.NoteTemplate's shape) out of
// text: the lines after the last NoteHeading, "- Field: text" each, a
// field's text running on over following lines that are not another
// field. ok is false when text holds no heading or the note names no next
// step and nothing done, the least a successor needs.
func ParseNote(text string) (handoff.AgentNote, bool) {
	var n handoff.AgentNote
	i := strings.LastIndex(text, handoff.NoteHeading)
	if i < 0 {
		return n, false
	}
	fieldRe := agentNoteRe
	var cur *string
	for _, line := range strings.Split(text[i+len(handoff.NoteHeading):], "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "#") {
			break // the next heading ends the note
		}
		if m := fieldRe.FindStringSubmatch(l); m != nil {
			cur = noteField(&n, m[1])
			*cur = strings.TrimSpace(m[2])
			continue
		}
		if cur != nil && l != "" {
			*cur = strings.TrimSpace(*cur + " " + l)
		}
	}
	if n.Next == "" && n.Done == "" {
		return handoff.AgentNote{}, false
	}
	return n, true
}

func noteField(n *handoff.AgentNote, label string) *string {
	switch strings.ToLower(label) {
	case "done":
		return &n.Done
	case "in flight":
		return &n.InFlight
	case "next":
		return &n.Next
	case "open problems":
		return &n.Open
	default:
		return &n.Remember
	}
}

// ReadAgentNote finds the newest handoff note in the main thread: in the
// assistant's words, or in the input of a call that handed it to handoff
// (`handoff note` in a shell, an MCP tool named for it). It marks the note
// superseded by later turns and lists where the transcript disagrees.
func ReadAgentNote(s *handoff.Snapshot, main []handoff.Message, calls []facts.SessionCall) *handoff.AgentNote {
	var note handoff.AgentNote
	at := -1
	for i := len(main) - 1; i >= 0 && at < 0; i-- {
		m := main[i]
		if m.Role != handoff.RoleAssistant {
			continue
		}
		if n, ok := ParseNote(m.Text); ok {
			note, at = n, i
			break
		}
		for _, c := range m.ToolCalls {
			if n, ok := ParseNote(noteInput(c)); ok {
				note, at = n, i
			}
		}
	}
	if at < 0 {
		return nil
	}
	note.Source = main[at].Ref()
	note.Superseded = supersededNote(main, calls, at)
	note.Disputes = noteDisputes(note, s)
	return &note
}

// noteTool ends the name of the MCP tool that takes a note
// ("mcp__handoff__handoff_note" in Claude Code).
const noteTool = "handoff_note"

// noteInput is the text of a call's input, decoded when it is a JSON
// string field (a shell command, an MCP argument), so a note handed to
// `handoff note` through a heredoc reads as written.
func noteInput(c handoff.ToolCall) string {
	if strings.HasSuffix(c.Name, noteTool) {
		var in struct{ Note string }
		if json.Unmarshal(c.Input, &in) == nil && in.Note != "" && !strings.Contains(in.Note, NoteTitle()) {
			return handoff.NoteHeading + "\n" + in.Note // the tool adds the heading a note lacks
		}
	}
	if !bytes.Contains(c.Input, []byte(NoteTitle())) { // string(c.Input) copied every input
		return ""
	}
	var fields map[string]any
	if json.Unmarshal(c.Input, &fields) != nil {
		return string(c.Input)
	}
	var b strings.Builder
	for _, v := range fields {
		if s, ok := v.(string); ok {
			b.WriteString(withoutHeredocEnd(s) + "\n")
		}
	}
	return b.String()
}

// withoutHeredocEnd cuts a shell command's heredoc at its delimiter line
// (`handoff note <<'EOF' … EOF`), so the delimiter is not read as the
// note's text.
func withoutHeredocEnd(cmd string) string {
	m := heredocRe.FindStringSubmatch(cmd)
	if m == nil {
		return cmd
	}
	if i := strings.Index(cmd, "\n"+m[1]+"\n"); i >= 0 {
		return cmd[:i]
	}
	return strings.TrimSuffix(cmd, "\n"+m[1])
}

// supersededNote reports turns after the note at main[at] that change the
// state it describes: a message of the person's, or a call that modified
// something (the agent went on working).
func supersededNote(main []handoff.Message, calls []facts.SessionCall, at int) bool {
	for _, m := range main[at+1:] {
		if m.Role == handoff.RoleUser && !m.Meta && !m.CompactSummary && CleanRequest(facts.UserRequest(m.Text)) != "" {
			return true
		}
	}
	for _, c := range calls {
		if c.At > at && (c.Info.Kind == facts.KindEdit || (c.Info.Shell() && !facts.ReadOnlyCommand(c.Info.Command) && !strings.Contains(c.Info.Command, "handoff note"))) {
			return true
		}
	}
	return false
}

// noteDisputes checks the note's claims against the computed facts: a file
// it names as done that no call modified, tests it calls green when the
// last run failed.
func noteDisputes(n handoff.AgentNote, s *handoff.Snapshot) []string {
	var out []string
	touched := map[string]bool{}
	for _, f := range s.FilesModified {
		touched[path.Base(f.Path)] = true
	}
	for _, f := range noteFilesRe.FindAllString(n.Done, -1) {
		if base := path.Base(f); !touched[base] && len(s.FilesModified) > 0 {
			out = append(out, "the note calls `"+f+"` done, but no edit in the transcript touched it")
		}
	}
	if ts := s.TestState; ts != nil && ts.Status == handoff.TestsFailing &&
		noteGreenRe.MatchString(n.Done+" "+n.InFlight) {
		out = append(out, "the note says the tests pass, but the last test run (`"+prose.Truncate(prose.FirstLine(ts.Command), 80)+"`) failed")
	}
	return out
}

// NoteTitle is NoteHeading's words without the heading marks, as they stand
// in a call's JSON input or a last message the extractor has cleaned.
func NoteTitle() string { return strings.TrimLeft(handoff.NoteHeading, "# ") }

// The patterns of this file's rules, compiled on first use behind
// their literal gates.
var (
	agentNoteRe = prose.LazyRE(rulebook.Pattern("conversation.agent-note"))
	heredocRe   = prose.LazyRE(rulebook.Pattern("conversation.heredoc"))
	noteFilesRe = prose.LazyRE(rulebook.Pattern("conversation.note-files"))
	noteGreenRe = prose.LazyRE(rulebook.Pattern("conversation.note-green"))
)
