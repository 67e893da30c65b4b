package conversation

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
)

// patchLimit bounds the submitted patch lines kept: enough for a focused
// fix, a pointer to the file for a large one.
const patchLimit = 12

// SubmittedPatch returns the changed lines of the newest tool result that
// is a unified diff (SWE-agent's submit answers with the patch), or nil.
func SubmittedPatch(main []handoff.Message) []string {
	for i := len(main) - 1; i >= 0; i-- {
		for _, r := range main[i].ToolResults {
			body := strings.TrimSpace(strings.ReplaceAll(r.Content, "\r\n", "\n"))
			if !strings.HasPrefix(body, "diff --git ") {
				continue
			}
			var out []string
			for _, l := range strings.Split(body, "\n") {
				if len(out) == patchLimit {
					break
				}
				switch {
				case strings.HasPrefix(l, "--- "): // the old name; "+++" names the file
				case strings.HasPrefix(l, "+++ "):
					out = append(out, "file "+strings.TrimPrefix(strings.TrimPrefix(l, "+++ "), "b/"))
				case strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-"):
					if strings.TrimSpace(l[1:]) != "" {
						out = append(out, prose.Truncate(l, 200))
					}
				}
			}
			return out
		}
	}
	return nil
}

// commandsAfter returns the harness commands the person ran after message
// index last (the last assistant text) that answered with an error or
// with figures, each as "/name → answer" with the first lines of the
// harness's output that carry words or figures. A
// session that ended on "/context → 201k/200k tokens (100%)" or an API
// error ended for that reason, whatever the last assistant turn said.
func commandsAfter(main []handoff.Message, last int) []string {
	var out []string
	name := ""
	for _, m := range main[last+1:] {
		if m.Role != handoff.RoleUser {
			continue
		}
		if c := commandNameRe.FindStringSubmatch(m.Text); c != nil {
			name = c[1]
			continue
		}
		o := facts.LocalOutputRe.FindStringSubmatch(m.Text)
		if o == nil || name == "" {
			continue
		}
		// Only an error or an answer with figures says something the end
		// signal does not ("/exit → Catch you later!", "(no content)").
		answer := facts.HarnessAnswer(o[2])
		switch {
		case answer == "":
		case o[1] == "stderr":
			out = append(out, name+" → error: "+answer)
		case strings.ContainsAny(answer, "0123456789"):
			out = append(out, name+" → "+answer)
		}
		name = ""
	}
	return out
}
