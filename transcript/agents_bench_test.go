package transcript

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
)

// agentShape writes a synthetic session of one agent's format, round by
// round: a prompt, a shell call and its result carrying out (quoted as a
// JSON string), the shape that makes real sessions large.
type agentShape struct {
	format     Format
	head, tail string
	round      func(i int, out string) string
	array      bool // rounds are elements of a JSON array, comma-separated
	// store, when set, writes the agent's database at path instead of a
	// file of rounds.
	store func(tb testing.TB, path string, size, big int)
	// noTools marks a format that records no tool calls (Cursor's
	// export keeps prose only).
	noTools bool
}

func agentShapes() []agentShape {
	// text is a round's output as markdown text, not a JSON string.
	var unquoted string
	text := func(out string) string {
		if unquoted == "" {
			_ = json.Unmarshal([]byte(out), &unquoted)
		}
		return unquoted
	}
	return []agentShape{
		{format: FormatClaudeCode, round: func(i int, out string) string {
			return fmt.Sprintf(`{"type":"user","sessionId":"s","uuid":"u%d","timestamp":"2025-01-01T00:00:00Z","message":{"role":"user","content":"step %d: build it"}}`+"\n"+
				`{"type":"assistant","sessionId":"s","uuid":"a%d","message":{"id":"m%d","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":"make"}}],"usage":{"input_tokens":10,"cache_read_input_tokens":90000,"output_tokens":20}}}`+"\n"+
				`{"type":"user","sessionId":"s","uuid":"r%d","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":%s}]}}`+"\n", i, i, i, i, i, i, i, out)
		}},
		{format: FormatOpenCode, head: `{"info":{"id":"ses_1","projectID":"p","directory":"/w"},"messages":[`, tail: "]}\n", array: true, round: func(i int, out string) string {
			return fmt.Sprintf(`{"info":{"id":"msg_%dA","sessionID":"ses_1","role":"user","time":{"created":1}},"parts":[{"type":"text","text":"step %d: build it"}]},`+"\n"+
				`{"info":{"id":"msg_%dB","sessionID":"ses_1","role":"assistant","modelID":"m"},"parts":[{"type":"step-start"},{"type":"tool","callID":"c%d","tool":"bash","state":{"status":"completed","input":{"command":"make"},"output":%s,"metadata":{"exit":0}}},{"type":"step-finish","tokens":{"input":10,"output":20,"cache":{"read":90000,"write":0}}}]}`, i, i, i, i, out)
		}},
		{format: FormatCopilotCLI, round: func(i int, out string) string {
			return fmt.Sprintf(`{"type":"user.message","id":"u%d","timestamp":"2025-01-01T00:00:00Z","data":{"content":"step %d: build it"}}`+"\n"+
				`{"type":"assistant.message","id":"a%d","timestamp":"2025-01-01T00:00:01Z","data":{"messageId":"m%d","content":"","toolRequests":[{"toolCallId":"c%d","name":"bash","arguments":{"command":"make"}}]}}`+"\n"+
				`{"type":"tool.execution_complete","id":"r%d","timestamp":"2025-01-01T00:00:02Z","data":{"toolCallId":"c%d","success":true,"result":{"content":%s}}}`+"\n", i, i, i, i, i, i, i, out)
		}},
		{format: FormatDroid, head: `{"type":"session_start","id":"s","title":"t","cwd":"/w"}` + "\n", round: func(i int, out string) string {
			return fmt.Sprintf(`{"type":"message","id":"u%d","timestamp":"2025-01-01T00:00:00Z","message":{"role":"user","content":[{"type":"text","text":"step %d: build it"}]}}`+"\n"+
				`{"type":"message","id":"a%d","timestamp":"2025-01-01T00:00:01Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"Execute","input":{"command":"make"}}]}}`+"\n"+
				`{"type":"message","id":"r%d","timestamp":"2025-01-01T00:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":%s}]}}`+"\n", i, i, i, i, i, i, out)
		}},
		{format: FormatPi, round: func(i int, out string) string {
			return fmt.Sprintf(`{"type":"message","id":"u%d","parentId":"x","message":{"role":"user","content":"step %d: build it"}}`+"\n"+
				`{"type":"message","id":"a%d","parentId":"u%d","message":{"role":"assistant","content":[{"type":"toolCall","id":"c%d","name":"bash","arguments":{"command":"make"}}],"usage":{"input":10,"output":20,"cacheRead":90000}}}`+"\n"+
				`{"type":"message","id":"r%d","parentId":"a%d","message":{"role":"toolResult","toolCallId":"c%d","toolName":"bash","content":[{"type":"text","text":%s}],"isError":false}}`+"\n", i, i, i, i, i, i, i, i, out)
		}},
		{format: FormatGoose, head: `{"working_dir":"/w","description":"d"}` + "\n", round: func(i int, out string) string {
			return fmt.Sprintf(`{"id":"u%d","role":"user","created":1,"content":[{"type":"text","text":"step %d: build it"}]}`+"\n"+
				`{"id":"a%d","role":"assistant","created":2,"content":[{"type":"toolRequest","id":"c%d","toolCall":{"status":"success","value":{"name":"developer__shell","arguments":{"command":"make"}}}}]}`+"\n"+
				`{"id":"r%d","role":"user","created":3,"content":[{"type":"toolResponse","id":"c%d","toolResult":{"status":"success","value":[{"type":"text","text":%s}]}}]}`+"\n", i, i, i, i, i, i, out)
		}},
		{format: FormatKimi, head: `{"role": "_checkpoint", "id": 0}` + "\n", round: func(i int, out string) string {
			return fmt.Sprintf(`{"role": "user", "content": "step %d: build it"}`+"\n"+
				`{"role": "assistant", "content": "", "tool_calls": [{"type": "function", "id": "S:%d", "function": {"name": "Shell", "arguments": "{\"command\": \"make\"}"}}]}`+"\n"+
				`{"role": "tool", "content": %s, "tool_call_id": "S:%d"}`+"\n"+`{"role": "_usage", "token_count": 90000}`+"\n", i, i, out, i)
		}},
		{format: FormatVSCodeChat, head: `{"version":3,"requesterUsername":"u","sessionId":"s","creationDate":1,"requests":[`, tail: "]}\n", array: true, round: func(i int, out string) string {
			return fmt.Sprintf(`{"requestId":"r%d","message":{"text":"step %d: build it"},"response":[{"kind":"toolInvocationSerialized","toolId":"run_in_terminal","toolCallId":"c%d","isComplete":true,"toolSpecificData":{"kind":"terminal","command":"make"},"resultDetails":{"output":[{"value":%s}]}}],"result":{"metadata":{"promptTokens":90000,"outputTokens":20}},"timestamp":1}`, i, i, i, out)
		}},
		{format: FormatZed, head: `{"title":"t","messages":[`, tail: `],"updated_at":"2025-01-01T00:00:00Z","version":"0.3.0"}` + "\n", array: true, round: func(i int, out string) string {
			return fmt.Sprintf(`{"User":{"id":"u%d","content":[{"Text":"step %d: build it"}]}},`+"\n"+
				`{"Agent":{"content":[{"ToolUse":{"id":"t%d","name":"terminal","raw_input":"","input":{"command":"make"},"is_input_complete":true}}],"tool_results":{"t%d":{"tool_use_id":"t%d","tool_name":"terminal","is_error":false,"content":{"Text":%s},"output":null}},"reasoning_details":null}}`, i, i, i, i, i, out)
		}},
		{format: FormatAmp, head: `{"v":1,"id":"T-019b9d03-62e3-772f-9780-3e637f90eaec","created":1,"messages":[`, tail: "]}\n", array: true, round: func(i int, out string) string {
			return fmt.Sprintf(`{"role":"user","messageId":%d,"content":[{"type":"text","text":"step %d: build it"}]},`+"\n"+
				`{"role":"assistant","messageId":%d,"content":[{"type":"tool_use","id":"t%d","name":"Bash","input":{"cmd":"make"}}],"usage":{"inputTokens":10,"outputTokens":20,"cacheReadInputTokens":90000}},`+"\n"+
				`{"role":"user","messageId":%d,"content":[{"type":"tool_result","toolUseID":"t%d","run":{"status":"done","result":{"output":%s,"exitCode":0}}}]}`, 3*i, i, 3*i+1, i, 3*i+2, i, out)
		}},
		{format: FormatQwen, round: func(i int, out string) string {
			return fmt.Sprintf(`{"uuid":"u%d","parentUuid":null,"sessionId":"s","timestamp":"2025-01-01T00:00:00Z","type":"user","cwd":"/w","version":"1","message":{"role":"user","parts":[{"text":"step %d: build it"}]}}`+"\n"+
				`{"uuid":"a%d","parentUuid":"u%d","sessionId":"s","timestamp":"2025-01-01T00:00:01Z","type":"assistant","cwd":"/w","version":"1","model":"m","message":{"role":"model","parts":[{"functionCall":{"id":"c%d","name":"run_shell_command","args":{"command":"make"}}}]},"usageMetadata":{"promptTokenCount":90010,"candidatesTokenCount":20,"cachedContentTokenCount":90000}}`+"\n"+
				`{"uuid":"r%d","parentUuid":"a%d","sessionId":"s","timestamp":"2025-01-01T00:00:02Z","type":"tool_result","cwd":"/w","version":"1","message":{"role":"user","parts":[{"functionResponse":{"id":"c%d","name":"run_shell_command","response":{"output":%s}}}]},"toolCallResult":{"callId":"c%d","status":"success"}}`+"\n", i, i, i, i, i, i, i, i, out, i)
		}},
		{format: FormatAntigravity, round: func(i int, out string) string {
			return fmt.Sprintf(`{"step_index":%d,"source":"USER_EXPLICIT","type":"USER_INPUT","status":"DONE","created_at":"2025-01-01T00:00:00Z","content":"<USER_REQUEST>\nstep %d: build it\n</USER_REQUEST>"}`+"\n"+
				`{"step_index":%d,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","created_at":"2025-01-01T00:00:01Z","tool_calls":[{"name":"run_command","args":{"CommandLine":"\"make\""}}]}`+"\n"+
				`{"step_index":%d,"source":"MODEL","type":"RUN_COMMAND","status":"DONE","created_at":"2025-01-01T00:00:02Z","content":%s}`+"\n", 3*i, i, 3*i+1, 3*i+2, out)
		}},
		{format: FormatVSCodeChatLog, head: `{"kind":0,"v":{"version":3,"sessionId":"s","creationDate":1,"requests":[]}}` + "\n", round: func(i int, out string) string {
			return fmt.Sprintf(`{"kind":2,"k":["requests"],"v":[{"requestId":"r%d","message":{"text":"step %d: build it"},"response":[],"timestamp":1}]}`+"\n"+
				`{"kind":2,"k":["requests",%d,"response"],"v":[{"kind":"toolInvocationSerialized","toolId":"run_in_terminal","toolCallId":"c%d","isComplete":true,"toolSpecificData":{"kind":"terminal","command":"make"},"resultDetails":{"output":[{"value":%s}]}}]}`+"\n"+
				`{"kind":1,"k":["requests",%d,"result"],"v":{"metadata":{"promptTokens":90000,"outputTokens":20}}}`+"\n", i, i, i, i, out, i)
		}},
		{format: FormatCursorExport, noTools: true, head: "# Bench\n_Exported on 1/1/2026 at 10:00:00 GMT from Cursor (1.7.0)_\n\n---\n\n", round: func(i int, out string) string {
			return fmt.Sprintf("**User**\n\nstep %d: build it\n\n---\n\n**Cursor**\n\nBuilt it:\n\n```\n%s```\n\n---\n\n", i, text(out))
		}},
		{format: FormatCopilotShare, head: "# 🤖 Copilot CLI Session\n\n> **Session ID:** `s`\n\n---\n\n", round: func(i int, out string) string {
			return fmt.Sprintf("### 👤 User\n\nstep %d: build it\n\n---\n\n### ✅ `bash`\n\n$ make\n\n```\n%s<exited with exit code 0>\n```\n\n---\n\n", i, text(out))
		}},
		{format: FormatSpecStory, head: "<!-- Generated by SpecStory, Markdown v2.1.0 -->\n\n<!-- Claude Code Session s1 (2026-01-16 16:48:38Z) -->\n\n", round: func(i int, out string) string {
			return fmt.Sprintf("_**User (2026-01-16 16:48:38Z)**_\n\nstep %d: build it\n\n---\n\n_**Agent (claude-opus-4-5 2026-01-16 16:48:43Z)**_\n\n"+
				"<tool-use data-tool-type=\"shell\" data-tool-name=\"Bash\"><details>\n<summary>Tool use: **Bash** `make`</summary>\n```\n%s```\n</details></tool-use>\n\n---\n\n", i, text(out))
		}},
		{format: FormatAider, head: "# aider chat started at 2025-07-15 11:38:37\n\n> Aider v0.85.1\n> Main model: gpt-4o with diff edit format\n\n", round: func(i int, out string) string {
			return fmt.Sprintf("#### step %d: build it\n\n#### /run make\n\n> %s\n\nBuilt it.\n\n> Tokens: 3.2k sent, 21 received.\n\n", i, strings.ReplaceAll(strings.TrimSuffix(text(out), "\n"), "\n", "\n> "))
		}},
		{format: FormatZed, store: writeZedStoreShape},
		{format: FormatCrush, store: writeCrushStoreShape},
		{format: FormatCursorExport, store: writeCursorStoreShape},
		{format: FormatGoose, store: writeGooseStoreShape},
		{format: FormatContinue, head: `{"sessionId":"s","title":"t","workspaceDirectory":"/w","history":[`, tail: "]}\n", array: true, round: func(i int, out string) string {
			return fmt.Sprintf(`{"message":{"role":"user","content":"step %d: build it"}},`+"\n"+
				`{"message":{"role":"assistant","content":"","toolCalls":[{"id":"c%d","type":"function","function":{"name":"builtin_run_terminal_command","arguments":"{\"command\":\"make\"}"}}]}},`+"\n"+
				`{"message":{"role":"tool","content":%s,"toolCallId":"c%d"}}`, i, i, out, i)
		}},
	}
}

// writeShape writes about size bytes of the shape to path.
func writeShape(tb testing.TB, s agentShape, path string, size, big int) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	quoted, _ := json.Marshal(strings.Repeat("compiling module … ok\n", big/22))
	out := string(quoted)
	written, _ := w.WriteString(s.head)
	for i := 0; written < size; i++ {
		if i > 0 && s.array {
			n, _ := w.WriteString(",\n")
			written += n
		}
		n, _ := w.WriteString(s.round(i, out))
		written += n
	}
	w.WriteString(s.tail)
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkAgentFormats100MB parses a 100 MB synthetic session of each
// agent format read from a file (a prompt, a shell call and a 16 KB
// result per round) and reports, beside Claude Code's measured in the
// same run, its CPU time (user+system of the process, ordinary GC) and
// its sampled peak heap (a second parse under measureHeap, whose GC at 1%
// would distort the time): cpu/claude and peak/claude are the ratios
// (1 = as Claude Code's decoder). With -benchtime Nx each figure is the
// minimum of N parses. bench/formats.sh runs it for two commits,
// interleaved, and prints the table. The files are written to a temp
// dir, or once to $HANDOFF_BENCH_DIR and reused from there.
func BenchmarkAgentFormats100MB(b *testing.B) {
	dir := os.Getenv("HANDOFF_BENCH_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	type figures struct {
		peak uint64
		cpu  time.Duration
	}
	parse := func(b *testing.B, s agentShape, path string) {
		if _, err := ParseFile(context.Background(), path, Options{Format: s.format}); err != nil {
			b.Fatal(err)
		}
	}
	shapes := agentShapes()
	var base figures
	for _, s := range shapes {
		b.Run(s.name(), func(b *testing.B) {
			path := filepath.Join(dir, s.name())
			if _, err := os.Stat(path); err != nil {
				s.write(b, path, 100<<20, 16<<10)
			}
			f := figures{peak: math.MaxUint64, cpu: math.MaxInt64}
			for b.Loop() {
				runtime.GC()
				start := processCPU(b)
				parse(b, s, path)
				f.cpu = min(f.cpu, processCPU(b)-start)
				_, peak := measureHeap(func() { parse(b, s, path) })
				f.peak = min(f.peak, peak)
			}
			if s.format == FormatClaudeCode && s.store == nil {
				base = f
			}
			b.ReportMetric(float64(f.peak)/(1<<20), "peak-MiB")
			b.ReportMetric(f.cpu.Seconds(), "cpu-s")
			if base.peak > 0 {
				b.ReportMetric(float64(f.peak)/float64(base.peak), "peak/claude")
				b.ReportMetric(float64(f.cpu)/float64(base.cpu), "cpu/claude")
			}
		})
	}
}

// processCPU is the user+system CPU time the process has used so far.
func processCPU(tb testing.TB) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// TestAgentShapesParse checks the benchmark's shapes on a small file:
// each parses in its format with every round's call and result.
func TestAgentShapesParse(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, s := range agentShapes() {
		path := filepath.Join(dir, s.name())
		s.write(t, path, 20<<10, 1<<10)
		tr, err := ParseFile(context.Background(), path, Options{Strict: true})
		if err != nil {
			t.Fatalf("%s: %v", s.name(), err)
		}
		if tr.Session.Format != string(s.format) {
			t.Errorf("detected %s as %s", s.name(), tr.Session.Format)
		}
		calls, results := 0, 0
		for _, m := range tr.Messages {
			calls += len(m.ToolCalls)
			results += len(m.ToolResults)
		}
		if !s.noTools && calls == 0 || calls != results {
			t.Errorf("%s: %d calls, %d results", s.name(), calls, results)
		}
	}
}

// name names the shape: its format, with "-db" for a store.
func (s agentShape) name() string {
	if s.store != nil {
		return string(s.format) + "-db"
	}
	return string(s.format)
}

// write writes about size bytes of the shape's session to path.
func (s agentShape) write(tb testing.TB, path string, size, big int) {
	if s.store != nil {
		s.store(tb, path, size, big)
		return
	}
	writeShape(tb, s, path, size, big)
}

// writeZedStoreShape writes a threads.db holding one thread of about size
// bytes of JSON (rounds of a prompt, a terminal call and its result),
// zstd-compressed as Zed stores it.
func writeZedStoreShape(tb testing.TB, path string, size, big int) {
	tb.Helper()
	shape := agentShapes()
	var zs agentShape
	for _, s := range shape {
		if s.format == FormatZed && s.store == nil {
			zs = s
		}
	}
	raw := filepath.Join(filepath.Dir(path), "zed-thread.json")
	writeShape(tb, zs, raw, size, big)
	src, err := os.Open(raw)
	if err != nil {
		tb.Fatal(err)
	}
	defer src.Close()
	var blob bytes.Buffer
	enc, err := zstd.NewWriter(&blob, zstd.WithEncoderLevel(zstd.SpeedFastest))
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := io.Copy(enc, src); err != nil {
		tb.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		tb.Fatal(err)
	}
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL, data_type TEXT NOT NULL, data BLOB NOT NULL, parent_id TEXT, folder_paths TEXT)`); err != nil {
		tb.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO threads VALUES ('t1', 'bench', '2025-01-01T00:00:00Z', 'zstd', ?, NULL, '/w')`, blob.Bytes()); err != nil {
		tb.Fatal(err)
	}
}

// writeGooseStoreShape writes a sessions.db whose one session holds about
// size bytes of message content.
func writeGooseStoreShape(tb testing.TB, path string, size, big int) {
	tb.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '', session_type TEXT NOT NULL DEFAULT 'user',
			working_dir TEXT NOT NULL, created_at TIMESTAMP, updated_at TIMESTAMP, input_tokens INTEGER, output_tokens INTEGER)`,
		`CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL)`,
		`INSERT INTO sessions (id, name, working_dir, updated_at, input_tokens, output_tokens) VALUES ('s1', 'bench', '/w', '2025-01-01 00:00:00', 90000, 20)`,
	} {
		if _, err := db.Exec(q); err != nil {
			tb.Fatal(err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		tb.Fatal(err)
	}
	quoted, _ := json.Marshal(strings.Repeat("compiling module … ok\n", big/22))
	for i, written := 0, 0; written < size; i++ {
		rows := []struct{ role, content string }{
			{"user", fmt.Sprintf(`[{"type":"text","text":"step %d: build it"}]`, i)},
			{"assistant", fmt.Sprintf(`[{"type":"toolRequest","id":"c%d","toolCall":{"status":"success","value":{"name":"developer__shell","arguments":{"command":"make"}}}}]`, i)},
			{"user", fmt.Sprintf(`[{"type":"toolResponse","id":"c%d","toolResult":{"status":"success","value":[{"type":"text","text":%s}]}}]`, i, quoted)},
		}
		for _, r := range rows {
			if _, err := tx.Exec(`INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES ('s1', ?, ?, ?)`, r.role, r.content, i); err != nil {
				tb.Fatal(err)
			}
			written += len(r.content)
		}
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
}

// writeCrushStoreShape writes a crush.db whose one session holds about
// size bytes of message parts.
func writeCrushStoreShape(tb testing.TB, path string, size, big int) {
	tb.Helper()
	quoted, _ := json.Marshal(strings.Repeat("compiling module … ok\n", big/22))
	writeRowsShape(tb, path, append(crushSchema(),
		`INSERT INTO sessions VALUES ('s1', NULL, 'bench', 0, 90000, 20, 0, 1764925300, 1764925200, NULL)`), `INSERT INTO messages VALUES (?, 's1', ?, ?, 'gpt-5', ?, ?, NULL, 'openai')`, size, func(i int) [][]any {
		return [][]any{
			{fmt.Sprintf("u%d", i), "user", fmt.Sprintf(`[{"type":"text","data":{"text":"step %d: build it"}}]`, i), 3 * i, 3 * i},
			{fmt.Sprintf("a%d", i), "assistant", fmt.Sprintf(`[{"type":"tool_call","data":{"id":"c%d","name":"bash","input":"{\"command\":\"make\"}","type":"function","finished":true}},{"type":"finish","data":{"reason":"tool_use","time":1}}]`, i), 3*i + 1, 3*i + 1},
			{fmt.Sprintf("r%d", i), "tool", fmt.Sprintf(`[{"type":"tool_result","data":{"tool_call_id":"c%d","name":"bash","content":%s,"metadata":"","is_error":false}}]`, i, quoted), 3*i + 2, 3*i + 2},
		}
	})
}

// writeCursorStoreShape writes a state.vscdb whose one chat holds about
// size bytes of bubbles (cursorDiskKV rows, as Cursor 1.x writes them).
func writeCursorStoreShape(tb testing.TB, path string, size, big int) {
	tb.Helper()
	quoted, _ := json.Marshal(strings.Repeat("compiling module … ok\n", big/22))
	result, _ := json.Marshal(fmt.Sprintf(`{"output":%s,"exitCode":0}`, quoted))
	var headers []string
	writeRowsShape(tb, path, []string{
		`CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`,
		`CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)`,
	}, `INSERT INTO cursorDiskKV VALUES (?, ?)`, size, func(i int) [][]any {
		headers = append(headers, fmt.Sprintf(`{"bubbleId":"u%d","type":1}`, i), fmt.Sprintf(`{"bubbleId":"a%d","type":2}`, i))
		return [][]any{
			{fmt.Sprintf("bubbleId:c1:u%d", i), []byte(fmt.Sprintf(`{"bubbleId":"u%d","type":1,"text":"step %d: build it"}`, i, i))},
			{fmt.Sprintf("bubbleId:c1:a%d", i), []byte(fmt.Sprintf(`{"bubbleId":"a%d","type":2,"text":"","toolFormerData":{"toolCallId":"t%d","name":"run_terminal_cmd","status":"completed","rawArgs":"{\"command\":\"make\"}","result":%s},"tokenCount":{"inputTokens":90000,"outputTokens":20}}`, i, i, result))},
		}
	})
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	composer := `{"composerId":"c1","name":"bench","createdAt":1764925200000,"lastUpdatedAt":1764925300000,"fullConversationHeadersOnly":[` + strings.Join(headers, ",") + `]}`
	if _, err := db.Exec(`INSERT INTO cursorDiskKV VALUES ('composerData:c1', ?)`, []byte(composer)); err != nil {
		tb.Fatal(err)
	}
}

// writeRowsShape creates an SQLite database at path with schema and
// inserts rounds of rows (from round) with insert until their text and
// blob values reach size bytes.
func writeRowsShape(tb testing.TB, path string, schema []string, insert string, size int, round func(i int) [][]any) {
	tb.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	for _, q := range schema {
		if _, err := db.Exec(q); err != nil {
			tb.Fatal(err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		tb.Fatal(err)
	}
	for i, written := 0, 0; written < size; i++ {
		for _, args := range round(i) {
			if _, err := tx.Exec(insert, args...); err != nil {
				tb.Fatal(err)
			}
			for _, a := range args {
				switch v := a.(type) {
				case string:
					written += len(v)
				case []byte:
					written += len(v)
				}
			}
		}
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
}
