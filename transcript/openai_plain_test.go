package transcript

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestParseOpenAIChat(t *testing.T) {
	t.Parallel()
	conversation := `[
  {"role": "system", "content": "You are a coding agent."},
  {"role": "user", "content": [{"type": "text", "text": "Fix the build."}, {"type": "image_url", "image_url": {"url": "data:x"}}]},
  {"role": "assistant", "content": null, "reasoning_content": "Check make first.",
   "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "shell", "arguments": "{\"cmd\":\"make\"}"}},
                  {"id": "call_2", "type": "function", "function": {"name": "note", "arguments": "not json"}}]},
  {"role": "tool", "tool_call_id": "call_1", "content": "Exit code 2\nmake: *** [all] Error 2"},
  {"role": "tool", "tool_call_id": "call_2", "name": "note", "content": "ok"},
  {"role": "developer", "content": "Be terse."},
  {"role": "assistant", "content": "The Makefile was missing a target; fixed."}
]`
	wantMessages := []string{
		`L1 system meta text="You are a coding agent."`,
		`L2 user text="Fix the build.…"`,
		`L3 assistant thinking="Check make first." call(call_1 shell) call(call_2 note)`,
		`L4 tool result(call_1 shell exit=2)`,
		`L5 tool result(call_2 note)`,
		`L6 system meta text="Be terse."`,
		`L7 assistant text="The Makefile was missing a target; fixed."`,
	}
	compact := func(s string) string {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(v)
		return string(b)
	}
	var jsonl strings.Builder
	var arr []json.RawMessage
	if err := json.Unmarshal([]byte(conversation), &arr); err != nil {
		t.Fatal(err)
	}
	for _, m := range arr {
		jsonl.WriteString(compact(string(m)) + "\n")
	}
	tests := []struct {
		name      string
		input     string
		want      []string
		wantModel string
	}{
		{"pretty-printed array", conversation, wantMessages, ""},
		{"one-line array", compact(conversation), wantMessages, ""},
		{"request object", `{"model":"gpt-4o","messages":` + compact(conversation) + `}`, wantMessages, "gpt-4o"},
		{"pretty request object", "{\n\"model\": \"gpt-4o\",\n\"messages\": " + conversation + "\n}\n", wantMessages, "gpt-4o"},
		{"jsonl of messages", jsonl.String(), wantMessages, ""},
		{
			"response object", `{"model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":"hello"}}]}`,
			[]string{`L1 assistant text="hello"`}, "gpt-4o-mini",
		},
		{
			"legacy function_call and function role",
			`[{"role":"user","content":"weather?"},{"role":"assistant","content":null,"function_call":{"name":"get_weather","arguments":"{\"city\":\"Oslo\"}"}},{"role":"function","name":"get_weather","content":"rain"}]`,
			[]string{`L1 user text="weather?"`, `L2 assistant call( get_weather)`, `L3 tool result( get_weather)`}, "",
		},
		{
			"anthropic style blocks",
			`[{"role":"user","content":"list"},{"role":"assistant","content":[{"type":"text","text":"Listing."},{"type":"tool_use","id":"tu1","name":"ls","input":{"path":"."}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","content":"a b","is_error":true},{"type":"text","text":"thanks"}]}]`,
			[]string{`L1 user text="list"`, `L2 assistant text="Listing." call(tu1 ls)`, `L3 tool result(tu1 ls error)`, `L3 user text="thanks"`}, "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			head := tt.input
			if f, err := Detect([]byte(head)); err != nil || f != FormatOpenAIChat {
				t.Fatalf("Detect = %q, %v", f, err)
			}
			tr, err := Parse(context.Background(), strings.NewReader(tt.input), Options{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, tr)
			var got []string
			for _, m := range tr.Messages {
				got = append(got, describe(m))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if tr.Session.Model != tt.wantModel || tr.Session.Format != "openai-chat" {
				t.Errorf("session = %+v", tr.Session)
			}
		})
	}
}

func TestOpenAIToolArguments(t *testing.T) {
	t.Parallel()
	tr, err := Parse(context.Background(), strings.NewReader(`[{"role":"assistant","tool_calls":[
		{"id":"a","function":{"name":"f","arguments":"{\"x\":1}"}},
		{"id":"b","function":{"name":"g","arguments":"*** Begin Patch"}},
		{"id":"c","function":{"name":"h","arguments":{"y":2}}},
		{"id":"d","function":{"name":"i"}}]}]`), Options{Format: FormatOpenAIChat})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"x":1}`, `"*** Begin Patch"`, `{"y":2}`, ``}
	for i, c := range tr.Messages[0].ToolCalls {
		if string(c.Input) != want[i] {
			t.Errorf("call %s input = %s, want %s", c.ID, c.Input, want[i])
		}
		if len(c.Input) > 0 && !json.Valid(c.Input) {
			t.Errorf("call %s input is not JSON", c.ID)
		}
	}
}

func TestOpenAIDocumentStrict(t *testing.T) {
	t.Parallel()
	input := "[\n" + `{"role":"user","content":"a"},` + "\n" + `{"role":"wizard","content":"b"}` + "\n]"
	tr, err := Parse(context.Background(), strings.NewReader(input), Options{Format: FormatOpenAIChat})
	if err != nil || len(tr.Messages) != 1 || len(tr.Warnings) != 1 || !strings.Contains(tr.Warnings[0].Reason, "record 2") {
		t.Fatalf("lenient: %v, %+v", err, tr)
	}
	if _, err := Parse(context.Background(), strings.NewReader(input), Options{Format: FormatOpenAIChat, Strict: true}); err == nil || !strings.Contains(err.Error(), "record 2") {
		t.Fatalf("strict: %v, want an error naming record 2", err)
	}
	if _, err := Parse(context.Background(), strings.NewReader(input), Options{Format: FormatOpenAIChat, MaxLineBytes: 20}); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("over-size document: %v, want a limit error", err)
	}
}

func TestParsePlain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		input string
		want  []string
	}{
		{"one message", "\n\nPlease fix the login bug.\nIt fails on Safari.\n", []string{`L3 user text="Please fix the login bug.…"`}},
		{
			"dialogue",
			"Chat export\n\nUser: Add caching.\nKeep it simple.\nAssistant: Done, using an LRU.\n**Human:** thanks\nAI: welcome\nsystem: session ended",
			[]string{
				`L1 system meta text="Chat export"`,
				`L3 user text="Add caching.…"`,
				`L5 assistant text="Done, using an LRU."`,
				`L6 user text="thanks"`,
				`L7 assistant text="welcome"`,
				`L8 system meta text="session ended"`,
			},
		},
		{"one role only stays whole", "Bug report\nUser: alice\nSteps: click", []string{`L1 user text="Bug report…"`}},
		{"empty turns dropped", "User:\nAssistant: hi\nUser: ok", []string{`L2 assistant text="hi"`, `L3 user text="ok"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Parse(context.Background(), strings.NewReader(tt.input), Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, tr)
			if tr.Session.Format != "plain" {
				t.Errorf("format = %q", tr.Session.Format)
			}
			var got []string
			for _, m := range tr.Messages {
				got = append(got, describe(m))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
	tr, err := Parse(context.Background(), strings.NewReader("line one\n\nline three"), Options{Format: FormatPlain})
	if err != nil || tr.Messages[0].Text != "line one\n\nline three" {
		t.Errorf("whole text not kept verbatim: %+v, %v", tr, err)
	}
}
