package main

import "testing"

// TestPacePercent checks the growth target gcPace sets after a collection:
// gcPercent while the live heap is small, the floor goal between, and
// minGCPercent once the live heap is large.
func TestPacePercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live int64
		want int
	}{
		{0, 200},
		{4 * mib, 200},             // goal 32 MiB would be 700%: capped at 200
		{16 * mib, 100},            // goal 32 MiB
		{22 * mib, 45},             // goal 32 MiB
		{24 * mib, minGCPercent},   // 1.35x live passes the floor
		{100 * mib, minGCPercent},  // large: 1.35x live
		{2000 * mib, minGCPercent}, // no overflow
	} {
		if got := pacePercent(c.live, heapGoalFloor, gcPercent, minGCPercent); got != c.want {
			t.Errorf("pacePercent(%d MiB) = %d, want %d", c.live/mib, got, c.want)
		}
	}
}

// TestLimitFor checks the soft memory limit gcPace keeps after a
// collection: the heap goal the pacing set (never under the floor) plus
// the slack for what the goal does not count.
func TestLimitFor(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live int64
		pct  int
		want int64
	}{
		{0, 200, 32*mib + limitSlack + 32*mib/limitSlackDivisor},          // the floor goal
		{16 * mib, 100, 32*mib + limitSlack + 32*mib/limitSlackDivisor},   // still the floor
		{100 * mib, 50, 150*mib + limitSlack + 150*mib/limitSlackDivisor}, // 1.5x live
		{2000 * mib, 50, 3000*mib + limitSlack + 3000*mib/limitSlackDivisor},
	} {
		if got := limitFor(c.live, heapGoalFloor, c.pct); got != c.want {
			t.Errorf("limitFor(%d MiB, %d%%) = %d MiB, want %d MiB", c.live/mib, c.pct, got/mib, c.want/mib)
		}
		if goal := max(heapGoalFloor, c.live+c.live*int64(c.pct)/100); limitFor(c.live, heapGoalFloor, c.pct) <= goal {
			t.Errorf("limitFor(%d MiB) is not above the heap goal %d MiB", c.live/mib, goal/mib)
		}
	}
}
