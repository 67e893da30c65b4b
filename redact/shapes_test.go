package redact

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// shape is a realistic secret in the lines it shows up in. secret is the
// part that must not survive; lines hold it at %s.
type shape struct {
	name   string
	secret string
	lines  []string
}

// shapes returns every catalogue sample in prose, an env assignment and a
// command line, plus the secrets that only their context gives away
// (passwords on command lines, Basic auth, URL credentials, key=value
// with a random value), and over-512-byte values.
func shapes(t testing.TB) []shape {
	var out []shape
	for _, c := range catalogueCases(t) {
		if c.id == "azure-sas-token" || c.id == "gitlab-session-cookie" {
			out = append(out, shape{name: c.id, secret: secretPart(c), lines: []string{
				"GET /c/f.txt?sv=2022-11-02&" + c.prefix + "%s HTTP/1.1", "curl 'https://x.test/f?sp=r&" + c.prefix + "%s'"}})
			continue
		}
		lines := []string{"the value %s was printed", "export SERVICE_CREDENTIAL=%s", "./deploy.sh --region eu-west-1 %s --verbose"}
		out = append(out, shape{name: c.id + "/" + c.prefix, secret: secretPart(c), lines: lines})
	}
	g := newGen(1515)
	pw := func() string { return g.str(csB62+"!@#%^*_-", 14) }
	basic := func() string { return base64.StdEncoding.EncodeToString([]byte("svc-deploy:" + g.str(csB62, 18))) }
	long := func(prefix, cs string, n int) string { return prefix + g.str(cs, n) }
	pemLong := "-----BEGIN OPENSSH PRIVATE KEY-----\n"
	for range 30 {
		pemLong += g.str(csB64, 70) + "\n"
	}
	pemLong += "-----END OPENSSH PRIVATE KEY-----"
	ctx := []shape{
		{name: "env password", secret: pw(), lines: []string{"DB_PASSWORD=%s", "export DB_PASSWORD='%s'"}},
		{name: "yaml password", secret: pw(), lines: []string{"database:\n  password: %s\n  host: db"}},
		{name: "json password", secret: pw(), lines: []string{`{"user":"admin","password":"%s"}`}},
		{name: "sshpass -p", secret: pw(), lines: []string{"sshpass -p %s ssh deploy@10.0.0.5 uptime", "sshpass -p '%s' scp a.tar deploy@h:/tmp"}},
		{name: "sshpass -pX", secret: pw(), lines: []string{"sshpass -p%s ssh deploy@10.0.0.5"}},
		{name: "mysql -pX", secret: pw(), lines: []string{"mysql -uroot -p%s -h db app", "mysqldump -u backup -p%s --all-databases > dump.sql"}},
		{name: "mysql -p X", secret: pw(), lines: []string{"mysql -u root -p %s app"}},
		{name: "curl -u", secret: pw(), lines: []string{"curl -u admin:%s https://api.internal/v1/health", `curl --user "ci:%s" https://x.test`}},
		{name: "--password X", secret: pw(), lines: []string{"psql --password %s -h db", "vault login --password=%s"}},
		{name: "PGPASSWORD", secret: pw(), lines: []string{"PGPASSWORD=%s psql -h db -U app"}},
		{name: "redis-cli -a", secret: pw(), lines: []string{"redis-cli -a %s -h cache ping"}},
		{name: "docker -e password", secret: pw(), lines: []string{"docker run -e MYSQL_ROOT_PASSWORD=%s mysql:8"}},
		{name: "basic auth header", secret: basic(), lines: []string{"Authorization: Basic %s", `curl -H "Authorization: Basic %s" https://x.test`}},
		{name: "basic auth bare", secret: basic(), lines: []string{"sent Basic %s to the proxy"}},
		{name: "url credentials", secret: pw(), lines: []string{"postgres://app:%s@db.internal:5432/prod", "git clone https://deploy:%s@git.example.org/g/r.git"}},
		{name: "authorization other schemes", secret: g.str(csWord, 40), lines: []string{"Authorization: Token %s", `curl -H "Authorization: ApiKey %s" https://x.test`, `{"Authorization": "%s"}`}},
		{name: "bearer opaque", secret: g.str(csWord, 40), lines: []string{"Authorization: Bearer %s", `-H "authorization: bearer %s"`}},
		{name: "aws secret access key", secret: g.str(csB64, 40), lines: []string{"aws_secret_access_key = %s", "AWS_SECRET_ACCESS_KEY=%s"}},
		{name: "aws sts SecretAccessKey", secret: g.str(csB64, 40), lines: []string{`{"Credentials": {"AccessKeyId": "ASIA` + g.str(csUpAlnum, 16) + `", "SecretAccessKey": "%s", "Expiration": "2026-01-01T00:00:00Z"}}`}},
		{name: "aws sts SessionToken", secret: long("IQoJb3JpZ2luX2VjE", csB64, 700), lines: []string{`{"Credentials": {"SessionToken": "%s"}}`, "aws_session_token=%s"}},
		{name: "kubeconfig client-key-data", secret: long("LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo", csB64, 1600), lines: []string{"users:\n- name: admin\n  user:\n    client-key-data: %s\n"}},
		{name: "kubeconfig token", secret: g.str(csLoAlnum, 6) + "." + g.str(csLoAlnum, 16), lines: []string{"users:\n- name: ci\n  user:\n    token: %s\n"}},
		{name: "heroku uuid", secret: g.uuid(), lines: []string{"HEROKU_API_KEY=%s", "heroku_api_key: %s"}},
		{name: "twilio auth token", secret: g.str(csLHex, 32), lines: []string{"TWILIO_AUTH_TOKEN=%s"}},
		{name: "mailgun signing key", secret: g.str(csLHex, 32) + "-" + g.str(csLHex, 8) + "-" + g.str(csLHex, 8), lines: []string{"MAILGUN_WEBHOOK_SIGNING_KEY=%s"}},
		{name: "discord client secret", secret: g.str(csWord, 32), lines: []string{"DISCORD_CLIENT_SECRET=%s"}},
		{name: "okta token", secret: "00" + g.str(csWord, 40), lines: []string{"OKTA_API_TOKEN=%s"}},
		{name: "azure connection string", secret: g.str(csB64, 86) + "==", lines: []string{"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=%s;EndpointSuffix=core.windows.net"}},
		{name: "azure sas url", secret: g.str(csB62, 30) + "%2F" + g.str(csB62, 10) + "%3D", lines: []string{"https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&sp=r&se=2026-01-01&sig=%s"}},
		{name: "npmrc auth token", secret: "npm_" + g.str(csB62, 36), lines: []string{"//registry.npmjs.org/:_authToken=%s"}},
		{name: "docker config auth", secret: basic(), lines: []string{`{"auths":{"ghcr.io":{"auth":"%s"}}}`}},
		{name: "client secret yaml", secret: g.str(csWord, 40), lines: []string{"oauth:\n  client_secret: %s\n"}},
		{name: "x-api-key header", secret: g.str(csLHex, 32), lines: []string{"X-Api-Key: %s"}},
		{name: "rails secret key base", secret: g.str(csLHex, 128), lines: []string{"SECRET_KEY_BASE=%s"}},
		{name: "django secret key", secret: g.str(csLower+csDigit+"!@#%^&*-_=+", 50), lines: []string{"SECRET_KEY = '%s'"}},
		{name: "encryption key", secret: g.str(csB64, 43) + "=", lines: []string{"ENCRYPTION_KEY=%s", `"encryptionKey": "%s"`}},
		{name: "secret inside the key name", secret: g.str(csLHex, 40), lines: []string{"TOKEN_SECRET_V2=%s", `"PASSWORD_SALT": "%s"`}},
		{name: "vendor-named key, sidekiq", secret: g.str(csLHex, 8) + ":" + g.str(csLHex, 8), lines: []string{"BUNDLE_ENTERPRISE__CONTRIBSYS__COM=%s"}},
		{name: "vendor-named key, zendesk", secret: g.str(csB62, 40), lines: []string{"ZENDESK_API=%s", "zendesk: %s", `{"zendesk": "%s"}`}},
		{name: "vendor-named key, datadog", secret: g.str(csLHex, 40), lines: []string{"DATADOG_APP = %s", "datadog_app: %s"}},
		{name: "gpg passphrase", secret: "correct-horse-battery-" + g.str(csDigit, 3), lines: []string{"GPG_PASSPHRASE=%s"}},
		{name: "google sa private key", secret: strings.ReplaceAll(pemLong, "\n", `\n`), lines: []string{`{"type":"service_account","private_key":"%s","client_email":"x@y.iam.gserviceaccount.com"}`}},
		{name: "long private key", secret: pemLong, lines: []string{"cat ~/.ssh/id_ed25519\n%s\n$ "}},
		{name: "long bearer", secret: g.str(csWord, 800), lines: []string{"Authorization: Bearer %s"}},
		{name: "long quoted password", secret: g.str(csB62, 600), lines: []string{`password = "%s"`}},
		{name: "long openai", secret: "sk-proj-" + g.str(csWord, 700), lines: []string{"OPENAI_API_KEY=%s", "key %s end"}},
		{name: "long jwt", secret: "eyJhbGciOiJIUzI1NiJ9.eyJ" + g.str(csWord, 900) + "." + g.str(csWord, 43), lines: []string{"Cookie: session=%s"}},
		{name: "long pypi", secret: "pypi-AgEIcHlwaS5vcmc" + g.str(csWord, 800), lines: []string{"password = %s"}},
		{name: "long vault", secret: "hvs." + g.str(csWord, 600), lines: []string{"VAULT_TOKEN=%s"}},
		{name: "long generic token", secret: g.str(csB64, 1200), lines: []string{"api_token: %s", "--auth-token %s"}},
	}
	return append(out, ctx...)
}

// uEscape escapes every byte that is not a letter or digit as \u00XX,
// as some JSON encoders do for "-", "/", "<", "&".
func uEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isKeyChar(c) || c >= 0x80 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, `\u%04x`, c)
		}
	}
	return b.String()
}

// TestShapesNeverLeak runs each shape in each of its lines through every
// variant: plain, JSON-escaped, \u-escaped, inside a larger JSON
// document (String and JSON), and clipped at every offset by Clip. No
// 16-byte piece of the secret may remain.
func TestShapesNeverLeak(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	r := New()
	all := shapes(t)
	if len(all) < 80 {
		t.Fatalf("only %d shapes, want at least 80", len(all))
	}
	long := 0
	for _, sh := range all {
		if len(sh.secret) > 512 {
			long++
		}
		for li, tmpl := range sh.lines {
			line := fmt.Sprintf(tmpl, sh.secret)
			t.Run(fmt.Sprintf("%s/%d", sh.name, li), func(t *testing.T) {
				check := func(variant, in, out string) {
					t.Helper()
					if frag := leakedFragment(out, sh.secret); frag != "" {
						t.Errorf("%s: %q left\n in  %.300q\n out %.300q", variant, frag, in, out)
					}
					if again := r.String(out); again != out {
						t.Errorf("%s: not idempotent\n once  %.300q\n twice %.300q", variant, out, again)
					}
				}
				check("plain", line, r.String(line))
				quoted, _ := json.Marshal(line)
				check("json-escaped", string(quoted), r.String(string(quoted)))
				nl, _ := json.Marshal("$ cat out.log\n" + line + "\n$ ")
				check("json-escaped after a line break", string(nl), r.String(string(nl)))
				esc := uEscape(line)
				check("u-escaped", esc, r.String(esc))
				doc, _ := json.Marshal(map[string]any{
					"type": "user", "sessionId": "abc",
					"message": map[string]any{"role": "user", "content": []any{
						map[string]any{"type": "tool_result", "content": line, "is_error": false},
					}},
				})
				check("doc/String", string(doc), r.String(string(doc)))
				red := r.JSON(doc)
				if !json.Valid(red) {
					t.Errorf("JSON output is not valid JSON: %.300s", red)
				}
				check("doc/JSON", string(doc), string(red))
				uDoc := `{"text":"` + esc + `"}`
				check("u-escaped doc/JSON", uDoc, string(r.JSON([]byte(uDoc))))
				elide := func(n int) string { return fmt.Sprintf("\n[… %d bytes elided …]\n", n) }
				for k := 0; k <= len(line)+1; k++ {
					// Every cut length in the plain run; under -race, which
					// makes this quadratic loop the package's whole cost
					// (every 7th length cost the race run 55 CPU-s), the
					// first and last raceEdgeCuts lengths and about
					// raceMiddleCuts between (see raceEnabled).
					if raceEnabled && k > raceEdgeCuts && k < len(line)-raceEdgeCuts && k%max(7, len(line)/raceMiddleCuts) != 0 {
						continue
					}
					if ht := r.HeadTail(line, k, elide); leakedFragment(ht, sh.secret) != "" {
						t.Fatalf("HeadTail(%d) left a piece: %q", k, ht)
					}
					c := r.Clip(line, k)
					if len(c) > k {
						t.Fatalf("Clip(%d) returned %d bytes", k, len(c))
					}
					if frag := leakedFragment(c, sh.secret); frag != "" {
						t.Fatalf("Clip(%d) left %q: %q", k, frag, c)
					}
				}
			})
		}
	}
	if long < 10 {
		t.Errorf("only %d shapes over 512 bytes, want at least 10", long)
	}
}

// TestOrdinaryTextUnchanged is the false-positive table: code, hashes,
// ids, base64 of ordinary text, counters and paths stay as they are.
func TestOrdinaryTextUnchanged(t *testing.T) {
	t.Parallel()
	tests := []string{
		"commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: Dev <dev@example.com>",
		"Merge: 1a2b3c4 5d6e7f8",
		"git diff 2fa076c3b1e8f0a9d7c6b5a4e3f2d1c0b9a8f7e6..HEAD -- redact/",
		"request_id=3f2a9c1e-8b7d-4e6f-a5c4-2d1e0f9a8b7c status=200",
		`{"id":"550e8400-e29b-41d4-a716-446655440000","parentUuid":"6ba7b810-9dad-11d1-80b4-00c04fd430c8"}`,
		"data: SGVsbG8gd29ybGQsIHRoaXMgaXMgYSBsb2cgbGluZSBmcm9tIHRoZSBzZXJ2ZXI=",
		`level=info msg="decoded payload" body=eyJ1c2VyIjoiYWxpY2UiLCJhY3Rpb24iOiJsb2dpbiJ9`,
		"token_count=1234 max_tokens: 4096 tokens_used 12 input_tokens=88",
		`{"usage":{"input_tokens":1024,"output_tokens":256,"cache_read_input_tokens":0}}`,
		"/home/dev/project/internal/auth/token_store.go:42:7: undefined: refreshToken",
		"src/components/PasswordField.tsx ~/.ssh/id_ed25519.pub ./secrets/README.md",
		`const apiKeyHeader = "X-Api-Key"`,
		`if token == "" { return errNoToken }`,
		`password := r.FormValue("password")`,
		"func (s *Store) Token(ctx context.Context) (string, error) {",
		`key := fmt.Sprintf("user:%d:session", id)`,
		`cache_key = f"user:{user_id}"`,
		"id = Column(Integer, primary_key=True)",
		`sort_key: "created_at"`,
		"sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"github.com/spf13/cobra v1.10.2 h1:Kx8kW9FQfcb1yw12GhlPj1sMhFJbLtRpZuV7PhUBhso=",
		"SKIP_TESTS=1 make build",
		"a key-value store; the api-key header; Bearer token authentication",
		"feature/add-token-refresh",
		"2024-05-01T10:00:00Z INFO request completed in 12ms status=200",
		"https://example.com/path?page=2&sort=desc&signature_version=4",
		"ssh-keygen -t ed25519 -C dev@example.com",
		"mysql -u root -h localhost app < schema.sql",
		"curl -u $USER:$PASS https://x.test",
		"password_hash = bcrypt.hash(plain)",
		"docker run -p 8080:80 nginx",
		"The API key is stored in Vault under secret/data/app.",
		`token = os.environ["GITHUB_TOKEN"]`,
		"token: ${{ secrets.GITHUB_TOKEN }}",
		"Authorization: Bearer <token>",
		`-H "Authorization: Bearer $TOKEN"`,
		"use sk-learn-compatible estimators",
		"OPENAI_API_KEY=sk-...",
		"api_key: <your-key>",
		"API_TOKEN=${TOKEN}",
		"password=xxxxxxxx",
		"password: changeme",
		`"api_key": "YOUR_API_KEY_HERE"`,
		"public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx7q2Vf7o3m1xK9yPz4uR2tB8nE6wJ5hL0cD3aF1sQ dev@laptop",
		"export PATH=/usr/local/go/bin:$PATH",
		"for key, value := range m {",
		`"Version": "2012-10-17", "Statement": [{"Effect": "Allow"}]`,
		"--- FAIL: TestToken (0.00s)\n    token_test.go:42: got 3, want 4",
		`{"authorId": "3f2a9c1e-8b7d-4e6f-a5c4-2d1e0f9a8b7c", "stripe_customer_id": "cus_9s6XKzkNRiz8i3"}`,
		"DATADOG_SITE=datadoghq.eu TWITTER_USER_ID=1234567890123456789",
		"the Authorization header is missing; Authorization: required",
		"Proxy-Authorization: Negotiate <ticket>",
		"  - Session token: --cloud-token flag (for scripts)",
		"- `--cloud-token &lt;refresh_token&gt;` sets the token",
		`"@types/jsonwebtoken": "^9.0.9",`,
		`{"type":"image","source":{"data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg+FLO/JH/dBmrMUcrckavIovNF2Zn0hVwRjvRHbLe/E7dZFULRm01TsUTzQdqag==","media_type":"image/png"}}`,
	}
	r := New()
	for _, in := range tests {
		if got := r.String(in); got != in {
			t.Errorf("String(%q)\n = %q, want unchanged; findings %+v", in, got, r.Find(in))
		}
	}
}

// TestPlaceholdersByShape: a random value that happens to contain "xxx",
// "your" or "example" is a secret; a placeholder shape is not.
func TestPlaceholdersByShape(t *testing.T) {
	t.Parallel()
	r := New()
	secrets := []string{
		"OPENAI_API_KEY=sk-proj-q7YourZk2Lm9Xp4Wr8Tn3Vb6Hc1",
		"GITHUB_TOKEN=ghp_xxxA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6",
		"DB_PASSWORD=examplePw7!Qz",
		"API_KEY=9fXxx3kYourExample27qLp0",
		"password: yourS3cretxxx",
	}
	for _, in := range secrets {
		if got := r.String(in); got == in {
			t.Errorf("String(%q) redacted nothing", in)
		}
	}
}
