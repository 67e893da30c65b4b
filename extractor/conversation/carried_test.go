package conversation

import "testing"

// TestCarriedKind: a summary's section kind decides how the prompt ranks
// it; what was solved is knowledge, an error list is (mostly fixed) history.
func TestCarriedKind(t *testing.T) {
	tests := []struct{ title, want string }{
		{"Optional Next Step", CarriedNextStep},
		{"Current Work", CarriedCurrentWork},
		{"Pending Tasks", CarriedPending},
		{"Errors and fixes", CarriedProblems},
		{"Problem Solving", CarriedSolved},
		{"Problems solved", CarriedSolved},
		{"Known problems", CarriedProblems},
		{"All user messages", CarriedUserMessages},
		{"Primary Request and Intent", CarriedRequest},
		{"Key Technical Concepts", CarriedOther},
	}
	for _, tc := range tests {
		if got := carriedKind(tc.title); got != tc.want {
			t.Errorf("carriedKind(%q) = %q, want %q", tc.title, got, tc.want)
		}
	}
}
