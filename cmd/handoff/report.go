package main

import (
	"fmt"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/compiler"
)

// What the commands print about their results: rendering only.

// reportCompile prints what was done, and what had to be cut, on stderr.
// extractorName is the extractor's description (builtExtractor.describe):
// the line always says whether, and where, the transcript was sent.
func (a *app) reportCompile(snap *handoff.Snapshot, res *compiler.Result, t *handoff.Transcript, noStore, unchanged bool, extractorName string) {
	u := snap.Usage
	a.status("%s · %s · %s · context %d/%d tokens (%.1f%%, %s) · prompt %d/%d tokens",
		storedWhere(snap, noStore, unchanged), t.Session.Format, extractorName, u.TokensUsed, u.ContextWindow, 100*u.ContextUtilization, usageSourceText(u.Source), res.Tokens, res.Budget)
	if len(res.Dropped) > 0 {
		parts := make([]string, 0, len(res.Dropped))
		for _, d := range res.Dropped {
			parts = append(parts, countOf(d.Count, d.Section))
		}
		more := "see 'handoff show " + snap.ID + "'"
		if noStore {
			more = "not stored: run without --no-store to keep every record"
		}
		a.status("budget cut: %s (%s)", strings.Join(parts, ", "), more)
	}
	if res.Truncated {
		a.status("budget too small: the prompt was hard-truncated")
	}
	if a.verbose {
		a.status("%s", extractionSummary(u.Extraction))
	}
	if n := len(t.Warnings); n > 0 {
		a.status("skipped or repaired %d record(s); first at line %d: %s", n, t.Warnings[0].Line, t.Warnings[0].Reason)
	}
}

// storedWhere says where a compiled snapshot went; unchanged is a
// re-compile of content its agent session's newest snapshot already holds.
func storedWhere(snap *handoff.Snapshot, noStore, unchanged bool) string {
	if noStore {
		return "not stored (--no-store)"
	}
	if unchanged {
		return fmt.Sprintf("unchanged since %s (workflow %s, session %d); nothing stored", snap.ID, snap.WorkflowID, snap.SessionNumber)
	}
	return fmt.Sprintf("snapshot %s (workflow %s, session %d)", snap.ID, snap.WorkflowID, snap.SessionNumber)
}

// resumeBody renders a resume in the --format asked for.
func resumeBody(format string, snap *handoff.Snapshot, res *compiler.Result) ([]byte, error) {
	switch format {
	case resumeMarkdown:
		return compiler.ResumeMarkdown(snap, res), nil
	case resumeJSON:
		var b strings.Builder
		if err := writeJSON(&b, snap); err != nil {
			return nil, err
		}
		return []byte(b.String()), nil
	}
	return []byte(res.Prompt), nil
}

// countOf writes n and a plural noun phrase ("open errors", "errors
// worked around"), in the singular when n is 1: its last word ending in
// a plural s loses it ("1 open error", "1 error worked around").
func countOf(n int, phrase string) string {
	if n == 1 {
		words := strings.Fields(phrase)
		for i := len(words) - 1; i >= 0; i-- {
			if w := words[i]; len(w) > 1 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
				words[i] = strings.TrimSuffix(w, "s")
				phrase = strings.Join(words, " ")
				break
			}
		}
	}
	return fmt.Sprintf("%d %s", n, phrase)
}

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// tooSmall is the error for a prompt the compiler had to hard-truncate:
// the budget is below even the next step alone, so the prompt would be a
// fragment. A person asked for a prompt, so it is an error, not an empty
// success.
func tooSmall(res *compiler.Result) error {
	if !res.Truncated {
		return nil
	}
	return handoff.Errorf(handoff.EINVALID, "--budget %d is too small for a resume prompt: even the next step alone does not fit; use a few hundred tokens or more (default 2000)", res.Budget)
}
