package store

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"

	handoff "github.com/handoff-cli/handoff"
)

// Search looks for words across the decisions, errors, requests, files
// and prompt of every snapshot. Both stores index the same documents
// (SearchDocOf) as the same words (Terms: lower case, letters and digits,
// everything else a separator), so a query finds the same snapshots on
// SQLite (FTS4, ranked by BM25 over its match statistics) and PostgreSQL
// (tsvector, ts_rank_cd), and both cut snippets with the same code
// (Highlight).

// The searchable fields of a snapshot, best weighted first.
const (
	FieldDecisions = "decisions"
	FieldErrors    = "errors"
	FieldRequests  = "requests"
	FieldPrompt    = "prompt"
	FieldFiles     = "files"
)

// SearchFields lists the fields in the order the index keeps them.
var searchFields = [...]string{FieldDecisions, FieldErrors, FieldRequests, FieldFiles, FieldPrompt}

// SearchFields returns the fields in index order.
func SearchFields() []string { return searchFields[:] }

// fieldWeight is how much a match in each field counts (index order): a
// decision or an error is what a team asks about; a file name matches
// many snapshots.
var fieldWeight = [...]float64{1.0, 1.0, 0.6, 0.2, 0.4}

// SearchDoc is what the index holds of one snapshot, in index order.
type SearchDoc [5]string

// SearchDocOf collects the searchable text of snap: decisions (what,
// why, instead of what), errors (message, context, command, notes), the
// person's requests (goal, latest request, messages, constraints), the
// files modified, and the prompt's lead (next step, where the session
// stopped, the pause reason, the compaction summary carried forward).
func SearchDocOf(snap *handoff.Snapshot) SearchDoc {
	var d [5]strings.Builder
	line := func(i int, parts ...string) {
		for _, p := range parts {
			if p = strings.TrimSpace(p); p != "" {
				d[i].WriteString(p)
				d[i].WriteByte('\n')
			}
		}
	}
	for _, x := range snap.Decisions {
		line(0, x.Description, x.Rationale, strings.Join(x.Alternatives, "; "))
	}
	for _, e := range snap.Errors {
		line(1, e.Message, e.Context, e.Command, e.ResolutionNotes)
	}
	line(2, snap.Goal, snap.LatestRequest)
	for _, r := range snap.Requests {
		line(2, r.Text)
	}
	for _, c := range snap.Constraints {
		line(2, c.Text)
	}
	for _, f := range snap.FilesModified {
		line(3, f.Path)
	}
	line(4, snap.NextStep, snap.PauseReason)
	if e := snap.EndState; e != nil {
		line(4, e.LastAssistant, e.Question, e.StatedNext, e.CurrentWork)
	}
	if c := snap.Carried; c != nil {
		for _, s := range c.Sections {
			line(4, s.Text)
		}
	}
	var out SearchDoc
	for i := range d {
		out[i] = d[i].String()
	}
	return out
}

// Terms splits text into the words the index and queries use: runs of
// letters and digits, lower-cased.
func Terms(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
}

// TermText is text as the index stores it: its Terms joined by spaces.
func TermText(text string) string { return strings.Join(Terms(text), " ") }

// maxQueryTerms bounds a query's words.
const maxQueryTerms = 16

// QueryTerms are the distinct words of a query, at most maxQueryTerms;
// EINVALID when it has none.
func QueryTerms(q string) ([]string, error) {
	var out []string
	for _, t := range Terms(q) {
		if !slices.Contains(out, t) && len(out) < maxQueryTerms {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, handoff.Errorf(handoff.EINVALID, "search: %q has no words to look for", q)
	}
	return out, nil
}

// SearchQuery is what Search looks for.
type SearchQuery struct {
	// Text is the words; every word must occur in the snapshot (in any
	// field).
	Text string
	// WorkflowID keeps one workflow's snapshots; "" searches all.
	WorkflowID string
	// Limit caps the hits (default 20, at most 200).
	Limit int
}

// DefaultSearchLimit and MaxSearchLimit bound SearchQuery.Limit.
const (
	DefaultSearchLimit = 20
	MaxSearchLimit     = 200
)

// SearchHit is one session that matched: its newest matching snapshot,
// the fields where the words occur (best first) and a snippet of the
// best one.
type SearchHit struct {
	WorkflowID    string    `json:"workflow_id"`
	SnapshotID    string    `json:"snapshot_id"`
	SessionNumber int       `json:"session_number"`
	CreatedAt     time.Time `json:"created_at"`
	Rank          float64   `json:"rank"`
	Fields        []string  `json:"fields"`
	Field         string    `json:"field"`
	Snippet       string    `json:"snippet"`
}

// Candidate is a matching snapshot before ranking is final, as a store's
// query returns it. SessionNumber is filled for the hits only, after
// TopSessions, from SessionKey's session.
type Candidate struct {
	ID            string
	WorkflowID    string
	SessionKey    string
	SessionNumber int
	CreatedAt     time.Time
	Score         float64
	// Group is SessionGroup(WorkflowID, SessionKey), At the time in Unix
	// microseconds and Doc the store's row key: what TopSessions needs,
	// as numbers, so a store can rank thousands of candidates before it
	// reads any of their strings.
	Group uint64
	At    int64
	Doc   int64
}

// SessionGroup is the number TopSessions groups a candidate by: a 64-bit
// FNV-1a hash of its workflow and session key.
func SessionGroup(workflowID, sessionKey string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(workflowID))
	h.Write([]byte{0})
	h.Write([]byte(sessionKey))
	return h.Sum64()
}

// IndexSessionKey is the session a snapshot is grouped under in search
// results: its agent session, or the snapshot alone (as SessionNumbers
// groups them).
func IndexSessionKey(id, agentSession string) string {
	if agentSession == "" {
		return "row:" + id
	}
	return agentSession
}

// limit is q's hit count.
func (q SearchQuery) limit() (int, error) {
	switch {
	case q.Limit == 0:
		return DefaultSearchLimit, nil
	case q.Limit < 0 || q.Limit > MaxSearchLimit:
		return 0, handoff.Errorf(handoff.EINVALID, "search: limit must be 1..%d, got %d", MaxSearchLimit, q.Limit)
	}
	return q.Limit, nil
}

// TopSessions keeps, of every (workflow, session), its newest matching
// snapshot with the session's best score, and returns the best limit of
// them, best first (ties: newest first, then id). A decision carried
// from snapshot to snapshot of a session is one hit, not one per
// snapshot. It runs in one pass over cands (which it may reorder and
// whose scores it may raise) and keeps only the best limit sorted, so
// ranking thousands of candidates costs little more than reading them.
func TopSessions(cands []Candidate, limit int) []Candidate {
	if limit <= 0 || len(cands) == 0 {
		return nil
	}
	// Each session's newest candidate, carrying the session's best score.
	best := make(map[uint64]int, min(len(cands), 1<<16))
	for i := range cands {
		c := &cands[i]
		j, ok := best[c.Group]
		if !ok {
			best[c.Group] = i
			continue
		}
		b := &cands[j]
		if c.At > b.At || (c.At == b.At && (c.ID > b.ID || (c.ID == b.ID && c.Doc > b.Doc))) {
			c.Score = max(c.Score, b.Score)
			best[c.Group] = i
		} else {
			b.Score = max(b.Score, c.Score)
		}
	}
	// The best limit of them, kept sorted by insertion: a candidate that
	// does not beat the worst kept one costs one comparison.
	better := func(a, b *Candidate) bool {
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.At != b.At {
			return a.At > b.At
		}
		if a.ID != b.ID {
			return a.ID < b.ID
		}
		return a.Doc < b.Doc
	}
	top := make([]int, 0, min(limit, len(best))+1)
	for _, i := range best {
		c := &cands[i]
		if len(top) == limit && !better(c, &cands[top[len(top)-1]]) {
			continue
		}
		at, _ := slices.BinarySearchFunc(top, i, func(k, i int) int {
			if better(&cands[k], &cands[i]) {
				return -1
			}
			return 1
		})
		top = slices.Insert(top, at, i)
		if len(top) > limit {
			top = top[:limit]
		}
	}
	out := make([]Candidate, len(top))
	for n, i := range top {
		out[n] = cands[i]
	}
	return out
}

// snippetRunes is about how long a snippet is.
const snippetRunes = 180

// Highlight fills a hit's fields and snippet from the snapshot's search
// document: every field where a query word occurs, best weighted first,
// and around the first occurrence in the best one a snippet of about
// snippetRunes runes, whole lines where they fit.
func Highlight(c Candidate, doc SearchDoc, terms []string) SearchHit {
	hit := SearchHit{WorkflowID: c.WorkflowID, SnapshotID: c.ID, SessionNumber: c.SessionNumber, CreatedAt: c.CreatedAt, Rank: c.Score}
	order := []int{0, 1, 2, 4, 3} // decisions, errors, requests, prompt, files
	for _, i := range order {
		words := Terms(doc[i])
		found := false
		for _, t := range terms {
			if slices.Contains(words, t) {
				found = true
				break
			}
		}
		if !found {
			continue
		}
		hit.Fields = append(hit.Fields, searchFields[i])
		if hit.Field == "" {
			hit.Field, hit.Snippet = searchFields[i], snippet(doc[i], terms)
		}
	}
	return hit
}

// snippet cuts text around the first line holding a query word.
func snippet(text string, terms []string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	at := 0
	for i, l := range lines {
		words := Terms(l)
		if slices.ContainsFunc(terms, func(t string) bool { return slices.Contains(words, t) }) {
			at = i
			break
		}
	}
	r := []rune(lines[at])
	if len(r) <= snippetRunes {
		return string(r)
	}
	// Centre the window on the first word found in the line.
	lower := strings.ToLower(lines[at])
	pos := -1
	for _, t := range terms {
		if p := strings.Index(lower, t); p >= 0 && (pos < 0 || p < pos) {
			pos = p
		}
	}
	start := 0
	if pos > 0 {
		start = max(0, len([]rune(lower[:pos]))-snippetRunes/3)
	}
	end := min(len(r), start+snippetRunes)
	out := string(r[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(r) {
		out += "…"
	}
	return out
}

// BM25 scores one FTS4 row from matchinfo(…, 'pcnx') for the query's
// phrases, each column weighted by fieldWeight: BM25 with k1 = 1.2 and
// no length normalisation (b = 0), summed over columns. The lengths
// ('l', 'a') would cost a document-size lookup per matching row, which
// for a word in every snapshot doubled the search's time; the fields are
// short lists, where length says little.
func BM25(info []byte) float64 {
	u := func(i int) float64 {
		if 4*i+4 > len(info) {
			return 0
		}
		return float64(binary.NativeEndian.Uint32(info[4*i:]))
	}
	p, c, n := int(u(0)), int(u(1)), u(2)
	if p == 0 || c == 0 || len(info) < 4*(3+3*p*c) {
		return 0
	}
	const k1 = 1.2
	score := 0.0
	for ph := range p {
		// A word's rarity is the word's, not the field's: the documents
		// holding it are counted in the field that holds it most often
		// (matchinfo counts per column).
		docs := 0.0
		for col := range c {
			docs = max(docs, u(3+3*(ph*c+col)+2))
		}
		idf := math.Log(1 + (n-docs+0.5)/(docs+0.5))
		for col := range c {
			x := 3 + 3*(ph*c+col)
			tf := u(x)
			if tf == 0 {
				continue
			}
			norm := 1.0
			w := 1.0
			if col < len(fieldWeight) {
				w = fieldWeight[col]
			}
			score += w * idf * tf * (k1 + 1) / (tf + k1*norm)
		}
	}
	return score
}
