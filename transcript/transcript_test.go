package transcript

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestParseFormat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    Format
		wantErr bool
	}{
		{"", FormatAuto, false},
		{"auto", FormatAuto, false},
		{"claude-code", FormatClaudeCode, false},
		{"Claude", FormatClaudeCode, false},
		{"openai-chat", FormatOpenAIChat, false},
		{"openai", FormatOpenAIChat, false},
		{"plain", FormatPlain, false},
		{" text ", FormatPlain, false},
		{"codex", FormatCodex, false},
		{"jsonl", FormatAuto, true},
	}
	for _, tt := range tests {
		got, err := ParseFormat(tt.in)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
		if err != nil {
			if handoff.ErrorCode(err) != handoff.EINVALID || !strings.Contains(err.Error(), supportedList()) {
				t.Errorf("ParseFormat(%q) error = %v (%s), want EINVALID listing the formats", tt.in, err, handoff.ErrorCode(err))
			}
		}
	}
}

func TestFormatsCoverParseFormat(t *testing.T) {
	t.Parallel()
	for _, f := range Formats() {
		got, err := ParseFormat(string(f.Name))
		if err != nil || got != f.Name {
			t.Errorf("ParseFormat(%q) = %q, %v", f.Name, got, err)
		}
		if f.Description == "" || f.Example == "" {
			t.Errorf("format %q lacks a description or example", f.Name)
		}
		if _, err := NewDecoder(f.Name, Options{}); err != nil {
			t.Errorf("NewDecoder(%q): %v", f.Name, err)
		}
	}
}

func TestDetect(t *testing.T) {
	t.Parallel()
	longClaude := `{"parentUuid":null,"sessionId":"s","type":"user","message":{"role":"user","content":"` + strings.Repeat("x", detectBytes) + `"}}`
	tests := []struct {
		name    string
		head    string
		want    Format
		wantErr string // substring of the error; "" for none
	}{
		{"claude user first", ccUser("u1", `"hi"`), FormatClaudeCode, ""},
		{"claude summary first", `{"type":"summary","summary":"t","leafUuid":"x"}` + "\n" + ccUser("u1", `"hi"`), FormatClaudeCode, ""},
		{"claude file-history-snapshot first", `{"type":"file-history-snapshot","messageId":"m","snapshot":{}}` + "\n" + `{"type":"file-history-snapshot","messageId":"n","snapshot":{}}` + "\n" + ccUser("u1", `"hi"`), FormatClaudeCode, ""},
		{"claude unknown metadata types first", `{"foo":1}` + "\n" + `{"type":"mystery"}` + "\n" + ccUser("u1", `"hi"`), FormatClaudeCode, ""},
		{"claude first line longer than head", longClaude[:detectBytes], FormatClaudeCode, ""},
		{"openai array", `[{"role":"system","content":"be brief"},{"role":"user","content":"hi"}]`, FormatOpenAIChat, ""},
		{"openai request object", `{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}`, FormatOpenAIChat, ""},
		{"openai jsonl", `{"role":"user","content":"hi"}` + "\n" + `{"role":"assistant","content":"yo"}`, FormatOpenAIChat, ""},
		{"openai pretty-printed", "[\n  {\n    \"role\": \"user\",\n    \"content\": \"hi\"\n  }\n]\n", FormatOpenAIChat, ""},
		{"plain text", "Please fix the login bug.\nIt fails on Safari.", FormatPlain, ""},
		{"plain dialogue with BOM", "\uFEFFUser: hi\nAssistant: hello", FormatPlain, ""},
		{"markdown", "# Notes\n\n- item", FormatPlain, ""},
		{"empty", "", FormatAuto, "empty transcript"},
		{"whitespace", " \n\t\r\n ", FormatAuto, "empty transcript"},
		{"garbage bytes", "\x00\x01\x02\xff\xfe binary \x00", FormatAuto, "supported formats: " + supportedList()},
		{"invalid utf-8 noise", strings.Repeat("\xff\xfe\xfd", 100), FormatAuto, "binary data"},
		{"codex rollout", `{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}`, FormatCodex, ""},
		{"unknown json", `{"hello":"world"}`, FormatAuto, "unrecognised JSON"},
		{"json scalar", `[1,2,3]`, FormatAuto, "unrecognised JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Detect([]byte(tt.head))
			if tt.wantErr == "" {
				if err != nil || got != tt.want {
					t.Fatalf("Detect = %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || handoff.ErrorCode(err) != handoff.EINVALID {
				t.Fatalf("Detect = %q, %v; want EINVALID containing %q", got, err, tt.wantErr)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		input   string
		opts    Options
		wantErr string
	}{
		{"empty auto", "", Options{}, "empty transcript"},
		{"whitespace auto", "\n\n  \n", Options{}, "empty transcript"},
		{"empty forced", "", Options{Format: FormatClaudeCode}, "empty transcript"},
		{"blank lines forced plain", "\n \n", Options{Format: FormatPlain}, "empty transcript"},
		{"claude metadata only", `{"type":"summary","summary":"t","leafUuid":"x"}` + "\n", Options{}, "no messages"},
		{"garbage", "\x00\x00\x00", Options{}, "supported formats"},
		{"openai bad document", "[\n{\"role\":\"user\",\n", Options{Format: FormatOpenAIChat}, "not an OpenAI chat transcript"},
		{"openai no messages", `{"messages":[]}`, Options{}, "no messages"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Source = "in.txt"
			tr, err := Parse(context.Background(), strings.NewReader(tt.input), tt.opts)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || handoff.ErrorCode(err) != handoff.EINVALID {
				t.Fatalf("Parse = %v, %v; want EINVALID containing %q", tr, err, tt.wantErr)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestParseFileErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := ParseFile(context.Background(), filepath.Join(dir, "missing.jsonl"), Options{}); handoff.ErrorCode(err) != handoff.ENOTFOUND {
		t.Errorf("missing file: %v (%s), want ENOTFOUND", err, handoff.ErrorCode(err))
	}
	if _, err := ParseFile(context.Background(), dir, Options{}); handoff.ErrorCode(err) != handoff.EINVALID {
		t.Errorf("directory: %v (%s), want EINVALID", err, handoff.ErrorCode(err))
	}
	path := filepath.Join(dir, "chat.txt")
	if err := os.WriteFile(path, []byte("hello there"), 0o600); err != nil {
		t.Fatal(err)
	}
	tr, err := ParseFile(context.Background(), path, Options{})
	if err != nil || tr.Session.Source != path || tr.Session.Format != "plain" {
		t.Fatalf("ParseFile = %+v, %v", tr, err)
	}
	tr, err = ParseFile(context.Background(), path, Options{Source: "named"})
	if err != nil || tr.Session.Source != "named" {
		t.Fatalf("ParseFile with Source = %+v, %v", tr, err)
	}
}

func TestParseCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Parse(ctx, strings.NewReader(ccUser("u1", `"hi"`)+"\n"), Options{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestMalformedMiddleLine(t *testing.T) {
	t.Parallel()
	input := strings.Join([]string{
		ccUser("u1", `"first"`),
		`{"type":"user", this is not json`,
		ccUser("u3", `"third"`),
		`{"type":"assistant","message":{"content":42}}`,
		ccUser("u5", `"fifth"`),
	}, "\n") + "\n"
	tests := []struct {
		name      string
		format    Format
		input     string
		badLine   int
		goodCount int
	}{
		{"claude-code", FormatClaudeCode, input, 2, 3},
		{"openai jsonl", FormatOpenAIChat, `{"role":"user","content":"a"}` + "\n{oops\n" + `{"role":"assistant","content":"b"}` + "\n", 2, 2},
		{"openai unknown role", FormatOpenAIChat, `{"role":"user","content":"a"}` + "\n" + `{"role":"wizard","content":"?"}` + "\n" + `{"role":"assistant","content":"b"}` + "\n", 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Parse(context.Background(), strings.NewReader(tt.input), Options{Format: tt.format})
			if err != nil {
				t.Fatalf("lenient parse: %v", err)
			}
			if len(tr.Messages) != tt.goodCount {
				t.Errorf("%d messages, want %d", len(tr.Messages), tt.goodCount)
			}
			if len(tr.Warnings) == 0 || tr.Warnings[0].Line != tt.badLine {
				t.Errorf("warnings = %+v, want the first at line %d", tr.Warnings, tt.badLine)
			}
			_, err = Parse(context.Background(), strings.NewReader(tt.input), Options{Format: tt.format, Strict: true, Source: "s.jsonl"})
			if err == nil || handoff.ErrorCode(err) != handoff.EINVALID || !strings.Contains(err.Error(), "s.jsonl line "+strconv.Itoa(tt.badLine)) {
				t.Errorf("strict parse error = %v, want EINVALID naming line %d", err, tt.badLine)
			}
		})
	}
}

func TestTruncatedLastLine(t *testing.T) {
	t.Parallel()
	complete := ccUser("u1", `"hello"`) + "\n" + ccAssistant("a1", "m1", `[{"type":"text","text":"hi"}]`) + "\n"
	cut := `{"type":"user","sessionId":"s","message":{"role":"user","con`
	for _, strict := range []bool{false, true} {
		tr, err := Parse(context.Background(), strings.NewReader(complete+cut), Options{Format: FormatClaudeCode, Strict: strict})
		if err != nil {
			t.Fatalf("strict=%v: %v", strict, err)
		}
		if len(tr.Messages) != 2 || len(tr.Warnings) != 1 || tr.Warnings[0].Line != 3 || !strings.Contains(tr.Warnings[0].Reason, "unterminated final line") {
			t.Errorf("strict=%v: %d messages, warnings %+v", strict, len(tr.Messages), tr.Warnings)
		}
	}
	// A complete final record without a newline is parsed normally.
	tr, err := Parse(context.Background(), strings.NewReader(strings.TrimSuffix(complete, "\n")), Options{Strict: true})
	if err != nil || len(tr.Messages) != 2 || len(tr.Warnings) != 0 {
		t.Errorf("no trailing newline: %v, %d messages, %+v", err, len(tr.Messages), tr.Warnings)
	}
}

func TestInvalidUTF8(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		format Format
		input  string
		want   string
	}{
		{"claude-code", FormatClaudeCode, ccUser("u1", "\"caf\xe9 au lait\"") + "\n", "caf\uFFFD au lait"},
		{"plain", FormatPlain, "caf\xe9\n", "caf\uFFFD"},
		{"openai", FormatOpenAIChat, "{\"role\":\"user\",\"content\":\"caf\xe9\"}\n", "caf\uFFFD"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Parse(context.Background(), strings.NewReader(tt.input), Options{Format: tt.format, Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			if tr.Messages[0].Text != tt.want {
				t.Errorf("text = %q, want %q", tr.Messages[0].Text, tt.want)
			}
			if len(tr.Warnings) != 1 || !strings.Contains(tr.Warnings[0].Reason, "UTF-8") || tr.Warnings[0].Line != 1 {
				t.Errorf("warnings = %+v", tr.Warnings)
			}
		})
	}
}

func TestToolOutputClipped(t *testing.T) {
	t.Parallel()
	out := strings.Repeat("é", 3000) + "MIDDLE" + strings.Repeat("ü", 3000) // 12006 bytes
	line := ccUser("u1", `[{"type":"tool_result","tool_use_id":"t1","content":"`+out+`"}]`)
	tests := []struct {
		name     string
		max      int
		wantCut  bool
		maxBytes int
	}{
		{"default keeps small output", 0, false, len(out)},
		{"limit cuts head and tail", 1001, true, 1001 + 64},
		{"negative keeps all", -1, false, len(out)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Parse(context.Background(), strings.NewReader(line+"\n"), Options{Format: FormatClaudeCode, MaxToolOutputBytes: tt.max})
			if err != nil {
				t.Fatal(err)
			}
			r := tr.Messages[0].ToolResults[0]
			if len(r.Content) > tt.maxBytes || !strings.HasPrefix(r.Content, "éé") || !strings.HasSuffix(r.Content, "üü") {
				t.Errorf("content %d bytes, want ≤ %d with head and tail kept", len(r.Content), tt.maxBytes)
			}
			if tt.wantCut {
				if r.OriginalBytes != len(out) || !strings.Contains(r.Content, "bytes elided") || strings.Contains(r.Content, "MIDDLE") {
					t.Errorf("OriginalBytes = %d, content %q…", r.OriginalBytes, r.Content[:40])
				}
				m := regexp.MustCompile(`\n\[… (\d+) bytes elided …\]\n`).FindStringSubmatch(r.Content)
				if m == nil {
					t.Fatalf("no elision marker in %q", r.Content)
				}
				elided, _ := strconv.Atoi(m[1])
				if kept := len(r.Content) - len(m[0]); kept+elided != len(out) {
					t.Errorf("kept %d + elided %d != original %d", kept, elided, len(out))
				}
			} else if r.OriginalBytes != 0 || r.Content != out {
				t.Errorf("content changed: OriginalBytes %d", r.OriginalBytes)
			}
		})
	}
}

func TestDecoderIncremental(t *testing.T) {
	t.Parallel()
	lines := []string{
		ccUser("u1", `"hello"`),
		ccAssistant("a1", "m1", `[{"type":"text","text":"part one"}]`),
		ccAssistant("a2", "m1", `[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]`),
	}
	d, err := NewDecoder(FormatClaudeCode, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Feed([]byte(lines[0])); err != nil {
		t.Fatal(err)
	}
	if err := d.Feed([]byte(lines[1])); err != nil {
		t.Fatal(err)
	}
	snap := d.Transcript()
	if len(snap.Messages) != 2 || len(snap.Messages[1].ToolCalls) != 0 {
		t.Fatalf("snapshot after 2 lines: %d messages", len(snap.Messages))
	}
	if err := d.Feed([]byte(lines[2])); err != nil {
		t.Fatal(err)
	}
	if len(snap.Messages[1].ToolCalls) != 0 || snap.Messages[1].Text != "part one" {
		t.Errorf("earlier snapshot changed by a later Feed: %+v", snap.Messages[1])
	}
	now := d.Transcript()
	if len(now.Messages) != 2 || len(now.Messages[1].ToolCalls) != 1 || d.Lines() != 3 {
		t.Errorf("after 3 lines: %d messages, calls %d, lines %d", len(now.Messages), len(now.Messages[1].ToolCalls), d.Lines())
	}
	tr, err := d.Finish(nil)
	if err != nil || len(tr.Messages) != 2 {
		t.Fatalf("Finish = %v, %v", tr, err)
	}
	if err := d.Feed([]byte(lines[0])); handoff.ErrorCode(err) != handoff.EINTERNAL {
		t.Errorf("Feed after Finish = %v", err)
	}
	if _, err := NewDecoder(FormatAuto, Options{}); handoff.ErrorCode(err) != handoff.EINVALID {
		t.Errorf("NewDecoder(auto) = %v, want EINVALID", err)
	}
	if _, err := NewDecoder("nope", Options{}); handoff.ErrorCode(err) != handoff.EINVALID {
		t.Errorf("NewDecoder(nope) = %v, want EINVALID", err)
	}
}

func TestDecoderPlainSnapshot(t *testing.T) {
	t.Parallel()
	d, err := NewDecoder(FormatPlain, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"User: hi", "Assistant: hello"} {
		if err := d.Feed([]byte(l)); err != nil {
			t.Fatal(err)
		}
	}
	snap := d.Transcript()
	if len(snap.Messages) != 2 || snap.Messages[1].Index != 1 || snap.Messages[1].Role != handoff.RoleAssistant {
		t.Fatalf("plain snapshot = %+v", snap.Messages)
	}
}

func TestLineReader(t *testing.T) {
	t.Parallel()
	input := "short\r\n" + strings.Repeat("a", 100) + "\n\n" + strings.Repeat("b", 300) + "\nlast"
	lr := lineReader{r: bufioReader(strings.NewReader(input), 16), max: 200}
	type got struct {
		text       string
		size       int
		tooLong    bool
		terminated bool
	}
	want := []got{
		{"short", 6, false, true},
		{strings.Repeat("a", 100), 100, false, true},
		{"", 0, false, true},
		{"", 300, true, true},
		{"last", 4, false, false},
	}
	for i, w := range want {
		l, err := lr.next()
		if err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		g := got{string(l.data), l.size, l.tooLong, l.terminated}
		if g != w {
			t.Errorf("line %d = %+v, want %+v", i, g, w)
		}
	}
	if _, err := lr.next(); err == nil {
		t.Error("no EOF at end")
	}
}

func TestBOMStripped(t *testing.T) {
	t.Parallel()
	tr, err := Parse(context.Background(), bytes.NewReader(append([]byte("\uFEFF"), ccUser("u1", `"hi"`)+"\n"...)), Options{Strict: true})
	if err != nil || tr.Messages[0].Text != "hi" {
		t.Fatalf("Parse = %+v, %v", tr, err)
	}
}

func bufioReader(r io.Reader, size int) *bufio.Reader { return bufio.NewReaderSize(r, size) }

func TestLineReaderSegments(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("0123456789", 350_000) // 3.5 MB: several segments
	input := long + "\nnext\n" + long
	lr := lineReader{r: bufioReader(strings.NewReader(input), readBufferBytes), max: DefaultMaxLineBytes}
	for i, want := range []string{long, "next", long} {
		l, err := lr.next()
		if err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if string(l.data) != want || l.size != len(want) || l.terminated != (i < 2) {
			t.Errorf("line %d: %d bytes (size %d, terminated %v), want %d", i, len(l.data), l.size, l.terminated, len(want))
		}
	}
}
