package redact

import (
	"strings"
	"testing"
)

// Fake secrets, built so no scanner mistakes this file for a leak: the
// prefixes are split from the bodies.
var (
	fakeOpenAI    = "sk-" + "proj-AbCdEf0123456789GhIjKl0123456789MnOp"
	fakeOpenAIOld = "sk-" + "Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90"
	fakeAnthropic = "sk-" + "ant-api03-Zy98Xw76Vu54Ts32Rq10Po98Nm76Lk54Ji32Hg10-AbCdEf"
	fakeAWSID     = "AKIA" + "Q3EXMPLK7Z4RNT2W"
	fakeAWSTemp   = "ASIA" + "ZZ99YY88XX77WW66"
	fakeAWSSecret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYQ3EKMPLK7Z" // 40 chars
	fakeGitHub    = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
	fakeGitHubPAT = "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123"
	fakeSlackBot  = "xoxb-" + "1234567890-0987654321098-AbCdEfGhIjKlMnOpQrStUv"
	fakeSlackHook = "https://hooks.slack.com/services/" + "T01ABCDEF/B02GHIJKL/q1w2e3r4t5y6u7i8o9p0AbCd"
	fakeGoogle    = "AIza" + "SyB1c2D3e4F5g6H7i8J9k0L1m2N3o4P5q6R"
	fakeStripe    = "sk_" + "live_51HqR2bC3dE4fG5hI6jK7lM8n"
	fakeStripeRK  = "rk_" + "test_4eC39HqLyjWDarjtT1zdp7dc"
	fakeJWT       = "eyJ" + "hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk"
	fakePEM       = "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq9yZ0\nAbCdEf0123456789\n-----END RSA PRIVATE KEY-----"
	fakeOpenSSH   = "-----BEGIN OPENSSH " + "PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nQyNTUxOQAAACDx\n-----END OPENSSH PRIVATE KEY-----"
	fakeECNoEnd   = "-----BEGIN EC " + "PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5\noAoGCCqGSM49"
)

func TestStringRedacts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"openai project", "key " + fakeOpenAI + " end", "key [redacted:openai] end"},
		{"openai legacy", "OPENAI=" + fakeOpenAIOld, "OPENAI=[redacted:openai]"},
		{"anthropic", "use " + fakeAnthropic + ".", "use [redacted:anthropic]."},
		{"aws id", "id=" + fakeAWSID + "\n", "id=[redacted:aws-access-key]\n"},
		{"aws temp id", "(" + fakeAWSTemp + ")", "([redacted:aws-access-key])"},
		{"aws secret env", "aws_secret_access_key = " + fakeAWSSecret, "aws_secret_access_key = [redacted:aws-secret]"},
		{"aws secret upper", "export AWS_SECRET_ACCESS_KEY=" + fakeAWSSecret, "export AWS_SECRET_ACCESS_KEY=[redacted:aws-secret]"},
		{"github classic", "git clone https://x:" + fakeGitHub + "@github.com/a/b", "git clone https://x:[redacted:github]@github.com/a/b"},
		{"github fine grained", fakeGitHubPAT, "[redacted:github]"},
		{"github in export", "export GITHUB_TOKEN=" + fakeGitHub, "export GITHUB_TOKEN=[redacted:github]"},
		{"slack bot", "SLACK=" + fakeSlackBot, "SLACK=[redacted:slack]"},
		{"slack webhook", "post to " + fakeSlackHook + " now", "post to [redacted:slack] now"},
		{"google", "key=" + fakeGoogle, "key=[redacted:google-api-key]"},
		{"stripe live", fakeStripe, "[redacted:stripe]"},
		{"stripe restricted test", "STRIPE " + fakeStripeRK, "STRIPE [redacted:stripe]"},
		{"jwt", "token is " + fakeJWT + " ok", "token is [redacted:jwt] ok"},
		{"pem block", "a\n" + fakePEM + "\nb", "a\n[redacted:private-key]\nb"},
		{"openssh block", fakeOpenSSH, "[redacted:private-key]"},
		{"pem without end", "key:\n" + fakeECNoEnd, "key:\n[redacted:private-key]"},
		{"bearer header", "Authorization: Bearer abcdef0123456789ABCDEFxyz", "Authorization: Bearer [redacted:bearer]"},
		{"bearer lower", `curl -H "authorization: bearer q1w2e3r4t5y6u7i8o9p0"`, `curl -H "authorization: bearer [redacted:bearer]"`},
		{"bearer jwt", "Authorization: Bearer " + fakeJWT, "Authorization: Bearer [redacted:jwt]"},
		{"basic auth", "Authorization: Basic dXNlcjpodW50ZXIy", "Authorization: Basic [redacted:basic-auth]"},
		{"url credentials", "postgres://admin:s3cretPw@db:5432/app", "postgres://admin:[redacted:password]@db:5432/app"},
		{"url credentials short db", "postgres://admin:hunter2@db", "postgres://admin:[redacted:password]@db"},
		{"password not spelling pass", `"password": "Xk9#mQ2vL7pR"`, `"password": "[redacted:password]"`},
		{"long password holding pass", "DB_PASSWORD=Qx7mK2passLz4Wv8Rt3Yn", "DB_PASSWORD=[redacted:password]"},
		{"redis url", "redis://:p4ssw0rd99@cache:6379", "redis://:[redacted:password]@cache:6379"},
		{"password assign", "password=hunter22", "password=[redacted:password]"},
		{"password yaml", "  PASSWORD: Tr0ub4dor&3", "  PASSWORD: [redacted:password]"},
		{"db password env", "DB_PASSWORD=correcthorsebattery", "DB_PASSWORD=[redacted:password]"},
		{"api key json", `{"api_key": "a1b2c3d4e5f6"}`, `{"api_key": "[redacted:api-key]"}`},
		{"api key escaped json", `{\"api_key\": \"a1b2c3d4e5f6\"}`, `{\"api_key\": \"[redacted:api-key]\"}`},
		{"export token", "export MY_SERVICE_TOKEN=abc123def456", "export MY_SERVICE_TOKEN=[redacted:token]"},
		{"flag password", "mysql --password foo -u root", "mysql --password [redacted:password] -u root"},
		{"flag password equals", "psql --password=s3cr3tpw", "psql --password=[redacted:password]"},
		{"flag token quoted", `gh --token "tok_9f8e7d6c"`, `gh --token "[redacted:token]"`},
		{"secret python string", `client_secret = "q8w7e6r5t4y3"`, `client_secret = "[redacted:secret]"`},
		{"x-api-key header", "X-Api-Key: 9d8c7b6a5f4e3d2c", "X-Api-Key: [redacted:api-key]"},
		{"two secrets", fakeOpenAI + " and " + fakeGitHub, "[redacted:openai] and [redacted:github]"},
		{"password value is a key", "password=" + fakeAnthropic, "password=[redacted:anthropic]"},
		{"sentence end", "The password: hunter22.", "The password: [redacted:password]."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := String(tt.in)
			if got != tt.want {
				t.Errorf("String(%q)\n got  %q\n want %q", tt.in, got, tt.want)
			}
			if again := String(got); again != got {
				t.Errorf("not idempotent: %q → %q", got, again)
			}
		})
	}
}

func TestStringKeepsOrdinaryText(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in string }{
		{"password alone", "Enter the password to continue."},
		{"password prose", "The password is stored hashed with bcrypt."},
		{"python annotation", "def login(user: str, password: str) -> bool:"},
		{"ts annotation", "interface Creds { password: string; token?: string }"},
		{"pydantic", "    password: SecretStr\n    api_key: Optional[str] = None"},
		{"token_count", "token_count = 12345678"},
		{"tokens", "tokens=5 max_tokens=4096"},
		{"openai placeholder", "set OPENAI_API_KEY to sk-... first"},
		{"openai x placeholder", "sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxx"},
		{"angle placeholder", "api_key: <your-key>"},
		{"your key", `"api_key": "YOUR_API_KEY_HERE"`},
		{"xxx", "password=xxx"},
		{"stars", "password=********"},
		{"env ref braces", "password=${DB_PASSWORD}"},
		{"env ref dollar", "export GITHUB_TOKEN=$GH_TOKEN"},
		{"function call", "token = get_token(ctx)"},
		{"environ index", `password = os.environ["DB_PASSWORD"]`},
		{"dotted path", "api_key = config.api_key"},
		{"identifier", "token = access_token"},
		{"camel identifier", "token: accessToken,"},
		{"kebab words", "the task-management-system-for-the-whole-team"},
		{"sk words", "sk-learn-compatible-estimator-interface"},
		{"short bearer", "Authorization: Bearer abc"},
		{"bearer placeholder", "Authorization: Bearer <token>"},
		{"url without password", "https://github.com/handoff-cli/handoff"},
		{"ssh url", "git@github.com:handoff-cli/handoff.git"},
		{"url placeholder", "postgres://user:password@localhost/db"},
		{"url env", "postgres://admin:${PGPASSWORD}@db/app"},
		{"go code", "if err := tok.Verify(secret); err != nil { return err }"},
		{"public key", "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkq\n-----END PUBLIC KEY-----"},
		{"redacted already", "password=[redacted:password] and [redacted:openai]"},
		{"secretary", "secretary: Janet Smith"},
		{"tokenizer", "tokenizer=cl100k_base"},
		{"null value", "password: null"},
		{"aws example shape too short", "AKIA1234"},
		{"git sha", "commit 2fa076c3b1e8f0a9d7c6b5a4e3f2d1c0b9a8f7e6"},
		{"uuid", "00000000-0000-4000-8000-000000000002"},
		// Misfires found on the shared transcripts.
		{"page token", `"nextPageToken": "CAoQAA", "pageSize": 10`},
		{"page token snake", "next_page_token=CAoQAAbX93kd"},
		{"continuation token", `continuationToken: "eyJvZmZzZXQiOjEwMH0"`},
		{"elided jwt header", `token: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...",`},
		{"test password in a form body", `"email=hello@example.com&password=p%40ss%20word"`},
		{"test password in json", `"password": "p@ss word",`},
		{"test password in a request", ".send({ password: 'valid-pass', name: 'Ghost' });"},
		{"elided jwt header ellipsis", `sessionToken: "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9…"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in); got != tt.in {
				t.Errorf("String(%q) = %q, want unchanged; findings %+v", tt.in, got, Find(tt.in))
			}
		})
	}
}

func TestFindReportsRangesInOrder(t *testing.T) {
	t.Parallel()
	in := "a " + fakeGitHub + " b password=hunter22 c " + fakeOpenAI
	got := Find(in)
	wantKinds := []string{KindGitHub, KindPassword, KindOpenAI}
	if len(got) != len(wantKinds) {
		t.Fatalf("Find = %+v, want kinds %v", got, wantKinds)
	}
	for i, f := range got {
		if f.Kind != wantKinds[i] {
			t.Errorf("finding %d kind %q, want %q", i, f.Kind, wantKinds[i])
		}
		if i > 0 && got[i-1].End > f.Start {
			t.Errorf("findings overlap: %+v", got)
		}
	}
	if s := in[got[1].Start:got[1].End]; s != "hunter22" {
		t.Errorf("password range covers %q, want the value only", s)
	}
	if s := in[got[0].Start:got[0].End]; s != fakeGitHub {
		t.Errorf("github range covers %q", s)
	}
}

func TestPlaceholderShape(t *testing.T) {
	t.Parallel()
	if got := Placeholder(KindJWT); got != "[redacted:jwt]" {
		t.Errorf("Placeholder = %q", got)
	}
	if strings.Contains(String("x "+fakeJWT), "eyJ") {
		t.Error("jwt survived")
	}
}
