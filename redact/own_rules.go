package redact

// ownRules are this package's rules for secrets gitleaks' catalogue
// misses, written in its form (a pattern, the secret's group, keywords,
// an entropy floor) so the same engine runs them; own_rules_test.go holds
// each rule's true and false positives. Command-line passwords (sshpass
// -p, mysql -p…, curl -u), URL credentials and key-named assignments are
// read by assign.go's scan instead, since they need the command's words.
func ownRules() []glRule {
	return []glRule{
		// AI providers gitleaks has no rule for.
		{id: "groq-api-key", regex: `\b(gsk_[A-Za-z0-9]{48,56})\b`, keywords: []string{"gsk_"}, entropy: 3},
		{id: "xai-api-key", regex: `\b(xai-[A-Za-z0-9]{70,90})\b`, keywords: []string{"xai-"}, entropy: 3},
		{id: "replicate-api-token", regex: `\b(r8_[A-Za-z0-9]{35,40})\b`, keywords: []string{"r8_"}, entropy: 3},
		// A Sentry DSN's key (and, in old DSNs, its secret after ':').
		{id: "sentry-dsn", regex: `(?i)https?://([a-f0-9]{32}(?::[a-f0-9]{32})?)@[a-z0-9.-]+(?::[0-9]+)?/[0-9]+`, keywords: []string{"sentry", "ingest"}, entropy: 3},
		// Firebase Cloud Messaging legacy server key.
		{id: "fcm-server-key", regex: `\b(AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{120,200})`, keywords: []string{"apa91b"}, entropy: 3},
		// Presigned URLs: the signature and the session token sign for
		// the URL's holder; the credential names the key (AKIA…/ASIA…).
		{id: "aws-presigned-signature", regex: `(?i)X-Amz-Signature=([a-f0-9]{64})`, keywords: []string{"x-amz-signature"}, entropy: 3},
		{id: "aws-presigned-credential", regex: `(?i)X-Amz-Credential=([A-Z0-9]{16,24})`, keywords: []string{"x-amz-credential"}, entropy: 3},
		{id: "aws-presigned-security-token", regex: `(?i)X-Amz-Security-Token=([A-Za-z0-9%/+=._-]{16,})`, keywords: []string{"x-amz-security-token"}, entropy: 3},
		// CloudFront signed URLs and S3's older query authentication
		// (AWSAccessKeyId=…&Expires=…&Signature=…): the base64 signature.
		{id: "url-query-signature", regex: `[?&]Signature=([A-Za-z0-9%+/=~_-]{24,})`, keywords: []string{"signature="}, entropy: 3},
		{id: "gcs-signed-url-signature", regex: `(?i)X-Goog-Signature=([a-f0-9]{64,})`, keywords: []string{"x-goog-signature"}, entropy: 3},
		// .netrc (Heroku's among them): machine HOST [login USER] password PW,
		// on one line or several.
		{id: "netrc-password", regex: `(?i)\bmachine[ \t]{1,8}\S{1,128}(?:\s{1,32}login[ \t]{1,8}\S{1,128})?\s{1,32}password[ \t]{1,8}([^\s'"]{1,128})`, keywords: []string{"machine"}, entropy: 2, multiLine: true},
		// .pgpass: host:port:database:user:password, one a line; found next
		// to the file's name or a PostgreSQL port.
		{id: "pgpass-password", regex: `(?m)(?:^|['"])[ \t]*[A-Za-z0-9_.*-]+:(?:[0-9]{2,5}|\*):[^:\s'"]+:[^:\s'"]+:([^\s'"]{4,})[ \t]*(?:['"]|$)`, keywords: []string{"pgpass", ":5432:", ":6432:"}, entropy: 2, multiLine: true},
	}
}
