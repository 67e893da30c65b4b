package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/handoff-cli/handoff/eval"
)

// TestScoreAndTable runs the score subcommand (tail baseline and a command that
// prints the transcript's tail itself) over the held-out synthetic keys and
// checks the JSON against package eval, then prints the table from the files.
func TestScoreAndTable(t *testing.T) {
	set := eval.Sets("../../..")
	synth := set[len(set)-1]
	out := t.TempDir()
	tailJSON := filepath.Join(out, "heldout-synth.1000.tail.json")
	cmdJSON := filepath.Join(out, "heldout-synth.1000.handoff.json")
	if err := run([]string{"score", "--labels", synth.Labels, "--transcripts", synth.Transcripts,
		"--baseline", "tail", "--budget", "1000", "--json", tailJSON}); err != nil {
		t.Fatal(err)
	}
	// A command stand-in: the first 4000 bytes of the transcript ({path} substituted).
	if err := run([]string{"score", "--labels", synth.Labels, "--transcripts", synth.Transcripts,
		"--cmd", "head -c {budget}000 {path} | head -c 4000", "--budget", "1000", "--json", cmdJSON}); err != nil {
		t.Fatal(err)
	}
	ls, err := synth.Load()
	if err != nil {
		t.Fatal(err)
	}
	tail, err := eval.ReadRun(tailJSON)
	if err != nil {
		t.Fatal(err)
	}
	head, err := eval.ReadRun(cmdJSON)
	if err != nil {
		t.Fatal(err)
	}
	if len(tail.Results) != len(ls) || len(head.Results) != len(ls) {
		t.Fatalf("results: tail %d, cmd %d, labels %d", len(tail.Results), len(head.Results), len(ls))
	}
	for i, l := range ls {
		want, err := eval.TailScore(l, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if got := tail.Results[i]; got.Case != l.Name || got.Coverage != want.Coverage || got.MustHave != want.MustHave {
			t.Errorf("%s: tail JSON %+v, want %+v", l.Name, got, want)
		}
		raw, err := os.ReadFile(l.Transcript)
		if err != nil {
			t.Fatal(err)
		}
		n := min(4000, len(raw))
		if got, want := head.Results[i], eval.Score(string(raw[:n]), l); got.Coverage != want.Coverage || got.Error != nil {
			t.Errorf("%s: cmd JSON %+v, want coverage %.3f", l.Name, got, want.Coverage)
		}
	}
	if err := run([]string{"table", out}); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"score", "--budget", "10"}); err == nil {
		t.Error("score without --cmd or --baseline: no error")
	}
}
