package redact

import (
	"strings"
	"testing"
)

// planted are secrets the fuzzer hides inside arbitrary text; none may
// appear in the output, whatever surrounds them.
func planted() []string {
	return []string{fakeOpenAI, fakeOpenAIOld, fakeAnthropic, fakeAWSID, fakeAWSTemp, fakeGitHub, fakeGitHubPAT,
		fakeSlackBot, fakeSlackHook, fakeGoogle, fakeStripe, fakeStripeRK, fakeJWT, fakePEM, fakeOpenSSH}
}

// FuzzString checks that String never panics, is idempotent, and removes
// a planted secret wherever it sits in the input. The secret is set apart
// by a separator, as secrets are in real text; glued to a word it is a
// different token.
func FuzzString(f *testing.F) {
	f.Add("plain text", uint8(0), "after")
	f.Add("password=", uint8(3), "")
	f.Add(`{"api_key": "`, uint8(1), `"}`)
	f.Add("Authorization: Bearer", uint8(12), "\n")
	f.Add("postgres://admin:", uint8(5), "@db")
	f.Add("-----BEGIN RSA PRIVATE KEY-----", uint8(13), "")
	f.Add("export GITHUB_TOKEN=", uint8(5), "; go test ./...")
	f.Add("--password", uint8(7), " -u root")
	f.Add(`password="abc`, uint8(2), `def"`)
	f.Add("sk-ant-", uint8(9), "[redacted:openai]")
	seps := []string{" ", "\n", "\t", "=", ": ", "\"", "'", "(", ",", "/"}
	f.Fuzz(func(t *testing.T, before string, which uint8, after string) {
		secrets := planted()
		secret := secrets[int(which)%len(secrets)]
		sep := seps[int(which)%len(seps)]
		in := before + sep + secret + sep + after
		out := String(in)
		if strings.Contains(out, secret) {
			t.Fatalf("planted secret survived:\n in  %q\n out %q", in, out)
		}
		if again := String(out); again != out {
			t.Fatalf("not idempotent:\n once  %q\n twice %q", out, again)
		}
		// Arbitrary text on its own: no panic, idempotent.
		plain := String(before)
		if again := String(plain); again != plain {
			t.Fatalf("not idempotent on %q:\n once  %q\n twice %q", before, plain, again)
		}
	})
}
