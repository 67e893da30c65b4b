package transcript

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// decodeTargets are the record types the readers decode with decodeJSON,
// and the generic shapes they fall back on.
func decodeTargets() []any {
	return []any{
		ampMessage{}, ampBlock{}, vscRequest{}, vscPart{}, vscLogEntry{}, zedToolUse{}, zedLegacyMessage{},
		gooseMessage{}, gooseItem{}, droidEntry{}, copilotEvent{}, piEntry{}, piBlock{}, qwenRecord{},
		agStep{}, crushPart{}, cursorComposer{}, cursorBubble{}, ocMessage{}, ocPart{}, gemRecord{}, gemPart{},
		oaMessage{}, map[string]json.RawMessage{}, []json.RawMessage{}, "", 0, map[string]any{},
	}
}

// checkDecodeLikeStd decodes b into a fresh value of each target type with
// decodeJSON and with json.Unmarshal and fails on any difference in the
// value or the error.
func checkDecodeLikeStd(t *testing.T, b []byte) {
	t.Helper()
	for _, target := range decodeTargets() {
		typ := reflect.TypeOf(target)
		fast, std := reflect.New(typ), reflect.New(typ)
		errFast := decodeJSON(b, fast.Interface())
		errStd := json.Unmarshal(b, std.Interface())
		if (errFast == nil) != (errStd == nil) || errFast != nil && errFast.Error() != errStd.Error() {
			t.Fatalf("%v: %q: decodeJSON error %v, json.Unmarshal error %v", typ, b, errFast, errStd)
		}
		if !reflect.DeepEqual(fast.Elem().Interface(), std.Elem().Interface()) {
			t.Fatalf("%v: %q:\ndecodeJSON     %#v\njson.Unmarshal %#v", typ, b, fast.Elem().Interface(), std.Elem().Interface())
		}
		if !json.Valid(b) && len(b) > 0 {
			continue // decodeValid is for valid JSON, or none (an absent member)
		}
		valid := reflect.New(typ)
		errValid := decodeValid(b, valid.Interface())
		if (errValid == nil) != (errStd == nil) || errValid != nil && errValid.Error() != errStd.Error() ||
			!reflect.DeepEqual(valid.Elem().Interface(), std.Elem().Interface()) {
			t.Fatalf("%v: %q: decodeValid %#v %v, json.Unmarshal %#v %v", typ, b, valid.Elem().Interface(), errValid, std.Elem().Interface(), errStd)
		}
	}
}

func TestDecodeJSONMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, b := range []string{
		`{"role":"user","content":[{"type":"text","text":"a\u00e9\ud83d\ude00 \ud800 x"}]}`,
		`{"ROLE":"assistant","Content":"x","content":"y","toolCalls":[{"id":1}]}`,
		`{"type":"tool_use","input":{"a":[1,2.5e3,true,null]},"id":"t1","id":"t2"}`,
		`{"messageId":12345678901234567890,"usage":{"inputTokens":1.5}}`,
		`{"kind":2,"k":["requests",0,"response"],"v":[{"kind":"markdownContent","content":{"value":"é"}}]}`,
		`{"type":"text","text":"\u212a\u017f"}`, `{"\u212aind":"x","ſtatus":"y"}`,
		`[1,"a",{"b":null}]`, `"plain"`, `null`, `{"a":1} x`, `{"a":}`, `{"text":"a` + "\x01" + `"}`, `{"text":"\xff\xfe"}`,
		`{"role":{"x":1},"content":[1]}`, `{"messageId":"1","meta":{"sentAt":"x"}}`, ``, ` `,
	} {
		checkDecodeLikeStd(t, []byte(b))
	}
	for _, name := range []string{"amp-thread.json", "vscode-chat.json", "zed-thread.json", "continue-session.json", "opencode-export.json"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		checkDecodeLikeStd(t, b)
		var records []json.RawMessage
		walkRecordsForTest(b, func(raw []byte) { records = append(records, raw) })
		for _, r := range records {
			checkDecodeLikeStd(t, r)
		}
	}
}

// walkRecordsForTest hands fn every object and array nested in doc.
func walkRecordsForTest(doc []byte, fn func(raw []byte)) {
	var v any
	if json.Unmarshal(doc, &v) != nil {
		return
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			b, _ := json.Marshal(x)
			fn(b)
			for _, e := range x {
				walk(e)
			}
		case []any:
			b, _ := json.Marshal(x)
			fn(b)
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
}

func FuzzDecodeJSONMatchesEncodingJSON(f *testing.F) {
	for _, s := range []string{
		`{"role":"user","content":[{"type":"text","text":"hi"}],"toolCalls":[{"id":"c1","function":{"name":"x","arguments":"{}"}}]}`,
		`{"type":"message","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Execute","input":{"command":"make"}}]}}`,
		`{"kind":1,"k":["requests",0,"result"],"v":{"metadata":{"promptTokens":9}}}`,
		`{"User":{"id":"u","content":[{"Text":"x"}]}}`, `[{"a":"\ud800"}]`, `{"A":1,"a":"x"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkDecodeLikeStd(t, b)
	})
}

// FuzzRenameForDecode holds renameForDecode to renameKeys: the two
// objects decode to the same OpenAI Chat message.
func FuzzRenameForDecode(f *testing.F) {
	for _, s := range []string{
		`{"role":"assistant","content":"","toolCalls":[{"id":"c1","type":"function","function":{"name":"x","arguments":"{}"}}]}`,
		`{"role":"tool","content":"out","toolCallId":"c1"}`, `{"role":"tool","toolCallId":"a","tool_call_id":"b"}`,
		`{"role":"tool","TOOL_CALL_ID":"a","toolCallId":"b","role":"user"}`, `{"\u0072ole":"user","toolCallId":"c"}`,
		`{"role":"user","content":"x"}`, `[1]`, `{"toolCallId":`,
		`{"role":"assistant", "content": [ {"type": "text", "text": "<b> &  "} ], "toolCalls": [ {"id": "c", "function": {"name": "n", "arguments": {"a": "<x>"}}} ]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var fast, std oaMessage
		errFast := decodeJSON(renameForDecode(b, continueKeys), &fast)
		errStd := json.Unmarshal(renameKeys(b, continueKeys), &std)
		// A string member may be escaped differently; it decodes alike.
		for _, f := range []struct{ fast, std *json.RawMessage }{
			{&fast.Content, &std.Content}, {&fast.ReasoningContent, &std.ReasoningContent}, {&fast.Refusal, &std.Refusal},
		} {
			if len(*f.fast) > 0 && (*f.fast)[0] == '"' && jsonText(*f.fast) == jsonText(*f.std) {
				*f.fast = *f.std
			}
		}
		if (errFast == nil) != (errStd == nil) || !reflect.DeepEqual(fast, std) {
			t.Fatalf("%q:\nrenameForDecode %#v %v\nrenameKeys      %#v %v", b, fast, errFast, std, errStd)
		}
	})
}
