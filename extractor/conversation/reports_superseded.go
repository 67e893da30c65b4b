package conversation

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// A report's key line is quoted to a successor as how things stand. A
// line about a thing the session spoke of again afterwards — a versioned
// file produced anew under another version (`paper_v0.43.pdf (current)`
// then `cp … paper_v0.44.pdf`), or a file or identifier a later report
// or the last message states something new about — is history, not the
// current state, and is left out: the later word wins, as it does for
// the earlier findings (earlierFindings).

// versionedFileRe is a file name that carries a version: a stem ending in
// a separator, an optional "v", a version (dotted digits, or digits after
// "v"), and an extension ("paper_v0.43.pdf", "app-1.2.3.tar.gz",
// "api_v2.yaml"). Group 1 is the stem up to the version, 2 the version,
// 3 the rest of the name.
var versionedFileRe = prose.LazyRE(rulebook.Pattern("conversation.versioned-file"))

// VersionedFile is one versioned file a line names.
type VersionedFile struct {
	stem, version, rest string
}

// VersionedFiles returns the versioned files line names: a version after
// a bare digit stem needs a "v" ("run_3.log" is a numbered run, kept as a
// versioned file only when dotted: "run_3.1.log").
func VersionedFiles(line string) []VersionedFile {
	if !strings.ContainsAny(line, "0123456789") {
		return nil
	}
	var out []VersionedFile
	for _, m := range versionedFileRe.FindAllStringSubmatch(line, -1) {
		stem := m[1]
		if !strings.ContainsRune(m[2], '.') && !strings.HasSuffix(strings.ToLower(stem), "v") {
			continue
		}
		if letters(stem) < 3 {
			continue // "v1.2.tar.gz": no stem to recognise it by
		}
		out = append(out, VersionedFile{stem: stem, version: m[2], rest: m[3]})
	}
	return out
}

// letters counts the ASCII letters of s.
func letters(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c >= 'a' && c <= 'z' {
			n++
		}
	}
	return n
}

// supersession answers, for a line of the report at index i of main,
// whether the session spoke of its subject again after i.
type supersession struct {
	main []handoff.Message
	// stated holds the names (lineNames: files and identifiers; labels
	// and units are not read) that the assistant lines of main[from:]
	// give a verdict on; from only decreases, as keyLines reads reports
	// newest first.
	stated map[string]bool
	from   int
}

func newSupersession(main []handoff.Message) *supersession {
	return &supersession{main: main, stated: map[string]bool{}, from: len(main)}
}

// stale reports whether line, read in main[i], has been superseded by a
// message after it: one of its versioned files is named later under a
// version the line does not name itself, or the line gives a verdict
// (builds, fails, done) on a file or identifier that a later assistant
// line gives a verdict on too. A change alone ("Created `x.md`") is not
// undone by a later change to the same file, so it is not superseded.
func (s *supersession) stale(line string, i int) bool {
	if s.newerVersion(line, i) {
		return true
	}
	verdict := verdictRe.MatchString(line)
	if !verdict && !nextLineRe.MatchString(line) {
		return false // "Created `x.md` as …" still holds after "Updated `x.md`"
	}
	s.statedAfter(i)
	for _, n := range milestones(line) {
		if s.stated[n] {
			return true // "Phase 2 ⏳ pending", then "Phase 2 ✅"
		}
	}
	if !verdict {
		return false
	}
	for _, n := range LineNames(line) {
		if !strings.HasPrefix(n, "label:") && !strings.HasPrefix(n, "unit:") && s.stated[n] {
			return true
		}
	}
	return false
}

// statedAfter extends stated with the assistant lines of main[i+1:].
func (s *supersession) statedAfter(i int) {
	for ; s.from > i+1; s.from-- {
		m := s.main[s.from-1]
		if m.Role != handoff.RoleAssistant || m.Sidechain {
			continue
		}
		for _, l := range strings.Split(facts.StripCode(facts.WithoutThinking(m.Text)), "\n") {
			line, score, names := findingLine(l)
			if score > 0 && verdictRe.MatchString(line) {
				for _, n := range names {
					s.stated[n] = true
				}
			}
			if line = reportLine(l); verdictRe.MatchString(line) {
				for _, n := range milestones(line) {
					s.stated[n] = true
				}
			}
		}
	}
}

// newerVersion reports whether a message after main[i] — its text, tool
// calls or tool output, in any thread — names one of line's versioned
// files under a version line does not name.
func (s *supersession) newerVersion(line string, i int) bool {
	files := VersionedFiles(line)
	if len(files) == 0 {
		return false
	}
	own := map[string]bool{}
	for _, f := range files {
		own[f.stem+"\x00"+f.version] = true
	}
	for _, f := range files {
		for j := i + 1; j < len(s.main); j++ {
			m := s.main[j]
			if otherVersion(m.Text, f, own) {
				return true
			}
			for _, c := range m.ToolCalls {
				if otherVersion(string(c.Input), f, own) {
					return true
				}
			}
			for _, r := range m.ToolResults {
				if otherVersion(r.Content, f, own) {
					return true
				}
			}
		}
	}
	return false
}

// otherVersion reports whether text names f's stem and rest under a
// version that is not in own.
func otherVersion(text string, f VersionedFile, own map[string]bool) bool {
	for at := 0; ; {
		k := strings.Index(text[at:], f.stem)
		if k < 0 {
			return false
		}
		start := at + k
		at = start + len(f.stem)
		if start > 0 && isNameByte(text[start-1]) {
			continue // the stem is the tail of a longer name
		}
		n := at
		for n < len(text) && (isDigit(text[n]) || text[n] == '.' && n+1 < len(text) && isDigit(text[n+1])) {
			n++
		}
		if n == at || !strings.HasPrefix(text[n:], f.rest) {
			continue
		}
		if !own[f.stem+"\x00"+text[at:n]] {
			return true
		}
	}
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isNameByte reports whether c can be part of a file name's stem.
func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || (c|0x20) >= 'a' && (c|0x20) <= 'z'
}

// milestones are the numbered parts of a plan a line names ("phase 2",
// "step 3"), as names no file or identifier can collide with.
func milestones(line string) []string {
	var out []string
	for _, m := range numberedMilestoneRe.FindAllStringSubmatch(line, -1) {
		out = append(out, milestoneKey(m[1], m[2]))
	}
	return out
}

// milestoneKey names a numbered part ("Phase", "11") as one key,
// whatever its case.
func milestoneKey(part, n string) string {
	return "milestone:" + strings.ToLower(part) + " " + strings.ToLower(n)
}

// The patterns of this file's rules, compiled on first use behind
// their literal gates.
var (
	numberedMilestoneRe = prose.LazyRE(rulebook.Pattern("conversation.numbered-milestone"))
)
