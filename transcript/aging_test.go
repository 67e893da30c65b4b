package transcript

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff/redact"
)

// toolRound is a Claude Code tool call and its result of output; every
// third result is a failure.
func toolRound(i int, output string) []string {
	q, _ := json.Marshal(output)
	isError := i%3 == 1
	return []string{
		fmt.Sprintf(`{"type":"assistant","sessionId":"s","uuid":"a%d","message":{"id":"m%d","role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":"make"}}]}}`, i, i, i),
		fmt.Sprintf(`{"type":"user","sessionId":"s","uuid":"r%d","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":%s,"is_error":%v}]}}`, i, i, q, isError),
	}
}

// TestOlderToolOutputIsCutAgain feeds more tool results than the recent
// window holds: the recent ones keep MaxToolOutputBytes, older ones are
// cut to OlderToolOutputBytes (failures to eight times that) with their
// original size recorded and a
// secret at the new cut redacted, and a Transcript taken before a result
// aged still shows it whole.
func TestOlderToolOutputIsCutAgain(t *testing.T) {
	t.Parallel()
	const (
		recent = 4
		older  = 1024
		rounds = 10
	)
	opts := Options{RecentToolResults: recent, OlderToolOutputBytes: older, MaxToolOutputBytes: 16 << 10}
	d, err := NewDecoder(FormatClaudeCode, opts)
	if err != nil {
		t.Fatal(err)
	}
	filler := strings.Repeat("building package ... ok\n", 400) // 9.6 KB
	secret := secretShapes()[0]                                // a GitHub token, alone on its line
	// The older head is cut 512 bytes in, 24 bytes into the secret's body.
	output := func(i int) string {
		return fmt.Sprintf("run %d\n", i) + filler[:477] + "\nghp_" + secret.body + "\n" + filler
	}
	var early []string // result contents as a Transcript saw them before aging
	for i := range rounds {
		for _, l := range toolRound(i, output(i)) {
			if err := d.Feed([]byte(l)); err != nil {
				t.Fatal(err)
			}
		}
		if i == 0 {
			tr := d.Transcript()
			early = append(early, tr.Messages[len(tr.Messages)-1].ToolResults[0].Content)
		}
	}
	tr, err := d.Finish(nil)
	if err != nil {
		t.Fatal(err)
	}
	var results []int
	for i, m := range tr.Messages {
		if len(m.ToolResults) > 0 {
			results = append(results, i)
		}
	}
	if len(results) != rounds {
		t.Fatalf("%d results, want %d", len(results), rounds)
	}
	for k, i := range results {
		r := tr.Messages[i].ToolResults[0]
		full := len(output(k))
		if k >= rounds-recent {
			if r.Content != output(k) || r.OriginalBytes != 0 {
				t.Errorf("recent result %d: %d bytes kept, original %d; want it whole", k, len(r.Content), r.OriginalBytes)
			}
			continue
		}
		keep := older
		if r.IsError {
			keep = failedOlderFactor * older // a failure keeps more for its error
		}
		if len(r.Content) > keep+64 || len(r.Content) < keep-64 || r.OriginalBytes != full {
			t.Errorf("older result %d (failed %v): %d bytes kept, original %d (want %d±64, %d)", k, r.IsError, len(r.Content), r.OriginalBytes, keep, full)
		}
		if !strings.HasPrefix(r.Content, fmt.Sprintf("run %d\n", k)) || !strings.HasSuffix(r.Content, "ok\n") {
			t.Errorf("older result %d lost its head or tail: %q", k, r.Content)
		}
		// Kept whole, the secret is redacted with the transcript later;
		// cut through, its body must not be left unrecognisable.
		if frag := leaked(redact.String(r.Content), secret.body); frag != "" {
			t.Errorf("older result %d: %q of the secret at the cut survived: %q", k, frag, r.Content)
		}
	}
	if len(early) != 1 || early[0] != output(0) {
		t.Errorf("a Transcript taken before the result aged changed with it")
	}
}

// TestCodexRegrownResultAges: a unified-exec process reported running
// (a short output) whose final output arrives later, from write_stdin or
// from exec_command_end, grows its exec_command's result; that result is
// cut again in its turn like any other, not kept whole to the end.
func TestCodexRegrownResultAges(t *testing.T) {
	t.Parallel()
	const (
		recent = 3
		older  = 256
	)
	line := func(typ, payload string) string {
		return `{"timestamp":"2026-01-01T00:00:00Z","type":"` + typ + `","payload":` + payload + `}`
	}
	call := func(id, name, args string) string {
		a, _ := json.Marshal(args)
		return line("response_item", fmt.Sprintf(`{"type":"function_call","name":%q,"arguments":%s,"call_id":%q}`, name, a, id))
	}
	output := func(id, out string) string {
		o, _ := json.Marshal(out)
		return line("response_item", fmt.Sprintf(`{"type":"function_call_output","call_id":%q,"output":%s}`, id, o))
	}
	rounds := func(from, n int) []string {
		var ls []string
		for k := from; k < from+n; k++ {
			id := fmt.Sprintf("call_%d", k)
			ls = append(ls, call(id, "shell", `{"command":["ls"]}`), output(id, "Exit code: 0\nOutput:\n"+strings.Repeat("file.go\n", 64)))
		}
		return ls
	}
	failure := "Process exited with code 1\nOutput:\n" + strings.Repeat("FAIL TestX: expected 2, got 3\n", 200)
	ends := map[string][]string{
		"write_stdin": {call("call_w", "write_stdin", `{"session_id":7,"chars":""}`), output("call_w", failure)},
		"exec_command_end": {line("event_msg", fmt.Sprintf(`{"type":"exec_command_end","call_id":"call_run","exit_code":1,"aggregated_output":%q}`,
			strings.Repeat("FAIL TestX: expected 2, got 3\n", 200)))},
	}
	for name, end := range ends {
		for _, recent := range []int{1, recent} {
			t.Run(fmt.Sprintf("%s/recent=%d", name, recent), func(t *testing.T) {
				t.Parallel()
				ls := []string{
					line("session_meta", `{"id":"s"}`),
					call("call_run", "exec_command", `{"cmd":"npm test"}`),
					output("call_run", "Process running with session ID 7\nOutput:\nstarting"),
				}
				ls = append(ls, rounds(0, recent+1)...)
				ls = append(ls, end...)
				ls = append(ls, rounds(recent+1, recent+1)...)
				tr, err := Parse(context.Background(), strings.NewReader(strings.Join(ls, "\n")+"\n"),
					Options{Format: FormatCodex, RecentToolResults: recent, OlderToolOutputBytes: older, MaxToolOutputBytes: 16 << 10})
				if err != nil {
					t.Fatal(err)
				}
				r := results(tr)["call_run"]
				if exitOf(r) != "1" || !strings.Contains(r.Content, "expected 2, got 3") {
					t.Fatalf("call_run: exit %s, content %.80q: the final output is not on it", exitOf(r), r.Content)
				}
				if keep := failedOlderFactor * older; len(r.Content) > keep+64 || r.OriginalBytes <= len(r.Content) {
					t.Errorf("call_run keeps %d bytes (original %d), want at most %d: it was not cut again", len(r.Content), r.OriginalBytes, keep+64)
				}
				if w, ok := results(tr)["call_w"]; ok && exitOf(w) != "none" {
					t.Errorf("write_stdin result keeps exit %s: the failed run counts twice", exitOf(w))
				}
			})
		}
	}
}
