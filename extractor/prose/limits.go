package prose

// Limits on extracted text, in runes.
const (
	DescriptionLimit = 300
	RationaleLimit   = 300
	AlternativeLimit = 80
	ContextLimit     = 200
	// UserSentenceLimit skips long user sentences: pasted logs and code,
	// not choices.
	UserSentenceLimit = 400
)
