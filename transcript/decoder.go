package transcript

import (
	"bytes"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
)

// Decoder turns the lines of one transcript into a handoff.Transcript,
// one line at a time. Parse uses it for whole inputs; a caller following
// a live file (`handoff watch`) feeds it each complete line as it is
// appended and reads Transcript() whenever it wants the state so far.
//
// A Decoder is not safe for concurrent use.
type Decoder struct {
	opts     Options
	format   Format
	parser   formatParser
	t        handoff.Transcript
	line     int // lines consumed so far (fed or skipped)
	nonBlank int // lines that had content
	finished bool
	// recent lists the tool results (message, result) that still keep
	// MaxToolOutputBytes, oldest first; see Options.OlderToolOutputBytes.
	recent []resultRef
}

// formatParser is the per-format half of a Decoder.
type formatParser interface {
	// record consumes one line (never too long, valid UTF-8). An error
	// means the record is malformed: the Decoder turns it into a warning
	// or, in strict mode, a failure.
	record(d *Decoder, line []byte, lineNo int) error
	// pending returns messages the parser holds but has not committed
	// (plain text's turns), for a snapshot taken before Finish.
	pending() []handoff.Message
	// finish commits what the parser holds at end of input.
	finish(d *Decoder) error
}

// NewDecoder returns a Decoder for a known format (detect it first with
// Detect when it is not known).
func NewDecoder(format Format, opts Options) (*Decoder, error) {
	opts = opts.withDefaults()
	d := &Decoder{opts: opts, format: format}
	if format == FormatAuto {
		return nil, handoff.Errorf(handoff.EINVALID, "a decoder needs a known format: detect it first (supported formats: %s)", supportedList())
	}
	spec, ok := lookup(format)
	if !ok {
		return nil, handoff.Errorf(handoff.EINVALID, "unknown format %q (supported: %s)", format, supportedList())
	}
	d.parser = spec.newParser()
	d.t.Session.Agent = spec.agent
	d.t.Session.Format = string(format)
	d.t.Session.Source = opts.Source
	return d, nil
}

// Feed consumes one complete line, without its newline. It fails only in
// strict mode on a malformed record, or when called after Finish.
func (d *Decoder) Feed(line []byte) error {
	return d.feed(line, false)
}

// Skip accounts for a line the caller did not feed (it was over the
// length limit), so line numbers stay right, and records why.
func (d *Decoder) Skip(reason string) {
	d.line++
	d.nonBlank++
	d.warn(d.line, reason)
}

// Lines returns how many lines the decoder has consumed.
func (d *Decoder) Lines() int { return d.line }

// Finish ends the input. tail is a final line that had no newline, or nil:
// when it does not parse it is taken to be a record still being written
// and ignored with a warning, even in strict mode. Finish returns the
// transcript, or an EINVALID error when the input was empty or held no
// messages.
func (d *Decoder) Finish(tail []byte) (*handoff.Transcript, error) {
	if d.finished {
		return nil, handoff.Errorf(handoff.EINTERNAL, "transcript decoder: Finish called twice")
	}
	if tail != nil {
		if err := d.feed(tail, true); err != nil {
			return nil, err
		}
	}
	d.finished = true
	if err := d.parser.finish(d); err != nil {
		return nil, err
	}
	if d.t.Session.EndSignal == "" && exitTyped(d.t.Messages) {
		d.t.Session.EndSignal = EndUserExited
	}
	if d.nonBlank == 0 {
		return nil, emptyError(d.opts)
	}
	if len(d.t.Messages) == 0 {
		reason := ""
		if n := len(d.t.Warnings); n > 0 {
			reason = fmt.Sprintf("; %d records skipped, first at line %d: %s", n, d.t.Warnings[0].Line, d.t.Warnings[0].Reason)
		}
		return nil, handoff.Errorf(handoff.EINVALID, "no messages in %s: read %d lines as %s and found no user or assistant turns%s", d.opts.sourceName(), d.line, d.format, reason)
	}
	d.opts.Logger.Debug("parsed transcript", "source", d.opts.sourceName(), "format", d.format,
		"lines", d.line, "messages", len(d.t.Messages), "warnings", len(d.t.Warnings))
	t := d.t
	return &t, nil
}

// Transcript returns the transcript decoded so far. The result shares no
// mutable state with the decoder that later Feed calls could change.
func (d *Decoder) Transcript() *handoff.Transcript {
	t := d.t
	t.Messages = slices.Clip(slices.Clone(d.t.Messages))
	for i := range t.Messages {
		m := &t.Messages[i]
		m.ToolCalls = slices.Clip(m.ToolCalls)
		m.ToolResults = slices.Clip(m.ToolResults)
		if m.Usage != nil {
			u := *m.Usage
			m.Usage = &u
		}
	}
	for _, m := range d.parser.pending() {
		m.Index = len(t.Messages)
		t.Messages = append(t.Messages, m)
	}
	t.Warnings = slices.Clip(slices.Clone(d.t.Warnings))
	return &t
}

// Len returns how many messages the decoder has committed so far. A live
// reader (`handoff watch`) compares it before and after Feed to find the
// messages a line added without reading the whole transcript back.
// Messages a parser still holds (plain text turns, a document spanning
// lines; see MultiLine) are not counted until Finish commits them.
func (d *Decoder) Len() int { return len(d.t.Messages) }

// MessagesFrom returns copies of the committed messages i..Len()-1 (none
// when i >= Len()). It costs what it returns, not what the transcript
// holds, which is why a live reader uses it instead of Transcript after
// every line: a later line can still change a recent message in place (a
// Claude Code response split over lines sharing message.id, a Codex
// token_count attaching usage to the latest assistant message), so the
// reader takes the new messages with MessagesFrom and re-reads the one
// that may still change with Message. The copies share no mutable state
// with the decoder: later Feed calls do not change them.
func (d *Decoder) MessagesFrom(i int) []handoff.Message {
	i = max(i, 0)
	if i >= len(d.t.Messages) {
		return nil
	}
	out := slices.Clone(d.t.Messages[i:])
	for j := range out {
		detach(&out[j])
	}
	return out
}

// Message returns a copy of committed message i, and false when there is
// none. A live reader re-reads with it the one message a later line may
// still change (the latest assistant response) without copying the
// messages after it, which can be many (a subagent's run).
func (d *Decoder) Message(i int) (handoff.Message, bool) {
	if i < 0 || i >= len(d.t.Messages) {
		return handoff.Message{}, false
	}
	m := d.t.Messages[i]
	detach(&m)
	return m, true
}

// detach gives a copied message its own tool blocks and usage, so later
// Feed calls that change the original in place do not reach the copy.
func detach(m *handoff.Message) {
	m.ToolCalls = slices.Clone(m.ToolCalls)
	m.ToolResults = slices.Clone(m.ToolResults)
	if m.Usage != nil {
		u := *m.Usage
		m.Usage = &u
	}
}

// Session returns the session metadata read so far (id, model, the
// context window the agent reported), without copying the messages as
// Transcript does.
func (d *Decoder) Session() handoff.SessionInfo { return d.t.Session }

// MultiLine reports whether the decoder is reading records that span
// lines (plain text turns, or one document such as pretty-printed JSON),
// whose messages it commits only at Finish. Until then Len stays put
// however many lines arrive, so a live reader has to estimate from the raw
// lines itself; for line-based formats (Claude Code, Codex rollouts, JSONL)
// it is false, and a line that adds no message is metadata, not text.
func (d *Decoder) MultiLine() bool {
	switch p := d.parser.(type) {
	case *plainParser, *docParser, *streamParser, *mdLines:
		return true
	case *openaiParser:
		return p.mode == modeDocument
	case *geminiParser:
		return p.mode == modeDocument
	}
	return false
}

func (d *Decoder) feed(line []byte, final bool) error {
	if d.finished {
		return handoff.Errorf(handoff.EINTERNAL, "transcript decoder: Feed after Finish")
	}
	d.line++
	if d.line == 1 {
		line = bytes.TrimPrefix(line, []byte("\uFEFF"))
	}
	if !utf8.Valid(line) {
		line = bytes.ToValidUTF8(line, []byte("\uFFFD"))
		d.warn(d.line, "invalid UTF-8 replaced with U+FFFD")
	}
	if len(bytes.TrimSpace(line)) > 0 {
		d.nonBlank++
	}
	err := d.parser.record(d, line, d.line)
	switch {
	case err == nil:
		return nil
	case final:
		d.warn(d.line, fmt.Sprintf("unterminated final line ignored (file still being written?): %v", err))
		return nil
	case d.opts.Strict:
		return handoff.Errorf(handoff.EINVALID, "%s line %d: %v", d.opts.sourceName(), d.line, err)
	default:
		d.warn(d.line, err.Error())
		return nil
	}
}

// warn records a skipped or repaired record.
func (d *Decoder) warn(line int, reason string) {
	d.t.Warnings = append(d.t.Warnings, handoff.ParseWarning{Line: line, Reason: reason})
	d.opts.Logger.Debug("transcript record skipped or repaired", "source", d.opts.sourceName(), "line", line, "reason", reason)
}

// add appends a message, setting its Index, and returns that index.
func (d *Decoder) add(m handoff.Message) int {
	if m.Meta && interruptText(m.Text) {
		m.Interrupt = true
	}
	if n := len(d.t.Messages); m.Interrupt && n > 0 && d.t.Messages[n-1].Interrupt {
		// One interruption recorded twice (Codex writes a marker message
		// and a turn_aborted event): one message.
		return n - 1
	}
	m.Index = len(d.t.Messages)
	d.t.Messages = append(d.t.Messages, m)
	if len(m.ToolResults) > 0 {
		d.ageResults(m.Index)
	}
	return m.Index
}

// failedOlderFactor: an older failed result (IsError, or a non-zero exit
// code) keeps this many times OlderToolOutputBytes, since the snapshot
// records its error and the headline is often deep in a build log.
const failedOlderFactor = 8

// ageResults records message i's tool results as recent and re-cuts the
// results that this pushes out of the recent window to
// OlderToolOutputBytes. A message's ToolResults are copied before they
// change, so a Transcript or MessagesFrom taken earlier keeps what it
// saw.
func (d *Decoder) ageResults(i int) {
	if !d.aging() {
		return
	}
	for j, r := range d.t.Messages[i].ToolResults {
		if len(r.Content) > d.opts.OlderToolOutputBytes {
			d.recent = append(d.recent, resultRef{i, j})
		}
	}
	d.ageOldest()
}

// aging reports whether older tool results are cut again (see
// Options.OlderToolOutputBytes).
func (d *Decoder) aging() bool {
	limit := d.opts.OlderToolOutputBytes
	return limit >= 0 && (d.opts.MaxToolOutputBytes < 0 || limit < d.opts.MaxToolOutputBytes)
}

// regrew is called by a parser that has added text to a result already
// emitted (a running process's later output: Codex's write_stdin and
// exec_command_end). A result still in the recent window is cut in its
// turn as it is; one that was not (it was short, or already cut) and is
// now over OlderToolOutputBytes joins the window as the newest, so it is
// cut again in its turn instead of keeping up to MaxToolOutputBytes to
// the end of the session.
func (d *Decoder) regrew(ref resultRef) {
	if !d.aging() || len(d.t.Messages[ref.msg].ToolResults[ref.res].Content) <= d.opts.OlderToolOutputBytes ||
		slices.Contains(d.recent, ref) {
		return
	}
	d.recent = append(d.recent, ref)
	d.ageOldest()
}

// ageOldest re-cuts the results pushed out of the recent window.
func (d *Decoder) ageOldest() {
	limit := d.opts.OlderToolOutputBytes
	n := len(d.recent) - d.opts.RecentToolResults
	if n <= 0 {
		return
	}
	lastMsg := -1
	for _, ref := range d.recent[:n] {
		m := &d.t.Messages[ref.msg]
		if ref.msg != lastMsg {
			m.ToolResults = slices.Clone(m.ToolResults)
			lastMsg = ref.msg
		}
		r := &m.ToolResults[ref.res]
		keep := limit
		if r.IsError || r.ExitCode != nil && *r.ExitCode != 0 {
			keep = failedOlderFactor * limit
		}
		if len(r.Content) <= keep {
			continue // a failure's output, or a parser changed it since
		}
		original := r.OriginalBytes
		if original == 0 {
			original = len(r.Content)
		}
		r.Content = clipStringOf(r.Content, keep, original)
		r.OriginalBytes = original
	}
	d.recent = slices.Delete(d.recent, 0, n)
}

// seeTime widens the session's time span to include ts.
func (d *Decoder) seeTime(ts time.Time) {
	if ts.IsZero() {
		return
	}
	s := &d.t.Session
	if s.StartedAt.IsZero() || ts.Before(s.StartedAt) {
		s.StartedAt = ts
	}
	if ts.After(s.EndedAt) {
		s.EndedAt = ts
	}
}

// elisionMarker is put where tool output was cut.
const elisionMarker = "\n[… %d bytes elided …]\n"

// clipOutput cuts tool output longer than the limit to its head and tail
// around a marker, on rune boundaries, redacting each piece before it is
// cut (see redactOverlap). It returns the text kept and the original size,
// or 0 when nothing was cut.
func (d *Decoder) clipOutput(s string) (string, int) {
	limit := d.opts.MaxToolOutputBytes
	if limit < 0 || len(s) <= limit {
		return s, 0
	}
	return clipString(s, limit), len(s)
}

// parseTime reads an RFC 3339 timestamp; anything else is the zero time.
func parseTime(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// joinText appends b to a, separated by a newline when both have text.
func joinText(a, b string) string {
	switch {
	case b == "":
		return a
	case a == "":
		return b
	}
	return a + "\n" + b
}
