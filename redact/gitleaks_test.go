package redact

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff/internal/secretsamples"
)

// ruleSecrets returns what rule r alone finds in text, with gitleaks'
// checks (secret group, entropy, allowlists) and none of this package's.
func ruleSecrets(r glRule, text string) []string {
	g := &glEngine{global: compileAllow(gitleaksGlobalAllow())}
	c := compileRule(r)
	lower := strings.ToLower(text)
	if !slices.ContainsFunc(r.keywords, func(kw string) bool { return strings.Contains(lower, strings.ToLower(kw)) }) {
		return nil // gitleaks runs a rule only where a keyword occurs
	}
	var sc scanner
	g.run(&c, text, 0, len(text), &sc)
	var out []string
	for _, f := range sc.catalog {
		out = append(out, text[f.Start:f.End])
	}
	return out
}

// TestGitleaksCatalogue holds every rule of gitleaks' catalogue to its
// own samples: each true positive's secret is gone from String's output,
// each false positive comes out untouched, and a rule with no sample
// fails.
func TestGitleaksCatalogue(t *testing.T) {
	samples := secretsamples.Gitleaks()
	for id, own := range secretsamples.PathRules() {
		s := samples[id]
		s.TPs = append(slices.Clip(s.TPs), own.TPs...)
		s.FPs = append(slices.Clip(s.FPs), own.FPs...)
		samples[id] = s
	}
	checkRules(t, gitleaksRules(), samples, glFPClaims())
}

// checkRules runs each rule's samples through String: every true
// positive loses the secret the rule finds in it, every false positive
// is left as it is (or redacted only as claims allows).
func checkRules(t *testing.T, rules []glRule, samples map[string]secretsamples.Samples, claims map[string]glClaim) {
	t.Helper()
	for _, r := range rules {
		t.Run(r.id, func(t *testing.T) {
			if r.regex == "" {
				if glSkipped(r.id) == "" {
					t.Fatalf("rule %s has no pattern and no reason to be skipped", r.id)
				}
				return
			}
			s := samples[r.id]
			if len(s.TPs) == 0 {
				t.Fatalf("rule %s has no true-positive sample", r.id)
			}
			for _, tp := range s.TPs {
				if miss := glKnownMisses()[tp]; miss != "" && glSkipped(r.id) != "" {
					continue
				}
				secrets := ruleSecrets(r, tp)
				if len(secrets) == 0 {
					t.Errorf("the rule does not find its own sample %q", tp)
					continue
				}
				out := String(tp)
				for _, sec := range secrets {
					if strings.Contains(out, sec) {
						t.Errorf("true positive kept its secret %q:\n in:  %q\n out: %q", sec, tp, out)
					}
				}
				for _, keep := range s.Keeps {
					if strings.Contains(tp, keep) && !strings.Contains(out, keep) {
						t.Errorf("redaction took %q, which is no secret:\n in:  %q\n out: %q", keep, tp, out)
					}
				}
			}
			claim := claims[r.id]
			for _, fp := range s.FPs {
				if got := ruleSecrets(r, fp); len(got) > 0 {
					t.Errorf("the rule finds %q in its own false positive %q", got, fp)
				}
				out := String(fp)
				if out == fp {
					continue
				}
				for _, kind := range placeholderKinds(out) {
					if !slices.Contains(claim.kinds, kind) {
						t.Errorf("false positive redacted as %s (not a claim listed for the rule):\n in:  %q\n out: %q", kind, fp, out)
					}
				}
			}
		})
	}
}

var placeholderRe = regexp.MustCompile(`\[redacted:([a-z0-9-]+)\]`)

// placeholderKinds lists the kinds of the placeholders in s.
func placeholderKinds(s string) []string {
	var out []string
	for _, m := range placeholderRe.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// glClaim is why another rule of this package redacts some of a gitleaks
// rule's false-positive samples, and the kinds it may give them.
type glClaim struct {
	kinds []string
	why   string
}

// Reasons a gitleaks false positive is still redacted here.
const (
	claimAssigned = "a key named *_TOKEN/SECRET/KEY/PASSWORD assigned a random-looking value: assign.go redacts it whatever vendor shape it has"
	claimWider    = "the vendor's own rule here accepts near-misses of the shape gitleaks' stricter pattern rejects (a truncated or re-cased key is still a key)"
	claimCommand  = "a credential on a command line (curl -u user:pass, Authorization header): redacted whatever its shape"
	claimExample  = "a vendor's documented example key: redacting it costs a reader nothing"
)

// glFPClaims lists, per gitleaks rule, the kinds this package's other
// rules may give that rule's false-positive samples. Any other redaction
// of a false positive fails TestGitleaksCatalogue.
func glFPClaims() map[string]glClaim {
	assigned := func(kinds ...string) glClaim { return glClaim{kinds, claimAssigned} }
	wider := func(kinds ...string) glClaim { return glClaim{kinds, claimWider} }
	return map[string]glClaim{
		"1password-service-account-token":     assigned("secret", "token"),
		"anthropic-admin-api-key":             wider("anthropic"),
		"anthropic-api-key":                   wider("anthropic"),
		"aws-access-token":                    {[]string{"aws-access-key"}, claimExample},
		"cisco-meraki-api-key":                assigned("api-key", "secret", "token"),
		"clickhouse-cloud-api-secret-key":     assigned("secret"),
		"cloudflare-api-key":                  {[]string{"api-key", "cloudflare", "secret"}, claimAssigned + "; cloudflare: the origin CA key rule"},
		"cloudflare-global-api-key":           {[]string{"api-key", "cloudflare", "secret"}, claimAssigned + "; cloudflare: the origin CA key rule"},
		"cloudflare-origin-ca-key":            assigned("api-key", "secret"),
		"curl-auth-header":                    {[]string{"jwt"}, claimCommand},
		"curl-auth-user":                      {[]string{"password"}, claimCommand},
		"databricks-api-token":                assigned("token"),
		"etsy-access-token":                   assigned("secret"),
		"gcp-api-key":                         {[]string{"api-key", "google-api-key"}, claimExample},
		"generic-api-key":                     assigned("api-key", "secret", "token"),
		"grafana-cloud-api-token":             assigned("api-key"),
		"infracost-api-token":                 wider("infracost"),
		"mailchimp-api-key":                   wider("mailchimp"),
		"okta-access-token":                   assigned("secret"),
		"openshift-user-token":                assigned("token"),
		"private-key":                         {[]string{"private-key"}, "a PEM block's BEGIN/END lines are redacted with whatever they hold, a key or not"},
		"sentry-org-token":                    wider("sentry"),
		"settlemint-application-access-token": assigned("token"),
		"settlemint-personal-access-token":    assigned("token"),
		"settlemint-service-access-token":     assigned("token"),
		"slack-bot-token":                     wider("slack"),
		"slack-config-access-token":           wider("slack"),
		"slack-legacy-token":                  wider("slack"),
		"slack-user-token":                    wider("slack"),
		"stripe-access-token":                 assigned("token"),
		"sumologic-access-token":              assigned("secret"),
		"telegram-bot-api-token":              {[]string{"telegram", "token"}, claimAssigned + "; telegram: a bot token with a word glued to its end"},
	}
}

// glKnownMisses are true-positive samples of a rule this package does not
// run (glSkipped) that its own rules do not catch either, and why.
func glKnownMisses() map[string]string {
	return map[string]string{
		"<genericToken>\n    Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznB\n</genericToken>": "a value alone on the line after an XML element named *Token: assign.go reads a key and its value on one line",
	}
}

// TestCatalogueSamplesTogether redacts every rule's true positives joined
// into one text, as a transcript holds them: a rule's window or a greedy
// pattern must not lose a secret to its neighbours (an okta keyword two
// lines up once hid "<oktaToken>\n  00f…"; one curl's -u once hid the
// previous curl's).
func TestCatalogueSamplesTogether(t *testing.T) {
	samples := secretsamples.Gitleaks()
	maps.Copy(samples, secretsamples.Own())
	var rules []glRule
	for _, r := range append(gitleaksRules(), ownRules()...) {
		if r.regex != "" && glSkipped(r.id) == "" {
			rules = append(rules, r)
		}
	}
	var text strings.Builder
	for _, r := range rules {
		for _, tp := range samples[r.id].TPs {
			text.WriteString(tp + "\n")
		}
	}
	out := String(text.String())
	for _, r := range rules {
		for _, tp := range samples[r.id].TPs {
			for _, sec := range ruleSecrets(r, tp) {
				if len(sec) >= 8 && strings.Contains(out, sec) {
					t.Errorf("%s: %q kept among the other samples", r.id, sec)
				}
			}
		}
	}
}
