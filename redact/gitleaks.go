package redact

// glRule is one rule of gitleaks' catalogue as data (gitleaks_rules.go is
// generated from its config/gitleaks.toml): the pattern, the group that
// is the secret, the least entropy a secret has, the keywords one of
// which the text must hold before the pattern runs, and the allowlists
// that say a match is not a secret.
type glRule struct {
	id          string
	regex       string
	path        string // a rule on a file's path only: never run on text
	secretGroup int
	entropy     float64
	keywords    []string
	multiLine   bool
	allow       []glAllow
	required    []string // a multi-part rule: never run alone
}

// glAllow is a gitleaks allowlist, reduced to what applies to text with
// no file path or commit: regexes on the secret (or the match, or the
// line) and stopwords the secret contains.
type glAllow struct {
	and       bool
	target    string
	regexes   []string
	stopwords []string
}

// glSkipped names the gitleaks rules this package does not run on text,
// and why; every other rule runs as generated.
func glSkipped(id string) string {
	switch id {
	case "generic-api-key":
		return "the assignment rules (assign.go) judge a generic key by its name and its value's entropy, with fewer false positives on transcripts"
	case "pkcs12-file":
		return "a rule on file names (.p12, .pfx): a transcript has no file to match"
	}
	return ""
}
