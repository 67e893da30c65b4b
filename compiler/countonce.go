package compiler

// onceCounter is a TokenCounter that counts each distinct text once per
// Compile: fit counts the skeleton twice and Compile recounts the prompt
// fit last rendered and counted, and a BPE encode of a whole prompt costs
// far more than hashing it. Counts are the wrapped counter's own.
type onceCounter struct {
	TokenCounter
	counts map[string]int
}

func newOnceCounter(c TokenCounter) *onceCounter {
	return &onceCounter{TokenCounter: c, counts: map[string]int{}}
}

// Count returns the wrapped counter's count of text, computed once.
func (m *onceCounter) Count(text string) int {
	if n, ok := m.counts[text]; ok {
		return n
	}
	n := m.TokenCounter.Count(text)
	m.counts[text] = n
	return n
}
