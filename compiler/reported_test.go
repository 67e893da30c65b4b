package compiler

import (
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestReportedShown(t *testing.T) {
	s := &handoff.Snapshot{
		EndState:  &handoff.EndState{KeyLines: []handoff.KeyLine{{Text: "The `vsla_gpu_conv_fft()` function is just a TODO placeholder"}}},
		Errors:    []handoff.ErrorRecord{{Command: "uv run pytest -q", Message: "FAILED tests/test_parquet.py::test_parquet_roundtrip - ArrowInvalid", Resolution: handoff.ResolutionUnresolved}},
		TestState: &handoff.TestState{Status: handoff.TestsFailing, FailingTests: []string{"tests/migrations.test.ts > migrations > down migration restores schema"}},
	}
	cases := []struct {
		text string
		want bool
	}{
		{"The `vsla_gpu_conv_fft()` function is just a TODO placeholder", true},
		{`One test still fails: tests/migrations.test.ts > "down migration restores schema" — NOT NULL`, true},
		{"`index.js` exports only 2 schemas while `index.d.ts` declares 5", false},
		{"Parquet is parked (test_parquet_roundtrip is still failing)", true},
	}
	for _, tc := range cases {
		if got := reportedShown(s, tc.text); got != tc.want {
			t.Errorf("reportedShown(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestReportedRanksBelowFailures(t *testing.T) {
	s := &handoff.Snapshot{Errors: []handoff.ErrorRecord{
		{ID: "r1", Type: reportedType, Message: "`index.js` exports only 2 schemas", Resolution: handoff.ResolutionUnresolved, Source: handoff.MessageRef{Index: 9}},
		{ID: "e1", Type: "command_failed", Command: "make", Message: "boom", Resolution: handoff.ResolutionUnresolved, Source: handoff.MessageRef{Index: 3}},
	}}
	b := &builder{}
	b.errors(s)
	var failRank, reportRank = -1, -1
	for _, p := range b.pieces {
		switch p.kind {
		case "open errors":
			if failRank < 0 {
				failRank = p.rank
			}
		case "reported problems":
			reportRank = p.rank
		}
	}
	if failRank < 0 || reportRank <= failRank {
		t.Fatalf("failing command rank %d, reported problem rank %d: want the report below", failRank, reportRank)
	}
}
