package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/handoff-cli/handoff/internal/secretsamples"
	"github.com/handoff-cli/handoff/redact"
)

// catalogueShapes turns the first two true-positive samples of every rule
// (gitleaks' catalogue, its path-only rules, redact's own) into shapes: the
// sample as written, and as its secret what redact finds in it. A sample
// redact finds nothing in is redact's gap, which its own tests list and
// hold; it is returned apart.
func catalogueShapes() (shapes []secretShape, unfound []string) {
	all := map[string]secretsamples.Samples{}
	maps.Copy(all, secretsamples.Gitleaks())
	maps.Copy(all, secretsamples.Own())
	for id, s := range secretsamples.PathRules() {
		all[id] = secretsamples.Samples{TPs: append(slices.Clip(all[id].TPs), s.TPs...)}
	}
	for _, id := range slices.Sorted(maps.Keys(all)) {
		tps := all[id].TPs
		for k, tp := range tps[:min(2, len(tps))] {
			found := redact.Find(tp)
			if len(found) == 0 {
				unfound = append(unfound, fmt.Sprintf("%s#%d", id, k))
				continue
			}
			longest := found[0]
			for _, f := range found {
				if f.End-f.Start > longest.End-longest.Start {
					longest = f
				}
			}
			shapes = append(shapes, secretShape{name: fmt.Sprintf("%s#%d", id, k), text: tp, body: tp[longest.Start:longest.End]})
		}
	}
	return shapes, unfound
}

// catalogueTranscript is a Claude Code session (the id outputsOfEveryPath
// expects) that carries every shape in the person's request, and in
// batches of 20 in an assistant's words, a Bash command and that command's
// failing output.
func catalogueTranscript(shapes []secretShape) string {
	const session = "5ec2e7a1-0000-4000-8000-00000000aaaa"
	var lines []string
	n := 0
	ts := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	emit := func(typ string, message any) {
		n++
		b, _ := json.Marshal(map[string]any{
			"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": "/home/dev/secret-api",
			"sessionId": session, "version": "2.0.14", "gitBranch": "main", "type": typ,
			"uuid": fmt.Sprintf("00000000-0000-4000-8000-%012d", n), "timestamp": ts.Add(time.Duration(n) * time.Second).Format(time.RFC3339),
			"message": message,
		})
		lines = append(lines, string(b))
	}
	texts := func(batch []secretShape) string {
		var b strings.Builder
		for _, s := range batch {
			b.WriteString(s.text + "\n")
		}
		return b.String()
	}
	emit("user", map[string]any{"role": "user", "content": "Deploy with these credentials:\n" + texts(shapes)})
	for i := 0; i < len(shapes); i += 20 {
		batch := shapes[i:min(len(shapes), i+20)]
		id := fmt.Sprintf("toolu_cat_%03d", i)
		emit("assistant", map[string]any{"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant",
			"model": "claude-sonnet-4-5-20250929", "usage": map[string]any{"input_tokens": 10, "output_tokens": 100},
			"content": []any{
				map[string]any{"type": "text", "text": "I'll use these instead of asking again:\n" + texts(batch)},
				map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": texts(batch) + "./deploy.sh"}},
			}})
		emit("user", map[string]any{"role": "user", "content": []any{map[string]any{
			"tool_use_id": id, "type": "tool_result", "is_error": true, "content": "error: rejected\n" + texts(batch) + "Exit code 1",
		}}})
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestCatalogueSamplesLeaveNoPath plants the true positives of every rule
// redact has (gitleaks' whole catalogue and its own) in one session and
// looks for each secret on every output path TestNoSecretLeavesAnyPath
// checks: prompts, --json, show, list, parse, hooks, the SQLite files, the
// LLM request bodies.
func TestCatalogueSamplesLeaveNoPath(t *testing.T) {
	t.Parallel()
	if raceEnabled {
		t.Skip("no concurrency to check, and slow under -race: .ci/run runs it without -race")
	}
	if testing.Short() {
		t.Skip("long sweep (every catalogue sample on every output path): the full run covers it, -short skips it")
	}
	shapes, unfound := catalogueShapes()
	if len(shapes) < 400 {
		t.Fatalf("only %d catalogue samples: the catalogue or its samples went missing", len(shapes))
	}
	checked := distinctBodies(shapes)
	outputs, bodies := outputsOfEveryPath(t, catalogueTranscript(shapes), shapes[0].text)
	leaks, gap := leakCheck(t, checked, outputs)
	t.Logf("checked %d samples (%d with a secret no other sample shows) × %d outputs (%d LLM request bodies): %d leaks; samples redact finds nothing in (redact's listed misses): %v", len(shapes), len(checked), len(outputs), len(bodies), leaks+len(gap), unfound)
	if len(gap) > 0 {
		t.Errorf("parse --json leaks %d catalogue secret(s)", len(gap))
	}
}

// distinctBodies keeps the shapes whose secret's first and last 16 bytes
// no other sample shows once redacted: a range redact widens over text
// that is not secret ("…&X-Amz-Date=20250101T000000Z") would otherwise
// be reported from another sample that keeps that text.
func distinctBodies(shapes []secretShape) []secretShape {
	var redacted strings.Builder
	for _, s := range shapes {
		redacted.WriteString(redact.String(s.text) + "\n")
	}
	all := redacted.String()
	var out []secretShape
	for _, s := range shapes {
		head, tail := s.body[:min(16, len(s.body))], s.body[max(0, len(s.body)-16):]
		if !strings.Contains(all, head) && !strings.Contains(all, tail) {
			out = append(out, s)
		}
	}
	return out
}
