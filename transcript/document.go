package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"

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
}

func (p *docParser) record(d *Decoder, line []byte, _ int) error {
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

func (p *docParser) pending() []handoff.Message { return nil }

func (p *docParser) finish(d *Decoder) error {
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
