package extractor

import handoff "github.com/handoff-cli/handoff"

// headlines remembers each failed result's headline (failingLine) for one
// Build: the facts' error log and the recent turns' tool lines both need
// it for the same results, and scoring a failure's lines with the
// headline regexes is the dearest thing either does. A nil *headlines
// computes every time, for the callers outside Build.
//
// It also remembers, per content, what failed reads in it: the facts and
// the git state both judge every result, and contentFailRe over a long
// output is the next dearest thing.
type headlines struct {
	byContent map[string]string
	failedBy  map[string]bool
}

func newHeadlines() *headlines {
	return &headlines{byContent: map[string]string{}, failedBy: map[string]bool{}}
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
