package decisions

// proseDecisionPatterns name the catalogue's patterns of the assistant's
// settled choices stated as a judgement rather than in the first person: "The simplest solution is
// to rename …", "Better solution: exclude specs from mypy", "The unified
// API should be the primary interface", "Best hypothesis: …". Each is
// shown only when it names a concrete thing (the compiler's check), so
// "the best approach is to take it step by step" stays out.
var proseDecisionPatterns = []string{
	"decisions.prose-best-way",
	"decisions.prose-solution-label",
	"decisions.prose-should-be-primary",
	"decisions.prose-hypothesis",
	// A finding the work now rests on: "`ZSTATE = 3`: this is our
	// strongest candidate for a cloud-synced book", "X appears to be the
	// correct value for Y".
	"decisions.prose-strongest-candidate",
	"decisions.prose-appears-correct",
}
