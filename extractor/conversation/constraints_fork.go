package conversation

import (
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
)

// forkParentRules returns the rule lists the person gave in the parent
// conversation of a forked rollout, as requests for constraints to read.
// A fork (Codex's forked sub-agent workspace) replays the parent's
// history, marked as side-chain traffic, before its own first message:
// the person's task prompt there ("Constraints: - Do not use `pnpm
// test:e2e`.") still binds the fork. Only its rule lists are read (see
// listedConstraints): the rest of the parent's talk is the parent's work.
// A side chain that starts after the main thread has begun is a Claude
// Code sub-agent, whose "user" messages the parent agent wrote; none is
// read.
func forkParentRules(msgs []handoff.Message) []handoff.Request {
	var out []handoff.Request
	for _, m := range msgs {
		if !m.Sidechain {
			break
		}
		if m.Role != handoff.RoleUser || m.Meta || m.CompactSummary {
			continue
		}
		items := ListedConstraints(facts.StripCode(CleanRequest(facts.UserRequest(m.Text))))
		if len(items) == 0 {
			continue
		}
		out = append(out, handoff.Request{Text: "Constraints:\n- " + strings.Join(items, "\n- "), Source: m.Ref(), Line: m.Line, Timestamp: m.Timestamp})
	}
	return out
}
