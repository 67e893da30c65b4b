package transcript

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// codexLineSeeds are the edge cases decodeCodexLine's walk turns on: key
// case and escapes, repeated and null members, members of the wrong
// type, the nested objects it leaves to encoding/json, and lines that
// are no envelope at all.
var codexLineSeeds = []string{
	`{"timestamp":"2025-09-01T10:00:00.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}`,
	`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"ls\"]}","call_id":"call_1"}}`,
	`{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"call_1","output":"Exit code: 0\nOutput:\n\"quoted\" \\ back"}}`,
	`{"timestamp":"t","type":"response_item","payload":{"type":"reasoning","summary":[{"type":"summary_text","text":"s"}],"content":null,"encrypted_content":"gAAAA"}}`,
	`{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":5,"cached_input_tokens":2,"output_tokens":1},"model_context_window":272000}}}`,
	`{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":null}}`,
	`{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":"x"}}}}`,
	`{"timestamp":"t","type":"event_msg","payload":{"type":"exec_command_end","call_id":"c","exit_code":1,"aggregated_output":"a\nb\u00e9\ud83d\ude00","stdout":"x"}}`,
	`{"timestamp":"t","type":"event_msg","payload":{"type":"patch_apply_end","call_id":"c","success":false}}`,
	`{"timestamp":"t","type":"session_meta","payload":{"id":"s","forked_from_id":null,"cwd":"/w","cli_version":"0.1","originator":"o","source":{"subagent":"x"},"git":{"branch":"main"}}}`,
	`{"timestamp":"t","type":"session_meta","payload":{"id":"s","git":null}}`,
	`{"timestamp":"t","type":"session_meta","payload":{"id":"s","git":{"branch":7}}}`,
	`{"timestamp":"t","type":"compacted","payload":{"message":"","replacement_history":[{"type":"message","role":"user","content":[]}]}}`,
	`{"timestamp":"t","type":"compacted","payload":{"replacement_history":null}}`,
	`{"timestamp":"t","type":"compacted","payload":{"replacement_history":"x"}}`,
	`{"TimeStamp":"t","TYPE":"event_msg","Payload":{"Type":"turn_aborted","REASON":"interrupted","Call_ID":"c"}}`,
	`{"type":"response_item","payload":{"type":"message","role":"user"},"payload":{"content":"merged"}}`,
	`{"type":"response_item","payload":{"type":"message"},"payload":null}`,
	`{"type":"response_item","type":null,"timestamp":null,"payload":{"type":"message","type":null,"role":"assistant"}}`,
	`{"type":"response_item","payload":"text"}`,
	`{"type":"response_item","payload":[1,2]}`,
	`{"type":"response_item","payload":{"call_id":5}}`,
	`{"timestamp":3,"type":"x","payload":{}}`,
	`{"typ\u0065":"response_item","payload":{"type":"message"}}`,
	`{"type":"response_item","payload":{"ſ":"x","type":"message"}}`,
	`{"type":"response_item","payload":{"name":"\u212a","type":"message"}}`,
	`{"type":"message","role":"user","content":[{"type":"input_text","text":"legacy"}]}`,
	`{"id":"s","timestamp":"t","instructions":null}`,
	`{"record_type":"state"}`,
	"  {\"type\" : \"event_msg\" , \"payload\" : { \"type\" : \"error\" , \"message\" : \"a\\n\\u00e9\" } }  ",
	`{"type":"event_msg","payload":{"type":"error"},}`,
	`{"type":"event_msg","payload":{"type":"error"}} trailing`,
	`["not","an","object"]`,
	`"text"`,
	`null`,
	``,
}

// TestDecodeCodexLineMatchesUnmarshal checks decodeCodexLine against
// json.Unmarshal, value and error, on codexLineSeeds and on every line of
// the shared Codex transcripts.
func TestDecodeCodexLineMatchesUnmarshal(t *testing.T) {
	t.Parallel()
	lines := codexLineSeeds
	if !testing.Short() {
		lines = append(lines, corpusLines(t, "codex")...)
	}
	for _, line := range lines {
		checkCodexLine(t, []byte(line))
	}
}

func FuzzDecodeCodexLine(f *testing.F) {
	for _, s := range codexLineSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		// The Decoder hands parsers valid UTF-8 only.
		checkCodexLine(t, bytes.ToValidUTF8(line, []byte("\uFFFD")))
	})
}

// checkCodexLine fails t when decodeCodexLine and json.Unmarshal read
// line differently.
func checkCodexLine(t *testing.T, line []byte) {
	t.Helper()
	var got, want codexRecord
	gotErr := decodeCodexLine(line, &got, &codexPayload{Type: "stale", Content: []byte("x")})
	wantErr := json.Unmarshal(line, &want)
	if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
		t.Errorf("%.120s: error %v, json.Unmarshal says %v", line, gotErr, wantErr)
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%.120s:\ngot  %+v\nwant %+v", line, got, want)
	}
}

// BenchmarkDecodeCodexLine reads every line of the largest shared Codex
// transcript with decodeCodexLine and, for comparison, with the
// json.Unmarshal it replaces.
func BenchmarkDecodeCodexLine(b *testing.B) {
	data := largestShared(b, "codex")
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			for _, l := range lines {
				var rec codexRecord
				_ = json.Unmarshal(l, &rec)
			}
		}
	})
	b.Run("decodeCodexLine", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		var scratch codexPayload
		for b.Loop() {
			for _, l := range lines {
				var rec codexRecord
				_ = decodeCodexLine(l, &rec, &scratch)
			}
		}
	})
}

// codexPartsSeeds are content and summary arrays, and values that are
// none, for codexParts.
var codexPartsSeeds = []string{
	`[{"type":"input_text","text":"hi"},{"type":"input_image","image_url":"x"}]`,
	`[{"type":"summary_text","text":"a\nb \u00e9"},null,{"TEXT":"c","Type":"t"}]`,
	`[{"type":5,"text":"typed wrong"}]`,
	`[{"text":7}]`,
	`[1]`,
	`["s"]`,
	`[[]]`,
	`[]`,
	`null`,
	`{"text":"object"}`,
	`"string"`,
	`[{"t\u0065xt":"escaped key"}]`,
	`[{"text":"a","text":null,"type":null}]`,
	``,
}

// TestCodexPartsMatchesUnmarshal checks codexParts against json.Unmarshal
// on codexPartsSeeds, typed and untyped.
func TestCodexPartsMatchesUnmarshal(t *testing.T) {
	t.Parallel()
	for _, s := range codexPartsSeeds {
		checkCodexParts(t, []byte(s))
	}
}

func FuzzCodexParts(f *testing.F) {
	for _, s := range codexPartsSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		// codexParts reads values of lines the decoder has validated.
		if !json.Valid(raw) {
			return
		}
		checkCodexParts(t, bytes.ToValidUTF8(raw, []byte("\uFFFD")))
	})
}

// checkCodexParts fails t when codexParts reads raw otherwise than
// json.Unmarshal does (unmarshalParts), with and without the items'
// type.
func checkCodexParts(t *testing.T, raw []byte) {
	t.Helper()
	for _, typed := range []bool{true, false} {
		want, wantErr := unmarshalParts(raw, typed)
		got, err := codexParts(raw, typed)
		if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Errorf("codexParts(%.80s, %v): error %v, json.Unmarshal says %v", raw, typed, err, wantErr)
			continue
		}
		if err == nil && len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Errorf("codexParts(%.80s, %v) = %+v, json.Unmarshal gives %+v", raw, typed, got, want)
		}
	}
}
