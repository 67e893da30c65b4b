package transcript

// The registry is the one list of formats: a format is added here, with
// its names, where its agent keeps sessions, how it is recognised and how
// it is decoded. Formats(), ParseFormat, NewDecoder and Detect all read
// it, in its order, which is also detection's priority.

// formatSpec is one format in the registry.
type formatSpec struct {
	info FormatInfo
	// agent is SessionInfo.Agent for every transcript of the format,
	// when the format belongs to one agent ("" when its decoder decides).
	agent string
	// newParser returns the per-format half of a Decoder.
	newParser func() formatParser
	// Detectors, each nil when the format is never recognised that way;
	// the first format (in registry order) whose detector says yes wins.
	// text sees input that does not start like JSON; line one complete
	// JSON object line of a JSONL file; doc a whole JSON document (or
	// its first 64 KiB) when no line decided.
	text func(b []byte) bool
	line func(l *jsonLine) bool
	doc  func(b []byte) bool
	// weakLine marks a line as maybe this format: taken only when no
	// line of the head decides.
	weakLine func(l *jsonLine) bool
	// store reads a session from the agent's session store (an SQLite
	// database or a directory), when the agent keeps one; it returns
	// errNotThisStore for a path that is not its store.
	store storeReader
	// find lists the sessions the agent recorded for a directory, for
	// `handoff latest`.
	find sessionFinder
}

// docFormat is a parser for a format read as one document.
func docFormat(name string, decode func(d *Decoder, doc []byte) error) func() formatParser {
	return func() formatParser { return &docParser{name: name, decode: decode} }
}

// registry lists every format, in detection order: the text formats by
// their markers, then the JSON formats from the most specific layout to
// the most generic (OpenAI Chat messages, plain text last).
func registry() []formatSpec {
	return []formatSpec{
		{
			info: FormatInfo{Name: FormatSpecStory, Agent: "SpecStory", Looks: "a SpecStory markdown export",
				Description: "SpecStory markdown export (Claude Code, Codex, Cursor, … sessions)",
				Example:     "./.specstory/history/<date>-<title>.md", Aliases: []string{"spec-story", "specstory-md"},
				Locations: []string{"<project>/.specstory/history/*.md"}},
			agent:     "specstory",
			newParser: lineFormat(newSpecReader),
			text:      specStoryRe.Match,
		},
		{
			info: FormatInfo{Name: FormatAider, Agent: "Aider", Looks: "an Aider chat history",
				Description: "Aider chat history markdown", Example: "./.aider.chat.history.md", Aliases: []string{"aider-md", "aider-chat"},
				Locations: []string{"<project>/.aider.chat.history.md"}},
			agent:     "aider",
			newParser: lineFormat(newAiderReader),
			text:      aiderRe.Match,
		},
		{
			info: FormatInfo{Name: FormatCopilotShare, Agent: "GitHub Copilot CLI", Looks: "a Copilot CLI /share markdown",
				Description: "GitHub Copilot CLI /share markdown (### 👤 User, ### 💬 Copilot, ### ✅ `tool` blocks)",
				Example:     "./copilot-session-<id>.md", Aliases: []string{"copilot-md", "copilot-share-md"}},
			newParser: newCopilotShare,
			text:      copilotShareRe.Match,
		},
		{
			info: FormatInfo{Name: FormatCursorExport, Agent: "Cursor", Looks: "a Cursor chat export",
				Description: "Cursor \"Export chat\" markdown (_Exported on … from Cursor (x.y.z)_, **User** / **Cursor** turns), or a chat in Cursor's state.vscdb (--session composerId, else the newest)",
				Example:     "./cursor_<title>.md", Aliases: []string{"cursor-md", "cursor-chat", "cursor"},
				Locations: []string{"~/.config/Cursor/User/globalStorage/state.vscdb", "~/Library/Application Support/Cursor/User/globalStorage/state.vscdb"}},
			newParser: newCursorExport,
			text:      cursorExportRe.Match,
			store:     readCursorStore,
		},
		{
			info: FormatInfo{Name: FormatClaudeConsole, Agent: "Claude Code", Looks: "a Claude Code terminal paste",
				Description: "Claude Code terminal paste (\"> \" prompts, ⏺ replies, ⎿ tool results)", Example: "./claude-session.txt",
				Aliases: []string{"claude-paste", "claude-terminal"}},
			newParser: docFormat("Claude Code terminal paste", decodeClaudeConsole),
			text: func(b []byte) bool {
				cc, gem := consoleMarks(b)
				return cc > 0 && cc >= gem
			},
		},
		{
			info: FormatInfo{Name: FormatGeminiConsole, Agent: "Gemini CLI", Looks: "a Gemini CLI terminal paste",
				Description: "Gemini CLI terminal paste (\"> \" prompts, ✦ replies, boxed tool runs)", Example: "./gemini-session.txt",
				Aliases: []string{"gemini-paste", "gemini-terminal"}},
			newParser: docFormat("Gemini CLI terminal paste", decodeGeminiConsole),
			text: func(b []byte) bool {
				cc, gem := consoleMarks(b)
				return gem > cc
			},
		},
		{
			info: FormatInfo{Name: FormatSWEAgent, Agent: "SWE-agent", Looks: "a SWE-agent trajectory",
				Description: "SWE-agent trajectory (.traj JSON, v0 and v1)", Example: "./trajectories/<user>/<run>/<instance>/<instance>.traj",
				Aliases: []string{"sweagent", "swe_agent", "traj"}},
			newParser: docFormat("SWE-agent trajectory", decodeSWEAgent),
			line:      func(l *jsonLine) bool { return l.has("trajectory") && l.has("history", "info") },
			doc:       sweTrajRe.Match,
		},
		{
			info: FormatInfo{Name: FormatOpenHands, Agent: "OpenHands", Looks: "an OpenHands trajectory",
				Description: "OpenHands trajectory: JSON array of action/observation events", Example: "./trajectory.json",
				Aliases: []string{"open-hands", "openhands-traj"}},
			newParser: docFormat("OpenHands trajectory", decodeOpenHands),
			doc:       func(b []byte) bool { return b[0] == '[' && openHandsRe.Match(b) && ohEventRe.Match(b) },
		},
		{
			info: FormatInfo{Name: FormatCline, Agent: "Cline", Looks: "a Cline task's ui_messages.json",
				Description: "Cline / Roo Code task messages (ui_messages.json: say/ask events)",
				Example:     "<vscode globalStorage>/saoudrizwan.claude-dev/tasks/<id>/ui_messages.json", Aliases: []string{"roo", "roo-code", "cline-ui"},
				Locations: []string{"~/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/<id>/ui_messages.json",
					"~/.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/<id>/ui_messages.json"}},
			newParser: docFormat("Cline task messages", decodeCline),
			doc:       func(b []byte) bool { return b[0] == '[' && clineTypeRe.Match(b) && clineTSRe.Match(b) },
		},
		{
			info: FormatInfo{Name: FormatVSCodeChatLog, Agent: "VS Code Copilot Chat", Looks: "a VS Code chat session log",
				Description: "VS Code (GitHub Copilot Chat) chat session mutation log JSONL (kind 0 state, then set/push/delete entries)",
				Example:     "~/.config/Code/User/workspaceStorage/<hash>/chatSessions/<id>.jsonl", Aliases: []string{"vscode-jsonl", "vscode-chat-log", "copilot-chat-jsonl"},
				Locations: []string{"~/.config/Code/User/workspaceStorage/<hash>/chatSessions/*.jsonl", "~/Library/Application Support/Code/User/workspaceStorage/<hash>/chatSessions/*.jsonl", "~/.config/Code/User/globalStorage/emptyWindowChatSessions/*.jsonl"}},
			agent:     "vscode-copilot-chat",
			newParser: newVSCodeLog,
			line:      vscodeLogLine,
			doc:       vscodeLogDoc,
			find:      findVSCodeChatLog,
		},
		{
			info: FormatInfo{Name: FormatZed, Agent: "Zed", Looks: "a Zed agent thread",
				Description: "Zed agent panel thread: threads.db (zstd-compressed JSON threads; --session ID, else the newest) or one thread's JSON",
				Example:     "~/.local/share/zed/threads/threads.db", Aliases: []string{"zed-thread", "zed-agent", "zed-threads"},
				Locations: []string{"~/.local/share/zed/threads/threads.db", "~/Library/Application Support/Zed/threads/threads.db"}},
			agent:     "zed",
			newParser: newZedParser,
			doc:       zedDoc,
			store:     readZedStore,
			find:      findZed,
		},
		{
			info: FormatInfo{Name: FormatAmp, Agent: "Amp", Looks: "an Amp thread",
				Description: "Amp thread JSON ({id: T-…, env, messages with text, thinking, tool_use and tool_result {toolUseID, run}})",
				Example:     "~/.local/share/amp/threads/T-<uuid>.json", Aliases: []string{"ampcode", "amp-thread", "sourcegraph-amp"},
				Locations: []string{"~/.local/share/amp/threads/T-*.json"}},
			agent:     "amp",
			newParser: newAmpParser,
			doc:       ampDoc,
			find:      findAmp,
		},
		{
			info: FormatInfo{Name: FormatVSCodeChat, Agent: "VS Code Copilot Chat", Looks: "a VS Code chat session",
				Description: "VS Code (GitHub Copilot Chat) chat session JSON (requests with markdown, thinking, tool invocations, text edits)",
				Example:     "~/.config/Code/User/workspaceStorage/<hash>/chatSessions/<id>.json", Aliases: []string{"vscode", "vscode-copilot", "copilot-chat"},
				Locations: []string{"~/.config/Code/User/workspaceStorage/<hash>/chatSessions/*.json", "~/Library/Application Support/Code/User/workspaceStorage/<hash>/chatSessions/*.json"}},
			agent:     "vscode-copilot-chat",
			newParser: newVSCodeChat,
			doc:       vscodeDoc,
			find:      findVSCodeChat,
		},
		{
			info: FormatInfo{Name: FormatContinue, Agent: "Continue", Looks: "a Continue session",
				Description: "Continue session JSON ({sessionId, workspaceDirectory, history: [{message}]})",
				Example:     continueLocation, Aliases: []string{"continuedev", "continue-dev"},
				Locations: []string{continueLocation}},
			agent:     "continue",
			newParser: newContinue,
			doc:       continueDoc,
		},
		{
			info: FormatInfo{Name: FormatGemini, Agent: "Gemini CLI", Looks: "a Gemini CLI chat",
				Description: "Gemini CLI chat JSON / JSONL, or a /chat save checkpoint", Example: "~/.gemini/tmp/<project-hash>/chats/session-<time>.json",
				Aliases: []string{"gemini", "gemini_cli", "geminicli"}, Locations: []string{"~/.gemini/tmp/<sha256 of the directory>/chats/session-*.json{,l}"}},
			agent:     "gemini-cli",
			newParser: func() formatParser { return newGeminiParser() },
			line:      geminiLine,
			doc:       geminiDoc,
		},
		{
			info: FormatInfo{Name: FormatAntigravity, Agent: "Google Antigravity", Looks: "an Antigravity CLI transcript",
				Description: "Google Antigravity CLI transcript.jsonl (one step a line: USER_INPUT, PLANNER_RESPONSE with tool_calls, tool steps, CHECKPOINT); the IDE's conversations/*.pb are encrypted and not read",
				Example:     "~/.gemini/antigravity-cli/brain/<id>/.system_generated/logs/transcript.jsonl", Aliases: []string{"antigravity-cli", "google-antigravity", "agy"},
				Locations: []string{"~/.gemini/antigravity-cli/brain/<id>/.system_generated/logs/transcript.jsonl"}},
			agent:     "antigravity",
			newParser: newAntigravityParser,
			line:      antigravityLine,
			find:      findAntigravity,
		},
		{
			info: FormatInfo{Name: FormatQwen, Agent: "Qwen Code", Looks: "a Qwen Code session",
				Description: "Qwen Code session JSONL (uuid-linked records with Gemini API contents, tool_result and system records)",
				Example:     "~/.qwen/projects/<dir>/chats/<session-id>.jsonl", Aliases: []string{"qwen", "qwencode", "qwen_code"},
				Locations: []string{"~/.qwen/projects/<directory with non-alphanumerics as ->/chats/*.jsonl"}},
			agent:     "qwen-code",
			newParser: newQwenParser,
			line:      qwenLine,
			find:      findQwen,
		},
		{
			info: FormatInfo{Name: FormatClaudeStream, Agent: "Claude Code", Looks: "a Claude Code print-mode stream",
				Description: "Claude Code print-mode stream (claude -p --output-format stream-json)", Example: "./claude-stream.jsonl",
				Aliases: []string{"stream-json", "claude-stream"}},
			agent:     "claude-code",
			newParser: func() formatParser { return newClaudeParser() },
			line: func(l *jsonLine) bool {
				return l.has("session_id") && !l.has("sessionId") &&
					(l.typ == "system" && l.subtype == "init" || l.typ == "result" || (claudeTypes[l.typ] && l.has("parent_tool_use_id")))
			},
		},
		{
			info: FormatInfo{Name: FormatClaudeCode, Agent: "Claude Code", Looks: "a Claude Code session",
				Description: "Claude Code session JSONL (one JSON event per line)", Example: "~/.claude/projects/<project>/<session-id>.jsonl",
				Aliases: []string{"claude", "claudecode", "claude_code", "cc"}, Locations: []string{"~/.claude/projects/<directory with / and . as ->/*.jsonl"}},
			agent:     "claude-code",
			newParser: func() formatParser { return newClaudeParser() },
			line: func(l *jsonLine) bool {
				return l.has("sessionId") && l.has("uuid", "parentUuid", "leafUuid", "messageId") || claudeTypes[l.typ]
			},
			doc: claudeDoc,
		},
		{
			info: FormatInfo{Name: FormatCodex, Agent: "Codex CLI", Looks: "a Codex CLI rollout",
				Description: "OpenAI Codex CLI rollout JSONL (session_meta, response_item, event_msg, compacted)",
				Example:     "~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl", Aliases: []string{"codex-cli", "codex_cli", "rollout"},
				Locations: []string{"~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl"}},
			agent:     "codex",
			newParser: func() formatParser { return newCodexParser() },
			line: func(l *jsonLine) bool {
				hasPayload := l.has("payload")
				return hasPayload && codexTypes[l.typ] ||
					// an envelope-less (≤ 0.2x) rollout: bare response items
					!hasPayload && codexItemTypes[l.typ] && l.has("role", "call_id", "summary")
			},
			doc: codexDoc,
		},
		{
			info: FormatInfo{Name: FormatCodexExec, Agent: "Codex CLI", Looks: "codex exec --json events",
				Description: "OpenAI Codex CLI non-interactive events (codex exec --json)", Example: "./codex-exec.jsonl",
				Aliases: []string{"codex-exec", "codex-json"}},
			agent:     "codex",
			newParser: func() formatParser { return &codexExecParser{} },
			line: func(l *jsonLine) bool {
				return !l.has("payload") && (l.typ == "thread.started" || l.typ == "turn.started" || len(l.typ) > 5 && l.typ[:5] == "item." && l.has("item"))
			},
		},
		{
			info: FormatInfo{Name: FormatOpenCode, Agent: "OpenCode", Looks: "an OpenCode export",
				Description: "OpenCode session: `opencode export` JSON, its storage/ directory, or the opencode.db SQLite store (--session ID, else the newest)",
				Example:     "~/.local/share/opencode/opencode.db", Aliases: []string{"opencode-export", "open-code", "sst-opencode"},
				Locations: []string{"~/.local/share/opencode/opencode.db", "~/.local/share/opencode/storage/{session,message,part}/"}},
			agent:     "opencode",
			newParser: newOpenCodeExport,
			doc:       openCodeDoc,
			store:     readOpenCodeStore,
			find:      findOpenCode,
		},
		{
			info: FormatInfo{Name: FormatCopilotCLI, Agent: "GitHub Copilot CLI", Looks: "a GitHub Copilot CLI events.jsonl",
				Description: "GitHub Copilot CLI session events (session.start, user.message, assistant.message, tool.execution_complete, …)",
				Example:     "~/.copilot/session-state/<session-id>/events.jsonl", Aliases: []string{"copilot", "copilot-cli-events", "github-copilot-cli"},
				Locations: []string{"~/.copilot/session-state/<session-id>/events.jsonl"}},
			agent:     "copilot-cli",
			newParser: newCopilotParser,
			line:      copilotLine,
			find:      findCopilot,
		},
		{
			info: FormatInfo{Name: FormatDroid, Agent: "Factory droid", Looks: "a Factory droid session",
				Description: "Factory droid session JSONL (session_start, then messages with Anthropic content blocks)",
				Example:     "~/.factory/sessions/<dir>/<uuid>.jsonl", Aliases: []string{"factory", "factory-droid"},
				Locations: []string{"~/.factory/sessions/<directory with / as ->/*.jsonl"}},
			agent:     "droid",
			newParser: newDroidParser,
			line:      droidLine,
			find:      findDroid,
		},
		{
			info: FormatInfo{Name: FormatPi, Agent: "pi", Looks: "a pi coding agent session",
				Description: "pi coding agent session JSONL (session header, message entries with toolCall blocks and toolResult messages, compaction)",
				Example:     "~/.pi/agent/sessions/--<dir>--/<time>_<uuid>.jsonl", Aliases: []string{"pi-agent", "pi-coding-agent"},
				Locations: []string{"~/.pi/agent/sessions/--<directory with / as ->--/*.jsonl"}},
			agent:     "pi",
			newParser: func() formatParser { return piParser{} },
			line:      piLine,
			find:      findPi,
		},
		{
			info: FormatInfo{Name: FormatGoose, Agent: "Goose", Looks: "a Goose session",
				Description: "Goose session: sessions.db (--session ID, else the newest) or a session JSONL (metadata line, then messages with text, toolRequest and toolResponse content)",
				Example:     "~/.local/share/goose/sessions/<id>.jsonl", Aliases: []string{"block-goose", "goose-jsonl"},
				Locations: []string{"~/.local/share/goose/sessions/sessions.db", "~/.local/share/goose/sessions/*.jsonl"}},
			agent:     "goose",
			newParser: newGooseParser,
			line:      gooseLine,
			store:     readGooseStore,
			find:      findGooseAll,
		},
		{
			info: FormatInfo{Name: FormatKimi, Agent: "Kimi CLI", Looks: "a Kimi CLI context.jsonl",
				Description: "Kimi CLI context.jsonl (OpenAI-style messages with _checkpoint and _usage lines)",
				Example:     "~/.kimi/sessions/<md5 of dir>/<session-id>/context.jsonl", Aliases: []string{"kimi", "kimi-code", "moonshot-kimi"},
				Locations: []string{"~/.kimi/sessions/<md5 of the directory>/<session-id>/context.jsonl"}},
			agent:     "kimi-cli",
			newParser: newKimiParser,
			line:      kimiLine,
			find:      findKimi,
		},
		{
			info: FormatInfo{Name: FormatCrush, Agent: "Crush", Looks: "a Crush database",
				Description: "Crush sessions in its SQLite store (sessions, messages with typed parts; --session ID, else the newest)",
				Example:     "<project>/.crush/crush.db", Aliases: []string{"charm-crush", "crush-db"},
				Locations: []string{"<project>/.crush/crush.db"}},
			agent:     "crush",
			newParser: newCrushParser,
			store:     readCrushStore,
			find:      findCrush,
		},
		{
			info: FormatInfo{Name: FormatAnthropic, Looks: "an Anthropic Messages request",
				Description: "Anthropic Messages API request ({system, messages} with content blocks)", Example: "./request.json",
				Aliases: []string{"anthropic", "anthropic-request", "messages-api"}},
			newParser: docFormat("Anthropic Messages request", decodeAnthropic),
			doc:       func(b []byte) bool { return b[0] == '{' && messagesKeyRe.Match(b) && anthropicKeyRe.Match(b) },
		},
		{
			info: FormatInfo{Name: FormatOpenAIResponses, Looks: "OpenAI Responses input items",
				Description: "OpenAI Responses API input items ({input: [...]} or an array of items)", Example: "./responses-input.json",
				Aliases: []string{"responses", "openai-responses-input"}},
			newParser: docFormat("OpenAI Responses input", decodeResponses),
			doc: func(b []byte) bool {
				return b[0] == '{' && responsesKeyRe.Match(b) && !messagesKeyRe.Match(b) || responsesArray(b)
			},
		},
		{
			info: FormatInfo{Name: FormatOpenAIChat, Looks: "OpenAI Chat Completions messages",
				Description: "OpenAI Chat Completions messages: JSON array, {\"messages\":[...]}, or JSONL of messages", Example: "./conversation.json",
				Aliases: []string{"openai", "openai_chat", "chat", "chatgpt"}},
			newParser: func() formatParser { return &openaiParser{toolNames: map[string]string{}} },
			doc:       func(b []byte) bool { return bytesContains(b, `"role"`) },
			weakLine:  func(l *jsonLine) bool { return l.has("role", "messages") },
		},
		{
			info: FormatInfo{Name: FormatPlain, Looks: "plain text",
				Description: "Plain text: one user message, or \"User:\"/\"Assistant:\" turns", Example: "./notes.txt", Aliases: []string{"text", "txt"}},
			newParser: func() formatParser { return &plainParser{} },
			text:      func([]byte) bool { return true },
		},
	}
}

// lookup returns the registry entry of a format.
func lookup(f Format) (formatSpec, bool) {
	for _, s := range registry() {
		if s.info.Name == f {
			return s, true
		}
	}
	return formatSpec{}, false
}

// storeOnly reports a format read only from its agent's store, with no
// file or stream of its own.
func storeOnly(s formatSpec) bool {
	return s.store != nil && s.text == nil && s.line == nil && s.doc == nil
}
