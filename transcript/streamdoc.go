package transcript

import (
	"errors"
	"fmt"

	"github.com/handoff-cli/handoff"
)

// streamParser is a formatParser for a format that is one JSON document
// whose records are the elements of an array (see jsonRecords): it reads
// each record as soon as it is complete, so memory holds one record, not
// the document. A record over MaxLineBytes is skipped with a warning.
type streamParser struct {
	name string
	// key names the record array in the top-level object ("" for a
	// top-level array).
	key string
	// member reads the top-level object's other members; element reads
	// one record.
	member  func(d *Decoder, key string, raw []byte) error
	element func(d *Decoder, n int, raw []byte) error

	s       *jsonRecords
	stopped bool
}

func (p *streamParser) record(d *Decoder, line []byte, _ int) error {
	if p.stopped {
		return nil
	}
	if p.s == nil {
		p.s = &jsonRecords{key: p.key, max: d.opts.MaxLineBytes,
			element: func(n int, raw []byte) error {
				if raw == nil {
					return d.recordError(n, fmt.Errorf("record is larger than the %d-byte limit: skipped", d.opts.MaxLineBytes))
				}
				return p.element(d, n, raw)
			},
		}
		if p.member != nil {
			p.s.member = func(k string, raw []byte) error { return p.member(d, k, raw) }
		}
	}
	err := p.s.write(line)
	if err == nil {
		err = p.s.write([]byte{'\n'})
	}
	if err == nil {
		return nil
	}
	p.stopped = true
	if handoff.ErrorCode(err) == handoff.EINVALID && d.opts.Strict {
		return err
	}
	if errors.Is(err, errNotDocument) && p.s.records == 0 {
		return handoff.Errorf(handoff.EINVALID, "%s: not a %s: %v", d.opts.sourceName(), p.name, err)
	}
	return d.recordError(p.s.records+1, fmt.Errorf("malformed JSON, rest of the document skipped: %w", err))
}

// pending is empty: records are committed as they complete.
func (p *streamParser) pending() []handoff.Message { return nil }

func (p *streamParser) finish(d *Decoder) error {
	if p.s == nil || p.stopped || p.s.complete() {
		return nil
	}
	if !p.s.started {
		return nil
	}
	d.warn(d.line, fmt.Sprintf("document ends early after record %d (cut short or still being written): the rest is missing", p.s.records))
	return nil
}
