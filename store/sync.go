package store

import (
	"cmp"
	"fmt"
	"os"
	"os/user"
	"slices"
	"time"

	handoff "github.com/handoff-cli/handoff"
)

// EventSyncResolved records that handoff sync found a workflow in another
// status on the other store and took that one (MergeStatus says which
// wins), so the event log shows why a status changed without anyone here
// moving it.
const EventSyncResolved handoff.EventType = "WORKFLOW_SYNC_RESOLVED"

// Maker names who makes the snapshots a store saves: the machine and the
// user, kept with every snapshot and carried by sync, so a team store can
// say who took which snapshot.
type Maker struct {
	Machine string
	User    string
}

// DefaultMaker is this process's machine (host name) and user ($USER,
// else the account's name).
func DefaultMaker() Maker {
	o := Maker{User: os.Getenv("USER")}
	if h, err := os.Hostname(); err == nil {
		o.Machine = h
	}
	if o.User == "" {
		if u, err := user.Current(); err == nil {
			o.User = u.Username
		}
	}
	return o
}

// WorkflowState is a workflow as sync compares it: its row plus when its
// status last moved.
type WorkflowState struct {
	handoff.Workflow
	// StatusChangedAt is when the status last moved; nil for a workflow
	// whose status nobody moved yet (created by a save), which any move
	// made elsewhere beats.
	StatusChangedAt *time.Time `json:"status_changed_at,omitempty" db:"status_changed_at"`
}

// changedAt is when w's status last moved, to the microsecond (what both
// stores keep); the zero time when it never moved.
func (w WorkflowState) changedAt() time.Time {
	if w.StatusChangedAt == nil {
		return time.Time{}
	}
	return w.StatusChangedAt.UTC().Round(time.Microsecond)
}

// MergeStatus decides which of two copies of one workflow's status stands
// after a sync: a final status (completed, cancelled) beats an open one,
// since nothing may leave it; otherwise the later status move wins; equal
// times fall back to the status and reason text, so every store picks the
// same one. It reports whether remote wins, and why in words for the
// event log.
func MergeStatus(local, remote WorkflowState) (remoteWins bool, why string) {
	lf, rf := local.Status.Terminal(), remote.Status.Terminal()
	if lf != rf {
		if rf {
			return true, fmt.Sprintf("%s is final", remote.Status)
		}
		return false, fmt.Sprintf("%s is final", local.Status)
	}
	lt, rt := local.changedAt(), remote.changedAt()
	c := lt.Compare(rt)
	if c == 0 {
		c = cmp.Compare(string(local.Status), string(remote.Status))
	}
	if c == 0 {
		c = cmp.Compare(local.PauseReason, remote.PauseReason)
	}
	if c >= 0 {
		return false, "the later status move wins"
	}
	return true, "the later status move wins"
}

// MovedAt words when w's status moved, for an event's detail.
func MovedAt(w WorkflowState) string {
	if w.StatusChangedAt == nil {
		return "never moved"
	}
	return "moved " + w.changedAt().Format(time.RFC3339)
}

// MergeRole says which end of a sync a store merging another store's
// copy of a workflow is (MergeWorkflow).
type MergeRole int

const (
	// Receiving: the other store's state is pushed into this one (the
	// team store, or whichever store sync was pointed at). A status this
	// store gives way records EventSyncResolved: the state it held came
	// from elsewhere, and here is where it is overtaken.
	Receiving MergeRole = iota
	// Pulling: the store sync runs on takes the other store's state. A
	// status it gives way records EventSyncResolved only when it moved
	// here since this store last synced it (MarkSynced): a status it had
	// already pushed was resolved, if at all, on the store where it was
	// overtaken, and that store's event arrives with the events. So a
	// store catching up on moves made and synced elsewhere records
	// nothing new, and event logs agree after the same syncs that make
	// statuses agree.
	Pulling
)

// Resolution is the EventSyncResolved event a store records when a sync
// replaces its copy of a workflow's status (local) with another store's
// (remote): its detail and time follow from the two copies alone, never
// from which store sees them or when, so every store that meets the same
// conflict records the same event and CopyEvent (same workflow, type,
// time and detail) keeps one. That is what lets event logs agree after
// the same syncs that make statuses agree: the store the winning status
// reaches first records the event and hands it on in the same sync, and
// any store that meets the conflict later records a copy of it, not a
// new one. The time is the later of the two status moves (when the
// conflict arose), else of the two creations.
func Resolution(local, remote WorkflowState, why string) (detail string, at time.Time) {
	side := func(w WorkflowState) string {
		s := fmt.Sprintf("%s (%s", w.Status, MovedAt(w))
		if w.PauseReason != "" {
			s += "; reason: " + w.PauseReason
		}
		return s + ")"
	}
	detail = fmt.Sprintf("%s -> %s: %s; the stores had %s and %s", local.Status, remote.Status, why, side(local), side(remote))
	at = later(local.changedAt(), remote.changedAt())
	if at.IsZero() {
		at = later(local.CreatedAt.UTC(), remote.CreatedAt.UTC()).Round(time.Microsecond)
	}
	return detail, at
}

// later is the later of two times.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// SameStatus reports whether two copies of a workflow agree on status,
// reason and when it moved: nothing to merge.
func SameStatus(a, b WorkflowState) bool {
	return a.Status == b.Status && a.PauseReason == b.PauseReason && a.changedAt().Equal(b.changedAt())
}

// SnapshotMeta is what a snapshot row holds beside its JSON and sync
// carries with it: its agent session and content digest (so the snapshot
// stays in its session everywhere) and who made it.
type SnapshotMeta struct {
	ID           string    `db:"id"`
	WorkflowID   string    `db:"workflow_id"`
	AgentSession string    `db:"agent_session"`
	Digest       string    `db:"digest"`
	Machine      string    `db:"machine"`
	Author       string    `db:"author"`
	CreatedAt    time.Time `db:"created_at"`
}

// SessionRow is one snapshot as session numbering (SessionNumbers) sees it.
type SessionRow struct {
	ID           string    `db:"id"`
	WorkflowID   string    `db:"workflow_id"`
	AgentSession string    `db:"agent_session"`
	CreatedAt    time.Time `db:"created_at"`
	Number       int       `db:"session_number"`
}

// SessionNumbers numbers each workflow's sessions from its snapshots alone:
// a session is an agent session (a snapshot without one is a session of
// its own), and a workflow's sessions are numbered 1, 2, … in order of
// their first snapshot's time (to the microsecond), ties broken by the
// agent session. Every store holding the same snapshots therefore numbers
// them alike, whichever order they arrived in. It returns each snapshot's
// number by id.
func SessionNumbers(rows []SessionRow) map[string]int {
	nums := sessionNumbersOf(rows)
	out := make(map[string]int, len(rows))
	for i, r := range rows {
		out[r.ID] = nums[i]
	}
	return out
}

// sessionNumbersOf is SessionNumbers by position: the number of rows[i]
// is the i-th result. It groups the rows by workflow (one map lookup per
// row) and numbers each workflow's few rows on their own (a
// sessionNumberer), so numbering ten thousand snapshots costs a few
// milliseconds instead of the tens that maps keyed by workflow and
// session took.
func sessionNumbersOf(rows []SessionRow) []int {
	// Rows of one workflow become contiguous, in order of the workflow's
	// first row (a counting sort).
	workflowOf := make([]int32, len(rows))
	index := map[string]int32{}
	var sizes []int
	for i, r := range rows {
		w, ok := index[r.WorkflowID]
		if !ok {
			w = int32(len(sizes))
			index[r.WorkflowID] = w
			sizes = append(sizes, 0)
		}
		workflowOf[i] = w
		sizes[w]++
	}
	start := make([]int, len(sizes)+1)
	for w, n := range sizes {
		start[w+1] = start[w] + n
	}
	order := make([]int, len(rows))
	next := slices.Clone(start[:len(sizes)])
	for i := range rows {
		w := workflowOf[i]
		order[next[w]] = i
		next[w]++
	}
	out := make([]int, len(rows))
	var nb sessionNumberer
	for w := range sizes {
		for _, i := range order[start[w]:start[w+1]] {
			nb.add(rows[i], i)
		}
		nb.number(func(i, n int) { out[i] = n })
	}
	return out
}

// sessionNumberer numbers the sessions of one workflow's rows, added one
// at a time; its buffers are reused from one workflow to the next.
type sessionNumberer struct {
	entries, firsts []sessionEntry
}

// sessionEntry is a row as numbering compares it.
type sessionEntry struct {
	key string
	at  int64 // microseconds, rounded as SessionNumbers says
	pos int   // the caller's position of the row
	n   int
}

// add takes row r of the workflow being numbered, at the caller's
// position pos.
func (nb *sessionNumberer) add(r SessionRow, pos int) {
	key := r.AgentSession
	if key == "" {
		key = "row:" + r.ID
	}
	nb.entries = append(nb.entries, sessionEntry{key: key, at: r.CreatedAt.Round(time.Microsecond).UnixMicro(), pos: pos})
}

// number calls set with each added row's position and session number,
// then forgets the rows.
func (nb *sessionNumberer) number(set func(pos, n int)) {
	group := nb.entries
	// A session's first time is its earliest row's.
	slices.SortFunc(group, func(a, b sessionEntry) int {
		return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.at, b.at))
	})
	firsts := nb.firsts[:0]
	for i, e := range group {
		if i == 0 || e.key != group[i-1].key {
			firsts = append(firsts, e)
		}
	}
	slices.SortFunc(firsts, func(a, b sessionEntry) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.key, b.key))
	})
	for n := range firsts {
		firsts[n].n = n + 1
	}
	slices.SortFunc(firsts, func(a, b sessionEntry) int { return cmp.Compare(a.key, b.key) })
	j := 0
	for _, e := range group {
		for firsts[j].key != e.key {
			j++
		}
		set(e.pos, firsts[j].n)
	}
	nb.entries, nb.firsts = group[:0], firsts[:0]
}

// Summary is what a listing shows of a snapshot, kept in columns beside
// its JSON so listing never decodes it.
type Summary struct {
	Goal        string
	Utilization float64
	Decisions   int
	OpenErrors  int
}

// Summarize computes snap's summary columns.
func Summarize(snap *handoff.Snapshot) Summary {
	return Summary{
		Goal:        snap.Goal,
		Utilization: snap.Usage.ContextUtilization,
		Decisions:   len(snap.CurrentDecisions()),
		OpenErrors:  len(snap.UnresolvedErrors()),
	}
}
