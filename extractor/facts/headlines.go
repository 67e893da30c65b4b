package facts

import (
	"encoding/json"

	handoff "github.com/handoff-cli/handoff"
)

// Headlines remembers each failed result's headline (failingLine) for one
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
type Headlines struct {
	byContent map[string]string
	failedBy  map[string]bool
	objects   map[string]map[string]any
}

// NewHeadlines returns an empty headline memo for one Build.
func NewHeadlines() *Headlines {
	return &Headlines{byContent: map[string]string{}, failedBy: map[string]bool{}, objects: map[string]map[string]any{}}
}

// Object is decodeObject(raw), decoded once per input. The map is shared
// by every caller, which only read it.
func (h *Headlines) Object(raw json.RawMessage) map[string]any {
	if h == nil {
		return DecodeObject(raw)
	}
	if in, ok := h.objects[string(raw)]; ok {
		return in
	}
	in := DecodeObject(raw)
	h.objects[string(raw)] = in
	return in
}

// Failed is failed(r), its content judged once per content.
func (h *Headlines) Failed(r handoff.ToolResult) bool {
	if h == nil || r.IsError || r.ExitCode != nil {
		return Failed(r)
	}
	if f, ok := h.failedBy[r.Content]; ok {
		return f
	}
	f := Failed(r)
	h.failedBy[r.Content] = f
	return f
}

// FailingLine is failingLine(content), computed once per content.
func (h *Headlines) FailingLine(content string) string {
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
