package compiler

import (
	"container/heap"
	"slices"
	"strings"
)

// At a small budget the rank table alone spends the room badly. In a
// Claude Code session that ended on an API error, 500 tokens went to two
// lines repeating the `/context` error the next step already quotes,
// while the person's own pick ("TypeScript (Bun); …
// ImageGeneratorNanoBananaPro") and their language were cut: lines of
// the stop section outrank decisions, whatever they add. A successor
// resuming from a few hundred tokens needs the most distinct things
// named (files, commands, identifiers, versions, commit hashes) per
// token, so below noveltyEnd each piece's effective rank is
//
//	rank + weight · tokens / (1 + identifiers not named before it)
//
// computed in that order, so a piece that only repeats what the pieces
// before it named sinks below those that add to it. The weight is full up
// to smallBudget and falls to none at noveltyEnd: with more room most
// sections fit, the order decides only their tails, and there the rank
// table did better (measured on the shared set at 1000 tokens: 0.804 by
// rank, 0.785 with the full weight).
//
// The pieces that say where the session stopped (rank < rankNoveltyFrom),
// those marked keepRank (the overall goal, the next step, the current
// task, the main thread's newest open error, a failing test run that
// error does not name) and the recent turns
// (their own contiguous run, rank ≥ rankRecent) keep their ranks.
const (
	noveltyEnd      = 1000
	rankNoveltyFrom = rankLastShort + 1
)

// noveltyOrder returns piece indexes from the most to the least
// important, by effective rank (see above).
func (c *compilation) noveltyOrder() []int {
	ids := map[string]int{}
	names := make([][]int, len(c.pieces))
	for i, p := range c.pieces {
		for _, w := range identifiers(p.text) {
			id, ok := ids[w]
			if !ok {
				id = len(ids)
				ids[w] = id
			}
			names[i] = append(names[i], id)
		}
	}
	seen := make([]bool, len(ids))
	order := make([]int, 0, len(c.pieces))
	q := &noveltyQueue{}
	for i, p := range c.pieces {
		if p.fixed {
			order = append(order, i)
			for _, id := range names[i] {
				seen[id] = true
			}
			continue
		}
		q.items = append(q.items, noveltyItem{piece: i, key: c.noveltyKey(i, names[i], seen)})
	}
	heap.Init(q)
	// Lazy greedy: a key only grows as more is seen, so the popped item
	// is the least once its key, recomputed, is still no more than the
	// next one's.
	for q.Len() > 0 {
		it := heap.Pop(q).(noveltyItem)
		if k := c.noveltyKey(it.piece, names[it.piece], seen); k > it.key {
			it.key = k
			if q.Len() > 0 && k > q.items[0].key {
				heap.Push(q, it)
				continue
			}
		}
		order = append(order, it.piece)
		for _, id := range names[it.piece] {
			seen[id] = true
		}
	}
	return order
}

// noveltyKey is piece i's effective rank given the identifiers seen.
func (c *compilation) noveltyKey(i int, names []int, seen []bool) float64 {
	p := c.pieces[i]
	if p.rank < rankNoveltyFrom || p.rank >= rankRecent || p.keepRank {
		return float64(p.rank)
	}
	novel := 0
	for _, id := range names {
		if !seen[id] {
			novel++
		}
	}
	return float64(p.rank) + c.noveltyWeight()*float64(p.tokens)/float64(1+novel)
}

// noveltyWeight is the weight of the novelty penalty at the budget: full
// up to smallBudget, falling linearly to none at noveltyEnd.
func (c *compilation) noveltyWeight() float64 {
	if c.budget <= smallBudget {
		return 1
	}
	return max(0, float64(noveltyEnd-c.budget)/float64(noveltyEnd-smallBudget))
}

// noveltyItem is a piece waiting in noveltyOrder's queue with the key it
// had when last computed.
type noveltyItem struct {
	piece int
	key   float64
}

// noveltyQueue is a min-heap of noveltyItems by key, then piece index
// (the order the pieces were built in, for equal keys).
type noveltyQueue struct{ items []noveltyItem }

func (q *noveltyQueue) Len() int { return len(q.items) }
func (q *noveltyQueue) Less(a, b int) bool {
	x, y := q.items[a], q.items[b]
	return x.key < y.key || x.key == y.key && x.piece < y.piece
}
func (q *noveltyQueue) Swap(a, b int) { q.items[a], q.items[b] = q.items[b], q.items[a] }
func (q *noveltyQueue) Push(x any)    { q.items = append(q.items, x.(noveltyItem)) }
func (q *noveltyQueue) Pop() any {
	it := q.items[len(q.items)-1]
	q.items = q.items[:len(q.items)-1]
	return it
}

// identifiers returns the distinct identifier-like words of text,
// lowercased: runs of ASCII letters, digits and underscores, joined by
// inner '.', '/', ':' or '-', at least 3 long, that hold a digit, one of
// those joiners or an underscore, or an upper-case letter after the
// first ("go.mod", "src/app.ts", "v1.2", "f0c3276", "snake_case",
// "camelCase", "--help" as "help" is not one). Plain words, in any
// script, are not: they name nothing a successor could look up.
func identifiers(text string) []string {
	var out []string
	for i := 0; i < len(text); {
		if !identChar(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && (identChar(text[j]) || identJoiner(text[j]) && j+1 < len(text) && identChar(text[j+1])) {
			j++
		}
		if w := text[i:j]; len(w) >= 3 && identLike(w) {
			lw := strings.ToLower(w) // ASCII: its fast path
			if !slices.Contains(out, lw) {
				out = append(out, lw)
			}
		}
		i = j
	}
	return out
}

func identChar(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_'
}

func identJoiner(b byte) bool { return b == '.' || b == '/' || b == ':' || b == '-' }

// identLike reports whether an identifier-shaped word is more than a
// plain word: it holds a digit, an underscore, a joiner, or an upper-case
// letter after the first.
func identLike(w string) bool {
	for k := 0; k < len(w); k++ {
		b := w[k]
		if b >= '0' && b <= '9' || b == '_' || identJoiner(b) || k > 0 && b >= 'A' && b <= 'Z' {
			return true
		}
	}
	return false
}
