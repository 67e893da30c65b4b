// Package redact removes secrets (API keys, tokens, private keys, passwords)
// from transcript text before anything is stored, printed or sent to an
// LLM. Each secret becomes "[redacted:KIND]"; the text around it, such as
// the name of the variable that held it, is kept so the context still reads.
//
// Detection is pattern based and errs towards keeping ordinary code and
// prose intact: placeholders ("sk-...", "<your-key>", "${TOKEN}") and
// identifiers ("password: str", "token_count") are left alone. All
// matching is linear in the size of the input (RE2 and plain index scans).
package redact

import (
	"regexp"
	"strings"
)

// Kinds of secret, as they appear in "[redacted:KIND]" and Finding.Kind.
const (
	KindOpenAI       = "openai"
	KindAnthropic    = "anthropic"
	KindAWSAccessKey = "aws-access-key"
	KindAWSSecret    = "aws-secret"
	KindGitHub       = "github"
	KindSlack        = "slack"
	KindGoogleAPIKey = "google-api-key"
	KindStripe       = "stripe"
	KindPrivateKey   = "private-key"
	KindJWT          = "jwt"
	KindBearer       = "bearer"
	KindBasicAuth    = "basic-auth"
	// KindPassword is a password: the value of a password assignment or the
	// password part of scheme://user:password@host.
	KindPassword = "password"
	KindSecret   = "secret"
	KindToken    = "token"
	KindAPIKey   = "api-key"
)

// marker opens every replacement; text that already carries it is never
// redacted again, which keeps String idempotent.
const marker = "[redacted:"

// Finding is one secret located in a text: its kind and the byte range
// that String replaces.
type Finding struct {
	Kind       string
	Start, End int
}

// Placeholder returns the text that replaces a secret of the given kind.
func Placeholder(kind string) string { return marker + kind + "]" }

// tokenRule is a secret with a recognisable shape. The regexps start with a
// literal where possible, so Go's matcher skips ahead with an index scan
// instead of running the automaton over every byte.
type tokenRule struct {
	kind string
	re   *regexp.Regexp
	// group is the submatch holding the secret (0: the whole match).
	group int
	// tailBoundary rejects a match followed by a key character: used by the
	// fixed-length shapes, which would otherwise cut a longer word.
	tailBoundary bool
	// needDigit rejects bodies without a digit: random keys have them,
	// kebab-case words that happen to start with "sk-" do not.
	needDigit bool
}

// keywordRule is a secret introduced by a case-insensitive keyword
// ("Bearer", "aws_secret_access_key"). The keyword is found with an index
// scan over a lower-cased copy and re is run anchored right at it.
type keywordRule struct {
	kind    string
	keyword string
	re      *regexp.Regexp // anchored, (?i); submatch 1 is the secret
	minLen  int
}

// assignmentKeyword is a key name ending that marks its value as secret.
type assignmentKeyword struct {
	word string
	kind string
}

// Redactor holds the compiled patterns. It is safe for concurrent use.
type Redactor struct {
	tokens      []tokenRule
	keywords    []keywordRule
	assignments []assignmentKeyword
	assignSep   *regexp.Regexp
	flagSep     *regexp.Regexp
	urlCreds    *regexp.Regexp
}

// New compiles the patterns. Compiling takes a while, so build one and
// reuse it; the package-level functions share one built on first use.
func New() *Redactor {
	word := `[A-Za-z0-9_\-]`
	return &Redactor{
		tokens: []tokenRule{
			// A PEM private key block, or a BEGIN line whose END never came:
			// everything to the end of the text is then key material.
			{kind: KindPrivateKey, re: regexp.MustCompile(`(?s)-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|\z)`)},
			{kind: KindAnthropic, re: regexp.MustCompile(`sk-ant-` + word + `{20,}`), needDigit: true},
			{kind: KindOpenAI, re: regexp.MustCompile(`sk-` + word + `{20,}`), needDigit: true},
			{kind: KindGitHub, re: regexp.MustCompile(`gh[pousr]_[A-Za-z0-9]{30,}`), needDigit: true},
			{kind: KindGitHub, re: regexp.MustCompile(`github_pat_[A-Za-z0-9_]{22,}`), needDigit: true},
			{kind: KindSlack, re: regexp.MustCompile(`https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{16,}`)},
			{kind: KindSlack, re: regexp.MustCompile(`xox[abposr]-[A-Za-z0-9\-]{10,}`), needDigit: true},
			// One regexp per literal prefix: an alternation has no prefix to
			// skip ahead with.
			{kind: KindAWSAccessKey, re: regexp.MustCompile(`AKIA[A-Z0-9]{16}`), tailBoundary: true},
			{kind: KindAWSAccessKey, re: regexp.MustCompile(`ASIA[A-Z0-9]{16}`), tailBoundary: true},
			{kind: KindGoogleAPIKey, re: regexp.MustCompile(`AIza[0-9A-Za-z_\-]{35}`), tailBoundary: true},
			{kind: KindStripe, re: regexp.MustCompile(`sk_live_[0-9A-Za-z]{10,}`), needDigit: true},
			{kind: KindStripe, re: regexp.MustCompile(`sk_test_[0-9A-Za-z]{10,}`), needDigit: true},
			{kind: KindStripe, re: regexp.MustCompile(`rk_live_[0-9A-Za-z]{10,}`), needDigit: true},
			{kind: KindStripe, re: regexp.MustCompile(`rk_test_[0-9A-Za-z]{10,}`), needDigit: true},
			{kind: KindJWT, re: regexp.MustCompile(`eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]*`)},
		},
		keywords: []keywordRule{
			{kind: KindAWSSecret, keyword: "secret_access_key", minLen: 40,
				re: regexp.MustCompile(`^(?i)secret_access_key\\?["']?[ \t]*(?::=|=>|=|:)[ \t]*\\?["']?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)`)},
			{kind: KindBearer, keyword: "bearer", minLen: 16,
				re: regexp.MustCompile(`^(?i)bearer[ \t]+([A-Za-z0-9\-._~+/]{16,}=*)`)},
			{kind: KindBasicAuth, keyword: "authorization", minLen: 8,
				re: regexp.MustCompile(`^(?i)authorization\\?["']?[ \t]*[:=][ \t]*\\?["']?basic[ \t]+([A-Za-z0-9+/]{8,}={0,2})`)},
		},
		assignments: []assignmentKeyword{
			{"password", KindPassword}, {"passwd", KindPassword}, {"passphrase", KindPassword},
			{"secret", KindSecret}, {"secret_key", KindSecret}, {"secret-key", KindSecret},
			{"access_key", KindSecret}, {"access-key", KindSecret},
			{"private_key", KindSecret}, {"private-key", KindSecret},
			{"token", KindToken},
			{"api_key", KindAPIKey}, {"api-key", KindAPIKey}, {"apikey", KindAPIKey},
		},
		assignSep: regexp.MustCompile(`^(?:\\?["'])?[ \t]*(?::=|=>|=|:)[ \t]*`),
		flagSep:   regexp.MustCompile(`^(?:=|[ \t]+)`),
		urlCreds:  regexp.MustCompile(`://([^:@/\s"'<>\\]{0,128}):([^@/\s"'<>\\]{1,256})@[A-Za-z0-9\[]`),
	}
}

// Find returns the secrets in s, ordered by position, never overlapping.
func (r *Redactor) Find(s string) []Finding {
	var acc accepted
	for _, rule := range r.tokens {
		r.findTokens(s, rule, &acc)
		acc.commit()
	}
	var lower string
	if len(s) > 0 {
		lower = asciiLower(s)
	}
	for _, rule := range r.keywords {
		r.findKeyword(s, lower, rule, &acc)
		acc.commit()
	}
	r.findURLCredentials(s, &acc)
	acc.commit()
	for _, kw := range r.assignments {
		r.findAssignments(s, lower, kw, &acc)
		acc.commit()
	}
	return acc.list
}

// String returns s with every secret replaced by "[redacted:KIND]".
func (r *Redactor) String(s string) string {
	out, _ := r.redactCount(s)
	return out
}

// redactCount redacts s and says how many secrets it replaced.
func (r *Redactor) redactCount(s string) (string, int) {
	found := r.Find(s)
	if len(found) == 0 {
		return s, 0
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, f := range found {
		b.WriteString(s[last:f.Start])
		b.WriteString(Placeholder(f.Kind))
		last = f.End
	}
	b.WriteString(s[last:])
	return b.String(), len(found)
}

func (r *Redactor) findTokens(s string, rule tokenRule, acc *accepted) {
	for _, m := range rule.re.FindAllStringSubmatchIndex(s, -1) {
		start, end := m[2*rule.group], m[2*rule.group+1]
		if start < 0 || !leftBoundary(s, m[0]) {
			continue
		}
		if rule.tailBoundary && end < len(s) && isKeyChar(s[end]) {
			continue
		}
		body := s[start:end]
		if rule.needDigit && !strings.ContainsAny(body, "0123456789") {
			continue
		}
		if rule.kind != KindPrivateKey && looksLikeTokenPlaceholder(body) {
			continue
		}
		acc.add(Finding{Kind: rule.kind, Start: start, End: end})
	}
}

func (r *Redactor) findKeyword(s, lower string, rule keywordRule, acc *accepted) {
	for from := 0; ; {
		i := strings.Index(lower[from:], rule.keyword)
		if i < 0 {
			return
		}
		pos := from + i
		from = pos + len(rule.keyword)
		if !leftBoundary(s, pos) {
			continue
		}
		m := rule.re.FindStringSubmatchIndex(window(s, pos, 1024))
		if m == nil {
			continue
		}
		start, end := pos+m[2], pos+m[3]
		if end-start < rule.minLen || looksLikePlaceholder(s[start:end]) {
			continue
		}
		acc.add(Finding{Kind: rule.kind, Start: start, End: end})
	}
}

func (r *Redactor) findURLCredentials(s string, acc *accepted) {
	if !strings.Contains(s, "://") {
		return
	}
	for _, m := range r.urlCreds.FindAllStringSubmatchIndex(s, -1) {
		// A scheme must precede "://".
		if m[0] == 0 || !isAlpha(s[m[0]-1]) {
			continue
		}
		start, end := m[4], m[5]
		pass := s[start:end]
		if len(pass) < 3 || looksLikePlaceholder(pass) || strings.EqualFold(pass, "pass") || isCodeWord(pass) {
			continue
		}
		acc.add(Finding{Kind: KindPassword, Start: start, End: end})
	}
}

// findAssignments finds values assigned to keys ending in kw.word:
// `password=...`, `DB_PASSWORD: ...`, `"api_key": "..."`,
// `export GITHUB_TOKEN=...`, `--password foo`.
func (r *Redactor) findAssignments(s, lower string, kw assignmentKeyword, acc *accepted) {
	for from := 0; ; {
		i := strings.Index(lower[from:], kw.word)
		if i < 0 {
			return
		}
		pos := from + i
		end := pos + len(kw.word)
		from = end
		// The key must end here: "token_count" and "tokens" are other keys.
		if end < len(s) && (isKeyChar(s[end]) || s[end] == '_' || s[end] == '-') {
			continue
		}
		keyStart := pos
		for keyStart > 0 && isIdentChar(s[keyStart-1]) {
			keyStart--
		}
		key := s[keyStart:end]
		flag := strings.HasPrefix(key, "-")
		rest := window(s, end, 1024)
		var sep []int
		if flag {
			sep = r.flagSep.FindStringIndex(rest)
		} else {
			sep = r.assignSep.FindStringIndex(rest)
		}
		if sep == nil {
			continue
		}
		vStart := end + sep[1]
		start, stop, quoted := scanValue(s, vStart)
		if stop <= start {
			continue
		}
		value := s[start:stop]
		if !acceptValue(s, value, stop, quoted, flag) {
			continue
		}
		acc.add(Finding{Kind: kw.kind, Start: start, End: stop})
	}
}

// scanValue reads the value that starts at i: a quoted string ("…", '…',
// or JSON-escaped \"…\") or a bare word. It returns the value's range.
func scanValue(s string, i int) (start, end int, quoted bool) {
	if i >= len(s) {
		return i, i, false
	}
	if s[i] == '"' || s[i] == '\'' || (s[i] == '\\' && i+1 < len(s) && s[i+1] == '"') {
		closing := s[i : i+1]
		if s[i] == '\\' {
			closing = `\"`
		}
		start = i + len(closing)
		limit := min(len(s), start+512)
		for j := start; j < limit; j++ {
			switch {
			case s[j] == '\n':
				return start, start, true
			case strings.HasPrefix(s[j:], closing):
				return start, j, true
			case s[j] == '\\':
				j++ // skip the escaped character
			}
		}
		return start, start, true
	}
	end = i
	for end < len(s) && end-i < 512 && !isValueStop(s[end]) {
		end++
	}
	// Sentence punctuation is not part of a bare value.
	for end > i && strings.IndexByte(".:!?", s[end-1]) >= 0 {
		end--
	}
	return i, end, false
}

// acceptValue decides whether an assigned value is a secret rather than a
// placeholder, a type name or a reference to another variable.
func acceptValue(s, value string, end int, quoted, flag bool) bool {
	minLen := 6
	if flag {
		minLen = 3
	}
	if len(value) < minLen || looksLikePlaceholder(value) {
		return false
	}
	if quoted || flag {
		return true
	}
	if isCodeWord(value) {
		return false
	}
	// `token = get_token()`, `password = os.environ["X"]`: a call or index.
	if end < len(s) && (s[end] == '(' || s[end] == '[') {
		return false
	}
	if looksLikeIdentifier(value) {
		return false
	}
	return true
}

// looksLikeIdentifier reports values that read as code rather than a
// literal: a dotted path (config.api_key), a snake_case or camelCase name
// without digits (access_token, accessToken).
func looksLikeIdentifier(v string) bool {
	if strings.ContainsAny(v, "0123456789") {
		return false
	}
	hasUnderscore, hasDot, hasUpperAfterLower := false, false, false
	prevLower := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '_':
			hasUnderscore = true
		case c == '.':
			hasDot = true
		case c >= 'a' && c <= 'z':
		case c >= 'A' && c <= 'Z':
			if prevLower {
				hasUpperAfterLower = true
			}
		default:
			return false
		}
		prevLower = c >= 'a' && c <= 'z'
	}
	if hasDot {
		return !strings.HasSuffix(v, ".") && !strings.HasPrefix(v, ".")
	}
	return hasUnderscore || (hasUpperAfterLower && v[0] >= 'a' && v[0] <= 'z')
}

// isCodeWord reports type names and literals that follow "password:" in
// code and schemas.
func isCodeWord(v string) bool {
	switch strings.ToLower(v) {
	case "string", "str", "bytes", "int", "integer", "number", "bool", "boolean",
		"float", "object", "optional", "secretstr", "secretbytes", "none", "null",
		"nil", "undefined", "true", "false", "required", "missing", "invalid",
		"password", "passwd", "secret", "secrets", "token", "tokens", "apikey",
		"api_key", "hidden", "masked", "omitted", "unknown", "default", "string?":
		return true
	}
	return false
}

// looksLikePlaceholder reports values people write in docs and templates
// instead of a real secret.
func looksLikePlaceholder(v string) bool {
	if v == "" || strings.Contains(v, marker) {
		return true
	}
	l := strings.ToLower(v)
	switch {
	case l[0] == '$' || l[0] == '%' || l[0] == '<' || l[0] == '{':
		return true
	case strings.Contains(l, "${"), strings.Contains(l, "{{"), strings.Contains(l, "..."),
		strings.Contains(l, "…"), strings.Contains(l, "xxx"), strings.Contains(l, "***"),
		strings.Contains(l, "your"), strings.Contains(l, "placeholder"),
		strings.Contains(l, "changeme"), strings.Contains(l, "change_me"),
		strings.Contains(l, "example"), strings.Contains(l, "redacted"):
		return true
	}
	return fewDistinct(l)
}

// looksLikeTokenPlaceholder is the placeholder test for shaped keys, whose
// bodies are random: "sk-xxxxxxxxxxxxxxxxxxxxxxxx" or "ghp_YOUR…".
func looksLikeTokenPlaceholder(v string) bool {
	l := strings.ToLower(v)
	return strings.Contains(l, "xxxx") || strings.Contains(l, "your") || strings.Contains(l, "0000000000") || fewDistinct(l)
}

// fewDistinct reports strings made of one character ("********") or, when
// longer, of two ("-1-1-1", "abababab").
func fewDistinct(l string) bool {
	if len(l) < 6 {
		return strings.Count(l, l[:1]) == len(l)
	}
	var a, b byte
	for i := 0; i < len(l); i++ {
		switch c := l[i]; {
		case i == 0 || c == a:
			a = c
		case b == 0 || c == b:
			b = c
		default:
			return false
		}
	}
	return true
}

// accepted keeps findings sorted by start, without overlaps. Rules are
// applied most specific first, so a later, more generic rule never
// relabels a secret an earlier one found. Each rule's candidates arrive in
// order of position and are merged in one linear pass.
type accepted struct {
	list    []Finding
	pending []Finding
	spare   []Finding
}

// add queues a candidate of the current rule; candidates must be added in
// order of Start.
func (a *accepted) add(f Finding) { a.pending = append(a.pending, f) }

// commit merges the current rule's candidates into the accepted list,
// dropping any that overlap a secret already accepted.
func (a *accepted) commit() {
	if len(a.pending) == 0 {
		return
	}
	out := a.spare[:0]
	i := 0
	for _, c := range a.pending {
		for i < len(a.list) && a.list[i].End <= c.Start {
			out = append(out, a.list[i])
			i++
		}
		if n := len(out); n > 0 && out[n-1].End > c.Start {
			continue
		}
		if i < len(a.list) && a.list[i].Start < c.End {
			continue
		}
		out = append(out, c)
	}
	out = append(out, a.list[i:]...)
	a.spare, a.list = a.list, out
	a.pending = a.pending[:0]
}

// window returns up to n bytes of s from i.
func window(s string, i, n int) string {
	return s[i:min(len(s), i+n)]
}

// leftBoundary reports whether a secret may start at i: it must not be
// the tail of a longer word ("task-…" is not "sk-…").
func leftBoundary(s string, i int) bool {
	return i == 0 || !isKeyChar(s[i-1])
}

func isKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isAlpha(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentChar(c byte) bool {
	return isKeyChar(c) || c == '_' || c == '-' || c == '.'
}

func isValueStop(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\v', '\f', '"', '\'', '`', ',', ';', '(', ')', '[', ']', '{', '}', '<', '>', '\\':
		return true
	}
	return false
}

// asciiLower lower-cases ASCII letters only, so byte offsets in the result
// are offsets in s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
