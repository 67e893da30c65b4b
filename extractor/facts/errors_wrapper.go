package facts

import (
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// A harness that cannot run a command says so in its own words and dumps
// the process's result as a debug struct, on one line:
//
//	exec_command failed: CreateProcess { message: "Codex(Sandbox(Denied {
//	output: ExecToolCallOutput { exit_code: 255, stdout: StreamOutput {
//	text: \"\", … }, aggregated_output: StreamOutput { text: \"error:
//	cannot open '.git/FETCH_HEAD': Operation not permitted\\n\", … } … }))" }
//
// The wrapper says nothing a successor can act on; the payload — the
// process's output, or the harness's message — says what failed.
// harnessPayload digs it out so the headline is chosen from its lines.

// wrapperHeadRe is a harness's wrapper line: "<tool> failed[ for
// `<command>`]: <Struct>[(<Variant>…] {".
var wrapperHeadRe = prose.LazyRE(rulebook.Pattern("facts.wrapper-head"))

// payloadFields are the struct fields that hold what the process or the
// harness said, best first: the output as the terminal showed it, then
// stderr, then stdout, then the harness's message.
var payloadFields = []string{"aggregated_output: StreamOutput { text: ", "stderr: StreamOutput { text: ", "stdout: StreamOutput { text: ", "message: "}

// harnessPayload returns content's payload when content is a harness's
// wrapper around a debug struct, and content itself otherwise; note is
// "SandboxDenied" when the wrapper says so, for the headline to add (the
// payload rarely names the sandbox: "Operation not permitted"; and
// mootError knows a sandbox's refusal by that word). A payload with no
// text (a process denied before it printed anything) gives the wrapper's
// own words, cut before the struct ("CreateProcess: SandboxDenied").
func harnessPayload(content string) (payload, note string) {
	m := wrapperHeadRe.FindStringSubmatch(prose.HeadOf(content, 300))
	if m == nil {
		return content, ""
	}
	sandbox := strings.Contains(m[1]+m[2], "Sandbox") || strings.Contains(prose.HeadOf(content, 2000), "Sandbox(Denied")
	text := content[len(m[0]):]
	for range 3 { // a struct in a string in a struct: unwrap each level
		inner, ok := payloadText(text)
		if !ok {
			break
		}
		text = inner
		if !strings.Contains(text, "{ ") {
			break
		}
	}
	if text == content[len(m[0]):] || strings.TrimSpace(text) == "" || wrapperStructRe.MatchString(prose.HeadOf(text, 200)) {
		if sandbox {
			return m[1] + ": SandboxDenied", ""
		}
		return m[1] + " failed", ""
	}
	if sandbox && !strings.Contains(strings.ToLower(text), "sandbox") {
		note = "SandboxDenied"
	}
	return text, note
}

// wrapperStructRe is text that is still a debug struct, not output.
var wrapperStructRe = prose.LazyRE(rulebook.Pattern("facts.wrapper-struct"))

// payloadText returns the first non-empty string literal of the best
// payload field in s, unescaped.
func payloadText(s string) (string, bool) {
	for _, f := range payloadFields {
		for at := 0; ; {
			i := strings.Index(s[at:], f+`"`)
			if i < 0 {
				break
			}
			start := at + i + len(f)
			lit, n := rustString(s[start:])
			if n == 0 {
				break
			}
			at = start + n
			if strings.TrimSpace(lit) != "" {
				return lit, true
			}
		}
	}
	return "", false
}

// rustString reads the Rust debug string literal at the start of s (a
// quote, escapes, a closing quote) and returns its value and length; 0
// when s holds none. The value is cut short of a literal that the
// harness truncated before its closing quote.
func rustString(s string) (string, int) {
	if !strings.HasPrefix(s, `"`) {
		return "", 0
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), i + 1
		case c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
			case 'u':
				if j := strings.IndexByte(s[i:], '}'); strings.HasPrefix(s[i:], "u{") && j > 2 {
					if r, err := strconv.ParseUint(s[i+2:i+j], 16, 32); err == nil {
						b.WriteRune(rune(r))
					}
					i += j
				}
			default:
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), len(s)
}
