package secretsamples

import "strings"

// Own returns the samples of redact's own rules (redact/own_rules.go), by
// rule id: the shapes issue 32 found leaking, and the near misses a
// transcript holds (ids, hashes, prose) that must stay.
func Own() map[string]Samples {
	const b62 = "Qx7mK2p9Lz4Wv8Rt3Yn6Bc1Hs5Gj0aB3dE5fG7hJ9kL1mN3pQ5rS7tUv9wX1yZ3aB5cD7eF9gH1"
	const hex32 = "3f9a2b7c1d4e8f0a6b2c9d7e1f3a5b8c"
	return map[string]Samples{
		"groq-api-key": {
			TPs: []string{"export GROQ_API_KEY=gsk_" + b62[:52], `client = Groq(api_key="gsk_` + b62[:52] + `")`, "gsk_" + b62[:52]},
			FPs: []string{"gsk_" + strings.Repeat("x", 52), "the gsk_ prefix marks Groq keys", "gsk_short123"},
		},
		"xai-api-key": {
			TPs: []string{"XAI_API_KEY=xai-" + b62[:72] + "Ab3dE5fG", "use xai-" + b62[:72] + "Ab3dE5fG for grok"},
			FPs: []string{"xai-sdk-python", "pip install xai-grok-client"},
		},
		"replicate-api-token": {
			TPs: []string{"REPLICATE_API_TOKEN=r8_" + b62[:37], "r8_" + b62[:37]},
			FPs: []string{"r8_unused", "see r8_test_helpers.go"},
		},
		"sentry-dsn": {
			TPs: []string{
				"SENTRY_DSN=htTPs://" + hex32 + "@o450123.ingest.sentry.io/5512345",
				"dsn: 'htTPs://" + hex32 + ":" + hex32[16:] + hex32[:16] + "@sentry.example.com/12'",
			},
			FPs: []string{"htTPs://docs.sentry.io/platforms/go/", "sentry: htTPs://examplePublicKey@o0.ingest.sentry.io/0"},
		},
		"fcm-server-key": {
			TPs: []string{"FCM_SERVER_KEY=AAAAq8Yx2Lm:APA91b" + b62 + b62[:60]},
			FPs: []string{"registration ids start with APA91b and are not keys", "AAAAq8Yx2Lm:APA91bshort"},
		},
		"aws-presigned-signature": {
			TPs: []string{"htTPs://bucket.s3.amazonaws.com/a.zip?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20250101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=" + hex32 + hex32[8:] + hex32[:8]},
			FPs: []string{"the URL carries X-Amz-Signature=<hex> and X-Amz-Credential=<key id>"},
		},
		"aws-presigned-credential": {
			TPs: []string{
				"htTPs://bucket.s3.amazonaws.com/a.zip?X-Amz-Credential=QX7MK2P9LZ4WV8RT3YN6%2F20250101%2Fus-east-1%2Fs3%2Faws4_request",
				"curl 'htTPs://my-bucket.s3.us-east-1.amazonaws.com/reports/q1.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAQX7MK2P9LZ4WV8RT%2F20250101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20250101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=" + hex32 + hex32 + "'",
			},
			// Only the key id and the signature go: the URL, the
			// credential's scope and the other parameters stay.
			Keeps: []string{"my-bucket.s3.us-east-1.amazonaws.com/reports/q1.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=",
				"%2F20250101%2Fus-east-1%2Fs3%2Faws4_request", "&X-Amz-Date=20250101T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature="},
			FPs: []string{
				"the X-Amz-Credential= parameter names the access key",
				// A GCS credential names a service account, no secret.
				"htTPs://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=svc%40proj.iam.gserviceaccount.com%2F20250101%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20250101T000000Z&X-Goog-Expires=900",
			},
		},
		"url-query-signature": {
			TPs: []string{
				"htTPs://d111111abcdef8.cloudfront.net/image.jpg?Expires=1735689600&Signature=" + b62[:60] + "~&Key-Pair-Id=K2JCJMDEHXQW5F",
				"htTPs://bucket.s3.amazonaws.com/a.zip?AWSAccessKeyId=AKIAQX7MK2P9LZ4WV8RT&Expires=1735689600&Signature=vjbyPxybdZaNmGa%2ByT272YEAiv4%3D",
			},
			Keeps: []string{"d111111abcdef8.cloudfront.net/image.jpg?Expires=1735689600&Signature=", "&Key-Pair-Id=K2JCJMDEHXQW5F", "&Expires=1735689600&Signature="},
			FPs:   []string{"the Signature= parameter carries the base64 signature", "?Signature=abc&Expires=1", "Signature=${SIGNATURE}"},
		},
		"aws-presigned-security-token": {
			TPs: []string{"?X-Amz-Security-Token=IQoJb3JpZ2luX2VjEJr%2F%2F%2F%2FwEaCXVzLWVhc3QtMSJHMEUCIQD" + b62[:40] + "&X-Amz-Date=20250101T000000Z"},
			FPs: []string{"X-Amz-Security-Token=${TOKEN}"},
		},
		"gcs-signed-url-signature": {
			TPs:   []string{"htTPs://storage.googleapis.com/b/o?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=svc%40proj.iam.gserviceaccount.com%2F20250101%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20250101T000000Z&X-Goog-Signature=" + hex32 + hex32 + hex32[:8]},
			Keeps: []string{"X-Goog-Credential=svc%40proj.iam.gserviceaccount.com%2F20250101%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20250101T000000Z&X-Goog-Signature="},
			FPs:   []string{"X-Goog-Signature is a hex string"},
		},
		"netrc-password": {
			TPs: []string{
				"machine api.heroku.com\n  login dev@example.com\n  password 3f9a2b7c-1d4e-8f0a-6b2c-9d7e1f3a5b8c\nmachine git.heroku.com",
				"machine github.com login dev password Qx7mK2p9Lz4Wv8",
			},
			FPs: []string{"the machine has no password set", "machine learning login flow: password reset", "machine github.com login dev password ${GITHUB_TOKEN}"},
		},
		"pgpass-password": {
			TPs: []string{
				"$ cat ~/.pgpass\ndb.internal:5432:app:admin:Qx7mK2p9Lz4Wv8\n*:*:*:replicator:Rt3Yn6Bc1Hs5",
				"echo 'localhost:5432:*:postgres:Lz4Wv8Rt3Yn6' >> ~/.pgpass",
			},
			FPs: []string{"listening on 0.0.0.0:5432:tcp", "10:30:45:123:abcd at 12:00", "localhost:5432:app:admin:changeme"},
		},
	}
}

// PathRules returns samples for the gitleaks rules that gitleaks
// validates against a file path (or not at all), whose samples its
// generator never records.
func PathRules() map[string]Samples {
	return map[string]Samples{
		"dropbox-long-lived-api-token": {TPs: []string{
			`dropbox_token = 'k3J9xQ2mP7aAAAAAAAAAAb8Zt4Lq0Wv6Yc1Nd5Rf2Hs9Gk7Jx3Mp4Tn8Bv0Ce6Qw'`,
		}},
		"dropbox-short-lived-api-token": {TPs: []string{
			"DROPBOX_ACCESS_TOKEN=sl." + strings.Repeat("u3Bk9Qz7Xw2Lm5Pt8Rn4", 6) + "Yc1Vd6Hs0Gj8Ke3",
		}},
		"freemius-secret-key": {TPs: []string{
			`'secret_key' => 'sk_Qx7mK2p9Lz4Wv8Rt3Yn6Bc1Hs5Gj0',`,
		}},
		"hashicorp-tf-password": {TPs: []string{
			`administrator_login_password = "k9Qz2Lm7wXp4"`,
		}},
		"kubernetes-secret-yaml": {TPs: []string{
			"apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: cTl4UDJtTDd6SzR3UnQ4\n",
		}},
		"nuget-config-password": {TPs: []string{
			`<add key="ClearTextPassword" value="Q7xkP2mLz9Wv4" />`,
		}},
	}
}
