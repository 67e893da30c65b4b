package rulebook

// conversationRules read the speakers' own words: what the assistant
// announced it would do, its handoff note, an earlier summary.
func conversationRules() []Rule {
	return []Rule{
		{
			ID: "conversation.stated-intent", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "A sentence of the assistant's that announces its next action ('Now I need to add the missing implementations', 'Let me update the runner:'): at a cut mid-task it is what was in flight.",
			Pattern:  `(?i)\b(?:let me (?:(?:now|also|first|then|quickly) )?(?:[a-jl-z]|k[^n])|let's (?:[a-z])|now I(?:'ll| will| need to| have to| must)\b|I(?: still)? need to\b|I(?:'ll| will|'m going to| am going to) (?:now |then |next |first )?(?:[a-ac-z]|b[^e])|next,? I(?:'ll| will)\b|lass(?:t)? (?:mich|uns)\b|ich (?:werde|muss)\b|jetzt (?:muss|werde|noch)\b|je vais\b|voy a\b)`,
			Examples: []string{"Now I need to add the missing function implementations to the tensor file.", "Let me update the benchmark runner:", "I'll now run the full suite.", "Jetzt lass mich die Tests starten:"},
			Counter:  []string{"Let me know if you need anything else.", "I updated the runner and all tests pass.", "I'll be here if you need me."},
		},
	}
}
