// Package hooks is the agent-hook contract of handoff: it parses the JSON
// an agent writes on a hook's stdin, decides what handoff should do about
// it (Plan), renders the exact JSON the agent reads back from stdout, and
// builds or merges the settings block that installs the hooks. It is pure:
// no disk, no store, no compile. The CLI (`handoff hook claude`) wires the
// store and the compiler around it.
//
// # Claude Code
//
// The contract is Claude Code's hooks reference,
// https://docs.anthropic.com/en/docs/claude-code/hooks (now served at
// https://code.claude.com/docs/en/hooks):
//
//   - Every hook gets JSON on stdin with session_id, transcript_path, cwd,
//     permission_mode and hook_event_name, plus per event: PreCompact
//     {trigger: "manual"|"auto", custom_instructions}; SessionStart
//     {source: "startup"|"resume"|"clear"|"compact"}; Stop and SubagentStop
//     {stop_hook_active}; PostToolUse {tool_name, tool_input, tool_response};
//     UserPromptSubmit {prompt}.
//   - Exit code 0 is success, and JSON on stdout is read as the hook's
//     output. Exit code 2 is a blocking error whose stderr is fed to Claude
//     (for Stop it keeps Claude going); any other code is a non-blocking
//     error shown to the user. handoff never exits 2 (see ExitCode): a
//     failure of handoff must not steer the agent.
//   - SessionStart: {"hookSpecificOutput": {"hookEventName": "SessionStart",
//     "additionalContext": "..."}} adds the text to the new session's
//     context; matchers are the source values.
//   - Stop: {"decision": "block", "reason": "..."} prevents Claude from
//     stopping and reason tells it how to proceed; stop_hook_active is true
//     when Claude is already continuing because of a stop hook, and a hook
//     must check it so it does not keep Claude running forever.
//   - PostToolUse: {"decision": "block", "reason": ...} prompts Claude with
//     reason; hookSpecificOutput.additionalContext adds context for Claude
//     to consider. UserPromptSubmit takes the same additionalContext (added
//     next to the person's prompt); its "block" would erase the prompt, so
//     handoff never uses it there.
//   - Every event: "systemMessage" is a message shown to the user.
//   - PreCompact has no output that reaches the model; its matchers are
//     "manual" and "auto".
//
// # Codex CLI
//
// Codex CLI has hooks with the same wire shape (hooks.json next to its
// config layers, ~/.codex/hooks.json or <repo>/.codex/hooks.json, events
// SessionStart with source startup|resume|clear|compact, PreCompact with
// trigger manual|auto, Stop with stop_hook_active, PostToolUse, and the
// same hookSpecificOutput.additionalContext and decision/reason outputs);
// hooks run only with `[features] codex_hooks = true` in config.toml;
// see https://developers.openai.com/codex/hooks and the JSON schemas in
// openai/codex codex-rs/hooks/schema/generated. Its payloads add model
// and turn_id, and its transcript_path may be null. The same
// ParseClaudeInput, PlanClaude and ClaudeOutput serve it; CodexHooks and
// MergeCodexHooks install `handoff hook codex`. Older Codex releases have
// only `notify` (a program run with an agent-turn-complete JSON argument
// that carries no usage), which handoff does not use. Codex rollout files
// are read by the transcript package like any other format; a payload
// whose transcript_path is null leaves nothing to snapshot.
package hooks
