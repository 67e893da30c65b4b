package extractor

import (
	"path"
	"regexp"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Limits on file notes.
const (
	fileNoteLimit = 1600 // runes kept per file
	maxFileNotes  = 6
)

var (
	// notesFileRe names the files agents keep their own notes in.
	notesFileRe = regexp.MustCompile(`(?i)(^|[-_./])(status|decisions?|adr|todo|plan|notes|progress|roadmap|handoff|next[-_]?steps|tasks|session[-_]?status|changelog)([-_.]|$)`)
	// notesDirRe names folders of decision records.
	notesDirRe = regexp.MustCompile(`(?i)(^|/)(adr|adrs|decisions|docs/decisions)/`)
	// noteHeadingRe is a heading whose section a successor needs.
	noteHeadingRe = regexp.MustCompile(`(?i)decision|decided|architecture|approach|design|next|todo|to do|pending|remaining|priorit|status|plan|open|issue|known|blocker|pinned|current|chose|choice`)
	mdHeadingRe   = regexp.MustCompile(`^#{1,6}\s+\S|^\*\*[^*]+\*\*:?\s*$`)
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

// fileNotes reads what the assistant wrote into notes files, by the shape
// of its edit calls (a path plus content, new text or a patch), keeping
// the latest writing per file and, of it, the sections under headings a
// successor needs. These are the assistant's own words, not tool output.
func fileNotes(main []handoff.Message, cwd string) []handoff.FileNote {
	latest := map[string]handoff.FileNote{}
	var order []string
	for _, m := range main {
		if m.Role != handoff.RoleAssistant {
			continue
		}
		for _, c := range m.ToolCalls {
			for p, text := range writtenText(c) {
				if !isNotesFile(p) {
					continue
				}
				note := noteSections(text)
				if note == "" {
					continue
				}
				rel := relativePath(p, cwd)
				if _, ok := latest[rel]; !ok {
					order = append(order, rel)
				}
				latest[rel] = handoff.FileNote{Path: rel, Text: clipSentences(note, fileNoteLimit), Source: m.Ref()}
			}
		}
	}
	// Newest writing first.
	var out []handoff.FileNote
	for _, p := range order {
		out = append(out, latest[p])
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Source.Index > out[j-1].Source.Index; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	if len(out) > maxFileNotes {
		out = out[:maxFileNotes]
	}
	return out
}

// writtenText returns, per file, the text a call writes: Write content,
// Edit/MultiEdit new text, or a patch's added lines.
func writtenText(c handoff.ToolCall) map[string]string {
	out := map[string]string{}
	in := decodeObject(c.Input)
	if p := firstPath(in); p != "" {
		var parts []string
		for _, k := range []string{"content", "file_text", "new_string", "new_str", "text"} {
			if v := str(in, k); v != "" {
				parts = append(parts, v)
			}
		}
		if edits, ok := in["edits"].([]any); ok {
			for _, e := range edits {
				if obj, ok := e.(map[string]any); ok {
					if v := str(obj, "new_string"); v != "" {
						parts = append(parts, v)
					}
				}
			}
		}
		if len(parts) > 0 {
			out[p] = strings.Join(parts, "\n")
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
			if cur != "" && strings.HasPrefix(line, "+") && !strings.HasPrefix(line, "+++") {
				out[cur] += line[1:] + "\n"
			}
		}
	}
	return out
}

// noteSections keeps the sections of a notes text whose heading a
// successor needs; a text without headings is kept whole when short.
func noteSections(text string) string {
	lines := strings.Split(text, "\n")
	var out []string
	keep, sawHeading := false, false
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if mdHeadingRe.MatchString(t) {
			sawHeading = true
			keep = noteHeadingRe.MatchString(t)
			if keep {
				out = append(out, t)
			}
			continue
		}
		if keep && t != "" {
			out = append(out, t)
		}
	}
	if !sawHeading {
		if len(text) <= fileNoteLimit {
			return strings.TrimSpace(text)
		}
		return ""
	}
	return strings.Join(out, "\n")
}

// relativePath names p relative to cwd when it lies inside it.
func relativePath(p, cwd string) string {
	if cwd = strings.TrimSuffix(cwd, "/"); cwd != "" && strings.HasPrefix(p, cwd+"/") {
		return strings.TrimPrefix(p, cwd+"/")
	}
	return p
}
