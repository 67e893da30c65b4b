package transcript

import (
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"
)

// One fuzz target per decoder of an agent's own format, seeded with its
// sample; each parses lenient and strict (fuzzParse) and must fail only
// with EINVALID. Kept cheap: the seeds are the small samples.

func fuzzAgent(f *testing.F, format Format, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) { fuzzParse(t, format, input) })
}

// The seeds are small on purpose: the fuzzer minimises every new input
// it finds, and a sample of many kilobytes spends the CI's seconds there.

func FuzzOpenCode(f *testing.F) {
	fuzzAgent(f, FormatOpenCode, `{"info":{"id":"ses_1","projectID":"p","directory":"/w"},"messages":[`+
		`{"info":{"id":"msg_1","sessionID":"ses_1","role":"user","time":{"created":1}},"parts":[{"type":"text","text":"fix it"},{"type":"compaction","auto":true}]},`+
		`{"info":{"id":"msg_2","sessionID":"ses_1","role":"assistant","modelID":"m","summary":true,"error":{"name":"MessageAbortedError","data":{"message":"x"}}},"parts":[`+
		`{"type":"step-start"},{"type":"reasoning","text":"r"},{"type":"tool","callID":"c1","tool":"edit","state":{"status":"error","input":{"filePath":"a.go","oldString":"x"},"error":"boom","metadata":{"exit":1}}},`+
		`{"type":"step-finish","tokens":{"input":1,"output":2,"cache":{"read":3,"write":4}}}]}]}`)
}

func FuzzCopilotCLI(f *testing.F) {
	fuzzAgent(f, FormatCopilotCLI,
		`{"type":"session.start","id":"1","timestamp":"2025-01-01T00:00:00Z","data":{"sessionId":"s","context":{"cwd":"/w"}}}`+"\n"+
			`{"type":"assistant.message","id":"2","timestamp":"2025-01-01T00:00:01Z","data":{"content":"x","toolRequests":[{"toolCallId":"c","name":"update_todo","arguments":{"todos":"- [x] a\n- [ ] b"}}]}}`+"\n"+
			`{"type":"tool.execution_complete","id":"3","timestamp":"2025-01-01T00:00:02Z","data":{"toolCallId":"c","success":false,"error":{"message":"no"},"result":{"content":"<exited with exit code 2>"}}}`+"\n")
}

func FuzzCopilotShare(f *testing.F) {
	fuzzAgent(f, FormatCopilotShare, "# 🤖 Copilot CLI Session\n\n### 👤 User\n\nfix it\n\n---\n\n### ✅ `bash`\n\n$ make\n\n```\nok\n<exited with exit code 0>\n```\n\n---\n\n### 💬 Copilot\n\ndone\n")
}

func FuzzCursorExport(f *testing.F) {
	fuzzAgent(f, FormatCursorExport, "# T\n_Exported on 1/1/2025 at 10:00:00 GMT from Cursor (1.7.0)_\n\n---\n\n**User**\n\nfix it\n\n---\n\n**Cursor**\n\n```go\n---\n```\ndone\n")
}

func FuzzPi(f *testing.F) {
	fuzzAgent(f, FormatPi, `{"type":"session","version":3,"id":"s","timestamp":"2025-01-01T00:00:00Z","cwd":"/w"}`+"\n"+
		`{"type":"message","id":"a","parentId":null,"message":{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"edit","arguments":{"path":"a","oldText":"x","newText":"y"}}],"usage":{"input":1},"stopReason":"error","errorMessage":"e"}}`+"\n"+
		`{"type":"message","id":"b","parentId":"a","message":{"role":"toolResult","toolCallId":"c","toolName":"edit","content":[{"type":"text","text":"ok"}],"isError":true}}`+"\n")
}

func FuzzGoose(f *testing.F) {
	fuzzAgent(f, FormatGoose, `{"working_dir":"/w","description":"d","input_tokens":5}`+"\n"+
		`{"id":"1","role":"assistant","created":1,"content":[{"type":"toolRequest","id":"t","toolCall":{"status":"success","value":{"name":"developer__shell","arguments":{"command":"ls"}}}}]}`+"\n"+
		`{"id":"2","role":"user","created":2,"content":[{"type":"toolResponse","id":"t","toolResult":{"status":"error","error":"no"}}]}`+"\n")
}

func FuzzKimi(f *testing.F) {
	fuzzAgent(f, FormatKimi, `{"role": "_checkpoint", "id": 0}`+"\n"+`{"role": "user", "content": "hi"}`+"\n"+
		`{"role": "assistant", "content": "", "tool_calls": [{"type": "function", "id": "S:0", "function": {"name": "Shell", "arguments": "{\"command\": \"ls\"}"}}]}`+"\n"+
		`{"role": "tool", "content": "<system>ERROR: x</system>", "tool_call_id": "S:0"}`+"\n"+`{"role": "_usage", "token_count": 9}`+"\n")
}

func FuzzVSCodeChat(f *testing.F) {
	fuzzAgent(f, FormatVSCodeChat, `{"version":3,"requesterUsername":"u","sessionId":"s","creationDate":1,"requests":[{"requestId":"r","message":{"text":"fix"},`+
		`"response":[{"value":"ok"},{"kind":"toolInvocationSerialized","toolId":"run_in_terminal","toolCallId":"c","isComplete":true,"toolSpecificData":{"kind":"terminal","command":"make"},"resultDetails":{"isError":true,"output":[{"value":"x"}]}},`+
		`{"kind":"textEditGroup","uri":{"fsPath":"/a.go"},"edits":[]}],"result":{"metadata":{"promptTokens":3},"errorDetails":{"message":"e"}},"isCanceled":true}]}`)
}

func FuzzContinue(f *testing.F) {
	fuzzAgent(f, FormatContinue, `{"sessionId":"s","title":"t","workspaceDirectory":"file:///w","history":[{"message":{"role":"user","content":"fix"}},`+
		`{"message":{"role":"assistant","content":"","toolCalls":[{"id":"c","type":"function","function":{"name":"builtin_edit_existing_file","arguments":"{\"filepath\":\"a\",\"changes\":\"x\"}"}}]}},`+
		`{"message":{"role":"tool","content":"done","toolCallId":"c"}}]}`)
}

func FuzzDroid(f *testing.F) {
	fuzzAgent(f, FormatDroid, `{"type":"session_start","id":"s","title":"t","cwd":"/w"}`+"\n"+
		`{"type":"message","id":"1","timestamp":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"Execute","input":{"command":"ls"}}]}}`+"\n"+
		`{"type":"message","id":"2","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"no","is_error":true}]}}`+"\n")
}

func FuzzZed(f *testing.F) {
	fuzzAgent(f, FormatZed, `{"title":"t","messages":[{"User":{"id":"u","content":[{"Text":"fix"},{"Mention":{"uri":{"File":{"abs_path":"/a"}},"content":"x"}}]}},`+
		`{"Agent":{"content":[{"Thinking":{"text":"r"}},{"ToolUse":{"id":"c","name":"terminal","input":{"command":"make"}}}],"tool_results":{"c":{"tool_use_id":"c","tool_name":"terminal","is_error":false,"content":{"Text":"Command \"make\" failed with exit code 2."}}}}},"Resume",`+
		`{"id":1,"role":"assistant","segments":[{"type":"text","text":"x"}],"tool_uses":[],"tool_results":[]}],"updated_at":"2025-01-01T00:00:00Z","request_token_usage":{"u":{"input_tokens":3}},"version":"0.3.0"}`)
}

func FuzzAmp(f *testing.F) {
	fuzzAgent(f, FormatAmp, `{"v":1,"id":"T-019b9d03-62e3-772f-9780-3e637f90eaec","env":{"initial":{"trees":[{"uri":"file:///w"}]}},"messages":[`+
		`{"role":"user","messageId":0,"content":[{"type":"text","text":"fix"}]},`+
		`{"role":"assistant","messageId":1,"content":[{"type":"tool_use","id":"t","name":"Bash","input":{"cmd":"make"}}],"state":{"type":"cancelled"},"usage":{"inputTokens":1}},`+
		`{"role":"user","messageId":2,"content":[{"type":"tool_result","toolUseID":"t","run":{"status":"error","error":{"message":"no"},"result":{"exitCode":2}}}]},`+
		`{"role":"info","messageId":3,"content":[{"type":"summary","summary":{"type":"message","summary":"s"}}]}]}`)
}

func FuzzQwen(f *testing.F) {
	fuzzAgent(f, FormatQwen,
		`{"uuid":"a","parentUuid":null,"sessionId":"s","timestamp":"2025-01-01T00:00:00Z","type":"user","cwd":"/w","version":"1","message":{"role":"user","parts":[{"text":"fix"}]}}`+"\n"+
			`{"uuid":"b","parentUuid":"a","sessionId":"s","timestamp":"2025-01-01T00:00:01Z","type":"assistant","cwd":"/w","version":"1","message":{"role":"model","parts":[{"functionCall":{"id":"c","name":"run_shell_command","args":{"command":"make"}}}]},"usageMetadata":{"promptTokenCount":5,"cachedContentTokenCount":9}}`+"\n"+
			`{"uuid":"d","parentUuid":"b","sessionId":"s","timestamp":"2025-01-01T00:00:02Z","type":"tool_result","cwd":"/w","version":"1","message":{"role":"user","parts":[{"functionResponse":{"id":"c","name":"run_shell_command","response":{"output":"Exit Code: 2"}}}]},"toolCallResult":{"callId":"c","status":"cancelled"}}`+"\n"+
			`{"uuid":"e","parentUuid":"d","sessionId":"s","timestamp":"2025-01-01T00:00:03Z","type":"system","subtype":"chat_compression","cwd":"/w","version":"1","systemPayload":{"compressedHistory":[{"role":"user","parts":[{"text":"sum"}]}]}}`+"\n")
}

func FuzzVSCodeChatLog(f *testing.F) {
	fuzzAgent(f, FormatVSCodeChatLog,
		`{"kind":0,"v":{"version":3,"sessionId":"s","creationDate":1,"requests":[]}}`+"\n"+
			`{"kind":2,"k":["requests"],"v":[{"requestId":"r","message":{"text":"fix"},"response":[]}]}`+"\n"+
			`{"kind":2,"k":["requests",0,"response"],"v":[{"value":"ok"},{"kind":"toolInvocationSerialized","toolId":"run_in_terminal","toolCallId":"c","isComplete":true,"toolSpecificData":{"kind":"terminal","command":"make"},"resultDetails":{"isError":true,"output":[{"value":"x"}]}}]}`+"\n"+
			`{"kind":1,"k":["requests",0,"result"],"v":{"metadata":{"promptTokens":3}}}`+"\n"+
			`{"kind":2,"k":["requests"],"v":[{"requestId":"r2","message":{"text":"again"}}],"i":0}`+"\n"+
			`{"kind":3,"k":["requests",0,"message"]}`+"\n")
}

func FuzzAntigravity(f *testing.F) {
	fuzzAgent(f, FormatAntigravity,
		`{"step_index":0,"source":"USER_EXPLICIT","type":"USER_INPUT","status":"DONE","created_at":"2026-01-01T00:00:00Z","content":"<USER_REQUEST>\nfix\n</USER_REQUEST>"}`+"\n"+
			`{"step_index":1,"source":"MODEL","type":"PLANNER_RESPONSE","status":"DONE","created_at":"2026-01-01T00:00:01Z","tool_calls":[{"name":"run_command","args":{"CommandLine":"\"make\"","Cwd":"\"/w\""}}]}`+"\n"+
			`{"step_index":2,"source":"MODEL","type":"RUN_COMMAND","status":"ERROR","created_at":"2026-01-01T00:00:02Z","content":"exit code: 2","truncated_fields":["content"]}`+"\n"+
			`{"step_index":3,"source":"SYSTEM","type":"CHECKPOINT","status":"DONE","content":"# Resuming"}`+"\n")
}

// FuzzGooseDBMessage reads one sessions.db row's content as the store
// reader does: a malformed row is an error for that row, never a panic.
func FuzzGooseDBMessage(f *testing.F) {
	f.Add("assistant", []byte(`[{"type":"toolRequest","id":"t","toolCall":{"status":"success","value":{"name":"developer__shell","arguments":{"command":"ls"}}}}]`))
	f.Add("user", []byte(`[{"type":"toolResponse","id":"t","toolResult":{"status":"error","error":"no"}},{"type":"text","text":"hi"}]`))
	f.Fuzz(func(t *testing.T, role string, content []byte) {
		d, err := NewDecoder(FormatGoose, Options{})
		if err != nil {
			t.Fatal(err)
		}
		p := newGooseParser().(*gooseParser)
		m := gooseMessage{ID: "1", Role: role, Created: 1}
		if json.Unmarshal(content, &m.Content) != nil {
			return
		}
		_ = p.message(d, m, d.storeRecord(), jsonDecoder(content))
		if err := p.finish(d); err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, d.Transcript())
	})
}

// FuzzJSONRecords feeds a document to jsonRecords in pieces split at
// arbitrary points: every record it hands on must be valid JSON when the
// document is, and it must never panic on broken input.
func FuzzJSONRecords(f *testing.F) {
	f.Add([]byte(`{"info":{"id":"s"},"messages":[{"a":1},{"b":"]}\"x"},[1,2]]}`), uint8(3))
	f.Add([]byte(`[{"a":[1,{"b":2}]}, "s", 3]`), uint8(1))
	f.Fuzz(func(t *testing.T, doc []byte, step uint8) {
		for _, key := range []string{"", "messages"} {
			s := &jsonRecords{key: key, max: 1 << 16,
				element: func(_ int, raw []byte) error {
					if json.Valid(doc) && raw != nil && !json.Valid(raw) {
						t.Fatalf("key %q: record %q of a valid document is not valid JSON", key, raw)
					}
					return nil
				},
				member: func(_ string, raw []byte) error {
					if json.Valid(doc) && !json.Valid(raw) {
						t.Fatalf("key %q: member %q of a valid document is not valid JSON", key, raw)
					}
					return nil
				},
			}
			n := int(step%16) + 1
			for rest := doc; len(rest) > 0; {
				k := min(n, len(rest))
				if s.write(rest[:k]) != nil {
					break
				}
				rest = rest[k:]
			}
			_ = s.complete()
		}
	})
}

// FuzzCrushMessage feeds one message's parts column, as Crush's
// database holds it, to the Crush reader, after a message with a call
// the parts may answer.
func FuzzCrushMessage(f *testing.F) {
	f.Add("tool", []byte(`[{"type":"tool_result","data":{"tool_call_id":"c1","name":"bash","content":"FAIL","metadata":"","is_error":true}}]`))
	f.Add("assistant", []byte(`[{"type":"reasoning","data":{"thinking":"t"}},{"type":"text","data":{"text":"ok"}},{"type":"tool_call","data":{"id":"c2","name":"edit","input":"{\"file_path\":\"a.go\"}","finished":true}},{"type":"finish","data":{"reason":"canceled","time":1}}]`))
	f.Fuzz(func(t *testing.T, role string, parts []byte) {
		d, err := NewDecoder(FormatCrush, Options{})
		if err != nil {
			t.Fatal(err)
		}
		first := []byte(`[{"type":"tool_call","data":{"id":"c1","name":"bash","input":"{\"command\":\"go test\"}","finished":true}}]`)
		if _, err := crushMessage(d, "m1", "assistant", first, "gpt-5", unixTime(1764925200), d.storeRecord()); err != nil {
			t.Fatal(err)
		}
		_, _ = crushMessage(d, "m2", role, parts, "gpt-5", unixTime(1764925201), d.storeRecord())
		checkInvariants(t, d.Transcript())
	})
}

// FuzzCursorBubble feeds one bubble row of Cursor's state.vscdb to the
// Cursor store reader, after the person's first bubble.
func FuzzCursorBubble(f *testing.F) {
	f.Add([]byte(`{"bubbleId":"b2","type":2,"text":"Running it.","thinking":{"text":"hm"},"toolFormerData":{"toolCallId":"tc1","name":"run_terminal_cmd","status":"completed","rawArgs":"{\"command\":\"pytest\"}","result":"{\"output\":\"1 failed\",\"exitCode\":1}"},"tokenCount":{"inputTokens":12000,"outputTokens":90}}`))
	f.Add([]byte(`{"bubbleId":"b4","type":2,"text":"","toolFormerData":{"toolCallId":"tc3","name":"read_file","status":"error","rawArgs":"{\"target_file\":\"x.py\"}","result":"File not found"}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		d, err := NewDecoder(FormatCursorExport, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := cursorBubbleTo(d, []byte(`{"bubbleId":"b1","type":1,"text":"Fix the importer"}`), d.storeRecord()); err != nil {
			t.Fatal(err)
		}
		_ = cursorBubbleTo(d, raw, d.storeRecord())
		checkInvariants(t, d.Transcript())
	})
}

// FuzzOpenCodeStoredMessage feeds one message row of OpenCode's store
// (its info JSON and one part) to the OpenCode reader.
func FuzzOpenCodeStoredMessage(f *testing.F) {
	f.Add([]byte(`{"role":"assistant","modelID":"m","time":{"created":1}}`), []byte(`{"type":"tool","callID":"c1","tool":"bash","state":{"status":"error","input":{"command":"make"},"error":"exit 2"}}`))
	f.Add([]byte(`{"role":"user","time":{"created":1}}`), []byte(`{"type":"text","text":"build it"}`))
	f.Fuzz(func(t *testing.T, info, part []byte) {
		d, err := NewDecoder(FormatOpenCode, Options{})
		if err != nil {
			t.Fatal(err)
		}
		_ = ocStoredMessage(d, &ocReader{}, "msg_1", info, []json.RawMessage{part}, 1)
		checkInvariants(t, d.Transcript())
	})
}

// FuzzPiFastPath holds pi's one-walk reading of an entry, a message and
// a content array to what json.Unmarshal makes of them, wherever the
// fast path answers.
func FuzzPiFastPath(f *testing.F) {
	f.Add([]byte(`{"type":"message","id":"a1","parentId":"u1","timestamp":"2025-01-01T00:00:00Z","message":{"role":"assistant","content":[{"type":"text","text":"ok \u00e9\n"},{"type":"toolCall","id":"c1","name":"edit","arguments":{"path":"a.go","oldText":"x"}}],"usage":{"input":10,"output":2,"cacheRead":90},"stopReason":"error","errorMessage":"boom"}}`))
	f.Add([]byte(`{"type":"message","id":"r1","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"line\tone"}],"isError":true,"exitCode":null}}`))
	f.Add([]byte(`{"TYPE":"session","id":"s","cwd":"/w","type":null,"message":"x"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if !utf8.Valid(line) {
			return
		}
		if e, ok := piEntryFast(line); ok {
			var want piEntry
			if err := json.Unmarshal(line, &want); err != nil || !reflect.DeepEqual(e, want) {
				t.Fatalf("entry %+v, json %+v (%v)", e, want, err)
			}
			if m, ok := piMessageFast(e.Message); ok {
				var wantM piMessage
				if err := json.Unmarshal(e.Message, &wantM); err != nil || !reflect.DeepEqual(m, wantM) {
					t.Fatalf("message %+v, json %+v (%v)", m, wantM, err)
				}
				if b, ok := piBlocksFast(m.Content); ok {
					var wantB []piBlock
					if err := json.Unmarshal(m.Content, &wantB); err != nil || len(b) != len(wantB) || len(b) > 0 && !reflect.DeepEqual(b, wantB) {
						t.Fatalf("blocks %+v, json %+v (%v)", b, wantB, err)
					}
				}
			}
		}
	})
}

// FuzzDroidFastPath holds droid's one-walk reading of an entry line to
// what json.Unmarshal makes of it, wherever the fast path answers.
func FuzzDroidFastPath(f *testing.F) {
	f.Add([]byte(`{"type":"message","id":"a1","timestamp":"2025-01-01T00:00:01Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Execute","input":{"command":"make"}}]}}`))
	f.Add([]byte(`{"type":"session_start","id":"s","title":"t\u00e9","cwd":"/w","Cwd":"/x","extra":[1,{"a":null}]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if !utf8.Valid(line) {
			return
		}
		if e, ok := droidEntryFast(line); ok {
			var want droidEntry
			if err := json.Unmarshal(line, &want); err != nil || !reflect.DeepEqual(e, want) {
				t.Fatalf("entry %+v, json %+v (%v)", e, want, err)
			}
		}
	})
}
