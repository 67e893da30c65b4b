package extractor

// headlines remembers each failed result's headline (failingLine) for one
// Build: the facts' error log and the recent turns' tool lines both need
// it for the same results, and scoring a failure's lines with the
// headline regexes is the dearest thing either does. A nil *headlines
// computes every time, for the callers outside Build.
type headlines struct{ byContent map[string]string }

func newHeadlines() *headlines { return &headlines{byContent: map[string]string{}} }

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
