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
		{4 * mib, 200},   // goal 32 MiB would be 700%: capped at 200
		{16 * mib, 100},  // goal 32 MiB
		{24 * mib, 50},   // 33%: raised to 50
		{100 * mib, 50},  // large: 1.5x live
		{2000 * mib, 50}, // no overflow
	} {
		if got := pacePercent(c.live, heapGoalFloor, gcPercent, minGCPercent); got != c.want {
			t.Errorf("pacePercent(%d MiB) = %d, want %d", c.live/mib, got, c.want)
		}
	}
}
