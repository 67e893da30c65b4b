package extractor

import (
	"encoding/json"

	handoff "github.com/handoff-cli/handoff"
)

// headlines remembers each failed result's headline (failingLine) for one
// Build: the facts' error log and the recent turns' tool lines both need
// it for the same results, and scoring a failure's lines with the
// headline regexes is the dearest thing either does. A nil *headlines
// computes every time, for the callers outside Build.
//
// It also remembers, per content, what failed reads in it: the facts and
// the git state both judge every result, and contentFailRe over a long
// output is the next dearest thing.
//
// And it remembers each call input's decoded object: the facts, the
// sub-agent runs, the git state and the recent turns each classify every
// call, and decoding its input was a twentieth of a large compile.
type headlines struct {
	byContent map[string]string
	failedBy  map[string]bool
	objects   map[string]map[string]any
}

func newHeadlines() *headlines {
	return &headlines{byContent: map[string]string{}, failedBy: map[string]bool{}, objects: map[string]map[string]any{}}
}

// object is decodeObject(raw), decoded once per input. The map is shared
// by every caller, which only read it.
func (h *headlines) object(raw json.RawMessage) map[string]any {
	if h == nil {
		return decodeObject(raw)
	}
	if in, ok := h.objects[string(raw)]; ok {
		return in
	}
	in := decodeObject(raw)
	h.objects[string(raw)] = in
	return in
}

// failed is failed(r), its content judged once per content.
func (h *headlines) failed(r handoff.ToolResult) bool {
	if h == nil || r.IsError || r.ExitCode != nil {
		return failed(r)
	}
	if f, ok := h.failedBy[r.Content]; ok {
		return f
	}
	f := failed(r)
	h.failedBy[r.Content] = f
	return f
}

// failingLine is failingLine(content), computed once per content.
func (h *headlines) failingLine(content string) string {
	if h == nil {
		return failingLine(content)
	}
	if l, ok := h.byContent[content]; ok {
		return l
	}
	l := failingLine(content)
	h.byContent[content] = l
	return l
}
