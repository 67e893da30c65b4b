package transcript

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Codex "code mode": a custom_tool_call named "exec" whose input is
// JavaScript that calls the real tools (await tools.shell_command({…}),
// tools.exec_command(…), tools.apply_patch(…)) and emits their results
// with text(…). The script itself says nothing a reader of the session
// needs; the nested calls are what ran. codeModeCalls lifts each nested
// call out as its own ToolCall (id "<exec call id>#<n>", the tool's name,
// its argument as JSON), and splitCodeModeOutput divides the script's
// output array among them, so every command and patch reaches the
// extractor with its own result and exit code.

// codeCallRe finds a nested tool call in a script.
var codeCallRe = lazyRE(`\btools\.([A-Za-z_][\w]*)\s*\(`)

// codeModeCalls returns the tool calls a code-mode script makes.
func codeModeCalls(id, script string) []handoff.ToolCall {
	var calls []handoff.ToolCall
	for _, loc := range codeCallRe.FindAllStringSubmatchIndex(script, -1) {
		name := script[loc[2]:loc[3]]
		arg, ok := jsCallArg(script[loc[1]:])
		if !ok {
			continue
		}
		in, ok := jsToJSON(arg)
		if !ok {
			// An expression (a variable, a computed string) is kept as
			// code so the call is still seen.
			in, _ = json.Marshal(map[string]string{"code": arg})
		}
		calls = append(calls, handoff.ToolCall{ID: id + "#" + strconv.Itoa(len(calls)+1), Name: name, Input: in})
	}
	return calls
}

// jsCallArg returns the text of the first argument of a call whose "("
// has just been consumed, respecting strings and nesting.
func jsCallArg(s string) (string, bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\'', '`':
			j := jsStringEnd(s, i)
			if j < 0 {
				return "", false
			}
			i = j
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			if depth == 0 {
				return strings.TrimSpace(s[:i]), c == ')'
			}
			depth--
		case ',':
			if depth == 0 {
				return strings.TrimSpace(s[:i]), true
			}
		}
	}
	return "", false
}

// jsStringEnd returns the index of the quote closing the string that
// starts at s[i], or -1.
func jsStringEnd(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j
		}
	}
	return -1
}

// jsToJSON converts a JavaScript literal (object, array, string, number,
// true/false/null; unquoted keys, single-quoted and template strings
// without ${}, trailing commas) to JSON. It fails on anything else.
func jsToJSON(src string) (json.RawMessage, bool) {
	var b strings.Builder
	s := strings.TrimSpace(src)
	expectKey := false
	var stack []byte // open brackets
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == '{' || c == '[':
			b.WriteByte(c)
			stack = append(stack, c)
			expectKey = c == '{'
		case c == '}' || c == ']':
			if len(stack) == 0 {
				return nil, false
			}
			stack = stack[:len(stack)-1]
			out := strings.TrimRight(b.String(), ",")
			b.Reset()
			b.WriteString(out)
			b.WriteByte(c)
			expectKey = false
		case c == ',':
			b.WriteByte(c)
			expectKey = len(stack) > 0 && stack[len(stack)-1] == '{'
		case c == ':':
			b.WriteByte(c)
			expectKey = false
		case c == '"' || c == '\'' || c == '`':
			j := jsStringEnd(s, i)
			if j < 0 {
				return nil, false
			}
			body := s[i+1 : j]
			if c == '`' && strings.Contains(body, "${") {
				return nil, false
			}
			str, ok := jsUnescape(body, c)
			if !ok {
				return nil, false
			}
			q, _ := json.Marshal(str)
			b.Write(q)
			i = j
		case expectKey && (c == '_' || c == '$' || isLetter(c)):
			j := i
			for j < len(s) && (s[j] == '_' || s[j] == '$' || isLetter(s[j]) || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			q, _ := json.Marshal(s[i:j])
			b.Write(q)
			i = j - 1
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\r\n,}]", rune(s[j])) {
				j++
			}
			tok := s[i:j]
			if tok != "true" && tok != "false" && tok != "null" {
				if _, err := strconv.ParseFloat(tok, 64); err != nil {
					return nil, false
				}
			}
			b.WriteString(tok)
			i = j - 1
		}
	}
	out := json.RawMessage(b.String())
	if !json.Valid(out) {
		return nil, false
	}
	return out, true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// jsUnescape decodes the escapes of a JavaScript string body.
func jsUnescape(body string, quote byte) (string, bool) {
	if !strings.Contains(body, `\`) {
		return body, true
	}
	if quote != '"' {
		// Re-quote as a JSON string: escape bare double quotes, and
		// drop the escape of the original quote character.
		body = strings.ReplaceAll(body, `\`+string(quote), string(quote))
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\\' && i+1 < len(body):
			b.WriteByte(c)
			b.WriteByte(body[i+1])
			i++
		case c == '"' && quote != '"':
			b.WriteString(`\"`)
		case c == '\n':
			b.WriteString(`\n`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	var s string
	if json.Unmarshal([]byte(b.String()), &s) != nil {
		return "", false
	}
	return s, true
}

// codeHeaderRe finds where a nested tool's own output starts in the text
// a script emitted.
var codeHeaderRe = lazyRE(`(?m)^(?:Exit code: -?\d+|Chunk ID: \S+|Process exited with code -?\d+|Success\. Updated the following files|[\w.-]+(?: [\w.-]+)? failed(?: for ` + "`[^`]*`" + `)?:)`)

// splitCodeModeOutput divides the texts a script emitted (the output
// array after its "Script completed" header) among n nested calls: one
// text each when the counts agree, otherwise at each tool output header.
// It returns the per-call texts (nil when it cannot tell) and what was
// left over.
func splitCodeModeOutput(texts []string, n int) ([]string, string) {
	if n == 0 {
		return nil, strings.Join(texts, "\n")
	}
	if len(texts) == n {
		return texts, ""
	}
	all := strings.Join(texts, "\n")
	locs := codeHeaderRe.FindAllStringIndex(all, -1)
	if len(locs) != n {
		return nil, all
	}
	out := make([]string, n)
	for i, l := range locs {
		end := len(all)
		if i+1 < n {
			end = locs[i+1][0]
		}
		out[i] = strings.TrimSpace(all[l[0]:end])
	}
	return out, strings.TrimSpace(all[:locs[0][0]])
}
