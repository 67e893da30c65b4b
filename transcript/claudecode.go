package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Claude Code session JSONL.
//
// Representation choices (the extractor and capacity packages rely on them):
//
//   - One API response is written as several assistant lines sharing
//     message.id, one content block each. They become ONE assistant
//     Message (ID = message.id, Line = its first line) with text, thinking
//     and tool_use blocks concatenated in order; Usage and Model come from
//     the last line of that id.
//   - A user line's tool_result blocks become one RoleTool Message holding
//     ToolResults, with CallID = tool_use_id and Name resolved from the
//     matching tool_use. Any text blocks on the same line follow as a
//     separate RoleUser Message with the same Line.
//   - Lines with isMeta:true, and user text that is only harness text
//     (see userWords: <command-name> without arguments,
//     <local-command-stdout>, <system-reminder>, the "Caveat: The messages
//     below were generated…" notice, "[Request interrupted by user]"), get
//     Meta=true. Text that mixes a wrapper with a real request keeps the
//     request with the wrapper stripped; a slash command with arguments
//     reads "/name args".
//   - The compaction summary (isCompactSummary, the user line following a
//     compact_boundary, or text starting "This session is being continued
//     from a previous conversation") is a RoleUser Message with
//     CompactSummary=true.
//   - System lines with text content ("Claude Opus 4 limit reached…") are
//     RoleSystem Messages with Meta=true; other system subtypes, and every
//     other non-message type (summary, file-history-snapshot, progress, …),
//     are skipped silently.
//   - Four metadata types are session facts: custom-title (else ai-title)
//     is Session.Title, each pr-link adds to Session.PullRequests, and the
//     last worktree-state sets Session.Worktree and WorktreeBranch (empty
//     when the session left its worktree).
//   - isSidechain:true or an agentId marks Sidechain.

// ccLine is the envelope of one Claude Code JSONL line; only the fields
// this package uses.
type ccLine struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	UUID             string          `json:"uuid"`
	SessionID        string          `json:"sessionId"`
	SessionIDSnake   string          `json:"session_id"`
	CWD              string          `json:"cwd"`
	GitBranch        string          `json:"gitBranch"`
	Version          string          `json:"version"`
	Timestamp        json.RawMessage `json:"timestamp"`
	IsSidechain      json.RawMessage `json:"isSidechain"`
	IsMeta           json.RawMessage `json:"isMeta"`
	IsCompactSummary json.RawMessage `json:"isCompactSummary"`
	AgentID          string          `json:"agentId"`
	ParentToolUseID  json.RawMessage `json:"parent_tool_use_id"`
	Model            string          `json:"model"`
	Message          *ccMessage      `json:"message"`
	Content          json.RawMessage `json:"content"`
	ToolUseResult    ccToolUseResult `json:"toolUseResult"`
}

// ccMessage is the Anthropic Messages API object inside a line.
type ccMessage struct {
	ID      string    `json:"id"`
	Role    string    `json:"role"`
	Model   string    `json:"model"`
	Content ccContent `json:"content"`
	Usage   *ccUsage  `json:"usage"`
}

type ccUsage struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	OutputTokens             int `json:"output_tokens"`
}

// ccBlock is one content block of any type.
type ccBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	// Content is resolved (and clipped) by Decoder.toolText while the
	// line is still current.
	Content rawJSON         `json:"content"`
	IsError json.RawMessage `json:"is_error"`
}

// claudeParser holds the state that spans lines.
type claudeParser struct {
	// byResponse maps an assistant message.id to its Message index, to
	// merge the lines of one response.
	byResponse map[string]int
	// toolNames maps a tool_use id to the tool's name, to name results.
	toolNames map[string]string
	// afterBoundary: the last message-bearing line was a compact_boundary,
	// so the next user text is the compaction summary.
	afterBoundary bool
	// mainModel is the model of the latest main-thread response.
	mainModel, anyModel string
	// titled: the person named the session; the agent's title no longer
	// replaces theirs.
	titled bool
	// queued holds what the person typed while the agent was working
	// (queue-operation enqueue) and the harness has not delivered yet.
	queued []handoff.Message
}

func newClaudeParser() *claudeParser {
	return &claudeParser{byResponse: map[string]int{}, toolNames: map[string]string{}}
}

// pending returns the person's queued messages: typed while the agent
// worked and not yet delivered, they are the newest thing the person said.
func (p *claudeParser) pending() []handoff.Message { return slices.Clone(p.queued) }

func (p *claudeParser) finish(d *Decoder) error {
	for _, m := range p.queued {
		d.add(m)
	}
	p.queued = nil
	if p.mainModel != "" {
		d.t.Session.Model = p.mainModel
	} else {
		d.t.Session.Model = p.anyModel
	}
	return nil
}

func (p *claudeParser) record(d *Decoder, line []byte, lineNo int) error {
	if isBlank(line) {
		return nil
	}
	var l ccLine
	if err := decodeCCLine(line, &l); err != nil {
		return fmt.Errorf("malformed JSON: %w", jsonReason(err))
	}
	switch l.Type {
	case "user", "assistant", "system":
	case "custom-title", "ai-title", "pr-link", "worktree-state":
		p.metadata(d, l.Type, line)
		return nil
	case "queue-operation":
		p.queue(line, lineNo)
		return nil
	default:
		return nil // other metadata and unknown entry types carry no turns
	}
	p.session(d, &l)
	sidechain := flag(l.IsSidechain) || l.AgentID != "" || stringValue(l.ParentToolUseID) != ""
	ts := parseTime(stringValue(l.Timestamp))
	d.seeTime(ts)
	base := handoff.Message{ID: l.UUID, Timestamp: ts, Sidechain: sidechain, Meta: flag(l.IsMeta), Line: lineNo}

	if l.Type == "system" {
		if l.Subtype == "compact_boundary" {
			p.afterBoundary = true
			return nil
		}
		if text := strings.TrimSpace(stringValue(l.Content)); text != "" {
			base.Role = handoff.RoleSystem
			base.Text = text
			base.Meta = true
			d.add(base)
		}
		return nil
	}

	if l.Message == nil {
		return errors.New(l.Type + " line has no message")
	}
	if l.Type == "assistant" {
		p.assistant(d, base, l.Message, l.Message.Content)
		return nil
	}
	return p.user(d, base, &l, l.Message.Content)
}

// ccMeta is the payload of the metadata lines handoff reads: the
// session's title, a pull request it opened, the worktree it moved into.
type ccMeta struct {
	CustomTitle  string `json:"customTitle"`
	AITitle      string `json:"aiTitle"`
	PRNumber     int    `json:"prNumber"`
	PRURL        string `json:"prUrl"`
	PRRepository string `json:"prRepository"`
	// WorktreeSession is null when the session left its worktree.
	WorktreeSession *struct {
		WorktreePath   string `json:"worktreePath"`
		WorktreeBranch string `json:"worktreeBranch"`
	} `json:"worktreeSession"`
}

// metadata records what a title, pull request or worktree line says. A
// line that does not decode is skipped like any other metadata: it holds
// no turn to lose.
func (p *claudeParser) metadata(d *Decoder, typ string, line []byte) {
	var m ccMeta
	if json.Unmarshal(line, &m) != nil {
		return
	}
	s := &d.t.Session
	switch typ {
	case "custom-title":
		if t := strings.TrimSpace(m.CustomTitle); t != "" {
			s.Title, p.titled = t, true
		}
	case "ai-title":
		if t := strings.TrimSpace(m.AITitle); t != "" && !p.titled {
			s.Title = t
		}
	case "pr-link":
		pr := strings.TrimSpace(m.PRURL)
		if pr == "" && m.PRRepository != "" && m.PRNumber > 0 {
			pr = fmt.Sprintf("%s#%d", m.PRRepository, m.PRNumber)
		}
		if pr != "" && !slices.Contains(s.PullRequests, pr) {
			s.PullRequests = append(s.PullRequests, pr)
		}
	case "worktree-state":
		s.Worktree, s.WorktreeBranch = "", ""
		if w := m.WorktreeSession; w != nil {
			s.Worktree, s.WorktreeBranch = strings.TrimSpace(w.WorktreePath), strings.TrimSpace(w.WorktreeBranch)
		}
	}
}

// ccQueue is a queue-operation line: Claude Code 2.x records a message the
// person typed while the agent was working as "enqueue", and its delivery
// (or the person taking it back) as "dequeue", "remove" or "popAll".
type ccQueue struct {
	Operation string          `json:"operation"`
	Content   json.RawMessage `json:"content"`
	Timestamp string          `json:"timestamp"`
}

// queue keeps the person's queued messages until the harness delivers them
// (a delivered message arrives as an ordinary user line). One still queued
// when the transcript ends is what the person said last: their complaint
// at a cut would otherwise be lost. A line that does not decode is
// skipped, as metadata is.
func (p *claudeParser) queue(line []byte, lineNo int) {
	var q ccQueue
	if json.Unmarshal(line, &q) != nil {
		return
	}
	switch q.Operation {
	case "enqueue":
		text := queuedText(q.Content)
		// A bare word with no space is the harness's own token (the
		// "tool_result" placeholder), not something a person typed.
		if text == "" || !strings.ContainsAny(text, " \n") {
			return
		}
		ts := parseTime(q.Timestamp)
		p.queued = append(p.queued, handoff.Message{Role: handoff.RoleUser, Text: text, Timestamp: ts, Line: lineNo})
	case "dequeue":
		if len(p.queued) > 0 {
			p.queued = p.queued[1:]
		}
	case "remove":
		text := queuedText(q.Content)
		if i := slices.IndexFunc(p.queued, func(m handoff.Message) bool { return text == "" || m.Text == text }); i >= 0 {
			p.queued = slices.Delete(p.queued, i, i+1)
		}
	case "popAll":
		p.queued = nil
	}
}

// queuedText is a queued message's text: a string, or the text blocks of a
// content array.
func queuedText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
			parts = append(parts, strings.TrimSpace(b.Text))
		}
	}
	return strings.Join(parts, "\n")
}

// session records the session metadata a line carries.
func (p *claudeParser) session(d *Decoder, l *ccLine) {
	s := &d.t.Session
	if s.ID == "" {
		s.ID = l.SessionID
		if s.ID == "" {
			s.ID = l.SessionIDSnake
		}
	}
	if s.CWD == "" {
		s.CWD = l.CWD
	}
	if l.GitBranch != "" {
		s.GitBranch = l.GitBranch
	}
	if l.Version != "" {
		s.Version = l.Version
	}
	if l.Subtype == "init" && l.Model != "" && p.mainModel == "" {
		p.mainModel = l.Model // stream-json's init line names the model
	}
}

func (p *claudeParser) assistant(d *Decoder, base handoff.Message, msg *ccMessage, blocks ccContent) {
	var text, thinking string
	var calls []handoff.ToolCall
	for _, b := range blocks {
		switch b.Type {
		case "text":
			text = joinText(text, b.Text)
		case "thinking":
			thinking = joinText(thinking, b.Thinking)
		case "redacted_thinking":
		case "tool_use", "server_tool_use":
			calls = append(calls, handoff.ToolCall{ID: b.ID, Name: b.Name, Input: b.Input})
			if b.ID != "" {
				p.toolNames[b.ID] = b.Name
			}
		}
	}
	var usage *handoff.ProviderUsage
	if msg.Usage != nil {
		usage = &handoff.ProviderUsage{
			InputTokens:              msg.Usage.InputTokens,
			CacheCreationInputTokens: msg.Usage.CacheCreationInputTokens,
			CacheReadInputTokens:     msg.Usage.CacheReadInputTokens,
			OutputTokens:             msg.Usage.OutputTokens,
		}
	}
	model := msg.Model
	if model != "" && !strings.HasPrefix(model, "<") { // "<synthetic>" marks harness-made replies
		p.anyModel = model
		if !base.Sidechain {
			p.mainModel = model
		}
	}
	if msg.ID != "" {
		if i, ok := p.byResponse[msg.ID]; ok {
			m := &d.t.Messages[i]
			m.Text = joinText(m.Text, text)
			m.Thinking = joinText(m.Thinking, thinking)
			m.ToolCalls = append(m.ToolCalls, calls...)
			if usage != nil {
				m.Usage = usage
			}
			if model != "" {
				m.Model = model
			}
			return
		}
		base.ID = msg.ID
	}
	base.Role = handoff.RoleAssistant
	base.Text, base.Thinking, base.ToolCalls = text, thinking, calls
	base.Usage, base.Model = usage, model
	base.Meta = false
	i := d.add(base)
	if msg.ID != "" {
		p.byResponse[msg.ID] = i
	}
	p.afterBoundary = false
}

func (p *claudeParser) user(d *Decoder, base handoff.Message, l *ccLine, blocks ccContent) error {
	var text string
	var results []handoff.ToolResult
	for _, b := range blocks {
		switch b.Type {
		case "text":
			text = joinText(text, b.Text)
		case "image":
			text = joinText(text, "[image]")
		case "document":
			text = joinText(text, "[document]")
		case "tool_result":
			r := handoff.ToolResult{CallID: b.ToolUseID, Name: p.toolNames[b.ToolUseID], IsError: flag(b.IsError)}
			var err error
			if r.Content, r.OriginalBytes, err = d.toolText(b.Content); err != nil {
				return fmt.Errorf("tool_result %s: %w", b.ToolUseID, err)
			}
			results = append(results, r)
		}
	}
	if len(results) == 1 {
		l.ToolUseResult.apply(&results[0])
	}
	for i := range results {
		if results[i].ExitCode == nil {
			results[i].ExitCode = exitCodeFromText(results[i].Content)
		}
	}
	if len(results) > 0 {
		m := base
		m.Role = handoff.RoleTool
		m.ToolResults = results
		m.Meta = false
		d.add(m)
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	m := base
	m.Role = handoff.RoleUser
	m.Text = text
	if flag(l.IsCompactSummary) || strings.HasPrefix(text, compactPrefix) || (p.afterBoundary && len(results) == 0) {
		m.CompactSummary = true
		p.afterBoundary = false
	} else if words, meta := userWords(text); meta {
		m.Meta = true
	} else if !m.Meta {
		m.Text = words
	}
	d.add(m)
	return nil
}

// compactPrefix starts the summary Claude Code writes when it compacts.
const compactPrefix = "This session is being continued from a previous conversation"

// ccContent is message.content: a string (one text block) or an array of
// blocks; null or absent is no blocks. It decodes straight from the line,
// so a huge block is not copied more than once.
type ccContent []ccBlock

// UnmarshalJSON implements json.Unmarshaler.
func (c *ccContent) UnmarshalJSON(raw []byte) error {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		*c = nil
		return nil
	case raw[0] == '"':
		s, err := jsonString(raw)
		if err != nil {
			return err
		}
		*c = ccContent{{Type: "text", Text: s}}
		return nil
	case raw[0] != '[':
		return fmt.Errorf("message content is not a string or an array")
	}
	// The line's json.Unmarshal has checked these bytes; the blocks are
	// read in one pass over them (arrayElements, objectMembers) instead
	// of a nested json.Unmarshal that would check them all again and
	// decode them after, which for a tool result means two more passes
	// over its whole output.
	var blocks []ccBlock
	var err error
	arrayElements(raw, func(elem []byte) {
		if err != nil {
			return
		}
		var b ccBlock
		if err = b.read(elem); err == nil {
			blocks = append(blocks, b)
		}
	})
	if err != nil {
		return err
	}
	*c = blocks
	return nil
}

// read fills b from one content block object, matching member names as
// encoding/json does (case-insensitively, the last of duplicates).
func (b *ccBlock) read(obj []byte) error {
	if len(obj) == 0 || obj[0] != '{' {
		if string(obj) == "null" {
			return nil
		}
		return fmt.Errorf("content block is not an object")
	}
	var err error
	str := func(dst *string, v []byte) {
		if err == nil {
			*dst, err = jsonString(v)
		}
	}
	objectMembers(obj, func(key, value []byte) {
		switch strings.ToLower(string(key)) {
		case "type":
			str(&b.Type, value)
		case "text":
			str(&b.Text, value)
		case "thinking":
			str(&b.Thinking, value)
		case "id":
			str(&b.ID, value)
		case "name":
			str(&b.Name, value)
		case "tool_use_id":
			str(&b.ToolUseID, value)
		case "input":
			b.Input = append(json.RawMessage(nil), value...)
		case "content":
			b.Content = rawJSON(value)
		case "is_error":
			b.IsError = json.RawMessage(value)
		}
	})
	return err
}

// resultContent is tool_result content flattened to text: a string, or
// blocks of text and images. Anything else is kept as its JSON text.
type resultContent string

// UnmarshalJSON implements json.Unmarshaler.
func (c *resultContent) UnmarshalJSON(raw []byte) error {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		*c = ""
		return nil
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return err
		}
		*c = resultContent(s)
		return nil
	case raw[0] != '[':
		*c = resultContent(raw)
		return nil
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return err
	}
	var text string
	for _, b := range blocks {
		switch {
		case b.Type == "image":
			text = joinText(text, "[image]")
		case b.Text != "":
			text = joinText(text, b.Text)
		}
	}
	*c = resultContent(text)
	return nil
}

// ccToolUseResult is what this package reads of a line's toolUseResult,
// which Claude Code writes per tool: a string ("Error: …" on failure) or
// an object that may carry an exit code or an is_error flag. It is read
// without copying the (possibly huge) output it repeats.
type ccToolUseResult struct {
	isError  bool
	exitCode *int
}

// UnmarshalJSON implements json.Unmarshaler.
func (r *ccToolUseResult) UnmarshalJSON(raw []byte) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	switch raw[0] {
	case '"':
		r.isError = bytes.HasPrefix(raw, []byte(`"Error:`)) || bytes.HasPrefix(raw, []byte(`"Error\n`))
	case '{':
		// One pass over the members, not a nested json.Unmarshal: the
		// object repeats the tool's whole output (stdout), which the
		// line's decode has already checked once.
		var codes [3][]byte // exitCode, exit_code, returnCode: first that is a number wins
		objectMembers(raw, func(key, value []byte) {
			switch strings.ToLower(string(key)) { // as encoding/json matches names
			case "exitcode":
				codes[0] = value
			case "exit_code":
				codes[1] = value
			case "returncode":
				codes[2] = value
			case "is_error", "iserror":
				r.isError = r.isError || flag(value)
			}
		})
		for _, v := range codes {
			var n int
			if len(v) > 0 && json.Unmarshal(v, &n) == nil {
				r.exitCode = &n
				break
			}
		}
	}
	return nil
}

// apply adds what the line-level result says to the block-level result.
func (r ccToolUseResult) apply(res *handoff.ToolResult) {
	if r.isError {
		res.IsError = true
	}
	if r.exitCode != nil {
		n := *r.exitCode
		res.ExitCode = &n
	}
}

// exitCodeRe finds the exit status Claude Code's Bash tool reports at the
// start of a failed command's output.
var exitCodeRe = lazyRE(`\A(?:Error: )?(?:Exit code|exit code|Process exited with code) (-?\d+)\b`)

func exitCodeFromText(s string) *int {
	m := exitCodeRe.FindStringSubmatch(strings.TrimSpace(s[:min(len(s), 200)]))
	if m == nil {
		return nil
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return nil
	}
	return &n
}

// flag reads a JSON boolean leniently: true, "true" and 1 are true;
// anything else, absent included, is false.
func flag(raw json.RawMessage) bool {
	switch string(trimJSON(raw)) {
	case "true", `"true"`, "1":
		return true
	}
	return false
}

// stringValue reads a JSON string; anything else is "".
func stringValue(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

func trimJSON(raw json.RawMessage) json.RawMessage {
	return bytes.TrimSpace(raw)
}

// jsonReason shortens encoding/json errors to what a person needs.
func jsonReason(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("%s at byte %d", se.Error(), se.Offset)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("field %q is a JSON %s, expected %s", te.Field, te.Value, te.Type)
	}
	return err
}
