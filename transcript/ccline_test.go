package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestDecodeCCLineMatchesUnmarshal checks decodeCCLine against
// json.Unmarshal, value and error, on the edge cases its fast walk turns
// on and on every line of the shared Claude Code transcripts.
func TestDecodeCCLineMatchesUnmarshal(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	lines := []string{
		`{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1"}`,
		`{"Type":"assistant","TYPE":"user","message":{"ID":"m","Content":[{"type":"text","text":"a"}],"usage":{"input_tokens":3,"output_tokens":4}}}`,
		`{"type":"user","type":null,"cwd":null,"message":null}`,
		`{"type":"user","message":{"id":"a"},"message":{"role":"user"}}`,
		`{"type":"user","message":{"usage":null,"content":null}}`,
		`{"type":"user","isSidechain":true,"isMeta":null,"timestamp":"2025-01-01T00:00:00Z","parent_tool_use_id":"x","agentId":"ag"}`,
		`{"type":"user","toolUseResult":{"stdout":"x","exitCode":2,"is_error":true},"message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"out"}]}}`,
		`{"type":"user","toolUseResult":"Error: boom","message":{"content":"x"}}`,
		`{"typ\u0065":"user","message":{"content":"x"}}`,
		`{"ſubtype":"x","type":"system"}`,
		`{"type":3}`,
		`{"type":"user","message":"str"}`,
		`{"type":"user","message":{"usage":{"input_tokens":"x"}}}`,
		`{"type":"user","message":{"content":7}}`,
		`{"type":"user","message":{"content":[{"type":1}]}}`,
		`{"type":"user","session_id":"s","sessionId":"t","gitBranch":"b","version":"1","model":"m","subtype":"c","content":"sys"}`,
		`["not","an","object"]`,
		`"text"`,
		`{"type":"user",}`,
		`{"type":"user"} trailing`,
		"  {\"type\" : \"user\" , \"message\" : { \"content\" : \"a\\n\\u00e9\" } }  ",
	}
	lines = append(lines, corpusLines(t, "claude-code")...)
	for _, line := range lines {
		var got, want ccLine
		gotErr := decodeCCLine([]byte(line), &got)
		wantErr := json.Unmarshal([]byte(line), &want)
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Errorf("%.120s: error %v, json.Unmarshal says %v", line, gotErr, wantErr)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%.120s:\ngot  %+v\nwant %+v", line, got, want)
		}
	}
}

// corpusLines returns the lines of the shared transcripts of one agent
// (dir under ../shared/transcripts), made valid UTF-8 as the Decoder
// makes them; under -race every 8th line (see raceEnabled).
func corpusLines(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(sharedDir, dir, "*.jsonl"))
	var lines []string
	read := 0
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			if read++; raceEnabled && read%8 != 0 {
				continue
			}
			lines = append(lines, string(bytes.ToValidUTF8(sc.Bytes(), []byte("\uFFFD"))))
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	return lines
}
