package handoff

import (
	"encoding/json"
	"time"
)

// Role says who produced a message. Transcripts use many spellings
// ("human", "model", "gemini", "developer"); parsers normalise them to these.
type Role string

// The normalised roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleSystem    Role = "system"
	// RoleTool marks a message that carries only tool results (OpenAI "tool"
	// role messages; Claude Code user lines that hold tool_result blocks).
	RoleTool Role = "tool"
)

// Message is one turn of an agent transcript in a format-neutral shape.
//
// A parser fills what its format has and leaves the rest zero. Text that the
// agent "thought" is kept in Thinking, apart from what it said, so extraction
// can weigh the two differently and the resume prompt never quotes private
// reasoning as if it had been said.
type Message struct {
	// Index is the message's position in the parsed transcript (0-based).
	// Decisions and errors point back to it through MessageRef.
	Index int `json:"index"`
	// ID is the source's own identifier (Claude Code uuid, API message id),
	// when it has one.
	ID   string `json:"id,omitempty"`
	Role Role   `json:"role"`
	// Text is the visible text of the message, blocks joined by newlines.
	Text string `json:"text,omitempty"`
	// Thinking is reasoning the model produced but did not say.
	Thinking    string       `json:"thinking,omitempty"`
	ToolCalls   []ToolCall   `json:"tool_calls,omitempty"`
	ToolResults []ToolResult `json:"tool_results,omitempty"`
	Timestamp   time.Time    `json:"timestamp,omitzero"`
	// Model that produced an assistant message, as the transcript names it.
	Model string `json:"model,omitempty"`
	// Usage is what the provider reported for the request that produced
	// this message, when the transcript records it.
	Usage *ProviderUsage `json:"usage,omitempty"`
	// Sidechain marks subagent traffic (Claude Code isSidechain / agentId):
	// it is kept, but it is not the main thread's context.
	Sidechain bool `json:"sidechain,omitempty"`
	// CompactSummary marks the summary an agent's own compaction wrote; its
	// text carries forward the history that came before it.
	CompactSummary bool `json:"compact_summary,omitempty"`
	// Meta marks text the harness injected (skill bodies, environment
	// context, slash-command expansions): not a request from a person.
	Meta bool `json:"meta,omitempty"`
	// Interrupt marks the harness's record that the person stopped the
	// assistant's turn (Claude Code "[Request interrupted by user]",
	// Codex turn_aborted, Gemini CLI "Request cancelled."); such a
	// message is Meta too.
	Interrupt bool `json:"interrupt,omitempty"`
	// Line is the 1-based source line (JSONL) or record number the message
	// came from, for error messages and `handoff parse`.
	Line int `json:"line,omitempty"`
}

// Ref returns a reference to the message for records extracted from it.
func (m Message) Ref() MessageRef {
	return MessageRef{Index: m.Index, ID: m.ID}
}

// ToolCall is a request by the assistant to run a tool.
type ToolCall struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	// Input is the tool's arguments as JSON (an object for most tools; a
	// JSON string for tools whose input is free text, like apply_patch).
	Input json.RawMessage `json:"input,omitempty"`
}

// ToolResult is what a tool returned.
type ToolResult struct {
	// CallID pairs the result with its ToolCall.ID.
	CallID string `json:"call_id,omitempty"`
	// Name of the tool, when the format records it on the result or the
	// parser could pair it with its call.
	Name    string `json:"name,omitempty"`
	Content string `json:"content,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
	// ExitCode is the process exit code when the format reports one.
	ExitCode *int `json:"exit_code,omitempty"`
	// OriginalBytes is the size of the content before the parser cut it
	// down to keep memory bounded; zero when nothing was cut.
	OriginalBytes int `json:"original_bytes,omitempty"`
}

// Failed reports whether the tool run failed: flagged as an error or exited
// non-zero.
func (r ToolResult) Failed() bool {
	return r.IsError || (r.ExitCode != nil && *r.ExitCode != 0)
}

// ProviderUsage is token usage as the model provider reported it for one
// request. The context in use for that request is InputTokens plus both
// cache figures (Anthropic reports cached prompt tokens apart from
// input_tokens; OpenAI includes them, and parsers normalise to that split).
type ProviderUsage struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens,omitempty"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens,omitempty"`
	OutputTokens             int `json:"output_tokens"`
	// ContextWindow is the window the provider or agent reported alongside
	// the usage (Codex token_count.model_context_window), zero if none.
	ContextWindow int `json:"context_window,omitempty"`
}

// ContextTokens is the prompt size of the request: what was in the context.
func (u ProviderUsage) ContextTokens() int {
	return u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// Transcript is a parsed session: its messages plus what the format says
// about the session as a whole.
type Transcript struct {
	Session  SessionInfo `json:"session"`
	Messages []Message   `json:"messages"`
	// Warnings lists records the parser skipped or repaired, in order.
	Warnings []ParseWarning `json:"warnings,omitempty"`
}

// SessionInfo is metadata about the session a transcript records.
type SessionInfo struct {
	// ID is the agent's session id, when the format has one.
	ID string `json:"id,omitempty"`
	// Format is the detected or forced transcript format name.
	Format string `json:"format"`
	// Source is the file path, or "-" for standard input.
	Source    string    `json:"source,omitempty"`
	CWD       string    `json:"cwd,omitempty"`
	GitBranch string    `json:"git_branch,omitempty"`
	Model     string    `json:"model,omitempty"`
	Agent     string    `json:"agent,omitempty"`
	Version   string    `json:"version,omitempty"`
	StartedAt time.Time `json:"started_at,omitzero"`
	EndedAt   time.Time `json:"ended_at,omitzero"`
	// ContextWindow is the window the agent itself reported, if any.
	ContextWindow int `json:"context_window,omitempty"`
	// EndSignal is the format's own record of how the session ended, when
	// it has one: "submitted" (SWE-agent submit), "finished" (OpenHands
	// finish), "awaiting user input", "user exited" (/exit), "turn aborted"
	// (Codex turn_aborted, an interrupted request).
	EndSignal string `json:"end_signal,omitempty"`
	// Title is the session's name: the one the person gave it (Claude
	// Code custom-title, /rename) over the one the agent made up
	// (ai-title).
	Title string `json:"title,omitempty"`
	// Worktree is the git worktree the session last moved into (Claude
	// Code worktree-state), and WorktreeBranch its branch: the work is
	// there, and a successor started in the original directory would look
	// at another tree.
	Worktree       string `json:"worktree,omitempty"`
	WorktreeBranch string `json:"worktree_branch,omitempty"`
	// PullRequests are the pull requests the session opened (Claude Code
	// pr-link), each its URL, or "owner/repo#N" when it has none.
	PullRequests []string `json:"pull_requests,omitempty"`
	// Subagent describes the task a subagent rollout was spawned with,
	// when the transcript is a subagent's own (Codex forked child): the
	// parent's replayed history is then marked Sidechain.
	Subagent string `json:"subagent,omitempty"`
}

// ParseWarning records one record a parser could not use.
type ParseWarning struct {
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// MainThread returns the messages that are not subagent side traffic.
func (t *Transcript) MainThread() []Message {
	out := make([]Message, 0, len(t.Messages))
	for _, m := range t.Messages {
		if !m.Sidechain {
			out = append(out, m)
		}
	}
	return out
}
