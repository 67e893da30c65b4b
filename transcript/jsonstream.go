package transcript

import (
	"bytes"
	"errors"
	"fmt"
)

// jsonRecords splits one JSON document, fed a line at a time, into the
// elements of its record array (the top-level array, or the array under
// one key of the top-level object) and the object's other members, so a
// document-shaped session (an OpenCode export, a VS Code chat session)
// is read holding one record at a time instead of the whole file. It
// tracks only nesting and strings; each piece it hands on is checked by
// the json.Unmarshal that reads it.
type jsonRecords struct {
	// key names the record array in the top-level object; "" reads a
	// top-level array.
	key string
	// max bounds one record or member; a bigger one is skipped.
	max int
	// member receives the top-level object's other members, element
	// each record with its 1-based number.
	member  func(key string, raw []byte) error
	element func(n int, raw []byte) error

	depth    int
	inString bool
	escaped  bool
	started  bool // the top-level value has begun
	done     bool // the top-level value has ended
	inArray  bool // inside the record array
	buf      []byte
	tooBig   bool
	records  int
	capture  bool // buf is collecting a record or member
}

// errNotDocument is a document whose top level is not what the format
// keeps its records in.
var errNotDocument = errors.New("not the expected JSON document")

// write consumes the next piece of the document.
func (s *jsonRecords) write(p []byte) error {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if s.inString {
			// Copy a run of ordinary string bytes at once.
			j := i
			for j < len(p) && p[j] != '"' && p[j] != '\\' {
				j++
			}
			if j > i && !s.escaped {
				s.keep(p[i:j])
				i = j - 1
				continue
			}
			s.keep(p[i : i+1])
			switch {
			case s.escaped:
				s.escaped = false
			case c == '\\':
				s.escaped = true
			case c == '"':
				s.inString = false
			}
			continue
		}
		if s.done {
			if !isSpace(c) {
				return fmt.Errorf("%w: text after the end of the document", errNotDocument)
			}
			continue
		}
		if !s.started {
			if isSpace(c) {
				continue
			}
			s.started = true
			switch {
			case c == '[' && s.key == "":
				s.inArray = true
			case c == '{' && s.key != "":
			default:
				return errNotDocument
			}
			s.depth = 1
			continue
		}
		// The level whose values are pieces: records in the array, the
		// members of the top-level object.
		level := 1
		if s.inArray && s.key != "" {
			level = 2
		}
		if s.depth == level && !s.capture {
			switch {
			case isSpace(c), c == ',':
				continue
			case c == ']' || c == '}':
				if err := s.close(c); err != nil {
					return err
				}
				continue
			}
			s.capture, s.buf, s.tooBig = true, s.buf[:0], false
		}
		switch c {
		case '"':
			s.inString = true
		case '{', '[':
			if s.depth == 1 && !s.inArray && c == '[' && s.isRecordKey() {
				// The record array begins: its elements are the records.
				s.inArray, s.capture = true, false
				s.depth = 2
				continue
			}
			s.depth++
		case '}', ']':
			s.depth--
		case ',':
			if s.depth == level && s.capture {
				if err := s.emit(); err != nil {
					return err
				}
				continue
			}
		}
		s.keep(p[i : i+1])
		if s.depth == level-1 && s.capture {
			// The closing bracket of the array or object ended the
			// last piece: hand it on without the bracket, and close.
			if n := len(s.buf); n > 0 {
				s.buf = s.buf[:n-1]
			}
			if err := s.emit(); err != nil {
				return err
			}
			s.depth++
			if err := s.close(c); err != nil {
				return err
			}
		}
	}
	return nil
}

// close ends the array or object at the current level.
func (s *jsonRecords) close(c byte) error {
	s.depth--
	if s.inArray && s.key != "" && s.depth == 1 {
		if c != ']' {
			return fmt.Errorf("malformed JSON: %q closes the %q array", c, s.key)
		}
		s.inArray = false
		return nil
	}
	if s.depth == 0 {
		s.done = true
	}
	return nil
}

// isRecordKey reports whether the member being collected is the record
// array's key ("key": and nothing after it yet).
func (s *jsonRecords) isRecordKey() bool {
	b := bytes.TrimSpace(s.buf)
	if !bytes.HasSuffix(b, []byte(":")) {
		return false
	}
	k, err := jsonString(bytes.TrimSpace(b[:len(b)-1]))
	return err == nil && k == s.key
}

// keep adds bytes to the piece being collected.
func (s *jsonRecords) keep(b []byte) {
	if !s.capture || s.tooBig {
		return
	}
	if s.max > 0 && len(s.buf)+len(b) > s.max {
		s.tooBig, s.buf = true, nil
		return
	}
	s.buf = append(s.buf, b...)
}

// emit hands the collected piece on.
func (s *jsonRecords) emit() error {
	s.capture = false
	if s.inArray {
		s.records++
		if s.tooBig {
			return s.element(s.records, nil)
		}
		return s.element(s.records, bytes.TrimSpace(s.buf))
	}
	if s.tooBig || s.member == nil {
		return nil
	}
	b := bytes.TrimSpace(s.buf)
	end, colon := keyEnd(b)
	if colon < 0 {
		return fmt.Errorf("malformed JSON member %.40q", b)
	}
	k, err := jsonString(b[:end])
	if err != nil {
		return fmt.Errorf("malformed JSON key: %w", err)
	}
	return s.member(k, bytes.TrimSpace(b[colon+1:]))
}

// keyEnd returns the end of a member's key and the index of the colon
// after it, or -1s.
func keyEnd(b []byte) (int, int) {
	if len(b) == 0 || b[0] != '"' {
		return -1, -1
	}
	end := stringEnd(b, 0)
	if end < 0 {
		return -1, -1
	}
	i := skipSpace(b, end)
	if i >= len(b) || b[i] != ':' {
		return -1, -1
	}
	return end, i
}

// complete reports whether the whole document was read.
func (s *jsonRecords) complete() bool { return s.done }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
