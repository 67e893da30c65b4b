package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// gen makes realistic random-looking values from a fixed seed: never a
// real secret, but the alphabet and length of one.
type gen struct{ r *rand.Rand }

func newGen(seed uint64) *gen { return &gen{rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))} }

const (
	csUpper   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	csLower   = "abcdefghijklmnopqrstuvwxyz"
	csDigit   = "0123456789"
	csB62     = csUpper + csLower + csDigit
	csWord    = csB62 + "_-"
	csB64     = csB62 + "+/"
	csLHex    = "0123456789abcdef"
	csUpAlnum = csUpper + csDigit
	csLoAlnum = csLower + csDigit
)

// str returns n characters from charset, with at least one digit and one
// letter when the charset has them (random keys of this length do).
func (g *gen) str(charset string, n int) string {
	for {
		b := make([]byte, n)
		for i := range b {
			b[i] = charset[g.r.IntN(len(charset))]
		}
		s := string(b)
		if n < 8 || !strings.ContainsAny(charset, csDigit) || strings.ContainsAny(s, csDigit) && strings.ContainsAny(s, csUpper+csLower) || !strings.ContainsAny(charset, csUpper+csLower) {
			return s
		}
	}
}

func (g *gen) uuid() string {
	h := g.str(csLHex, 32)
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:]
}

// catalogueSamples returns, for each rule id, a sample secret for the
// rule with the given prefix ("" for rules without one).
func catalogueSamples() map[string]func(g *gen, p string) string {
	s := func(cs string, n int) func(*gen, string) string {
		return func(g *gen, p string) string { return p + g.str(cs, n) }
	}
	return map[string]func(*gen, string) string{
		"private-key": func(g *gen, p string) string {
			return "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA" + g.str(csB64, 48) + "\n" + g.str(csB64, 64) + "\n" + g.str(csB64, 20) + "==\n-----END RSA PRIVATE KEY-----"
		},
		"putty-private-key": func(g *gen, p string) string {
			return "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy@ci\nPublic-Lines: 2\n" + g.str(csB64, 64) + "\n" + g.str(csB64, 12) + "\nPrivate-Lines: 1\n" + g.str(csB64, 44) + "\nPrivate-MAC: " + g.str(csLHex, 64)
		},
		"age-secret-key":                     s("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
		"1password-service-account-token":    s(csB64, 300),
		"anthropic-api-key":                  func(g *gen, p string) string { return p + "api03-" + g.str(csWord, 93) + "AA" },
		"openai-api-key":                     func(g *gen, p string) string { return p + "proj-" + g.str(csWord, 56) },
		"huggingface-access-token":           s(csUpper+csLower, 34),
		"huggingface-organization-api-token": s(csUpper+csLower, 34),
		"aws-access-token":                   s(csUpAlnum, 16),
		"gcp-api-key":                        s(csWord, 35),
		"google-oauth-access-token":          s(csWord, 120),
		"google-oauth-refresh-token":         s(csWord, 64),
		"gcp-client-secret":                  s(csWord, 28),
		"azure-sas-token":                    func(g *gen, p string) string { return p + g.str(csB62, 20) + "%2B" + g.str(csB62, 20) + "%3D" },
		"digitalocean-pat":                   s(csLHex, 64),
		"heroku-api-key-v2":                  func(g *gen, p string) string { return p + "AA" + g.str(csWord, 58) },
		"alibaba-access-key-id":              s(csB62, 20),
		"cloudflare-origin-ca-key":           func(g *gen, p string) string { return p + g.str(csLHex, 24) + "-" + g.str(csLHex, 146) },
		"flyio-access-token": func(g *gen, p string) string {
			if p == "fo1_" {
				return p + g.str(csWord, 43)
			}
			return p + g.str(csB64, 140)
		},
		"openshift-user-token":     s(csWord, 43),
		"scalingo-api-token":       s(csWord, 48),
		"yandex-api-key":           s(csWord, 36),
		"github-pat":               s(csB62, 36),
		"github-fine-grained-pat":  func(g *gen, p string) string { return p + g.str(csB62, 22) + "_" + g.str(csB62, 59) },
		"gitlab-pat":               s(csWord, 20),
		"gitlab-ptt":               s(csLHex, 40),
		"gitlab-cicd-job-token":    func(g *gen, p string) string { return p + g.str(csB62, 2) + "_" + g.str(csWord, 20) },
		"gitlab-rrt":               s(csWord, 20),
		"gitlab-session-cookie":    s(csLoAlnum, 32),
		"atlassian-api-token":      func(g *gen, p string) string { return p + g.str(csWord, 179) + "=" + g.str(csUpAlnum, 8) },
		"bitbucket-app-password":   s(csB62, 32),
		"linear-api-key":           s(csB62, 40),
		"linear-oauth-token":       s(csLHex, 64),
		"sourcegraph-access-token": func(g *gen, p string) string { return p + g.str(csLHex, 16) + "_" + g.str(csLHex, 40) },
		"harness-api-key": func(g *gen, p string) string {
			return p + g.str(csWord, 22) + "." + g.str(csB62, 24) + "." + g.str(csB62, 20)
		},
		"pulumi-api-token":       s(csLHex, 40),
		"prefect-api-token":      s(csB62, 36),
		"infracost-api-token":    s(csB62, 32),
		"octopus-deploy-api-key": s(csUpAlnum, 26),
		"clojars-api-token":      s(csB62, 60),
		"npm-access-token":       s(csB62, 36),
		"pypi-upload-token":      s(csWord, 150),
		"rubygems-api-token":     s(csLHex, 48),
		"readme-api-token":       s(csLoAlnum, 70),
		"doppler-api-token":      s(csB62, 43),
		"vault-service-token": func(g *gen, p string) string {
			if p == "s." {
				return p + g.str(csB62, 24)
			}
			return p + g.str(csWord, 95)
		},
		"vault-batch-token":      s(csWord, 140),
		"databricks-api-token":   s(csLHex, 32),
		"stripe-access-token":    s(csB62, 24),
		"stripe-webhook-secret":  s(csB62, 32),
		"shopify-access-token":   s(csLHex, 32),
		"square-access-token":    s(csWord, 40),
		"duffel-api-token":       s(csWord, 43),
		"flutterwave-secret-key": func(g *gen, p string) string { return p + g.str("abcdefgh0123456789", 32) + "-X" },
		"flutterwave-public-key": func(g *gen, p string) string { return p + g.str("abcdefgh0123456789", 32) + "-X" },
		"shippo-api-token":       s(csLHex, 40),
		"easypost-api-token":     s(csB62, 54),
		"adobe-client-secret":    s(csB62, 32),
		"planetscale-api-token":  s(csWord, 43),
		"slack-bot-token": func(g *gen, p string) string {
			return p + g.str(csDigit, 11) + "-" + g.str(csDigit, 13) + "-" + g.str(csB62, 24)
		},
		"slack-webhook-url": func(g *gen, p string) string {
			return p + "services/T" + g.str(csUpAlnum, 10) + "/B" + g.str(csUpAlnum, 10) + "/" + g.str(csB62, 24)
		},
		"discord-webhook-url": func(g *gen, p string) string { return p + g.str(csDigit, 18) + "/" + g.str(csWord, 68) },
		"discord-bot-token": func(g *gen, p string) string {
			return "M" + g.str(csB62, 25) + "." + g.str(csWord, 6) + "." + g.str(csWord, 38)
		},
		"telegram-bot-api-token": func(g *gen, p string) string { return g.str(csDigit, 10) + ":AA" + g.str(csWord, 33) },
		"microsoft-teams-webhook": func(g *gen, p string) string {
			return "https://acme.webhook.office.com/webhookb2/" + g.uuid() + "@" + g.uuid() + "/IncomingWebhook/" + g.str(csLHex, 32) + "/" + g.uuid()
		},
		"sendgrid-api-token":               func(g *gen, p string) string { return p + g.str(csWord, 22) + "." + g.str(csWord, 43) },
		"sendinblue-api-token":             func(g *gen, p string) string { return p + g.str(csLHex, 64) + "-" + g.str(csB62, 16) },
		"twilio-api-key":                   s(csLHex, 32),
		"twilio-account-sid":               s(csLHex, 32),
		"mailgun-private-api-token":        s(csLHex, 32),
		"mailgun-pub-key":                  s(csLHex, 32),
		"typeform-api-token":               s(csWord, 59),
		"postman-api-token":                func(g *gen, p string) string { return p + g.str(csLHex, 24) + "-" + g.str(csLHex, 34) },
		"grafana-api-key":                  s(csB62, 80),
		"grafana-cloud-api-token":          s(csB62, 60),
		"grafana-service-account-token":    func(g *gen, p string) string { return p + g.str(csB62, 32) + "_" + g.str(csLHex, 8) },
		"sentry-user-token":                s(csLHex, 64),
		"sentry-org-token":                 func(g *gen, p string) string { return p + g.str(csB62, 80) + "_" + g.str(csB62, 43) },
		"dynatrace-api-token":              func(g *gen, p string) string { return p + g.str(csUpAlnum, 24) + "." + g.str(csUpAlnum, 64) },
		"new-relic-user-api-key":           s(csUpAlnum, 27),
		"new-relic-insert-key":             s(csB62, 32),
		"new-relic-browser-api-token":      s(csLHex, 19),
		"clickhouse-cloud-api-secret-key":  s(csB62, 38),
		"settlemint-personal-access-token": s(csB62, 16),
		"intra42-client-secret":            s(csLHex, 64),
		"frameio-api-token":                s(csWord, 64),
		"facebook-page-access-token":       s(csB62, 120),
		"authress-service-client-access-key": func(g *gen, p string) string {
			return p + g.str(csLoAlnum, 12) + "." + g.str(csLoAlnum, 5) + ".acc_" + g.str(csLoAlnum, 20) + "." + g.str(csB62, 48)
		},
		"jwt-base64": s(csB64, 120),
		"jwt": func(g *gen, p string) string {
			return p + "hbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJ" + g.str(csWord, 60) + "." + g.str(csWord, 86)
		},
		// infix rules
		"azure-ad-client-secret":    func(g *gen, p string) string { return g.str(csB62, 3) + "8Q~" + g.str(csB62+"_~.-", 34) },
		"azure-storage-account-key": func(g *gen, p string) string { return g.str(csB64, 86) + "==" },
		"mailchimp-api-key":         func(g *gen, p string) string { return g.str(csLHex, 32) + "-us14" },
		"maxmind-license-key":       func(g *gen, p string) string { return g.str(csB62, 6) + "_" + g.str(csB62, 29) + "_mmk" },
		"hashicorp-tf-api-token":    func(g *gen, p string) string { return g.str(csLoAlnum, 14) + ".atlasv1." + g.str(csWord, 67) },
	}
}

// catalogueCase is one catalogue rule with its sample.
type catalogueCase struct {
	id, kind, prefix, sample string
}

// catalogueCases returns one case per catalogue rule (every prefix of a
// rule id); it fails the test for a rule without a sample.
func catalogueCases(t testing.TB) []catalogueCase {
	g := newGen(15)
	samples := catalogueSamples()
	var out []catalogueCase
	for _, rl := range catalogue() {
		f, ok := samples[rl.id]
		if !ok {
			t.Errorf("catalogue rule %q has no sample in catalogueSamples", rl.id)
			continue
		}
		out = append(out, catalogueCase{rl.id, rl.kind, rl.prefix, f(g, rl.prefix)})
	}
	for _, rl := range infixCatalogue() {
		f, ok := samples[rl.id]
		if !ok {
			t.Errorf("infix rule %q has no sample in catalogueSamples", rl.id)
			continue
		}
		out = append(out, catalogueCase{rl.id, rl.kind, "", f(g, "")})
	}
	return out
}

// TestCatalogueRules checks every catalogue rule on a sample of its
// shape, standing alone in prose (no key name to help): the rule's own
// kind is reported and no 16-byte piece of the sample is left.
func TestCatalogueRules(t *testing.T) {
	t.Parallel()
	r := New()
	for _, c := range catalogueCases(t) {
		t.Run(c.id+"/"+c.prefix, func(t *testing.T) {
			in := "the value " + c.sample + " was printed"
			found := r.Find(in)
			ok := false
			for _, f := range found {
				if f.Kind == c.kind {
					ok = true
				}
			}
			if !ok {
				t.Errorf("Find(%q) = %+v, want a %q finding", in, found, c.kind)
			}
			out := r.String(in)
			if frag := leakedFragment(out, secretPart(c)); frag != "" {
				t.Errorf("String left %q of the sample:\n in  %q\n out %q", frag, in, out)
			}
			if !strings.HasPrefix(out, "the value ") || !strings.HasSuffix(out, " was printed") {
				t.Errorf("String changed the text around the secret: %q", out)
			}
		})
	}
}

// secretPart is the part of a sample that is secret: for rules that keep
// a parameter name ("sig=", "_gitlab_session="), the value after it.
func secretPart(c catalogueCase) string {
	switch c.id {
	case "azure-sas-token", "gitlab-session-cookie":
		return c.sample[len(c.prefix):]
	}
	return c.sample
}

// TestCatalogueCoversGitleaksDefaults names the gitleaks default rules
// with a recognisable shape that the catalogue must carry, so a rule
// dropped by mistake fails here.
func TestCatalogueCoversGitleaksDefaults(t *testing.T) {
	t.Parallel()
	have := map[string]bool{}
	for _, rl := range catalogue() {
		have[rl.id] = true
	}
	for _, rl := range infixCatalogue() {
		have[rl.id] = true
	}
	for _, id := range []string{
		"1password-service-account-token", "adobe-client-secret", "age-secret-key", "alibaba-access-key-id",
		"atlassian-api-token", "authress-service-client-access-key", "aws-access-token", "azure-ad-client-secret",
		"clickhouse-cloud-api-secret-key", "clojars-api-token", "cloudflare-origin-ca-key", "databricks-api-token",
		"digitalocean-pat", "doppler-api-token", "duffel-api-token", "dynatrace-api-token", "easypost-api-token",
		"facebook-page-access-token", "flutterwave-public-key", "flutterwave-secret-key", "flyio-access-token",
		"frameio-api-token", "gcp-api-key", "github-app-token", "github-fine-grained-pat", "github-pat",
		"gitlab-cicd-job-token", "gitlab-pat", "gitlab-ptt", "gitlab-rrt", "gitlab-session-cookie",
		"grafana-api-key", "grafana-cloud-api-token", "grafana-service-account-token", "harness-api-key",
		"hashicorp-tf-api-token", "huggingface-access-token", "huggingface-organization-api-token",
		"infracost-api-token", "intra42-client-secret", "jwt", "jwt-base64", "linear-api-key", "mailchimp-api-key",
		"mailgun-private-api-token", "mailgun-pub-key", "maxmind-license-key", "microsoft-teams-webhook",
		"new-relic-browser-api-token", "new-relic-insert-key", "new-relic-user-api-key", "npm-access-token",
		"octopus-deploy-api-key", "openai-api-key", "openshift-user-token", "planetscale-api-token",
		"postman-api-token", "prefect-api-token", "private-key", "pulumi-api-token", "pypi-upload-token",
		"readme-api-token", "rubygems-api-token", "scalingo-api-token", "sendgrid-api-token", "sendinblue-api-token",
		"sentry-org-token", "sentry-user-token", "settlemint-personal-access-token", "shippo-api-token",
		"shopify-access-token", "slack-bot-token", "slack-webhook-url", "sourcegraph-access-token",
		"square-access-token", "stripe-access-token", "telegram-bot-api-token", "twilio-api-key",
		"typeform-api-token", "vault-batch-token", "vault-service-token", "yandex-api-key",
	} {
		if id == "github-app-token" { // ghu_/ghs_ live under github-pat here
			id = "github-pat"
		}
		if !have[id] {
			t.Errorf("gitleaks default rule %q has no catalogue rule", id)
		}
	}
}

// leakedFragment returns a 16-byte piece of secret (the whole secret if
// shorter) found in out or in out with its JSON escapes decoded, or "".
func leakedFragment(out, secret string) string {
	return leakedFragmentExcept(out, secret, nil)
}

// leakedFragmentExcept is leakedFragment skipping pieces for which skip
// is true.
func leakedFragmentExcept(out, secret string, skip func(string) bool) string {
	views := []string{out}
	if strings.Contains(out, `\`) {
		v, _ := unescapeView(out)
		views = append(views, v)
		if strings.Contains(v, `\`) {
			v2, _ := unescapeView(v)
			views = append(views, v2)
		}
	}
	n := min(16, len(secret))
	for i := 0; i+n <= len(secret); i++ {
		frag := secret[i : i+n]
		for _, v := range views {
			if strings.Contains(v, frag) && (skip == nil || !skip(frag)) {
				return frag
			}
		}
	}
	return ""
}

// TestRulePatternsCompile compiles every rule's regexp, which New leaves
// to first use: a bad pattern would otherwise panic only when a text
// first reaches its rule.
func TestRulePatternsCompile(t *testing.T) {
	t.Parallel()
	r := New()
	for _, rl := range r.rules {
		if rl.re() == nil {
			t.Errorf("%s: no regexp", rl.id)
		}
	}
	for _, rl := range r.infix {
		if rl.re() == nil {
			t.Errorf("%s: no regexp", rl.id)
		}
	}
	if r.basic() == nil || r.awsSecret() == nil {
		t.Error("basic or awsSecret has no regexp")
	}
}
