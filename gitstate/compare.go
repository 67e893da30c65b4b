package gitstate

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
)

// Divergence is how a working tree differs from the git state a snapshot
// recorded: what a resumed session must know before it trusts the
// snapshot's account of the files.
type Divergence struct {
	// Snapshot is the recorded state; Current is dir's state now.
	Snapshot *handoff.GitState `json:"snapshot,omitempty"`
	Current  *handoff.GitState `json:"current"`
	// Compared is false when either side has no git state to compare.
	Compared bool `json:"compared"`

	BranchChanged bool `json:"branch_changed,omitempty"`
	// HeadMoved: HEAD is another commit than the snapshot's.
	HeadMoved bool `json:"head_moved,omitempty"`
	// Ahead counts the commits from the snapshot's commit to HEAD, when
	// HEAD descends from it.
	Ahead int `json:"ahead,omitempty"`
	// NotDescendant: the snapshot's commit is not an ancestor of HEAD
	// (history rewritten, or another line of work).
	NotDescendant bool `json:"not_descendant,omitempty"`
	// UnknownCommit: this repository does not have the snapshot's commit.
	UnknownCommit bool `json:"unknown_commit,omitempty"`
	// ChangedSince lists files that differ now from the snapshot's commit
	// and were not already uncommitted when the snapshot was taken.
	ChangedSince []string `json:"changed_since,omitempty"`
	// ChangesGone: the snapshot recorded uncommitted changes, HEAD has not
	// moved, and the tree is now clean (stashed or reverted).
	ChangesGone bool `json:"changes_gone,omitempty"`
}

// Compare reads dir's git state and compares it with the snapshot's. Like
// Read it never fails: what cannot be compared is said in the result.
func Compare(ctx context.Context, dir string, snap *handoff.GitState) *Divergence {
	d := &Divergence{Snapshot: snap, Current: Read(ctx, dir)}
	if snap == nil || !snap.Available || snap.Commit == "" || !d.Current.Available || d.Current.Commit == "" {
		return d
	}
	d.Compared = true
	cur := d.Current
	top, err := run(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		d.Compared = false
		return d
	}
	top = strings.TrimSpace(top)
	d.BranchChanged = snap.Branch != "" && snap.Branch != "(detached)" && cur.Branch != snap.Branch
	d.HeadMoved = cur.Commit != snap.Commit
	if _, err := run(ctx, top, "cat-file", "-e", snap.Commit+"^{commit}"); err != nil {
		d.UnknownCommit = true
		return d
	}
	if d.HeadMoved {
		if _, err := run(ctx, top, "merge-base", "--is-ancestor", snap.Commit, cur.Commit); err != nil {
			d.NotDescendant = true
		} else if n, err := run(ctx, top, "rev-list", "--count", snap.Commit+".."+cur.Commit); err == nil {
			d.Ahead, _ = strconv.Atoi(strings.TrimSpace(n))
		}
	}
	wasDirty := slices.Concat(snap.Modified, snap.Staged, snap.Untracked)
	if names, err := run(ctx, top, "diff", "--name-only", "-z", snap.Commit); err == nil {
		for _, f := range strings.Split(names, "\x00") {
			if f != "" && !slices.Contains(wasDirty, f) {
				d.ChangedSince = appendCapped(d.ChangedSince, f)
			}
		}
	}
	for _, f := range cur.Untracked {
		if !slices.Contains(wasDirty, f) && !slices.Contains(d.ChangedSince, f) {
			d.ChangedSince = appendCapped(d.ChangedSince, f)
		}
	}
	d.ChangesGone = snap.Dirty && !cur.Dirty && !d.HeadMoved
	return d
}

// Conflict returns an ECONFLICT error when the working tree is not the one
// the snapshot describes closely enough to resume from without a person
// deciding: another branch, a HEAD that does not descend from the
// snapshot's commit, or a repository without that commit. Moving ahead on
// the same branch and edited files are only warnings.
func (d *Divergence) Conflict() error {
	var reasons []string
	if d.BranchChanged {
		reasons = append(reasons, fmt.Sprintf("the snapshot was taken on branch %s, the working tree is on %s", d.Snapshot.Branch, d.Current.Branch))
	}
	if d.UnknownCommit {
		reasons = append(reasons, fmt.Sprintf("this repository does not have the snapshot's commit %s", short(d.Snapshot.Commit)))
	}
	if d.NotDescendant {
		reasons = append(reasons, fmt.Sprintf("HEAD %s does not descend from the snapshot's commit %s (history rewritten or another line of work)",
			short(d.Current.Commit), short(d.Snapshot.Commit)))
	}
	if len(reasons) == 0 {
		return nil
	}
	return handoff.Errorf(handoff.ECONFLICT, "the working tree has diverged from the snapshot: %s; check out the snapshot's branch or commit, or pass --force",
		strings.Join(reasons, "; "))
}

// Warnings lists the differences worth telling a resumed session about
// that do not block resuming, one line each.
func (d *Divergence) Warnings() []string {
	var out []string
	s, c := d.Snapshot, d.Current
	switch {
	case s == nil || !s.Available:
		// Nothing recorded: nothing to warn about.
	case !c.Available:
		out = append(out, fmt.Sprintf("the snapshot recorded git state (branch %s) but here there is none: %s", s.Branch, c.Note))
	case s.Commit == "" || c.Commit == "":
		out = append(out, "cannot compare with the snapshot: a repository without commits")
	}
	if !d.Compared {
		return out
	}
	if d.HeadMoved && !d.NotDescendant && !d.UnknownCommit {
		out = append(out, fmt.Sprintf("HEAD moved %d commit(s) ahead since the snapshot (%s → %s)", d.Ahead, short(s.Commit), short(c.Commit)))
	}
	if n := len(d.ChangedSince); n > 0 {
		const shown = 10
		list := d.ChangedSince
		more := ""
		if n > shown {
			list, more = list[:shown], fmt.Sprintf(" (+%d more)", n-shown)
		}
		out = append(out, fmt.Sprintf("%d file(s) changed since the snapshot: %s%s", n, strings.Join(list, ", "), more))
	}
	if d.ChangesGone {
		out = append(out, "the uncommitted changes the snapshot recorded are gone (stashed or reverted?)")
	}
	return out
}

// short abbreviates a commit id for messages.
func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
