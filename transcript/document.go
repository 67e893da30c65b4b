package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/handoff-cli/handoff"
)

// docParser is a formatParser for formats that are one document (a JSON
// object or array, a markdown file, a terminal paste) rather than one
// record per line. It buffers the lines, bounded like a single line by
// MaxLineBytes, and hands the whole document to decode at the end.
// Inside the document each record is still skipped with a warning (or
// fails in strict mode) on its own, through Decoder.recordError.
type docParser struct {
	name   string
	buf    []byte
	tooBig bool
	decode func(d *Decoder, doc []byte) error
	// opts and format are the decoder's, for pending.
	opts   Options
	format Format
	// blocks, when set, reads the document a "---" turn at a time
	// instead of buffering it (markdown exports, mdblocks.go).
	blocks *ruleBlocks
}

func (p *docParser) record(d *Decoder, line []byte, n int) error {
	if p.blocks != nil {
		return p.blocks.line(d, line, n)
	}
	p.opts, p.format = d.opts, d.format
	if p.tooBig {
		return nil
	}
	if len(p.buf)+len(line)+1 > d.opts.MaxLineBytes {
		p.tooBig, p.buf = true, nil
		return nil
	}
	p.buf = append(p.buf, line...)
	p.buf = append(p.buf, '\n')
	return nil
}

// pending decodes the document so far into a scratch decoder, so a
// caller following a growing file (an Aider history, a SpecStory export,
// a terminal log) sees the turns before the end. A JSON document cut
// short keeps its complete records the same way.
func (p *docParser) pending() []handoff.Message {
	if p.tooBig || len(bytes.TrimSpace(p.buf)) == 0 {
		return nil
	}
	opts := p.opts
	opts.Strict = false
	scratch := &Decoder{opts: opts, format: p.format}
	if p.decode(scratch, p.buf) != nil {
		return nil
	}
	return scratch.t.Messages
}

func (p *docParser) finish(d *Decoder) error {
	if p.blocks != nil {
		return p.blocks.finish(d)
	}
	if p.tooBig {
		return handoff.Errorf(handoff.EINVALID, "%s: %s document is larger than the %d-byte limit", d.opts.sourceName(), p.name, d.opts.MaxLineBytes)
	}
	doc := p.buf
	p.buf = nil
	if len(bytes.TrimSpace(doc)) == 0 {
		return nil
	}
	if err := p.decode(d, doc); err != nil {
		if handoff.ErrorCode(err) == handoff.EINVALID {
			return err
		}
		return handoff.Errorf(handoff.EINVALID, "%s: not a %s transcript: %v", d.opts.sourceName(), p.name, err)
	}
	return nil
}

// recordError handles a bad record inside a document: a warning naming
// the record, or in strict mode an EINVALID error.
func (d *Decoder) recordError(record int, err error) error {
	if d.opts.Strict {
		return handoff.Errorf(handoff.EINVALID, "%s record %d: %v", d.opts.sourceName(), record, err)
	}
	d.warn(record, fmt.Sprintf("record %d: %v", record, err))
	return nil
}

// decodeJSONDoc unmarshals a whole JSON document with a short reason on
// failure.
func decodeJSONDoc(doc []byte, v any) error {
	if err := json.Unmarshal(doc, v); err != nil {
		return fmt.Errorf("malformed JSON: %w", jsonReason(err))
	}
	return nil
}

// walkJSON reads a JSON document record by record: the elements of the
// top-level array (key "") or of the array under key in the top-level
// object, each handed to record with its 1-based number. The object's
// other members go to member (which may be nil) as they come. A document
// that ends early (a file cut short or still being written) keeps the
// records before the cut, with a warning even in strict mode; a syntax
// error inside it is a malformed record like any other and ends the
// walk, since JSON cannot be resynchronised.
func walkJSON(d *Decoder, doc []byte, key string, member func(k string, raw json.RawMessage), record func(n int, raw json.RawMessage) error) error {
	// Without trailing white space a document cut inside a string ends in
	// io.ErrUnexpectedEOF, not in a newline the buffering added.
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimRight(doc, " \t\r\n")))
	stopped := false
	stop := func(n int, err error) error {
		stopped = true
		return walkStop(d, n, err)
	}
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("malformed JSON: %w", jsonReason(err))
	}
	n := 0
	elements := func() error {
		for dec.More() {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return stop(n, err)
			}
			n++
			if err := record(n, raw); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil { // the closing ]
			return stop(n, err)
		}
		return nil
	}
	switch {
	case tok == json.Delim('[') && key == "":
		return elements()
	case tok == json.Delim('{') && key != "":
	default:
		if key == "" {
			return fmt.Errorf("not a JSON array")
		}
		return fmt.Errorf("not a JSON object")
	}
	found := false
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return stop(n, err)
		}
		k, _ := kt.(string)
		if k == key {
			t, err := dec.Token()
			if err != nil {
				return stop(n, err)
			}
			if t != json.Delim('[') {
				return fmt.Errorf("%q is not an array", key)
			}
			found = true
			if err := elements(); err != nil || stopped {
				return err
			}
			continue
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return stop(n, err)
		}
		if member != nil {
			member(k, raw)
		}
	}
	if !found {
		return fmt.Errorf("no %q array", key)
	}
	return nil
}

// walkStop handles a JSON document that stopped decoding after n
// records: cut short, or malformed.
func walkStop(d *Decoder, n int, err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		d.warn(n, fmt.Sprintf("document ends early after record %d (cut short or still being written): the rest is missing", n))
		return nil
	}
	return d.recordError(n+1, fmt.Errorf("malformed JSON, rest of the document skipped: %w", jsonReason(err)))
}
