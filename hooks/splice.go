package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Merging into a person's settings file changes only what it must: the
// new hooks are spliced into the text where they belong, indented like
// their neighbours, and every other byte (key order, indentation, arrays
// kept on one line, blank lines) stays as it was, so the diff a person
// reviews is the hooks handoff added and nothing else.

// span is the byte range [start, end) of a JSON value in a document.
type span struct{ start, end int }

// memberSpan is an object member: where its key starts, and its value.
type memberSpan struct {
	key      string
	keyStart int
	value    span
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skip returns the first index at or after i that is not whitespace or one
// of the given separators.
func skip(data []byte, i int, seps string) int {
	for i < len(data) && (isSpace(data[i]) || bytes.IndexByte([]byte(seps), data[i]) >= 0) {
		i++
	}
	return i
}

// rootSpan is the span of the document's top-level value.
func rootSpan(data []byte) span {
	start := skip(data, 0, "")
	end := len(data)
	for end > start && isSpace(data[end-1]) {
		end--
	}
	return span{start, end}
}

// objectMembers lists the members of the object at s, with their offsets
// in data.
func objectMembers(data []byte, s span) ([]memberSpan, error) {
	dec := json.NewDecoder(bytes.NewReader(data[s.start:s.end]))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not an object at byte %d", s.start)
	}
	var out []memberSpan
	prev := s.start + 1
	for dec.More() {
		keyStart := skip(data, prev, ",")
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("object key %v is not a string", tok)
		}
		valueStart := skip(data, s.start+int(dec.InputOffset()), ":")
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		prev = s.start + int(dec.InputOffset())
		out = append(out, memberSpan{key: key, keyStart: keyStart, value: span{valueStart, prev}})
	}
	return out, nil
}

// arrayElements lists the spans of the elements of the array at s.
func arrayElements(data []byte, s span) ([]span, error) {
	dec := json.NewDecoder(bytes.NewReader(data[s.start:s.end]))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return nil, fmt.Errorf("not an array at byte %d", s.start)
	}
	var out []span
	prev := s.start + 1
	for dec.More() {
		start := skip(data, prev, ",")
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		prev = s.start + int(dec.InputOffset())
		out = append(out, span{start, prev})
	}
	return out, nil
}

func findMember(ms []memberSpan, key string) (memberSpan, bool) {
	for _, m := range ms {
		if m.key == key {
			return m, true
		}
	}
	return memberSpan{}, false
}

// lineIndent is the whitespace that starts the line holding data[i].
func lineIndent(data []byte, i int) []byte {
	start := bytes.LastIndexByte(data[:i], '\n') + 1
	end := start
	for end < len(data) && (data[end] == ' ' || data[end] == '\t') {
		end++
	}
	return data[start:end]
}

// startsLine reports whether only whitespace precedes data[i] on its line.
func startsLine(data []byte, i int) bool {
	return len(lineIndent(data, i)) == i-(bytes.LastIndexByte(data[:i], '\n')+1)
}

// indentUnit guesses the file's indentation step from its first indented
// line: two spaces, four, a tab.
func indentUnit(data []byte) string {
	for _, line := range bytes.Split(data, []byte("\n")) {
		trimmed := bytes.TrimLeft(line, " \t")
		if n := len(line) - len(trimmed); n > 0 && len(trimmed) > 0 {
			return string(line[:n])
		}
	}
	return "  "
}

// format renders value compactly (one-line containers) or indented, its
// continuation lines starting with prefix.
func format(value json.RawMessage, compact bool, prefix, unit string) ([]byte, error) {
	if compact {
		var b bytes.Buffer
		if err := json.Compact(&b, value); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	var b bytes.Buffer
	if err := json.Indent(&b, value, prefix, unit); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// appendTo inserts an element (key "" for an array) or member at the end
// of the container at c, whose last entry starts at last (-1 when it is
// empty). A container written on one line gets the entry on that line; a
// multi-line one gets it on its own line, indented like the last entry.
func appendTo(data []byte, c span, last int, key string, value json.RawMessage, unit string) ([]byte, error) {
	closing := c.end - 1
	// An empty container has no layout of its own: in a multi-line
	// document it opens up like its neighbours.
	compact := !bytes.Contains(data[c.start:c.end], []byte("\n")) && (last >= 0 || !bytes.Contains(data, []byte("\n")))
	var indent []byte
	switch {
	case compact:
	case last >= 0 && startsLine(data, last):
		indent = lineIndent(data, last)
	default:
		indent = append(bytes.Clone(lineIndent(data, c.start)), unit...)
	}
	v, err := format(value, compact, string(indent), unit)
	if err != nil {
		return nil, err
	}
	var entry []byte
	if key != "" {
		entry = append(strconv.AppendQuote(entry, key), ": "...)
	}
	entry = append(entry, v...)

	var out bytes.Buffer
	switch {
	case last < 0 && compact:
		out.Write(data[:c.start+1])
		out.Write(entry)
		out.Write(data[c.start+1:])
	case last < 0:
		out.Write(data[:c.start+1])
		out.WriteByte('\n')
		out.Write(indent)
		out.Write(entry)
		out.WriteByte('\n')
		out.Write(lineIndent(data, c.start))
		out.Write(data[closing:])
	default:
		p := closing
		for p > c.start && isSpace(data[p-1]) {
			p--
		}
		out.Write(data[:p])
		if compact {
			out.WriteString(", ")
		} else {
			out.WriteString(",\n")
			out.Write(indent)
		}
		out.Write(entry)
		out.Write(data[p:])
	}
	return out.Bytes(), nil
}

// replaceValue puts value where the value at s was (a null).
func replaceValue(data []byte, s span, value json.RawMessage, unit string) ([]byte, error) {
	compact := !bytes.Contains(data, []byte("\n"))
	v, err := format(value, compact, string(lineIndent(data, s.start)), unit)
	if err != nil {
		return nil, err
	}
	out := append(bytes.Clone(data[:s.start]), v...)
	return append(out, data[s.end:]...), nil
}

// spliceHooks adds group (by event) for each event in missing to the
// settings document data, in the order given, touching nothing else.
func spliceHooks(data []byte, missing []string, groups map[string]json.RawMessage) ([]byte, error) {
	unit := indentUnit(data)
	for _, event := range missing {
		root := rootSpan(data)
		members, err := objectMembers(data, root)
		if err != nil {
			return nil, err
		}
		list, err := marshalCompact([]json.RawMessage{groups[event]})
		if err != nil {
			return nil, err
		}
		hooksObj, err := (object{{event, list}}).MarshalJSON()
		if err != nil {
			return nil, err
		}
		hm, ok := findMember(members, "hooks")
		switch {
		case !ok:
			last := -1
			if len(members) > 0 {
				last = members[len(members)-1].keyStart
			}
			data, err = appendTo(data, root, last, "hooks", hooksObj, unit)
		case isNull(data[hm.value.start:hm.value.end]):
			data, err = replaceValue(data, hm.value, hooksObj, unit)
		default:
			var events []memberSpan
			if events, err = objectMembers(data, hm.value); err != nil {
				return nil, err
			}
			em, ok := findMember(events, event)
			switch {
			case !ok:
				last := -1
				if len(events) > 0 {
					last = events[len(events)-1].keyStart
				}
				data, err = appendTo(data, hm.value, last, event, list, unit)
			case isNull(data[em.value.start:em.value.end]):
				data, err = replaceValue(data, em.value, list, unit)
			default:
				var elems []span
				if elems, err = arrayElements(data, em.value); err != nil {
					return nil, err
				}
				last := -1
				if len(elems) > 0 {
					last = elems[len(elems)-1].start
				}
				data, err = appendTo(data, em.value, last, "", groups[event], unit)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if !json.Valid(data) {
		return nil, fmt.Errorf("splicing the hooks in produced invalid JSON")
	}
	return data, nil
}
