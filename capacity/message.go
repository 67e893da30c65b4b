package capacity

import (
	"encoding/binary"
	"hash/maphash"
	"sync"

	"github.com/handoff-cli/handoff"
)

// MessageOverhead is the fixed number of tokens CountMessage adds for every
// message: the role marker and the separators a chat format wraps each turn
// in (OpenAI's ChatML spends 3–4 tokens per message; Anthropic's format is
// of the same order). It is an estimate; providers do not publish theirs.
const MessageOverhead = 4

// ToolBlockOverhead is the fixed number of tokens CountMessage adds for each
// tool call and each tool result: the block's type, its call id (Claude's
// "toolu_…" and OpenAI's "call_…" ids alone are 8–12 tokens) and the JSON
// framing around it. An estimate, like MessageOverhead.
const ToolBlockOverhead = 8

// DefaultMessageCacheSize is how many per-message counts a Counter keeps.
// A long session has a few thousand messages; 64k entries of 16 bytes each
// is about 1 MB with map overhead, and holds several sessions at once.
const DefaultMessageCacheSize = 1 << 16

// CountMessage returns the tokens one message puts in the context: its
// text, its thinking, each tool call's name and input, each tool result's
// content, plus MessageOverhead and ToolBlockOverhead per tool block.
//
// A tool result the parser cut down (OriginalBytes > 0) is scaled up to its
// original size, since the model saw all of it.
//
// Counts are cached by a hash of exactly those fields, so re-measuring a
// transcript that grew by one message tokenizes only the new message. The
// hash is seeded per Counter (hash/maphash), so a crafted transcript cannot
// aim collisions at it.
func (c *Counter) CountMessage(m handoff.Message) int {
	key := c.messageKey(&m)
	if n, ok := c.cache.get(key); ok {
		return n
	}
	n := c.countMessageUncached(&m)
	c.cache.put(key, n)
	return n
}

// CountMessages returns the sum of CountMessage over ms.
func (c *Counter) CountMessages(ms []handoff.Message) int {
	total := 0
	for i := range ms {
		total += c.CountMessage(ms[i])
	}
	return total
}

func (c *Counter) countMessageUncached(m *handoff.Message) int {
	n := MessageOverhead + c.Count(m.Text) + c.Count(m.Thinking)
	for _, call := range m.ToolCalls {
		n += ToolBlockOverhead + c.Count(call.Name) + c.Count(string(call.Input))
	}
	for _, res := range m.ToolResults {
		n += ToolBlockOverhead + scaleToOriginal(c.Count(res.Content), len(res.Content), res.OriginalBytes)
	}
	return n
}

// scaleToOriginal estimates the tokens of content that was cut from
// original bytes down to kept bytes, at the density of what was kept.
func scaleToOriginal(tokens, kept, original int) int {
	if original <= kept || kept == 0 {
		return tokens
	}
	return int(float64(tokens) * float64(original) / float64(kept))
}

// messageKey hashes every field countMessageUncached reads, each prefixed
// by its length (and each list by its size) so that no two different
// messages feed the hash the same byte stream.
func (c *Counter) messageKey(m *handoff.Message) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	writeString(&h, m.Text)
	writeString(&h, m.Thinking)
	writeInt(&h, len(m.ToolCalls))
	for _, call := range m.ToolCalls {
		writeString(&h, call.Name)
		writeInt(&h, len(call.Input))
		_, _ = h.Write(call.Input)
	}
	writeInt(&h, len(m.ToolResults))
	for _, res := range m.ToolResults {
		writeString(&h, res.Content)
		writeInt(&h, res.OriginalBytes)
	}
	return h.Sum64()
}

func writeString(h *maphash.Hash, s string) {
	writeInt(h, len(s))
	_, _ = h.WriteString(s)
}

func writeInt(h *maphash.Hash, n int) {
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], uint64(n))
	_, _ = h.Write(buf[:])
}

// messageCache is a size-capped map from message hash to token count with
// two generations: new entries go into the current map; when it is full it
// becomes the old one and the previous old one is dropped. A hit in the old
// generation is copied forward. Recently used entries survive, memory is
// bounded by the cap, and no per-entry list needs maintaining, which an
// exact LRU would add for no measurable benefit here.
type messageCache struct {
	mu       sync.Mutex
	perGen   int
	cur, old map[uint64]int
}

func newMessageCache(capacity int) *messageCache {
	perGen := max(capacity/2, 1)
	return &messageCache{perGen: perGen, cur: make(map[uint64]int), old: map[uint64]int{}}
}

func (mc *messageCache) get(key uint64) (int, bool) {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	if n, ok := mc.cur[key]; ok {
		return n, true
	}
	if n, ok := mc.old[key]; ok {
		mc.putLocked(key, n)
		return n, true
	}
	return 0, false
}

func (mc *messageCache) put(key uint64, n int) {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	mc.putLocked(key, n)
}

func (mc *messageCache) putLocked(key uint64, n int) {
	if len(mc.cur) >= mc.perGen {
		mc.old, mc.cur = mc.cur, make(map[uint64]int, mc.perGen/4)
	}
	mc.cur[key] = n
}

// size reports how many entries the cache holds, for tests.
func (mc *messageCache) size() int {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	return len(mc.cur) + len(mc.old)
}
