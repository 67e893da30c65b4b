package server

import (
	"sync"

	"github.com/handoff-cli/handoff"
)

// snapCache keeps decoded snapshots by id. A stored snapshot's content
// never changes (the store writes it once; its session number is derived when read,
// which readers take from the listing row, not from here), so an entry
// never goes stale; the
// timeline lists every snapshot of a workflow, and decoding each one's
// JSON on every page view was most of a read's CPU time. Entries are
// shared and must not be modified.
type snapCache struct {
	mu    sync.Mutex
	max   int
	byID  map[string]*handoff.Snapshot
	order []string // insertion order, for FIFO eviction
}

func newSnapCache(max int) *snapCache {
	return &snapCache{max: max, byID: make(map[string]*handoff.Snapshot, max)}
}

func (c *snapCache) get(id string) (*handoff.Snapshot, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s, ok := c.byID[id]
	return s, ok
}

func (c *snapCache) put(s *handoff.Snapshot) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byID[s.ID]; ok {
		return
	}
	if len(c.order) >= c.max {
		delete(c.byID, c.order[0])
		c.order = c.order[1:]
	}
	c.byID[s.ID] = s
	c.order = append(c.order, s.ID)
}
