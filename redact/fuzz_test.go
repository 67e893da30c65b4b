package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

// planted are secrets the fuzzer hides inside arbitrary text: the
// package's fixed fakes and one sample of every catalogue rule, from a
// fixed seed. None may leave a 16-byte piece in the output.
func planted(tb testing.TB) []string {
	out := []string{fakeOpenAI, fakeOpenAIOld, fakeAnthropic, fakeAWSID, fakeAWSTemp, fakeGitHub, fakeGitHubPAT,
		fakeSlackBot, fakeSlackHook, fakeGoogle, fakeStripe, fakeStripeRK, fakeJWT, fakePEM, fakeOpenSSH}
	for _, c := range catalogueCases(tb) {
		if c.id == "azure-sas-token" || c.id == "gitlab-session-cookie" {
			continue // a parameter name that stays, then the secret
		}
		out = append(out, c.sample)
	}
	return out
}

// FuzzString checks that String never panics, is idempotent, and leaves
// no 16-byte piece of a planted secret wherever it sits, plain,
// JSON-escaped or \u-escaped. The secret is set apart by a separator, as
// secrets are in real text; glued to a word it is a different token.
func FuzzString(f *testing.F) {
	f.Add("plain text", uint16(0), "after")
	f.Add("password=", uint16(3), "")
	f.Add(`{"api_key": "`, uint16(1), `"}`)
	f.Add("Authorization: Bearer", uint16(12), "\n")
	f.Add("postgres://admin:", uint16(5), "@db")
	f.Add("-----BEGIN RSA PRIVATE KEY-----", uint16(13), "")
	f.Add("export GITHUB_TOKEN=", uint16(5), "; go test ./...")
	f.Add("--password", uint16(7), " -u root")
	f.Add(`password="abc`, uint16(2), `def"`)
	f.Add("sk-ant-", uint16(9), "[redacted:openai]")
	f.Add(`{"text":"a\u002d`, uint16(40), `\/b"}`)
	f.Add(`\\\"token\\\": \\\"`, uint16(77), `\\\"`)
	secrets := planted(f)
	seps := []string{" ", "\n", "\t", "=", ": ", "\"", "'", "(", ",", "/", `\n`, `\"`}
	f.Fuzz(func(t *testing.T, before string, which uint16, after string) {
		secret := secrets[int(which)%len(secrets)]
		sep := seps[int(which/7)%len(seps)]
		in := before + sep + secret + sep + after
		switch which % 3 {
		case 1:
			b, _ := json.Marshal(in)
			in = string(b)
		case 2:
			in = uEscape(in)
		}
		out := String(in)
		// A piece the fuzzer also put around the secret is not a leak.
		around := func(frag string) bool { return strings.Contains(before+sep, frag) || strings.Contains(sep+after, frag) }
		if frag := leakedFragmentExcept(out, secret, around); frag != "" {
			t.Fatalf("planted secret left %q:\n in  %q\n out %q", frag, in, out)
		}
		if again := String(out); again != out {
			t.Fatalf("not idempotent:\n once  %q\n twice %q", out, again)
		}
		// Arbitrary text on its own: no panic, idempotent.
		plain := String(before)
		if again := String(plain); again != plain {
			t.Fatalf("not idempotent on %q:\n once  %q\n twice %q", before, plain, again)
		}
		// Clip never returns more than asked, nor a piece of the secret.
		n := len(before) % (len(out) + 1)
		if c := Clip(in, n); len(c) > n || leakedFragmentExcept(c, secret, around) != "" {
			t.Fatalf("Clip(%d) = %q", n, c)
		}
	})
}

// FuzzJSON checks that JSON never panics, keeps valid JSON valid, is
// idempotent, and removes a secret planted in a string value.
func FuzzJSON(f *testing.F) {
	f.Add([]byte(`{"a":"b"}`), uint16(0))
	f.Add([]byte(`{"password":"x","list":["y",{"token":"z"}]}`), uint16(3))
	f.Add([]byte(`[1,2,"\u002d",{"k":null}]`), uint16(9))
	f.Add([]byte(`not json`), uint16(4))
	secrets := planted(f)
	f.Fuzz(func(t *testing.T, doc []byte, which uint16) {
		out := JSON(doc)
		if json.Valid(doc) && !json.Valid(out) {
			t.Fatalf("valid JSON became invalid:\n in  %q\n out %q", doc, out)
		}
		if again := JSON(out); string(again) != string(out) {
			t.Fatalf("not idempotent:\n once  %q\n twice %q", out, again)
		}
		secret := secrets[int(which)%len(secrets)]
		enc, _ := json.Marshal(map[string]any{"k": string(doc), "v": []string{"x " + secret}})
		red := JSON(enc)
		if frag := leakedFragment(string(red), secret); frag != "" && !strings.Contains(string(doc), frag) {
			t.Fatalf("planted secret left %q: %s", frag, red)
		}
	})
}
