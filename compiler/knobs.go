package compiler

// list names one list of items in a snapshot's rendering.
type list int

const (
	lUnresolved list = iota
	lFailing
	lInProgress
	lDecisions
	lPending
	lDone
	lFiles
	lGitFiles
	lResolved
	numLists
	noList list = -1
)

// knob is one choice the budget search makes: how many items of one
// segment of a list to show, or whether to show one optional part. Knobs
// are listed in rank order, from the one that survives longest to the one
// dropped first; the search fills them in that order. Lists are cut into
// a head ranked high and a rest ranked lower, so the first unresolved
// errors, the current task and the recent decisions all fit before any
// list is shown in full.
type knob int

const (
	kUnresolvedHead knob = iota
	kFailingHead
	kCurrentTask
	kGoal // 0: goal shortened; 1: goal at full length
	kRecentDecisions
	kPendingHead
	kInProgressRest
	kUnresolvedRest
	kFailingRest
	kOlderDecisions
	kPendingRest
	kDecisionDetails // how many of the shown decisions, newest first, have rationale and alternatives
	kSuperseded      // 0/1: the "N earlier decisions were superseded" note
	kDone
	kFiles
	kGitFiles
	kResolved
	numKnobs
)

// knobSpec says what a knob controls: a segment of a list (head items,
// or the rest when head is 0), or, with noList, an optional part.
type knobSpec struct {
	list list
	head int
}

// spec returns knob k's spec.
func spec(k knob) knobSpec {
	switch k {
	case kUnresolvedHead:
		return knobSpec{lUnresolved, 3}
	case kFailingHead:
		return knobSpec{lFailing, 5}
	case kCurrentTask:
		return knobSpec{lInProgress, 1}
	case kRecentDecisions:
		return knobSpec{lDecisions, 5}
	case kPendingHead:
		return knobSpec{lPending, 3}
	case kInProgressRest:
		return knobSpec{lInProgress, 0}
	case kUnresolvedRest:
		return knobSpec{lUnresolved, 0}
	case kFailingRest:
		return knobSpec{lFailing, 0}
	case kOlderDecisions:
		return knobSpec{lDecisions, 0}
	case kPendingRest:
		return knobSpec{lPending, 0}
	case kDone:
		return knobSpec{lDone, 0}
	case kFiles:
		return knobSpec{lFiles, 0}
	case kGitFiles:
		return knobSpec{lGitFiles, 0}
	case kResolved:
		return knobSpec{lResolved, 0}
	}
	return knobSpec{noList, 0}
}

// config is the value of every knob.
type config [numKnobs]int

// counts is how many items of each list a config shows.
type counts [numLists]int

// knobSet says which knobs a layout renders; the others stay at zero.
type knobSet [numKnobs]bool

func knobsOf(ks ...knob) knobSet {
	var s knobSet
	for _, k := range ks {
		s[k] = true
	}
	return s
}

// fullLayout renders every knob; compactLayout only the heads of the
// lists that survive longest and the goal.
func fullLayout() knobSet {
	var s knobSet
	for k := range s {
		s[k] = true
	}
	return s
}

func compactLayout() knobSet {
	return knobsOf(kUnresolvedHead, kFailingHead, kCurrentTask, kGoal, kRecentDecisions, kPendingHead)
}

// listLen is the number of items in list l.
func (m *material) listLen(l list) int {
	switch l {
	case lUnresolved:
		return len(m.unresolved)
	case lFailing:
		return len(m.failing)
	case lInProgress:
		return len(m.inProgress)
	case lDecisions:
		return len(m.decisions)
	case lPending:
		return len(m.pending)
	case lDone:
		return len(m.done)
	case lFiles:
		return len(m.files)
	case lGitFiles:
		return len(m.gitFiles)
	case lResolved:
		return len(m.resolved)
	}
	return 0
}

// limits returns the largest useful value of every knob.
func (m *material) limits() config {
	var l config
	var used counts
	for k := knob(0); k < numKnobs; k++ {
		sp := spec(k)
		if sp.list == noList {
			continue
		}
		n := m.listLen(sp.list) - used[sp.list]
		if sp.head > 0 {
			n = min(n, sp.head)
		}
		l[k] = n
		used[sp.list] += n
	}
	l[kGoal] = boolInt(m.goalFull != m.goalShort)
	l[kDecisionDetails] = len(m.decisions)
	l[kSuperseded] = boolInt(m.superseded > 0)
	return l
}

// shown returns how many items of each list cfg shows: a segment counts
// only when every segment of its list ranked above it is shown in full.
func (c *compilation) shown(cfg config) counts {
	var n counts
	var blocked [numLists]bool
	for k := knob(0); k < numKnobs; k++ {
		l := spec(k).list
		if l == noList || blocked[l] {
			continue
		}
		n[l] += cfg[k]
		if cfg[k] < c.limits[k] {
			blocked[l] = true
		}
	}
	return n
}

// reachable reports whether knob k can change the rendering given the
// knobs ranked above it in cfg.
func (c *compilation) reachable(k knob, cfg config) bool {
	if k == kDecisionDetails {
		return c.shown(cfg)[lDecisions] > 0
	}
	l := spec(k).list
	if l == noList {
		return true
	}
	for j := knob(0); j < k; j++ {
		if spec(j).list == l && cfg[j] < c.limits[j] {
			return false
		}
	}
	return true
}
