package decisions

// proseDecisionPatterns are the assistant's settled choices stated as a
// judgement rather than in the first person: "The simplest solution is
// to rename …", "Better solution: exclude specs from mypy", "The unified
// API should be the primary interface", "Best hypothesis: …". Each is
// shown only when it names a concrete thing (the compiler's check), so
// "the best approach is to take it step by step" stays out.
var proseDecisionPatterns = []string{
	`\b(?:simplest|best|cleanest|proper|right|correct|better|safest|easiest|cleaner|preferred)\s+(?:solution|approach|fix|option|way)\s+(?:here\s+)?(?:is|would be|will be)\s+(?:to\s+)?\S`,
	`^(?:the\s+)?(?:better|best|proposed|recommended|chosen|final)\s+(?:solution|approach|fix|option|choice|design)\s*:\s*\S`,
	`\bshould\s+be\s+the\s+(?:primary|canonical|single|default|main|only)\b`,
	`\b(?:best|most likely|leading|working)\s+hypothesis\b`,
	// A finding the work now rests on: "`ZSTATE = 3`: this is our
	// strongest candidate for a cloud-synced book", "X appears to be the
	// correct value for Y".
	`\b(?:strongest|likeliest|most likely|leading)\s+(?:candidate|explanation|cause|guess|theory)\b`,
	`\b(?:appears|seems|turns out)\s+to\s+be\s+the\s+(?:correct|right|actual|real)\b`,
}
