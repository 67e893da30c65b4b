package transcript

import (
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
