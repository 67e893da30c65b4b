package redact

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// shapeRule is a secret with a recognisable shape: a literal prefix (or a
// set of first bytes) and a body of known alphabet and length.
type shapeRule struct {
	// id names the rule: gitleaks' rule id where gitleaks has one, else
	// this package's own.
	id   string
	kind string
	// prefix is the literal the match starts with; when empty, starts
	// lists the bytes it may start with.
	prefix string
	starts string
	// re is anchored at the candidate; submatch 1, when present, is the
	// secret, else the whole match. It is compiled on first use: most
	// rules match by body and never need it.
	re lazyRegexp
	// tail rejects a match followed by a letter or digit, which would
	// make it a piece of a longer word.
	tail bool
	// digit rejects bodies without a digit: random keys have them,
	// kebab-case words that happen to share a prefix do not.
	digit bool
	// entropy is the least Shannon entropy, in bits per character, of the
	// body (the secret without its prefix).
	entropy float64
	// pre, when set, is a quick test of the text at the candidate that
	// must pass before re runs: rules without a prefix would otherwise
	// run their regexp at every word.
	pre func(rest string) bool
	// shape is read from the pattern on the rule's first candidate, as
	// re is compiled then: parsing every rule's pattern in New cost each
	// process several milliseconds.
	shape func() ruleShape
	// block marks a multi-line block (PEM, PuTTY) whose content is never
	// a placeholder.
	block bool
}

// ruleShape is what matchShapes learns from a rule's pattern.
type ruleShape struct {
	// body, when set, matches the rule without re: the body is one
	// character class repeated, the shape of most catalogue rules.
	body *classRun
	// minLen is the shortest text re can match; a candidate whose run of
	// non-space bytes is shorter is skipped without running re.
	minLen int
}

// lazyShape returns pattern's ruleShape, worked out on first call; body
// is the part after a literal prefix ("" when the rule has none to read
// as a classRun).
func lazyShape(pattern, body string) func() ruleShape {
	return sync.OnceValue(func() ruleShape {
		sh := ruleShape{minLen: minMatchLen(pattern)}
		if body != "" {
			sh.body = parseClassRun(body)
		}
		return sh
	})
}

// rule builds a shape rule for prefix+body; body is RE2 syntax.
func rule(id, kind, prefix, body string) shapeRule {
	pattern := `^` + regexp.QuoteMeta(prefix) + body
	return shapeRule{id: id, kind: kind, prefix: prefix, tail: true, entropy: 2, re: lazyCompile(pattern), shape: lazyShape(pattern, body)}
}

// lazyRegexp is a regexp compiled on its first call. New builds some
// hundred and fifty rules, and compiling all their regexps cost every
// redacting command several milliseconds though most rules match by
// their body (classRun) or never see a candidate; sync.OnceValue makes
// the compiled value immutable once built and safe for concurrent use.
// A bad pattern panics on first use (TestRulePatternsCompile compiles
// every one).
type lazyRegexp func() *regexp.Regexp

// lazyCompile returns pattern's lazyRegexp.
func lazyCompile(pattern string) lazyRegexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// classRun is a body of one character class repeated min to max times
// (max < 0: no bound), matched greedily like the regexp it comes from.
type classRun struct {
	in       [256]bool
	min, max int
}

// parseClassRun returns the classRun for body, or nil when body is
// anything else (it keeps its regexp).
func parseClassRun(body string) *classRun {
	re, err := syntax.Parse(body, syntax.Perl)
	if err != nil {
		return nil
	}
	cr := &classRun{}
	switch re.Op {
	case syntax.OpRepeat:
		cr.min, cr.max = re.Min, re.Max
	case syntax.OpPlus:
		cr.min, cr.max = 1, -1
	default:
		return nil
	}
	sub := re.Sub[0]
	if sub.Op != syntax.OpCharClass {
		return nil
	}
	for k := 0; k+1 < len(sub.Rune); k += 2 {
		lo, hi := sub.Rune[k], sub.Rune[k+1]
		if hi > 0xFF {
			return nil
		}
		for c := lo; c <= hi; c++ {
			cr.in[c] = true
		}
	}
	return cr
}

// match returns the end of the run starting at i, or -1.
func (cr *classRun) match(s string, i int) int {
	j := i
	for j < len(s) && cr.in[s[j]] && (cr.max < 0 || j-i < cr.max) {
		j++
	}
	if j-i < cr.min {
		return -1
	}
	return j
}

// minMatchLen is the least number of bytes pattern matches (ASCII
// classes count one byte a character, which holds for every catalogue
// rule).
func minMatchLen(pattern string) int {
	parsed, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return 0
	}
	return minLenOf(parsed)
}

func minLenOf(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(string(re.Rune))
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minLenOf(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minLenOf(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, sub := range re.Sub {
			n += minLenOf(sub)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, sub := range re.Sub {
			if m := minLenOf(sub); n < 0 || m < n {
				n = m
			}
		}
		return max(n, 0)
	}
	return 0
}

// nonSpaceRun is the length of the run of bytes from i that can belong
// to one token (no space, quote or bracket), counted up to limit.
func nonSpaceRun(s string, i, limit int) int {
	j, end := i, min(len(s), i+limit)
	for j < end && !isValueStop(s[j]) {
		j++
	}
	return j - i
}

// bare builds a shape rule without a literal prefix: expr is the whole
// pattern, starts the bytes it may begin with, pre its quick test.
func bare(id, kind, starts, expr string, pre func(string) bool) shapeRule {
	pattern := `^` + expr
	return shapeRule{id: id, kind: kind, starts: starts, pre: pre, tail: true, entropy: 3, re: lazyCompile(pattern), shape: lazyShape(pattern, "")}
}

// runOf is the length of the run of bytes in class at the start of s,
// counted up to limit+1.
func runOf(s string, class func(byte) bool, limit int) int {
	n := 0
	for n < len(s) && n <= limit && class(s[n]) {
		n++
	}
	return n
}

// followedBy reports whether s[n:] starts with lit.
func followedBy(s string, n int, lit string) bool {
	return n <= len(s) && strings.HasPrefix(s[n:], lit)
}

func isB64Char(c byte) bool  { return isKeyChar(c) || c == '+' || c == '/' }
func isWordChar(c byte) bool { return isKeyChar(c) || c == '_' || c == '-' }
func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isLowerHex(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' }

func (r shapeRule) withDigit() shapeRule            { r.digit = true; return r }
func (r shapeRule) withEntropy(e float64) shapeRule { r.entropy = e; return r }
func (r shapeRule) noTail() shapeRule               { r.tail = false; return r }

// many builds one rule per prefix, all with the same body: an
// alternation has no literal to dispatch on.
func many(id, kind string, prefixes []string, body string) []shapeRule {
	out := make([]shapeRule, 0, len(prefixes))
	for _, p := range prefixes {
		out = append(out, rule(id, kind, p, body))
	}
	return out
}

const (
	b62  = `[A-Za-z0-9]`
	word = `[A-Za-z0-9_\-]`
	hex  = `[a-fA-F0-9]`
	lhex = `[a-f0-9]`
	b64  = `[A-Za-z0-9+/]`
)

// catalogue returns the shaped rules. Where two rules share a first byte
// the more specific comes first ("sk-ant-" before "sk-", "eyJrIjoi"
// before "eyJ").
func catalogue() []shapeRule {
	var c []shapeRule
	add := func(rs ...shapeRule) { c = append(c, rs...) }

	// Private key blocks. A BEGIN line whose END never came: everything
	// to the end of the text is then key material.
	pem := rule("private-key", KindPrivateKey, "-----BEGIN", `[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|\z)`)
	pem.block, pem.tail, pem.entropy = true, false, 0
	putty := rule("putty-private-key", KindPrivateKey, "PuTTY-User-Key-File-", `[0-9]+:(?s:.*?)Private-Lines:(?s:.*?)(?:Private-MAC:[ \t]*[0-9a-fA-F]*|\z)`)
	putty.block, putty.tail, putty.entropy = true, false, 0
	add(pem, putty)
	add(rule("age-secret-key", "age", "AGE-SECRET-KEY-1", `[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`))
	add(rule("1password-service-account-token", "1password", "ops_eyJ", b64+`{250,}={0,3}`).withEntropy(4))

	// AI providers.
	add(rule("anthropic-api-key", KindAnthropic, "sk-ant-", word+`{20,}`).withDigit().noTail())
	add(rule("openai-api-key", KindOpenAI, "sk-", word+`{20,}`).withDigit().noTail())
	// Exactly 34 letters, as gitleaks has it: C identifiers such as
	// hf_servingcellpriority…_h_prio (Wireshark dissectors) are longer.
	add(rule("huggingface-access-token", "huggingface", "hf_", `[A-Za-z]{34}`))
	add(rule("huggingface-organization-api-token", "huggingface", "api_org_", b62+`{30,}`))

	// Cloud providers.
	add(many("aws-access-token", KindAWSAccessKey, []string{"AKIA", "ASIA", "ABIA", "ACCA", "A3T"}, `[A-Z0-9]{16,17}`)...)
	add(rule("gcp-api-key", KindGoogleAPIKey, "AIza", `[0-9A-Za-z_\-]{35}`))
	add(rule("google-oauth-access-token", "google-oauth", "ya29.", `[0-9A-Za-z_\-.]{20,}`).noTail())
	add(rule("google-oauth-refresh-token", "google-oauth", "1//0", `[0-9A-Za-z_\-]{30,}`).noTail())
	add(rule("gcp-client-secret", "google-oauth", "GOCSPX-", `[A-Za-z0-9_\-]{28}`))
	add(rule("azure-sas-token", "azure-sas", "sig=", `([A-Za-z0-9%+/=]{20,})`).withEntropy(3))
	add(many("digitalocean-pat", "digitalocean", []string{"dop_v1_", "doo_v1_", "dor_v1_"}, lhex+`{64}`)...)
	add(rule("heroku-api-key-v2", "heroku", "HRKU-", `[A-Za-z0-9_\-]{58,}`))
	add(rule("alibaba-access-key-id", "alibaba", "LTAI", b62+`{20}`))
	add(rule("cloudflare-origin-ca-key", "cloudflare", "v1.0-", lhex+`{24}-`+lhex+`{146}`))
	add(rule("flyio-access-token", "flyio", "fo1_", `[\w-]{43}`))
	add(many("flyio-access-token", "flyio", []string{"fm1a_", "fm1r_", "fm2_"}, b64+`{100,}={0,3}`)...)
	add(rule("openshift-user-token", "openshift", "sha256~", `[\w-]{43}`).withEntropy(3.5))
	add(rule("scalingo-api-token", "scalingo", "tk-us-", `[\w-]{48}`))
	add(many("yandex-api-key", "yandex", []string{"AQVN"}, `[A-Za-z0-9_\-]{35,38}`)...)

	// Source hosting and CI.
	add(many("github-pat", KindGitHub, []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, b62+`{30,}`)...)
	add(rule("github-fine-grained-pat", KindGitHub, "github_pat_", `[A-Za-z0-9_]{22,}`).withDigit())
	add(many("gitlab-pat", "gitlab", []string{"glpat-", "glrt-", "gldt-", "glft-", "glsoat-", "glffct-", "glimt-", "glagent-", "gloas-"}, word+`{20,}(?:\.[0-9a-z]{2,}){0,2}`)...)
	add(rule("gitlab-ptt", "gitlab", "glptt-", lhex+`{40}`))
	add(rule("gitlab-cicd-job-token", "gitlab", "glcbt-", b62+`{1,5}_`+word+`{20,}`))
	add(rule("gitlab-rrt", "gitlab", "GR1348941", word+`{20,}`))
	add(rule("gitlab-session-cookie", "gitlab", "_gitlab_session=", `([0-9a-z]{32})`))
	add(rule("atlassian-api-token", "atlassian", "ATATT3", `[A-Za-z0-9_\-=]{100,}`))
	add(rule("bitbucket-app-password", "atlassian", "ATBB", b62+`{28,}`).withEntropy(3))
	add(rule("linear-api-key", "linear", "lin_api_", b62+`{40}`))
	add(rule("linear-oauth-token", "linear", "lin_oauth_", lhex+`{64}`))
	add(rule("sourcegraph-access-token", "sourcegraph", "sgp_", `(?:`+hex+`{16}_|local_)?`+hex+`{40}`))
	add(rule("harness-api-key", "harness", "pat.", `[\w-]{22}\.`+b62+`{24}\.`+b62+`{20}`))
	add(rule("harness-api-key", "harness", "sat.", `[\w-]{22}\.`+b62+`{24}\.`+b62+`{20}`))
	add(rule("pulumi-api-token", "pulumi", "pul-", lhex+`{40}`))
	add(rule("prefect-api-token", "prefect", "pnu_", b62+`{36}`))
	add(rule("infracost-api-token", "infracost", "ico-", b62+`{32}`))
	add(rule("octopus-deploy-api-key", "octopus", "API-", `[A-Z0-9]{26}`).withEntropy(3))
	add(rule("clojars-api-token", "clojars", "CLOJARS_", b62+`{60}`))

	// Package registries.
	add(rule("npm-access-token", "npm", "npm_", b62+`{36}`))
	add(rule("pypi-upload-token", "pypi", "pypi-AgEIcHlwaS5vcmc", `[\w-]{50,}`).noTail())
	add(rule("rubygems-api-token", "rubygems", "rubygems_", lhex+`{48}`))
	add(rule("readme-api-token", "readme", "rdme_", `[a-z0-9]{70}`))

	// Secret managers.
	add(many("doppler-api-token", "doppler", []string{"dp.pt.", "dp.st.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit."}, b62+`{40,44}`)...)
	add(rule("vault-service-token", "vault", "hvs.", `[\w-]{90,}`).noTail())
	add(rule("vault-batch-token", "vault", "hvb.", `[\w-]{138,}`).noTail())
	add(rule("vault-service-token", "vault", "s.", b62+`{24}`).withDigit().withEntropy(3.5))
	add(rule("databricks-api-token", "databricks", "dapi", lhex+`{32}(?:-[0-9])?`).withEntropy(3))

	// Payments and commerce.
	for _, rl := range many("stripe-access-token", KindStripe, []string{"sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"}, b62+`{10,}`) {
		add(rl.withDigit())
	}
	add(rule("stripe-webhook-secret", KindStripe, "whsec_", `[A-Za-z0-9+/=]{24,}`).withDigit())
	add(many("shopify-access-token", "shopify", []string{"shpat_", "shpca_", "shppa_", "shpss_"}, hex+`{32}`)...)
	add(many("square-access-token", "square", []string{"sq0atp-", "sq0csp-", "EAAA"}, `[\w-]{22,60}`)...)
	add(many("duffel-api-token", "duffel", []string{"duffel_test_", "duffel_live_"}, `[A-Za-z0-9_\-=]{43}`)...)
	add(many("flutterwave-secret-key", "flutterwave", []string{"FLWSECK_TEST-", "FLWSECK-"}, `[a-hA-H0-9]{12}(?:[a-hA-H0-9]{20}-X)?`)...)
	add(rule("flutterwave-public-key", "flutterwave", "FLWPUBK_TEST-", `[a-hA-H0-9]{32}-X`))
	add(many("shippo-api-token", "shippo", []string{"shippo_live_", "shippo_test_"}, hex+`{40}`)...)
	add(many("easypost-api-token", "easypost", []string{"EZAK", "EZTK"}, b62+`{54}`)...)
	add(rule("adobe-client-secret", "adobe", "p8e-", b62+`{32}`))
	add(many("planetscale-api-token", "planetscale", []string{"pscale_tkn_", "pscale_oauth_", "pscale_pw_"}, `[\w=.\-]{32,64}`)...)

	// Messaging and email.
	for _, rl := range many("slack-bot-token", KindSlack, []string{"xoxb-", "xoxp-", "xoxa-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xoxe.xoxb-", "xoxe.xoxp-", "xapp-"}, `[A-Za-z0-9\-]{10,}`) {
		add(rl.withDigit())
	}
	add(rule("slack-webhook-url", KindSlack, "https://hooks.slack.com/", `(?:services|workflows|triggers)/[A-Za-z0-9+/_\-]{16,}`).noTail())
	add(rule("slack-webhook-url", KindSlack, "hooks.slack.com/", `(?:services|workflows|triggers)/[A-Za-z0-9+/_\-]{16,}`).noTail())
	add(many("discord-webhook-url", "discord", []string{"https://discord.com/api/webhooks/", "https://discordapp.com/api/webhooks/"}, `[0-9]+/[A-Za-z0-9_\-]{40,}`)...)
	add(bare("discord-bot-token", "discord", "MNO", `[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}`, func(r string) bool {
		n := runOf(r, isWordChar, 28)
		return n >= 24 && n <= 28 && followedBy(r, n, ".")
	}))
	add(bare("telegram-bot-api-token", "telegram", "0123456789", `[0-9]{5,16}:A[A-Za-z0-9_\-]{34}`, func(r string) bool {
		n := runOf(r, isDigit, 16)
		return n >= 5 && n <= 16 && followedBy(r, n, ":A")
	}))
	teams := rule("microsoft-teams-webhook", "teams", "https://", `[a-z0-9]+\.webhook\.office\.com/webhookb2/[A-Za-z0-9\-@/]{40,}`).noTail()
	teams.pre = func(r string) bool {
		host := r[len("https://"):min(len(r), 80)]
		if k := strings.IndexByte(host, '/'); k >= 0 {
			host = host[:k]
		}
		return strings.HasSuffix(host, ".webhook.office.com")
	}
	add(teams)
	add(rule("sendgrid-api-token", "sendgrid", "SG.", word+`{16,32}\.`+word+`{30,50}`))
	add(rule("sendinblue-api-token", "sendinblue", "xkeysib-", lhex+`{64}-`+b62+`{16}`))
	add(rule("twilio-api-key", "twilio", "SK", hex+`{32}`).withEntropy(3))
	// Not in gitleaks (its twilio rule is the API key's): the account SID
	// every Twilio key acts for, which issue 32 found leaking.
	add(rule("twilio-account-sid", "twilio", "AC", lhex+`{32}`).withEntropy(3))
	add(rule("mailgun-private-api-token", "mailgun", "key-", lhex+`{32}`).withEntropy(3))
	add(rule("mailgun-pub-key", "mailgun", "pubkey-", lhex+`{32}`).withEntropy(3))
	add(rule("typeform-api-token", "typeform", "tfp_", `[A-Za-z0-9\-_.=]{59}`))
	add(rule("postman-api-token", "postman", "PMAK-", hex+`{24}-`+hex+`{34}`))

	// Monitoring.
	add(rule("grafana-api-key", "grafana", "eyJrIjoi", b62+`{70,}={0,3}`).noTail())
	add(rule("grafana-cloud-api-token", "grafana", "glc_", b64+`{32,}={0,3}`).noTail())
	add(rule("grafana-service-account-token", "grafana", "glsa_", b62+`{32}_`+hex+`{8}`))
	add(rule("sentry-user-token", "sentry", "sntryu_", lhex+`{64}`))
	add(rule("sentry-org-token", "sentry", "sntrys_eyJ", `[A-Za-z0-9+/=_]{50,}`).noTail())
	add(rule("dynatrace-api-token", "dynatrace", "dt0c01.", b62+`{24}\.`+b62+`{64}`))
	add(many("new-relic-user-api-key", "newrelic", []string{"NRAK-"}, `[A-Z0-9]{27}`)...)
	add(rule("new-relic-insert-key", "newrelic", "NRII-", `[a-zA-Z0-9\-]{32}`))
	add(rule("new-relic-browser-api-token", "newrelic", "NRJS-", lhex+`{19}`))
	add(rule("clickhouse-cloud-api-secret-key", "clickhouse", "4b1d", b62+`{38}`).withEntropy(3))
	add(many("settlemint-personal-access-token", "settlemint", []string{"sm_pat_", "sm_aat_", "sm_sat_"}, b62+`{16}`)...)
	add(many("intra42-client-secret", "intra42", []string{"s-s4t2ud-", "s-s4t2af-"}, lhex+`{64}`)...)
	add(many("frameio-api-token", "frameio", []string{"fio-u-"}, `[A-Za-z0-9\-_=]{64}`)...)
	add(many("facebook-page-access-token", "facebook", []string{"EAAM", "EAAC"}, b62+`{100,}`)...)
	authress := `(?i:[a-z0-9]{5,30}\.[a-z0-9]{4,6}\.)acc[_-](?i:[a-z0-9-]{10,32}\.[a-z0-9+/_=-]{30,120})`
	add(many("authress-service-client-access-key", "authress", []string{"authress_", "scauth_", "ext_", "sc_"}, authress)...)

	// Generic token formats.
	add(rule("jwt-base64", KindJWT, "ZXlK", b64+`{40,}={0,2}`).noTail())
	add(rule("jwt", KindJWT, "eyJ", word+`{5,}\.`+word+`{5,}\.`+word+`*`).noTail())
	return c
}

// infixRule is a secret found by a rare literal inside it: the match
// starts back bytes before the literal.
type infixRule struct {
	id, kind string
	literal  string
	back     int
	re       lazyRegexp
	entropy  float64
	// b64Left: the byte before the match must not be a base64 character,
	// so a window of a longer base64 blob (an image) is not a key.
	b64Left bool
}

func infixCatalogue() []infixRule {
	return []infixRule{
		{id: "azure-ad-client-secret", kind: "azure-ad", literal: "Q~", back: 4, entropy: 3,
			re: lazyCompile(`^[a-zA-Z0-9_~.]{3}[0-9]Q~[a-zA-Z0-9_~.\-]{31,34}`)},
		{id: "azure-storage-account-key", kind: "azure-storage-key", literal: "==", back: 86, entropy: 4, b64Left: true,
			re: lazyCompile(`^[A-Za-z0-9+/]{86}==`)},
		{id: "mailchimp-api-key", kind: "mailchimp", literal: "-us", back: 32, entropy: 3,
			re: lazyCompile(`^[a-f0-9]{32}-us[0-9]{1,2}`)},
		{id: "maxmind-license-key", kind: "maxmind", literal: "_mmk", back: 36, entropy: 3,
			re: lazyCompile(`^[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk`)},
		{id: "hashicorp-tf-api-token", kind: "terraform", literal: ".atlasv1.", back: 14, entropy: 3,
			re: lazyCompile(`^[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9\-_=]{60,70}`)},
	}
}

// matchShapes tries the rules that may start at s[i].
func (r *Redactor) matchShapes(s string, i int, ids []int, sc *scanner) {
	rest := s[i:]
	for _, id := range ids {
		rl := &r.rules[id]
		if p := rl.prefix; p != "" && (len(rest) < len(p) || rest[len(p)-1] != p[len(p)-1] || !strings.HasPrefix(rest, p)) {
			continue
		}
		if rl.pre != nil && !rl.pre(rest) {
			continue
		}
		sh := rl.shape()
		if !rl.block && sh.minLen > len(rl.prefix) && nonSpaceRun(s, i, sh.minLen) < sh.minLen {
			continue
		}
		var m []int
		if sh.body != nil {
			if e := sh.body.match(s, i+len(rl.prefix)); e >= 0 {
				m = []int{0, e - i}
			}
		} else {
			m = matchAt(rl.re(), s, i, rl.block)
		}
		if m == nil {
			continue
		}
		start, end := i+m[0], i+m[1]
		if len(m) >= 4 && m[2] >= 0 {
			start, end = i+m[2], i+m[3]
		}
		matchEnd := i + m[1]
		if rl.tail && matchEnd < len(s) && isKeyChar(s[matchEnd]) {
			// Padding the pattern took ("…oQ=" of "…oQ=0") may be the
			// separator before the next word: give it back, and the
			// token ends where the padding began.
			back := matchEnd
			for back > start && s[back-1] == '=' {
				back--
			}
			if back == matchEnd || back-i < sh.minLen || !rl.re().MatchString(s[i:back]) {
				continue
			}
			matchEnd = back
			end = min(end, back)
		}
		sc.shapeUntil = max(sc.shapeUntil, matchEnd)
		if !rl.block {
			body := s[start:end]
			if rl.prefix != "" && strings.HasPrefix(body, rl.prefix) {
				body = body[len(rl.prefix):]
			}
			if rl.digit && !strings.ContainsAny(body, "0123456789") {
				continue
			}
			if tokenPlaceholder(body) || entropy(body) < rl.entropy {
				continue
			}
		}
		sc.strong = append(sc.strong, Finding{Kind: rl.kind, Start: start, End: end})
		return
	}
}

// matchInfix finds an infix rule's secrets with one index scan.
func (r *Redactor) matchInfix(s string, rl infixRule, sc *scanner) {
	for from := 0; ; {
		k := strings.Index(s[from:], rl.literal)
		if k < 0 {
			return
		}
		p := from + k
		from = p + len(rl.literal)
		start := p - rl.back
		if start < 0 || !leftBoundary(s, start) || rl.b64Left && start > 0 && isB64Char(s[start-1]) {
			continue
		}
		m := matchAt(rl.re(), s, start, false)
		if m == nil {
			continue
		}
		end := start + m[1]
		if end < len(s) && isKeyChar(s[end]) {
			continue
		}
		body := s[start:end]
		if tokenPlaceholder(body) || entropy(body) < rl.entropy {
			continue
		}
		sc.strong = append(sc.strong, Finding{Kind: rl.kind, Start: start, End: end})
		from = end
	}
}

// window is how much text an anchored regexp first sees: short inputs
// let Go run its backtracker, several times faster than the NFA it uses
// on long ones. A match that reaches the window's end is run again on the
// whole rest of the text, so no secret is cut short.
const window = 1024

// matchAt runs the anchored re at s[i:]; full skips the window (for
// blocks whose closing line can be far away).
func matchAt(re *regexp.Regexp, s string, i int, full bool) []int {
	if full || len(s)-i <= window {
		return re.FindStringSubmatchIndex(s[i:])
	}
	w := s[i : i+window]
	m := re.FindStringSubmatchIndex(w)
	if m != nil && m[1] == len(w) {
		m = re.FindStringSubmatchIndex(s[i:])
	}
	return m
}
