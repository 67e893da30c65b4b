// Package transcript reads agent transcripts (Claude Code session JSONL,
// OpenAI Chat Completions messages, plain text) into a format-neutral
// handoff.Transcript.
//
// Reading is streaming and bounded: input is consumed line by line through a
// bufio.Reader with an explicit per-line limit (Options.MaxLineBytes), so a
// single enormous line is drained and skipped rather than held, and tool
// output is cut to Options.MaxToolOutputBytes (head and tail kept). Damaged
// records become handoff.ParseWarning entries unless Options.Strict is set.
// The same Decoder that Parse uses can be fed line by line by a caller that
// follows a live file.
package transcript

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Format names a transcript format.
type Format string

// The formats this package reads.
const (
	// FormatAuto asks Parse to detect the format from the first bytes.
	FormatAuto Format = ""
	// FormatClaudeCode is a Claude Code session JSONL file
	// (~/.claude/projects/*/*.jsonl).
	FormatClaudeCode Format = "claude-code"
	// FormatCodexExec is `codex exec --json` output.
	FormatCodexExec Format = "codex-exec-json"
	// FormatOpenAIChat is OpenAI Chat Completions messages: a JSON array,
	// an object with "messages", or JSONL of message objects.
	FormatOpenAIChat Format = "openai-chat"
	// FormatClaudeStream is `claude -p --output-format stream-json`.
	FormatClaudeStream Format = "claude-stream-json"
	// FormatClaudeConsole is text copied from the Claude Code terminal.
	FormatClaudeConsole Format = "claude-console"
	// FormatGemini is a Gemini CLI chat JSON or JSONL file, or a
	// /chat save checkpoint.
	FormatGemini Format = "gemini-cli"
	// FormatGeminiConsole is text copied from the Gemini CLI terminal.
	FormatGeminiConsole Format = "gemini-console"
	// FormatAider is Aider's .aider.chat.history.md.
	FormatAider Format = "aider"
	// FormatSpecStory is a SpecStory markdown export.
	FormatSpecStory Format = "specstory"
	// FormatSWEAgent is a SWE-agent .traj trajectory.
	FormatSWEAgent Format = "swe-agent"
	// FormatOpenHands is an OpenHands event trajectory.
	FormatOpenHands Format = "openhands"
	// FormatCline is a Cline / Roo Code ui_messages.json.
	FormatCline Format = "cline"
	// FormatAnthropic is an Anthropic Messages API request body.
	FormatAnthropic Format = "anthropic-messages"
	// FormatOpenAIResponses is OpenAI Responses API input items.
	FormatOpenAIResponses Format = "openai-responses"
	// FormatCodex is an OpenAI Codex CLI rollout JSONL file
	// (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl).
	FormatCodex Format = "codex"
	// FormatOpenCode is an OpenCode session: `opencode export` JSON, its
	// storage directory or its SQLite database.
	FormatOpenCode Format = "opencode"
	// FormatCopilotCLI is a GitHub Copilot CLI events.jsonl.
	FormatCopilotCLI Format = "copilot-cli"
	// FormatCopilotShare is Copilot CLI's /share markdown.
	FormatCopilotShare Format = "copilot-share"
	// FormatCursorExport is Cursor's "Export chat" markdown.
	FormatCursorExport Format = "cursor-export"
	// FormatDroid is a Factory droid session JSONL.
	FormatDroid Format = "droid"
	// FormatPi is a pi coding agent session JSONL.
	FormatPi Format = "pi"
	// FormatGoose is a Goose session JSONL.
	FormatGoose Format = "goose"
	// FormatKimi is a Kimi CLI context.jsonl.
	FormatKimi Format = "kimi-cli"
	// FormatCrush is a Crush session, read from its SQLite store.
	FormatCrush Format = "crush"
	// FormatVSCodeChat is a VS Code chat session (chatSessions/<id>.json).
	FormatVSCodeChat Format = "vscode-chat"
	// FormatContinue is a Continue session (~/.continue/sessions/<id>.json).
	FormatContinue Format = "continue"
	// FormatVSCodeChatLog is a VS Code chat session's mutation log
	// (chatSessions/<id>.jsonl).
	FormatVSCodeChatLog Format = "vscode-chat-jsonl"
	// FormatZed is a Zed agent thread: its JSON, or threads.db.
	FormatZed Format = "zed"
	// FormatAmp is an Amp thread (~/.local/share/amp/threads/T-*.json).
	FormatAmp Format = "amp"
	// FormatQwen is a Qwen Code session JSONL.
	FormatQwen Format = "qwen-code"
	// FormatAntigravity is a Google Antigravity CLI transcript.jsonl.
	FormatAntigravity Format = "antigravity"
	// FormatPlain is plain text: the whole input is one user message, or
	// role-prefixed turns ("User:", "Assistant:") when both roles appear.
	FormatPlain Format = "plain"
)

// FormatInfo describes a supported format for `handoff formats`.
type FormatInfo struct {
	Name        Format `json:"name"`
	Description string `json:"description"`
	// Agent is the agent whose sessions the format holds, when it is one
	// agent's.
	Agent string `json:"agent,omitempty"`
	// Looks is what input of the format looks like, for messages ("an
	// OpenCode export").
	Looks string `json:"looks"`
	// Example is a typical path where such a file is found.
	Example string `json:"example"`
	// Locations are where the agent keeps its sessions, the places
	// `handoff latest` looks.
	Locations []string `json:"locations,omitempty"`
	// Aliases are other names --format accepts for it.
	Aliases []string `json:"aliases,omitempty"`
}

// Formats lists the supported formats in detection order, so the CLI can
// show what it reads without hard-coding it. It is the registry's list:
// ParseFormat, NewDecoder, Detect and error messages all follow it.
func Formats() []FormatInfo {
	specs := registry()
	out := make([]FormatInfo, len(specs))
	for i, s := range specs {
		out[i] = s.info
	}
	return out
}

// supportedList is the comma-separated format names for error messages.
func supportedList() string {
	var names []string
	for _, f := range Formats() {
		names = append(names, string(f.Name))
	}
	return strings.Join(names, ", ")
}

// ParseFormat turns a --format flag value into a Format. "" and "auto" mean
// detect; each format's aliases are accepted too.
func ParseFormat(name string) (Format, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" || n == "auto" {
		return FormatAuto, nil
	}
	for _, f := range Formats() {
		if n == string(f.Name) || slices.Contains(f.Aliases, n) {
			return f.Name, nil
		}
	}
	return FormatAuto, handoff.Errorf(handoff.EINVALID, "unknown format %q (supported: auto, %s)", name, supportedList())
}

// Defaults for Options fields left zero.
const (
	// DefaultMaxLineBytes bounds one input line (one JSONL record).
	DefaultMaxLineBytes = 64 << 20
	// DefaultMaxToolOutputBytes bounds the tool output kept per result.
	DefaultMaxToolOutputBytes = 32 << 10
	// DefaultOlderToolOutputBytes bounds the tool output kept per result
	// once DefaultRecentToolResults newer results exist.
	DefaultOlderToolOutputBytes = 1 << 10
	// DefaultRecentToolResults is how many of the latest tool results keep
	// the full DefaultMaxToolOutputBytes.
	DefaultRecentToolResults = 64
	// detectBytes is how much of the input Parse looks at to detect the
	// format.
	detectBytes = 64 << 10
	// readBufferBytes is the bufio.Reader size; lines longer than this are
	// assembled from several reads.
	readBufferBytes = 64 << 10
)

// Options control parsing.
type Options struct {
	// Format forces a format; FormatAuto detects it.
	Format Format
	// Strict makes a malformed record an error instead of a warning.
	// An unterminated final line (a file still being written) is always
	// a warning, and so is an over-long line.
	Strict bool
	// MaxLineBytes bounds one line; a longer line is drained without
	// being kept and skipped with a warning. Zero means
	// DefaultMaxLineBytes.
	MaxLineBytes int
	// MaxToolOutputBytes bounds the tool result content kept per result
	// (its head and tail, with a "[… N bytes elided …]" marker between);
	// ToolResult.OriginalBytes records the real size. Zero means
	// DefaultMaxToolOutputBytes; negative keeps everything.
	MaxToolOutputBytes int
	// OlderToolOutputBytes bounds the tool result content kept for a
	// result once RecentToolResults newer results have been read: such
	// output is re-cut to its head and tail (redacted first, like the
	// first cut), so memory grows with the number of tool calls, not with
	// their output. The recent ones keep MaxToolOutputBytes, which is
	// what the prompt's recent tail and the latest test run need; older
	// ones keep enough for an error's headline, an exit-code header, a
	// test summary or a commit line; a failed one (IsError or a non-zero
	// exit code) keeps eight times as much for its error. Zero means
	// DefaultOlderToolOutputBytes; negative keeps MaxToolOutputBytes for
	// every result.
	OlderToolOutputBytes int
	// RecentToolResults is how many of the latest tool results keep
	// MaxToolOutputBytes. Zero means DefaultRecentToolResults.
	RecentToolResults int
	// Session picks one session of a store that holds many (an OpenCode
	// database or storage directory); empty reads the newest.
	Session string
	// Source names the input (a file path, or "-" for standard input);
	// it is stored in SessionInfo.Source and used in messages.
	Source string
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
}

// withDefaults fills zero fields.
func (o Options) withDefaults() Options {
	if o.MaxLineBytes <= 0 {
		o.MaxLineBytes = DefaultMaxLineBytes
	}
	if o.MaxToolOutputBytes == 0 {
		o.MaxToolOutputBytes = DefaultMaxToolOutputBytes
	}
	if o.OlderToolOutputBytes == 0 {
		o.OlderToolOutputBytes = DefaultOlderToolOutputBytes
	}
	if o.RecentToolResults <= 0 {
		o.RecentToolResults = DefaultRecentToolResults
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// sourceName is the input's name for messages.
func (o Options) sourceName() string {
	switch o.Source {
	case "":
		return "input"
	case "-":
		return "standard input"
	}
	return o.Source
}

// Parse reads a whole transcript from r. With Options.Format unset it
// detects the format from the first 64 KiB.
func Parse(ctx context.Context, r io.Reader, opts Options) (*handoff.Transcript, error) {
	opts = opts.withDefaults()
	br := bufio.NewReaderSize(r, readBufferBytes)
	head, err := br.Peek(detectBytes)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, fmt.Errorf("read %s: %w", opts.sourceName(), err)
	}
	format := opts.Format
	if format == FormatAuto {
		if len(head) < detectBytes && isBlank(head) {
			return nil, emptyError(opts)
		}
		format, err = Detect(head)
		if err != nil {
			return nil, err
		}
		opts.Logger.Debug("detected transcript format", "format", format, "source", opts.sourceName())
	}
	t, err := decodeAll(ctx, br, format, opts)
	if err != nil && opts.Format != FormatAuto && handoff.ErrorCode(err) == handoff.EINVALID {
		return nil, misread(err, format, head)
	}
	return t, err
}

// misread adds to a forced format's failure what the input looks like,
// when detection would have read it as another format.
func misread(err error, forced Format, head []byte) error {
	f, derr := Detect(head)
	if derr != nil || f == forced {
		return err
	}
	return handoff.Errorf(handoff.EINVALID, "%w; the input looks like %s (--format %s)", err, looksLike(head), f)
}

// decodeAll feeds every line of br to a decoder of the format.
func decodeAll(ctx context.Context, br *bufio.Reader, format Format, opts Options) (*handoff.Transcript, error) {
	d, err := NewDecoder(format, opts)
	if err != nil {
		return nil, err
	}
	lr := lineReader{r: br, max: opts.MaxLineBytes}
	for {
		if d.line%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		l, err := lr.next()
		if errors.Is(err, io.EOF) {
			return d.Finish(nil)
		}
		if err != nil {
			return nil, fmt.Errorf("read %s after line %d: %w", opts.sourceName(), d.line, err)
		}
		switch {
		case l.tooLong:
			d.Skip(fmt.Sprintf("line is %d bytes, over the %d-byte limit: skipped", l.size, opts.MaxLineBytes))
		case !l.terminated:
			return d.Finish(l.data)
		default:
			if err := d.Feed(l.data); err != nil {
				return nil, err
			}
		}
	}
}

// ParseFile opens path and parses it. A missing file is ENOTFOUND, a
// directory EINVALID.
func ParseFile(ctx context.Context, path string, opts Options) (*handoff.Transcript, error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, handoff.Errorf(handoff.ENOTFOUND, "transcript %s does not exist", path)
	case err != nil:
		return nil, fmt.Errorf("stat transcript: %w", err)
	case fi.IsDir():
		t, err := parseStore(ctx, path, opts)
		if handoff.ErrorCode(err) == handoff.EINVALID && strings.Contains(err.Error(), "not a session store") {
			return nil, handoff.Errorf(handoff.EINVALID, "%s is a directory, not a transcript file or a session store handoff knows", path)
		}
		return t, err
	case isSQLite(path):
		return parseStore(ctx, path, opts)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open transcript: %w", err)
	}
	defer f.Close()
	if opts.Source == "" {
		opts.Source = path
	}
	return Parse(ctx, f, opts)
}

// emptyError is the error for input with no content.
func emptyError(opts Options) error {
	return handoff.Errorf(handoff.EINVALID, "empty transcript: %s has no content", opts.sourceName())
}

// isBlank reports whether b is only white space (a UTF-8 BOM counts).
func isBlank(b []byte) bool {
	return len(bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\uFEFF")))) == 0
}

// line is one line read by lineReader.
type line struct {
	// data is the line without its newline (and without a trailing \r);
	// valid until the next call. Nil when tooLong.
	data []byte
	// size is the line's length in bytes, newline excluded.
	size int
	// tooLong: the line exceeded the limit and was drained, not kept.
	tooLong bool
	// terminated: the line ended with a newline (false for a final line
	// at end of input).
	terminated bool
}

// lineReader reads lines of any length with a bound on what it keeps:
// unlike bufio.Scanner it does not fail on a long line, and unlike
// ReadBytes it does not hold one.
//
// A line longer than segmentBytes is gathered in fixed-size segments and
// joined once at the end, so its peak cost is about twice its size rather
// than the chain of ever larger copies that growing one slice leaves.
type lineReader struct {
	r    *bufio.Reader
	max  int
	buf  []byte
	segs [][]byte
}

const (
	// segmentBytes is the size of the pieces a long line is gathered in.
	segmentBytes = 1 << 20
	// shrinkAbove is the buffer capacity above which lineReader lets go
	// of its buffer after a line, so one big line does not pin memory.
	shrinkAbove = 4 << 20
)

// next returns the next line, or io.EOF when the input is exhausted.
func (lr *lineReader) next() (line, error) {
	if cap(lr.buf) > shrinkAbove {
		lr.buf = nil
	}
	lr.buf = lr.buf[:0]
	var l line
	for {
		chunk, err := lr.r.ReadSlice('\n')
		body := chunk
		if err == nil {
			body = chunk[:len(chunk)-1]
		}
		l.size += len(body)
		if !l.tooLong {
			if l.size > lr.max {
				l.tooLong = true
				lr.buf, lr.segs = lr.buf[:0], nil
			} else {
				lr.add(body)
			}
		}
		switch {
		case err == nil:
			l.terminated = true
			return lr.finish(l), nil
		case errors.Is(err, bufio.ErrBufferFull):
			// A long line: go straight to a full segment rather than
			// through a chain of doubling copies.
			if !l.tooLong && cap(lr.buf) < segmentBytes && len(lr.segs) == 0 {
				lr.buf = append(make([]byte, 0, segmentBytes), lr.buf...)
			}
			continue
		case errors.Is(err, io.EOF):
			if l.size == 0 {
				return line{}, io.EOF
			}
			return lr.finish(l), nil
		default:
			return line{}, err
		}
	}
}

// add appends part of the current line, spilling into a new segment when
// the current one is full.
func (lr *lineReader) add(b []byte) {
	if len(lr.buf)+len(b) > cap(lr.buf) && cap(lr.buf) >= segmentBytes {
		lr.segs = append(lr.segs, lr.buf)
		lr.buf = make([]byte, 0, max(segmentBytes, len(b)))
	}
	lr.buf = append(lr.buf, b...)
}

func (lr *lineReader) finish(l line) line {
	if l.tooLong {
		return l
	}
	if len(lr.segs) > 0 {
		// Headroom, so the next line of about the same length (the
		// usual case: tool results of similar size) fits without
		// another round of segments.
		joined := make([]byte, 0, min(l.size+l.size/8, max(l.size, shrinkAbove)))
		for i, s := range lr.segs {
			joined = append(joined, s...)
			lr.segs[i] = nil // collectable as soon as it is copied
		}
		lr.buf = append(joined, lr.buf...)
		lr.segs = nil
	}
	data := lr.buf
	if n := len(data); n > 0 && data[n-1] == '\r' {
		data = data[:n-1]
	}
	l.data = data
	return l
}
