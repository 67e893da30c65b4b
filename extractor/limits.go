package extractor

// Limits on extracted text, in runes.
const (
	descriptionLimit = 300
	rationaleLimit   = 300
	alternativeLimit = 80
	contextLimit     = 200
	// userSentenceLimit skips long user sentences: pasted logs and code,
	// not choices.
	userSentenceLimit = 400
)
