package compiler

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
)

// The edited files come in two forms. The compact line names every file
// (up to compactFiles of them) in a few tokens each: paths relative to
// the session's directory, or to the files' longest common directory,
// grouped by directory, newest first, without tool names or counts. It
// ranks high, because which files were touched is what a successor opens
// first. The detailed list (tool and edit count per file) is its longer
// variant, for budgets with room to spare.
const (
	// compactFew is the first compact line's share: the newest files,
	// cheap enough for the smallest budgets; compactFiles the longer one.
	compactFew   = 6
	compactFiles = 15
	// detailedFiles bounds the first detailed variant; the rest of the
	// files follow it in compact form.
	detailedFiles = 8
	// compactRunes bounds the compact list, compactItem one entry of it.
	compactRunes = 480
	compactItem  = 120
)

// fileGroup is the files of one directory, newest first.
type fileGroup struct {
	dir   string
	names []string
}

// editedFiles adds the compact line and the detailed list of the files
// the session modified, as one variant group.
func (b *builder) editedFiles(s *handoff.Snapshot) {
	// Newest first: the list is in order of last modification.
	newest := make([]handoff.FileChange, 0, len(s.FilesModified))
	for i := len(s.FilesModified) - 1; i >= 0; i-- {
		if !harnessState(s.FilesModified[i].Path) {
			newest = append(newest, s.FilesModified[i])
		}
	}
	n := len(newest)
	if n == 0 {
		return
	}
	paths := make([]string, n)
	for i, f := range newest {
		paths[i] = f.Path
	}
	few := compactLine("- Edited", paths, s.Source.CWD, compactFew)
	short := compactLine("- Edited", paths, s.Source.CWD, compactFiles)
	detail := make([]string, 0, detailedFiles+1)
	for _, f := range newest[:min(n, detailedFiles)] {
		detail = append(detail, detailedFile(f))
	}
	if n > detailedFiles {
		detail = append(detail, compactLine("- Before these, edited", paths[detailedFiles:], s.Source.CWD, compactFiles))
	}
	b.groups++
	g := b.groups
	b.pieces = append(b.pieces, piece{sec: secWork, rank: rankFilesLine, kind: "edited files", text: few, group: g, level: 0})
	if short != few {
		b.pieces = append(b.pieces, piece{sec: secWork, rank: rankFilesLonger, kind: "edited files", text: short, group: g, level: 1})
	}
	b.pieces = append(b.pieces, piece{sec: secWork, rank: rankFiles, kind: "files modified", text: strings.Join(detail, "\n"), group: g, level: 2})
	if n > detailedFiles {
		all := make([]string, 0, n)
		for _, f := range newest {
			all = append(all, detailedFile(f))
		}
		b.pieces = append(b.pieces, piece{sec: secWork, rank: rankFilesAll, kind: "files modified", text: strings.Join(all, "\n"), group: g, level: 3})
	}
}

// detailedFile is one file of the detailed list: its path, the tools
// that changed it and how often.
func detailedFile(f handoff.FileChange) string {
	text := "- " + code(f.Path, 200)
	if len(f.Operations) > 0 {
		ops := make([]string, 0, len(f.Operations))
		for _, o := range f.Operations {
			ops = append(ops, label(o, 30))
		}
		text += fmt.Sprintf(" (%s, %d %s)", strings.Join(ops, ", "), f.Edits, plural(f.Edits, "edit", "edits"))
	}
	return text
}

// compactLine renders up to limit of paths (newest first) as one list
// item after lead: "- Edited under `dir/` (newest first): `a.go,
// sub/{b,c}.go` (+N more)".
func compactLine(lead string, paths []string, cwd string, limit int) string {
	rel := make([]string, 0, len(paths))
	for _, p := range paths {
		rel = append(rel, relativeTo(p, cwd))
	}
	root := ""
	if len(rel) > 1 {
		root = commonDir(rel)
	}
	shown := rel[:min(len(rel), limit)]
	var groups []*fileGroup
	byDir := map[string]*fileGroup{}
	for _, p := range shown {
		p = strings.TrimPrefix(p, root)
		dir, name := path.Split(p)
		g := byDir[dir]
		if g == nil || dir == "" {
			g = &fileGroup{dir: dir}
			groups = append(groups, g)
			if dir != "" {
				byDir[dir] = g
			}
		}
		g.names = append(g.names, name)
	}
	// Whole items only, up to compactRunes: a cut path names nothing.
	items := make([]string, 0, len(groups))
	size, listed := 0, 0
	for _, g := range groups {
		item := clipText(g.render(), compactItem)
		if len(items) > 0 && size+utf8.RuneCountInString(item) > compactRunes {
			break
		}
		items = append(items, item)
		size += utf8.RuneCountInString(item) + 2
		listed += len(g.names)
	}
	text := lead
	if root != "" {
		text += " under " + code(root, 120)
	}
	if len(rel) > 1 {
		text += " (newest first)"
	}
	text += ": " + code(strings.Join(items, ", "), compactRunes+compactItem)
	if more := len(rel) - listed; more > 0 {
		text += fmt.Sprintf(" (+%d more)", more)
	}
	return text
}

// render writes a directory's files as dir/name, or dir/{a.go,b.go}:
// each file's name is kept whole so that a successor can search for it.
func (g *fileGroup) render() string {
	if len(g.names) == 1 {
		return g.dir + g.names[0]
	}
	return g.dir + "{" + strings.Join(g.names, ",") + "}"
}

// relativeTo makes an absolute path under cwd relative to it; other paths
// are returned with Windows separators turned into slashes.
func relativeTo(p, cwd string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	cwd = strings.TrimRight(strings.ReplaceAll(cwd, `\`, "/"), "/")
	if cwd != "" && strings.HasPrefix(p, cwd+"/") {
		return p[len(cwd)+1:]
	}
	return p
}

// commonDir returns the longest directory prefix (ending in "/") that all
// paths share, or "".
func commonDir(paths []string) string {
	if len(paths) == 0 {
		return ""
	}
	prefix := paths[0]
	for _, p := range paths[1:] {
		for !strings.HasPrefix(p, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	i := strings.LastIndexByte(prefix, '/')
	if i < 1 { // no directory, or only the file system's root
		return ""
	}
	return prefix[:i+1]
}
