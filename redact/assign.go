package redact

import (
	"bytes"
	"encoding/base64"
	"math"
	"strings"
)

// keyClass says how a key's value is judged.
type keyClass int

const (
	// classNone: not a secret key.
	classNone keyClass = iota
	// classLoose: the key says the value is secret (password, token,
	// api_key): any value that is not a placeholder, a type or a
	// reference is redacted, however weak.
	classLoose
	// classRandom: the key might hold a secret (*_KEY, *_AUTH,
	// credentials): the value is redacted when it looks random (length
	// and entropy), so "primary_key: id" stays.
	classRandom
	// classAWS: an AWS secret access key, 40 base64 characters.
	classAWS
	// classMaybe: the key's ending says nothing; a random-looking value
	// is a secret when the name holds a secret word or a vendor's name.
	classMaybe
)

// valueDecideBytes bounds the bytes a value's verdict looks at; the
// redacted range itself has no cap.
const valueDecideBytes = 4096

// notSecretKeys end in "key" but name ordinary data.
var notSecretKeys = []string{
	"public", "pub", "primary", "foreign", "sort", "partition", "hash", "range", "cache",
	"idempotency", "dedup", "dedupe", "lookup", "map", "dict", "row", "index", "unique",
	"composite", "natural", "surrogate", "object", "bucket", "group", "routing", "message",
	"event", "i18n", "translation", "label", "hot", "short", "host", "ssh-public", "gpg",
	"sequence", "schema", "table", "column", "field", "prop", "react", "list", "item",
	"registry", "metadata", "config", "state", "storage", "query", "search", "result",
}

// keyKind classifies an identifier (lower-cased tail of at most 40
// bytes) by how it ends.
func keyKind(lw []byte) (string, keyClass) {
	if len(lw) < 3 {
		return "", classNone
	}
	if kind, class := keySuffixKind(lw); class != classNone {
		return kind, class
	}
	// SECRET_KEY_BASE, TOKEN_SECRET_V2, HEROKU_API, CONTRIBSYS__COM: the
	// name may still say secret; nameSuggestsSecret decides once the
	// value has been seen to look random.
	return KindSecret, classMaybe
}

// secretNameWords are the words inside a key name that mark a random
// value under it as secret: the generic ones, and the vendors whose
// gitleaks rules find their keys by the vendor's name.
var secretNameWords = []string{
	"secret", "password", "passwd", "token", "apikey", "api_key", "api-key", "privatekey", "private_key",
	"adafruit", "adobe", "airtable", "algolia", "alibaba", "asana", "atlassian",
	"confluence", "jira", "beamer", "bitbucket", "bittrex", "meraki", "cloudflare", "codecov", "cohere",
	"coinbase", "confluent", "contentful", "datadog", "dnkey", "discord", "droneci", "dropbox", "etsy",
	"facebook", "fastly", "finicity", "finnhub", "flickr", "freshbooks", "gitter", "gocardless", "heroku",
	"hubspot", "intercom", "jfrog", "artifactory", "kraken", "kucoin", "launchdarkly", "linear", "linkedin",
	"mailchimp", "mailgun", "mapbox", "mattermost", "messagebird", "netlify", "newrelic", "new_relic",
	"nytimes", "okta", "plaid", "privateai", "rapidapi", "sendbird", "sendgrid", "sentry", "snyk", "sonar",
	"squarespace", "sumo", "telegram", "travis", "twilio", "twitch", "twitter", "typeform", "yandex",
	"zendesk", "contribsys",
}

// nameIndex groups secretNameWords by their first two letters, so
// nameSuggestsSecret tries only the words that can start at a position.
type nameIndex [26 * 26][]string

func newNameIndex() *nameIndex {
	var ix nameIndex
	for _, w := range secretNameWords {
		k := int(w[0]-'a')*26 + int(w[1]-'a')
		ix[k] = append(ix[k], w)
	}
	return &ix
}

// nameSuggestsSecret reports whether a lower-cased key name holds one of
// secretNameWords.
func (ix *nameIndex) nameSuggestsSecret(lw []byte) bool {
	for i := 0; i+1 < len(lw); i++ {
		a, b := lw[i], lw[i+1]
		if a < 'a' || a > 'z' || b < 'a' || b > 'z' {
			continue
		}
		for _, w := range ix[int(a-'a')*26+int(b-'a')] {
			if bytes.HasPrefix(lw[i:], []byte(w)) {
				return true
			}
		}
	}
	return false
}

// keySuffixKind classifies a key by its ending.
func keySuffixKind(lw []byte) (string, keyClass) {
	switch lw[len(lw)-1] {
	case 'd', 'e', 's', 't', 'n', 'y', 'a', 'h', 'l':
	default:
		return "", classNone
	}
	has := func(suffix string) bool { return bytes.HasSuffix(lw, []byte(suffix)) }
	// before reports the byte before a suffix, or 0 at the start.
	before := func(suffix string) byte {
		if len(lw) == len(suffix) {
			return 0
		}
		return lw[len(lw)-len(suffix)-1]
	}
	sepBefore := func(suffix string) bool {
		c := before(suffix)
		return c == 0 || c == '_' || c == '-' || c == '.'
	}
	switch {
	case has("password"), has("passwd"), has("passphrase"):
		return KindPassword, classLoose
	case has("pwd") && sepBefore("pwd"), has("pass") && sepBefore("pass") && len(lw) > 4:
		return KindPassword, classLoose
	case has("secret_access_key"), has("secretaccesskey"), has("secret-access-key"):
		return KindAWSSecret, classAWS
	case has("secret"), has("secret_key"), has("secretkey"), has("secret-key"),
		has("access_key"), has("accesskey"), has("access-key"),
		has("private_key"), has("privatekey"), has("private-key"):
		return KindSecret, classLoose
	case has("token"):
		return KindToken, classLoose
	case has("api_key"), has("api-key"), has("apikey"):
		return KindAPIKey, classLoose
	case has("key-data"), has("key_data"):
		return KindPrivateKey, classLoose
	case has("key"):
		c := before("key")
		if c != 0 && c != '_' && c != '-' && c != '.' {
			// "accountkey", "masterkey": compounds people write without a
			// separator are judged like separated ones; "monkey" is not.
			if !bytes.HasSuffix(lw, []byte("accountkey")) && !bytes.HasSuffix(lw, []byte("masterkey")) &&
				!bytes.HasSuffix(lw, []byte("signingkey")) && !bytes.HasSuffix(lw, []byte("encryptionkey")) &&
				!bytes.HasSuffix(lw, []byte("sharedkey")) && !bytes.HasSuffix(lw, []byte("licensekey")) {
				return "", classNone
			}
		}
		stem := bytes.TrimRight(lw[:len(lw)-3], "_-.")
		for _, w := range notSecretKeys {
			if bytes.HasSuffix(stem, []byte(w)) {
				return "", classNone
			}
		}
		return KindSecret, classRandom
	case has("auth") && sepBefore("auth"), has("credentials"), has("credential"):
		return KindSecret, classRandom
	}
	return "", classNone
}

// word looks at the identifier s[a:b]: a header scheme, a command whose
// arguments carry passwords, or a key whose value may be secret.
func (r *Redactor) word(s string, a, b int, sc *scanner) {
	if b-a < 3 {
		return
	}
	// Most words end in none of the endings that matter: three bytes
	// tell, before any copying.
	if n := b - a; (n == 13 || n == 19) && lowerByte(s[b-1]) == 'n' &&
		(strings.EqualFold(s[a:b], "authorization") || strings.EqualFold(s[a:b], "proxy-authorization")) {
		r.authorizationAt(s, b, sc)
		return
	}
	if !interestingEnding(lowerByte(s[b-3]), lowerByte(s[b-2]), lowerByte(s[b-1])) && !assignedNext(s, b) {
		return
	}
	var buf [40]byte
	t := s[a:b]
	if len(t) > len(buf) {
		t = t[len(t)-len(buf):]
	}
	lw := buf[:len(t)]
	for k := 0; k < len(t); k++ {
		lw[k] = lowerByte(t[k])
	}
	if b-a == len(lw) {
		switch string(lw) {
		case "bearer":
			r.bearerAt(s, a, sc)
			return
		case "basic":
			r.basicAt(s, a, sc)
			return
		case "sshpass", "mysql", "mysqldump", "mysqladmin", "mariadb", "mariadb-dump", "curl", "redis-cli":
			if a >= sc.cmdUntil {
				r.command(s, b, string(lw), sc)
			}
			return
		}
	}
	if cursorKey(lw) {
		return
	}
	kind, class := keyKind(lw)
	if class == classNone || class == classMaybe && (!assignedNext(s, b) || !r.names.nameSuggestsSecret(lw)) {
		return
	}
	r.assignment(s, a, b, lw, kind, class, sc)
}

// cursorKeys are key names ending in "token" whose value is a
// pagination or sync cursor an API hands to anyone who lists: no
// credential ("nextPageToken": "CAoQAA").
var cursorKeys = []string{"pagetoken", "page_token", "page-token", "nexttoken", "next_token",
	"continuationtoken", "continuation_token", "synctoken", "sync_token"}

func cursorKey(lw []byte) bool {
	for _, k := range cursorKeys {
		if bytes.HasSuffix(lw, []byte(k)) {
			return true
		}
	}
	return false
}

// assignedNext reports whether an assignment operator follows the word
// ending at b (TOKEN_SECRET_V2=…, "PASSWORD_SALT": …): such keys are
// classified by what they contain.
func assignedNext(s string, b int) bool {
	if b+1 < len(s) && s[b] == '\\' && s[b+1] == '"' {
		b += 2
	} else if b < len(s) && (s[b] == '"' || s[b] == '\'') {
		b++
	}
	b = skipBlanks(s, b)
	return b < len(s) && (s[b] == '=' || s[b] == ':')
}

// interestingEnding reports the last three (lower-cased) bytes of the
// keys and commands word looks at.
func interestingEnding(a, b, c byte) bool {
	switch uint32(a)<<16 | uint32(b)<<8 | uint32(c) {
	case end3("ord"), end3("swd"), end3("pwd"), end3("ase"), end3("ass"), end3("als"), end3("ret"),
		end3("ken"), end3("key"), end3("ata"), end3("uth"), end3("ial"), end3("rer"), end3("sic"),
		end3("sql"), end3("ump"), end3("min"), end3("adb"), end3("url"), end3("cli"):
		return true
	}
	return false
}

func end3(s string) uint32 { return uint32(s[0])<<16 | uint32(s[1])<<8 | uint32(s[2]) }

// assignment reads `key = value`, `key: value`, `"key": "value"`,
// `--key value` after the key s[a:b] and records the value when it is a
// secret.
func (r *Redactor) assignment(s string, a, b int, lw []byte, kind string, class keyClass, sc *scanner) {
	flag := s[a] == '-'
	rest := s[b:min(len(s), b+64)]
	if class == classAWS {
		m := r.awsSecret().FindStringSubmatchIndex(s[b:min(len(s), b+128)])
		if m == nil || valuePlaceholder(s[b+m[2]:b+m[3]]) {
			return
		}
		sc.keyed = append(sc.keyed, Finding{Kind: KindAWSSecret, Start: b + m[2], End: b + m[3]})
		sc.valueUntil = max(sc.valueUntil, b+m[3])
		return
	}
	var sep int
	if flag {
		sep = flagSepLen(rest)
	} else {
		sep = assignSepLen(rest)
	}
	if sep < 0 {
		return
	}
	start, stop, quoted := sc.scanValue(s, b+sep)
	if !quoted && queryParam(s, a, b) {
		stop = queryValueEnd(s, start, stop, lw)
	}
	if stop <= start {
		return
	}
	if class == classMaybe {
		if !looksRandom(s[start:min(stop, start+valueDecideBytes)]) {
			return
		}
	} else if !acceptValue(s, start, stop, quoted, flag, class) {
		return
	}
	// "--cloud-token flag", "--token is required": a flag other than a
	// password followed by a plain word is prose about the flag.
	if flag && kind != KindPassword && !quoted && isLowerWord(s[start:stop]) {
		return
	}
	sc.generic = append(sc.generic, Finding{Kind: kind, Start: start, End: stop})
	sc.valueUntil = max(sc.valueUntil, stop)
}

// queryParam reports whether the key s[a:b] is a URL query parameter
// (?key= or &key=).
func queryParam(s string, a, b int) bool {
	return a > 0 && (s[a-1] == '?' || s[a-1] == '&') && b < len(s) && s[b] == '='
}

// queryValueEnd is where a query parameter's value starting at start
// ends, at most stop: at the next parameter or the fragment. A presigned
// URL's credential parameter (X-Amz-Credential=AKIA…/20250101/us-east-1/
// s3/aws4_request, X-Goog-Credential=svc@proj…/…) ends before its first
// slash: the date, region and service after it are no secret, and the key
// id before it is judged alone (the access key rule knows AKIA…; a
// service account's e-mail is a name, not a secret).
func queryValueEnd(s string, start, stop int, lw []byte) int {
	v := s[start:stop]
	if i := strings.IndexAny(v, "&#"); i >= 0 {
		v = v[:i]
	}
	if bytes.HasSuffix(lw, []byte("credential")) {
		if i := strings.Index(v, "/"); i >= 0 {
			v = v[:i]
		}
		if i := strings.Index(strings.ToUpper(v), "%2F"); i >= 0 {
			v = v[:i]
		}
		if strings.Contains(v, "@") || strings.Contains(v, "%40") {
			return start // an account's e-mail
		}
	}
	return start + len(v)
}

// assignSepLen is the length of the assignment operator at the start of
// s, with the quote that may close the key and the blanks around it
// (`=`, `: `, `" := `, `\": `, `=>`, `?=`), or -1.
func assignSepLen(s string) int {
	j := 0
	if j+1 < len(s) && s[j] == '\\' && (s[j+1] == '"' || s[j+1] == '\'') {
		j += 2
	} else if j < len(s) && (s[j] == '"' || s[j] == '\'') {
		j++
	}
	j = skipBlanks(s, j)
	switch {
	case strings.HasPrefix(s[j:], ":="), strings.HasPrefix(s[j:], "=>"), strings.HasPrefix(s[j:], "?="):
		j += 2
	case j < len(s) && (s[j] == '=' || s[j] == ':'):
		j++
	default:
		return -1
	}
	return skipBlanks(s, j)
}

// flagSepLen is the length of what joins a flag to its value: "=" or
// blanks; -1 if neither.
func flagSepLen(s string) int {
	if s != "" && s[0] == '=' {
		return 1
	}
	if j := skipBlanks(s, 0); j > 0 {
		return j
	}
	return -1
}

func skipBlanks(s string, j int) int {
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	return j
}

// scanValue reads the value that starts at i: a quoted string ("…", '…',
// or JSON-escaped \"…\") or a bare word. It returns the value's range;
// neither has a length cap.
func (sc *scanner) scanValue(s string, i int) (start, end int, quoted bool) {
	if i >= len(s) {
		return i, i, false
	}
	if s[i] == '"' || s[i] == '\'' || (s[i] == '\\' && i+1 < len(s) && s[i+1] == '"') {
		closing := s[i : i+1]
		if s[i] == '\\' {
			closing = `\"`
		}
		q := 0
		if s[i] == '\'' {
			q = 1
		}
		start = i + len(closing)
		if start <= sc.quoteFail[q] {
			return start, start, true
		}
		for j := start; j < len(s); j++ {
			switch {
			case s[j] == '\n':
				sc.quoteFail[q] = j
				return start, start, true
			case strings.HasPrefix(s[j:], closing):
				return start, j, true
			case s[j] == '\\':
				j++ // skip the escaped character
			}
		}
		sc.quoteFail[q] = len(s)
		return start, start, true
	}
	if i >= sc.bareFrom && i < sc.bareTo {
		end = sc.bareTo
	} else {
		end = i
		for end < len(s) && !isValueStop(s[end]) {
			end++
		}
		sc.bareFrom, sc.bareTo = i, end
	}
	// Sentence punctuation is not part of a bare value.
	for end > i && strings.IndexByte(".:!?", s[end-1]) >= 0 {
		end--
	}
	return i, end, false
}

// acceptValue decides whether an assigned value s[start:end] is a secret
// rather than a placeholder, a type name or a reference to another
// variable.
func acceptValue(s string, start, end int, quoted, flag bool, class keyClass) bool {
	value := s[start:end]
	if len(value) > valueDecideBytes {
		value = value[:valueDecideBytes]
	}
	if class == classRandom {
		return looksRandom(value)
	}
	minLen := 6
	if flag {
		minLen = 3
	}
	if len(value) < minLen || valuePlaceholder(value) {
		return false
	}
	if looksLikeVersion(value) {
		return false // "@types/jsonwebtoken": "^9.0.9"
	}
	if quoted || flag {
		return !isCodeWord(value)
	}
	if strings.HasPrefix(value, "--") {
		return false // "token: --cloud-token": a flag named after it
	}
	if isCodeWord(value) {
		return false
	}
	// `token = get_token()`, `password = os.environ["X"]`: a call or index.
	if end < len(s) && (s[end] == '(' || s[end] == '[') {
		return false
	}
	return !looksLikeIdentifier(value)
}

// looksLikeVersion reports version constraints: "^9.0.9", "~1.2",
// ">=2.0.0", "v1.4.2".
func looksLikeVersion(v string) bool {
	v = strings.TrimLeft(v, "^~<>=v ")
	dots := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '.':
			dots++
		case c >= '0' && c <= '9':
		case c == '-' || c == '+' || c >= 'a' && c <= 'z':
			// pre-release and build tags: 1.0.0-rc.1
			if dots < 2 {
				return false
			}
		default:
			return false
		}
	}
	return dots >= 1 && v != "" && v[0] >= '0' && v[0] <= '9'
}

// isLowerWord reports a value of lower-case letters only.
func isLowerWord(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] < 'a' || v[i] > 'z' {
			return false
		}
	}
	return v != ""
}

// looksRandom reports values that read as generated keys: long enough,
// high entropy, with digits, and not a path, a sentence or a word.
func looksRandom(v string) bool {
	if len(v) < 16 || strings.ContainsAny(v, " \t") || strings.Contains(v, "://") {
		return false
	}
	if valuePlaceholder(v) || looksLikeIdentifier(v) {
		return false
	}
	if !strings.ContainsAny(v, "0123456789") || !strings.ContainsAny(v, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		return false
	}
	return entropy(v) >= 3.0
}

// jsonKeySecret reports whether a JSON string value under key is a
// secret by the key alone, and its kind.
func (r *Redactor) jsonKeySecret(key, value string) (string, bool) {
	if key == "" {
		return "", false
	}
	var buf [40]byte
	t := key
	if len(t) > len(buf) {
		t = t[len(t)-len(buf):]
	}
	lw := buf[:len(t)]
	for k := 0; k < len(t); k++ {
		lw[k] = lowerByte(t[k])
	}
	kind, class := keyKind(lw)
	switch class {
	case classNone:
		return "", false
	case classAWS:
		class = classRandom
	case classMaybe:
		return kind, looksRandom(value) && r.names.nameSuggestsSecret(lw)
	}
	return kind, acceptValue(value, 0, len(value), true, false, class)
}

// bearerAt reads "Bearer <token>" at a.
func (r *Redactor) bearerAt(s string, a int, sc *scanner) {
	start := skipBlanks(s, a+len("bearer"))
	if start == a+len("bearer") {
		return
	}
	end := start
	for end < len(s) && (isKeyChar(s[end]) || strings.IndexByte("-._~+/", s[end]) >= 0) {
		end++
	}
	if end-start < 16 {
		return
	}
	for end < len(s) && s[end] == '=' {
		end++
	}
	if valuePlaceholder(s[start:min(end, start+valueDecideBytes)]) {
		return
	}
	sc.keyed = append(sc.keyed, Finding{Kind: KindBearer, Start: start, End: end})
}

// authorizationAt reads the credentials of an Authorization header whose
// name ends at b, whatever the scheme ("Token …", "Digest …", "ApiKey
// …", or none): Bearer and Basic are read by their own rules too, and
// the overlapping ranges are joined.
func (r *Redactor) authorizationAt(s string, b int, sc *scanner) {
	sep := assignSepLen(s[b:min(len(s), b+64)])
	if sep < 0 {
		return
	}
	i := b + sep
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		i++
	} else if i+1 < len(s) && s[i] == '\\' && s[i+1] == '"' {
		i += 2
	}
	// An optional scheme word, then blanks.
	j := i
	for j < len(s) && (isAlpha(s[j]) || s[j] == '-') {
		j++
	}
	if k := skipBlanks(s, j); k > j && j-i <= 16 {
		if strings.EqualFold(s[i:j], "bearer") || strings.EqualFold(s[i:j], "basic") {
			return // read by bearerAt and basicAt, with their kinds
		}
		i = k
	}
	end := i
	for end < len(s) && !isValueStop(s[end]) {
		end++
	}
	v := s[i:end]
	if len(v) < 8 || valuePlaceholder(v) || isLowerWord(v) {
		return
	}
	sc.keyed = append(sc.keyed, Finding{Kind: KindToken, Start: i, End: end})
}

// basicAt reads "Basic <base64>" at a, taken as credentials after an
// Authorization header or when the base64 decodes to user:password.
func (r *Redactor) basicAt(s string, a int, sc *scanner) {
	m := matchAt(r.basic(), s, a, false)
	if m == nil {
		return
	}
	start, end := a+m[2], a+m[3]
	if end < len(s) && isKeyChar(s[end]) {
		return
	}
	from := max(0, a-48)
	ctx := asciiLower(s[from:a])
	ok := strings.Contains(ctx, "authorization")
	if !ok {
		dec, err := base64.StdEncoding.DecodeString(padBase64(s[start:min(end, start+valueDecideBytes)]))
		ok = err == nil && bytes.IndexByte(dec, ':') > 0
	}
	if ok && !valuePlaceholder(s[start:end]) {
		sc.keyed = append(sc.keyed, Finding{Kind: KindBasicAuth, Start: start, End: end})
	}
}

func padBase64(v string) string {
	if n := len(v) % 4; n != 0 {
		return v + strings.Repeat("=", 4-n)
	}
	return v
}

// urlCredentials reads the password of scheme://user:password@host at
// the "://" at i.
func (r *Redactor) urlCredentials(s string, i int, sc *scanner) {
	if i == 0 || !isAlpha(s[i-1]) {
		return
	}
	stop := func(c byte) bool {
		return c == '@' || c == '/' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '\\' || c <= ' '
	}
	j := i + 3
	for j < len(s) && j-i-3 <= 128 && s[j] != ':' && !stop(s[j]) {
		j++
	}
	if j >= len(s) || s[j] != ':' {
		return
	}
	start := j + 1
	k := start
	for k < len(s) && !stop(s[k]) {
		k++
	}
	if k == start || k+1 >= len(s) || s[k] != '@' || !(isKeyChar(s[k+1]) || s[k+1] == '[') {
		return
	}
	pass := s[start:k]
	if len(pass) < 3 || valuePlaceholder(pass) || strings.EqualFold(pass, "pass") || isCodeWord(pass) {
		return
	}
	// A marker's own colon is not the userinfo's: "://,[redacted:gitlab],@h"
	// is text already redacted, and reading "gitlab]," as its password
	// made a second pass change it.
	if strings.Contains(s[i+3:k], marker) {
		return
	}
	sc.keyed = append(sc.keyed, Finding{Kind: KindPassword, Start: start, End: k})
}

// arg is one shell word of a command line: its range, and the range
// inside its quotes.
type arg struct{ start, end, in, out int }

// command reads the arguments after a command name that takes a
// password on its command line: sshpass -p X, mysql -pX / -p X, curl -u
// user:pass, redis-cli -a X.
func (r *Redactor) command(s string, from int, name string, sc *scanner) {
	args, end := shellArgs(s, from, 4096)
	sc.cmdUntil = end
	add := func(start, stop int) {
		v := s[start:stop]
		if len(v) < 3 || valuePlaceholder(v) {
			return
		}
		sc.keyed = append(sc.keyed, Finding{Kind: KindPassword, Start: start, End: stop})
	}
	for k, a := range args {
		w := s[a.in:a.out]
		next := func() (arg, bool) {
			if k+1 < len(args) {
				return args[k+1], true
			}
			return arg{}, false
		}
		switch name {
		case "sshpass", "redis-cli":
			flag := "-p"
			if name == "redis-cli" {
				flag = "-a"
			}
			if w == flag {
				if n, ok := next(); ok {
					add(n.in, n.out)
				}
			} else if strings.HasPrefix(w, flag) && len(w) > 2 && a.in == a.start {
				add(a.in+2, a.out)
			}
		case "curl":
			v := arg{}
			switch {
			case w == "-u" || w == "--user":
				n, ok := next()
				if !ok {
					continue
				}
				v = n
			case strings.HasPrefix(w, "--user="):
				v = arg{in: a.in + 7, out: a.out}
			case strings.HasPrefix(w, "-u") && len(w) > 2:
				v = arg{in: a.in + 2, out: a.out}
			default:
				continue
			}
			if c := strings.IndexByte(s[v.in:v.out], ':'); c >= 0 {
				add(v.in+c+1, v.out)
			}
		default: // mysql and friends
			if w == "-p" {
				if n, ok := next(); ok && !strings.HasPrefix(s[n.in:n.out], "-") {
					add(n.in, n.out)
				}
			} else if strings.HasPrefix(w, "-p") && len(w) > 2 {
				add(a.in+2, a.out)
			}
		}
	}
}

// shellArgs splits the command line from i into words, up to the end of
// the command (newline, ;, |, &) or limit bytes of scanning. It returns
// the words and where it stopped.
func shellArgs(s string, i, limit int) ([]arg, int) {
	var out []arg
	stop := min(len(s), i+limit)
	for i < stop {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i++
			continue
		case c == '\n' || c == ';' || c == '|' || c == '&' || c == ')':
			return out, i
		}
		a := arg{start: i}
		if c == '"' || c == '\'' {
			j := strings.IndexByte(s[i+1:stop], c)
			if j < 0 {
				return out, stop
			}
			a.in, a.out, a.end = i+1, i+1+j, i+2+j
		} else {
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n;|&)", rune(s[j])) {
				j++
			}
			a.in, a.out, a.end = i, j, j
			// --user="a:b": the quotes are part of the word
			if a.out-a.in >= 2 && (s[a.out-1] == '"' || s[a.out-1] == '\'') {
				if q := strings.IndexByte(s[a.in:a.out], s[a.out-1]); q >= 0 && a.in+q < a.out-1 {
					a.out--
				}
			}
		}
		out = append(out, a)
		i = a.end
	}
	return out, stop
}

// valuePlaceholder reports values people write in docs and templates
// instead of a real secret, judged by shape: a template reference, a
// mask, an elided value, a phrase of plain words.
func valuePlaceholder(v string) bool {
	if v == "" || strings.Contains(v, marker) {
		return true
	}
	switch v[0] {
	case '$', '<', '{':
		return true
	case '&':
		if strings.HasPrefix(v, "&lt") {
			return true // an HTML-escaped <placeholder>
		}
	case '%':
		if len(v) > 1 && v[len(v)-1] == '%' {
			return true
		}
	}
	if strings.Contains(v, "${") || strings.Contains(v, "{{") || strings.Contains(v, "$(") {
		return true
	}
	if strings.Contains(v, "...") || strings.Contains(v, "…") {
		core := strings.ReplaceAll(strings.ReplaceAll(v, "...", ""), "…", "")
		if len(core) < 8 {
			return true
		}
		// A JWT cut after its header ("eyJhbGciOi…J9..."): the header
		// only names the algorithm; the claims and signature are gone.
		if strings.HasPrefix(core, "eyJ") && !strings.Contains(core, ".") {
			return true
		}
		v = core
	}
	if fewDistinct(v) || maskRatio(v) >= 0.5 {
		return true
	}
	if namesItself(v) {
		return true
	}
	if len(v) > 12 {
		return placeholderPhrase(v)
	}
	l := asciiLower(v)
	switch l {
	case "changeme", "change_me", "change-me", "password", "passw0rd", "secret", "redacted",
		"placeholder", "example", "dummy", "notasecret", "not-a-secret", "tbd", "todo", "fixme":
		return true
	}
	return placeholderPhrase(l)
}

// namesItself reports a short value that spells "pass" ("valid-pass",
// "p@ss word", "p%40ss%20word"): a test fixture's password, chosen to be
// read, whose loss would hide what a failing test compared. A random
// secret of at most 16 characters holds those four letters about once in
// a million.
func namesItself(v string) bool {
	if len(v) > 16 {
		return false
	}
	l := strings.ReplaceAll(asciiLower(v), "%40", "@")
	return strings.Contains(l, "pass") || strings.Contains(l, "p@ss")
}

// tokenPlaceholder is the placeholder test for the body of a shaped key,
// which is random: "sk-xxxxxxxx…", "ghp_XXXX…", "AKIA0000000000000000".
func tokenPlaceholder(body string) bool {
	if len(body) > valueDecideBytes {
		body = body[:valueDecideBytes]
	}
	return body == "" || fewDistinct(body) || maskRatio(body) >= 0.5 || longestRun(body) >= 8 || placeholderPhrase(body)
}

// placeholderWords mark a phrase as a placeholder when all its other
// parts are plain words: "your_api_key_here", "example-token".
var placeholderWords = map[string]bool{
	"your": true, "example": true, "placeholder": true, "changeme": true, "here": true,
	"insert": true, "replace": true, "dummy": true, "sample": true, "redacted": true,
	"xxx": true, "xxxx": true, "foo": true, "bar": true, "fake": true,
}

// placeholderPhrase reports a value made of words joined by _ - . or
// space, none with a digit, one of them a placeholder word (any case).
func placeholderPhrase(v string) bool {
	parts, marked := 0, false
	var buf [16]byte
	for start, k := 0, 0; k <= len(v); k++ {
		if k < len(v) {
			c := lowerByte(v[k])
			if c >= 'a' && c <= 'z' {
				continue
			}
			if c != '_' && c != '-' && c != '.' && c != ' ' {
				return false
			}
		}
		if n := k - start; n > 0 {
			parts++
			if n <= len(buf) && !marked {
				for j := 0; j < n; j++ {
					buf[j] = lowerByte(v[start+j])
				}
				marked = placeholderWords[string(buf[:n])]
			}
		}
		start = k + 1
	}
	return parts >= 2 && marked
}

// maskRatio is the share of mask characters (x, X, *, #) in v.
func maskRatio(v string) float64 {
	if v == "" {
		return 0
	}
	n := 0
	for k := 0; k < len(v); k++ {
		switch v[k] {
		case 'x', 'X', '*', '#':
			n++
		}
	}
	return float64(n) / float64(len(v))
}

// longestRun is the length of the longest run of one repeated byte.
func longestRun(v string) int {
	best, run := 0, 0
	for k := 0; k < len(v); k++ {
		if k > 0 && v[k] == v[k-1] {
			run++
		} else {
			run = 1
		}
		best = max(best, run)
	}
	return best
}

// entropy is the Shannon entropy of v in bits per byte, over at most
// valueDecideBytes bytes.
func entropy(v string) float64 {
	if len(v) > valueDecideBytes {
		v = v[:valueDecideBytes]
	}
	if v == "" {
		return 0
	}
	var counts [256]int
	for k := 0; k < len(v); k++ {
		counts[v[k]]++
	}
	n := float64(len(v))
	h := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
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
	if len(v) > 12 {
		return false
	}
	switch asciiLower(v) {
	case "string", "str", "bytes", "int", "integer", "number", "bool", "boolean",
		"float", "object", "optional", "secretstr", "secretbytes", "none", "null",
		"nil", "undefined", "true", "false", "required", "missing", "invalid",
		"password", "passwd", "secret", "secrets", "token", "tokens", "apikey",
		"api_key", "hidden", "masked", "omitted", "unknown", "default", "string?":
		return true
	}
	return false
}

// fewDistinct reports strings made of one character ("********") or, when
// longer, of two ("-1-1-1", "abababab"), in any case.
func fewDistinct(v string) bool {
	if v == "" {
		return true
	}
	if len(v) < 6 {
		for i := 1; i < len(v); i++ {
			if lowerByte(v[i]) != lowerByte(v[0]) {
				return false
			}
		}
		return true
	}
	var a, b byte
	for i := 0; i < len(v); i++ {
		switch c := lowerByte(v[i]); {
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

func lowerByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
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
