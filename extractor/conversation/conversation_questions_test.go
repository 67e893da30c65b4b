package conversation

import "testing"

// TestAnswerTextOrder checks that answers to several questions come out in
// one order every run: ranging over the decoded map gave a different
// prompt from run to run.
func TestAnswerTextOrder(t *testing.T) {
	t.Parallel()
	in := `{"answers":{"q3":{"answers":["Postgres"]},"q1":{"answers":["yes"]},"q2":{"answers":["weekly","daily"]}}}`
	for range 20 {
		if got, want := AnswerText(in), "yes; weekly; daily; Postgres"; got != want {
			t.Fatalf("answerText = %q, want %q", got, want)
		}
	}
}
