// Package redact removes secrets (API keys, tokens, private keys, passwords)
// from transcript text before anything is stored, printed or sent to an
// LLM. Each secret becomes "[redacted:KIND]"; the text around it, such as
// the name of the variable that held it, is kept so the context still reads.
//
// # Catalogue
//
// Three sets of rules. catalogue.go holds hand-written shape rules for the
// common vendors (a literal prefix and a body of known alphabet and length),
// dispatched by their first two bytes so the scan stays fast. gitleaks'
// whole default catalogue (config/gitleaks.toml, about 220 rules) runs as
// data: gitleaks_rules.go is generated from a gitleaks snapshot by
// internal/gitleaksgen, and gitleaks_scan.go runs each rule as gitleaks
// does — only where one of its keywords occurs, with its secret group,
// entropy floor and allowlists — on a window around the keyword. own_rules.go
// adds, in the same form, what gitleaks misses (Groq, xAI, Replicate keys,
// Sentry DSNs, FCM server keys, presigned URL signatures, .netrc and
// .pgpass lines). Every rule has true- and false-positive samples
// (internal/secretsamples, gitleaks' own for its rules), and the tests fail
// for a rule without one. Where several rules find one secret, the
// hand-written rules name its kind.
//
// gitleaks' code is not a dependency: github.com/zricethezav/gitleaks/v8
// pulls in viper, wazero, archive readers, zerolog and lipgloss — some 70
// modules for a CLI that needs one table of patterns. Its rules are MIT
// licensed; the generated files carry the notice.
//
// # How the scan works
//
// One pass over the text visits every word start. A table indexed by the
// first two bytes names the catalogue rules whose prefix may start there
// (nearly every word has none); each is confirmed by a prefix compare and
// a length check before its anchored regexp runs, so the cost is linear in
// the text and barely grows with the catalogue. The same pass reads
// identifiers: a key ending in PASSWORD, SECRET, TOKEN, KEY … followed by
// an assignment (env, YAML, JSON, CLI flag) has its value judged by shape
// and entropy; "Bearer" and "Basic" headers, URL credentials and the
// password arguments of sshpass, mysql, curl -u and redis-cli are read the
// same way. On the public sample transcripts this runs at about 1/20 the
// speed of a bytes.Count over the same text (BenchmarkString), well above
// the 50 MB/s the tool needs.
//
// Text that carries JSON escapes that hide characters ("sk\u002d…",
// "https:\/\/…", a second level of escaping) is scanned again, line by
// line, in its unescaped form, and what is found there is mapped back onto
// the escaped bytes. The common escapes (\" \n) are read by the first
// pass itself.
//
// # Entry points
//
// String redacts text; JSON redacts JSON text and keeps it valid JSON, its
// layout and key order; Clip and HeadTail redact and then shorten, for
// callers that bound the size of what they keep (shortening first can cut
// a secret's prefix off and leave its body unrecognisable); Transcript and
// Snapshot redact every string field of those types, found by reflection.
//
// # Placeholders
//
// Placeholders are recognised by shape, never by substring: a template
// reference ("${TOKEN}", "<your-key>", "{{ .Key }}"), a mask ("xxxxxxxx",
// "****"), an elided value ("sk-..."), a phrase of plain words
// ("YOUR_API_KEY_HERE"), or a body whose entropy is too low for a random
// key. A random value that happens to contain "xxx", "your" or "example"
// is redacted like any other. Matched values have no length cap.
//
// All matching is linear in the size of the input: RE2 regexps anchored at
// a candidate, and index scans.
package redact

import (
	"slices"
	"strings"
)

// Kinds of secret, as they appear in "[redacted:KIND]" and Finding.Kind.
// The catalogue adds a kind per vendor (gitlab, npm, pypi, …).
const (
	KindOpenAI       = "openai"
	KindAnthropic    = "anthropic"
	KindAWSAccessKey = "aws-access-key"
	KindAWSSecret    = "aws-secret"
	KindGitHub       = "github"
	KindSlack        = "slack"
	KindGoogleAPIKey = "google-api-key"
	KindStripe       = "stripe"
	KindPrivateKey   = "private-key"
	KindJWT          = "jwt"
	KindBearer       = "bearer"
	KindBasicAuth    = "basic-auth"
	// KindPassword is a password: the value of a password assignment, a
	// password argument on a command line, or the password part of
	// scheme://user:password@host.
	KindPassword = "password"
	KindSecret   = "secret"
	KindToken    = "token"
	KindAPIKey   = "api-key"
)

// marker opens every replacement; text that already carries it is never
// redacted again, which keeps String idempotent.
const marker = "[redacted:"

// Finding is one secret located in a text: its kind and the byte range
// that String replaces.
type Finding struct {
	Kind       string
	Start, End int
}

// Placeholder returns the text that replaces a secret of the given kind.
func Placeholder(kind string) string { return marker + kind + "]" }

// Redactor holds the compiled patterns. It is safe for concurrent use.
type Redactor struct {
	rules []shapeRule
	// first2 maps the first two bytes of a candidate (first<<8 | second)
	// to an index in lists: the rules whose match may start with them.
	// Two bytes rule out nearly every word before any rule is tried.
	first2 []uint16
	lists  [][]int
	// infix rules are found by an index scan for a rare literal inside
	// the secret (Azure AD's "Q~", Terraform's ".atlasv1.").
	infix []infixRule
	// names indexes the words that mark a key name as secret.
	names *nameIndex
	// class holds cKey and cIdent bits for each byte.
	class [256]uint8

	basic     lazyRegexp
	awsSecret lazyRegexp
	// gl runs gitleaks' catalogue as generated (gitleaks_rules.go).
	gl *glEngine
}

// New compiles the patterns. Compiling takes a while, so build one and
// reuse it; the package-level functions share one built on first use.
func New() *Redactor {
	r := &Redactor{
		rules:     catalogue(),
		names:     newNameIndex(),
		infix:     infixCatalogue(),
		gl:        newGLEngine(),
		basic:     lazyCompile(`^(?i:basic)[ \t]+([A-Za-z0-9+/]{8,}={0,2})`),
		awsSecret: lazyCompile(`^(?:\\?["'])?[ \t]*(?::=|=>|=|:)[ \t]*(?:\\?["'])?([A-Za-z0-9/+=]{40})(?:[^A-Za-z0-9/+=]|$)`),
	}
	for c := range r.class {
		r.class[c] = byteClass(byte(c))
	}
	// (key, rule) pairs sorted once, then grouped by key: walking all
	// 65536 keys (a map lookup or a fresh 1.5 MB slice each) was most of
	// New's time, and New runs once a process.
	pairs := make([]uint64, 0, 4096)
	for i, rule := range r.rules {
		starts := rule.starts
		if starts == "" {
			starts = rule.prefix[:1]
		}
		for j := 0; j < len(starts); j++ {
			f := uint64(starts[j]) << 8
			if len(rule.prefix) >= 2 {
				pairs = append(pairs, (f|uint64(rule.prefix[1]))<<32|uint64(i))
				continue
			}
			for second := range uint64(256) {
				pairs = append(pairs, (f|second)<<32|uint64(i))
			}
		}
	}
	slices.Sort(pairs) // by key, then catalogue order: the specific rules first
	r.first2 = make([]uint16, 1<<16)
	r.lists = [][]int{nil}
	for len(pairs) > 0 {
		k := pairs[0] >> 32
		var ids []int
		for len(pairs) > 0 && pairs[0]>>32 == k {
			ids = append(ids, int(uint32(pairs[0])))
			pairs = pairs[1:]
		}
		r.first2[k] = uint16(len(r.lists))
		r.lists = append(r.lists, ids)
	}
	return r
}

// Find returns the secrets in s, ordered by position, never overlapping.
func (r *Redactor) Find(s string) []Finding {
	if s == "" {
		return nil
	}
	var sc scanner
	r.scan(s, &sc)
	var acc accepted
	acc.merge(sc.strong)
	acc.merge(sc.keyed)
	acc.merge(sc.generic)
	// gitleaks' rules last: where the rules above found a secret their
	// kind stays, and gitleaks adds what they missed.
	acc.merge(sc.catalog)
	// JSON escapes can hide a secret from the scan above ("sk\u002d…",
	// "https:\/\/user:pw@…"): each line that has such an escape is
	// scanned again unescaped, up to two levels deep, and what is found
	// there is mapped back onto s.
	for from := 0; from < len(s); {
		p := nextHiding(s, from)
		if p < 0 {
			break
		}
		ls := strings.LastIndexByte(s[:p], '\n') + 1
		le := len(s)
		if k := strings.IndexByte(s[p:], '\n'); k >= 0 {
			le = p + k
		}
		r.findUnescaped(s[ls:le], ls, &acc)
		from = le + 1
	}
	return acc.list
}

// findUnescaped scans line (at offset base in the text) unescaped, one
// and two levels deep, and merges what it finds into acc.
func (r *Redactor) findUnescaped(line string, base int, acc *accepted) {
	view, offs := line, []int(nil)
	for level := 0; level < 2 && nextHiding(view, 0) >= 0; level++ {
		v, m := unescapeView(view)
		if offs != nil {
			for k := range m {
				m[k] = offs[m[k]]
			}
		}
		view, offs = v, m
		var inner scanner
		r.scan(view, &inner)
		for _, list := range [][]Finding{inner.strong, inner.keyed, inner.generic, inner.catalog} {
			mapped := make([]Finding, 0, len(list))
			for _, f := range list {
				if g, ok := mapBack(f, offs, len(line)); ok {
					g.Start += base
					g.End += base
					mapped = append(mapped, g)
				}
			}
			acc.merge(mapped)
		}
	}
}

// String returns s with every secret replaced by "[redacted:KIND]".
func (r *Redactor) String(s string) string {
	out, _ := r.redactCount(s)
	return out
}

// redactCount redacts s and says how many secrets it replaced.
func (r *Redactor) redactCount(s string) (string, int) {
	found := r.Find(s)
	if len(found) == 0 {
		return s, 0
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, f := range found {
		b.WriteString(s[last:f.Start])
		b.WriteString(Placeholder(f.Kind))
		last = f.End
	}
	b.WriteString(s[last:])
	return b.String(), len(found)
}

// scanner collects one scan's candidates in three tiers: catalogue
// shapes, keyword rules (Bearer, Basic, AWS secret, command-line
// passwords), and generic assignments. A lower tier never relabels what a
// higher one found; overlapping ranges are joined so no part of either
// survives.
type scanner struct {
	strong, keyed, generic []Finding
	// catalog: gitleaks' rules, run as data (gitleaks_scan.go).
	catalog []Finding
	// shapeUntil: catalogue rules do not start inside a shape already
	// matched (accepted or not), which keeps "sk-sk-sk-…" linear.
	shapeUntil int
	// valueUntil: keys inside a value already read are not keys.
	valueUntil int
	// cmdUntil: a command's arguments are read once.
	cmdUntil int
	// bare value scans are memoised: a bare value starting inside the
	// last one ends where it ended.
	bareFrom, bareTo int
	// quoteFail[c] is where the last failed search for closing quote c
	// gave up (the end of the line): a later search from before it fails too.
	quoteFail [2]int
}

// Byte classes for the scan loop.
const (
	cKey   = 1 << iota // letter or digit
	cIdent             // letter, digit, _ - .
)

// byteClass returns the class bits of c.
func byteClass(c byte) uint8 {
	var cl uint8
	if isKeyChar(c) {
		cl |= cKey
	}
	if isIdentChar(c) {
		cl |= cIdent
	}
	return cl
}

// escapedBreak reports whether a JSON control escape ends at i: \n, \t,
// \r, or a \u escape of a control character (\u000a, as encoders that
// escape everything write it). The text continues a line only in its
// escaped form, so a word may start right after it.
func escapedBreak(s string, i int) bool {
	if i >= 2 && s[i-2] == '\\' {
		if c := s[i-1]; c == 'n' || c == 't' || c == 'r' {
			return true
		}
	}
	return i >= 6 && s[i-6] == '\\' && s[i-5] == 'u' && s[i-4] == '0' && s[i-3] == '0' &&
		(s[i-2] == '0' || s[i-2] == '1') && isHexDigit(s[i-1])
}

// isHexDigit reports an ASCII hexadecimal digit, either case.
func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// scan is the single pass over s.
func (r *Redactor) scan(s string, sc *scanner) {
	sc.bareFrom, sc.bareTo = -1, -1
	sc.quoteFail = [2]int{-1, -1}
	n := len(s)
	var prev uint8
	wordEnd := -1 // end of the identifier that starts before i, if any
	for i := 0; i < n; i++ {
		c := s[i]
		cl := r.class[c]
		if cl == 0 {
			if c == ':' && i+2 < n && s[i+1] == '/' && s[i+2] == '/' {
				r.urlCredentials(s, i, sc)
			}
			prev = 0
			continue
		}
		brk := prev != 0 && escapedBreak(s, i)
		if (prev&cKey == 0 || brk) && i >= sc.shapeUntil {
			k := uint16(c) << 8
			if i+1 < n {
				k |= uint16(s[i+1])
			}
			if li := r.first2[k]; li != 0 {
				r.matchShapes(s, i, r.lists[li], sc)
			}
		}
		if cl&cIdent != 0 && (prev&cIdent == 0 || brk) && (i >= wordEnd || brk) {
			wordEnd = i + 1
			for wordEnd < n && r.class[s[wordEnd]]&cIdent != 0 {
				wordEnd++
			}
			if i >= sc.valueUntil {
				r.word(s, i, wordEnd, sc)
			}
		}
		prev = cl
	}
	for _, rule := range r.infix {
		r.matchInfix(s, rule, sc)
	}
	if r.gl != nil {
		r.gl.find(s, sc)
	}
}

// accepted keeps findings sorted by start, without overlaps.
type accepted struct {
	list []Finding
}

// merge joins a tier of candidates into the list. A candidate that
// overlaps accepted findings is joined with them into one range that
// keeps the earlier tier's kind, so neither leaves a piece behind.
func (a *accepted) merge(cands []Finding) {
	if len(cands) == 0 {
		return
	}
	sortFindings(cands)
	out := make([]Finding, 0, len(a.list)+len(cands))
	old := make([]bool, 0, cap(out))
	i, j := 0, 0
	for i < len(a.list) || j < len(cands) {
		var f Finding
		isOld := false
		if j >= len(cands) || (i < len(a.list) && a.list[i].Start <= cands[j].Start) {
			f, isOld = a.list[i], true
			i++
		} else {
			f = cands[j]
			j++
		}
		if n := len(out); n > 0 && out[n-1].End > f.Start {
			if f.End > out[n-1].End {
				out[n-1].End = f.End
			}
			if isOld && !old[n-1] {
				out[n-1].Kind, old[n-1] = f.Kind, true
			}
			continue
		}
		out = append(out, f)
		old = append(old, isOld)
	}
	a.list = out
}

// sortFindings orders findings by start, the longer first on a tie.
func sortFindings(f []Finding) {
	slices.SortFunc(f, func(a, b Finding) int {
		if a.Start != b.Start {
			return a.Start - b.Start
		}
		return b.End - a.End
	})
}
