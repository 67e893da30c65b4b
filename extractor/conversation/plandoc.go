package conversation

import (
	"path"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
)

// ReadPlanDoc returns the outline of the newest plan document the agent
// presented for approval (a call whose input carries a multi-line "plan",
// as Claude Code's ExitPlanMode does) and that came back without an error
// or a refusal: the plan the person approved, with the phases, files and
// choices a todo list only names. nil when there is none.
func ReadPlanDoc(calls []facts.SessionCall, main []handoff.Message) *handoff.PlanDoc {
	for i := len(calls) - 1; i >= 0; i-- {
		c := calls[i]
		plan := c.InputStr("plan")
		if strings.Count(plan, "\n") < 3 || (c.Done && c.Result.Failed()) {
			continue
		}
		title, outline := PlanOutline(plan)
		if len(outline) == 0 {
			continue
		}
		return &handoff.PlanDoc{Title: title, Outline: outline, Source: main[c.At].Ref()}
	}
	return nil
}

// PlanOutline reads a plan document as its sections, one line each: a
// heading with the items under it ("Phase 2: Review-Mechanismus: Review
// skill; weekly summary"), leaving out code, tables and diagrams, at most
// 40 sections of at most 400 characters. The first heading is the title.
func PlanOutline(doc string) (string, []string) {
	var title string
	var out []string
	var cur []string
	// parent is a heading with no items of its own ("Phase 3: Learning-
	// Extraction"): it leads the sections under it.
	parent := ""
	parentLevel, curLevel := 0, 0
	flush := func() {
		switch {
		case len(cur) == 1 && strings.HasSuffix(cur[0], ":"):
			parent, parentLevel = strings.TrimSuffix(cur[0], ":")+" › ", curLevel
		case len(cur) > 0:
			out = append(out, prose.Truncate(parent+strings.TrimSuffix(strings.Join(cur, " "), ":"), 500))
		}
		cur = nil
	}
	fence := false
	// A code block in a plan is often the tree of files to create: its
	// file names join the section as one item, the rest is left out.
	var files []string
	fileRe := noteFilesRe
	for _, line := range strings.Split(doc, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			if fence && len(files) > 0 && len(cur) > 0 {
				item := "files: " + strings.Join(facts.FirstN(files, 12), ", ")
				if len(cur) > 1 {
					item = "; " + item
				}
				cur = append(cur, item)
			}
			fence, files = !fence, nil
			continue
		}
		if fence {
			for _, f := range fileRe.FindAllString(l, -1) {
				if f = path.Base(f); !slices.Contains(files, f) {
					files = append(files, f)
				}
			}
			continue
		}
		if l == "" || strings.HasPrefix(l, "|") || strings.Trim(l, "-=*_ ") == "" {
			continue
		}
		switch {
		case strings.HasPrefix(l, "#"):
			h := strings.TrimSpace(strings.TrimLeft(l, "#"))
			if title == "" {
				title = h
				continue
			}
			flush()
			level := len(l) - len(strings.TrimLeft(l, "#"))
			if level <= parentLevel {
				parent, parentLevel = "", 0 // a heading as high as the parent starts a new part
			}
			curLevel = level
			cur = []string{strings.Trim(h, "*") + ":"}
		case ListItem(l):
			item := strings.TrimSpace(strings.TrimLeft(l, "-*+0123456789.) "))
			item = strings.ReplaceAll(item, "**", "")
			if len(cur) > 1 {
				item = "; " + item
			}
			cur = append(cur, prose.Truncate(item, 160))
		}
		if len(out) == 40 {
			break
		}
	}
	flush()
	return title, out
}
