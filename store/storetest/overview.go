package storetest

import (
	"context"
	"fmt"
	"testing"

	handoff "github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
)

// Pager is the paged, decode-free workflow listing the server's list and
// index use.
type Pager interface {
	OverviewPage(ctx context.Context, f store.OverviewFilter) (*store.OverviewPage, error)
}

// testOverviewPage: paging walks every workflow once, most recently
// active first, each with its latest snapshot (newest by time) from the
// summary columns; filters and a bad cursor behave.
func testOverviewPage(t *testing.T, s Store) {
	p, ok := s.(Pager)
	if !ok {
		t.Fatal("the store lacks OverviewPage")
	}
	ctx := context.Background()
	const n = 7
	for i := range n {
		wf := fmt.Sprintf("wf_page%d", i)
		must(t, s.SaveSnapshot(ctx, Snap(wf, 2*i), store.WorkflowInfo{Dir: "/p"}))
		must(t, s.SaveSnapshot(ctx, Snap(wf, 2*i+1), store.WorkflowInfo{Dir: "/p"}))
	}
	must(t, s.SetWorkflowStatus(ctx, "wf_page3", handoff.WorkflowPaused, "lunch"))
	all, _, err := s.Overview(ctx)
	must(t, err)
	var got []store.WorkflowOverview
	cursor := ""
	for pages := 0; ; pages++ {
		page, err := p.OverviewPage(ctx, store.OverviewFilter{Limit: 3, After: cursor})
		must(t, err)
		got = append(got, page.Workflows...)
		if page.Next == "" {
			break
		}
		if pages > n {
			t.Fatal("paging does not end")
		}
		cursor = page.Next
	}
	if len(got) != len(all) {
		t.Fatalf("paged %d workflows, listed %d", len(got), len(all))
	}
	for i, o := range got {
		if o.ID != all[i].ID || o.Latest == nil || all[i].Latest == nil || o.Latest.ID != all[i].Latest.ID {
			t.Fatalf("page entry %d = %s latest %+v, overview has %s latest %+v", i, o.ID, o.Latest, all[i].ID, all[i].Latest)
		}
		latest, err := s.LatestSnapshot(ctx, o.ID)
		must(t, err)
		if o.Latest.ID != latest.ID || o.Latest.Goal != latest.Goal || o.Latest.Decisions != 1 || o.Latest.OpenErrors != 1 {
			t.Fatalf("%s: latest summary %+v, want snapshot %s (%q)", o.ID, o.Latest, latest.ID, latest.Goal)
		}
	}
	page, err := p.OverviewPage(ctx, store.OverviewFilter{Limit: 10, Status: handoff.WorkflowPaused})
	must(t, err)
	if len(page.Workflows) != 1 || page.Workflows[0].ID != "wf_page3" || page.Workflows[0].PauseReason != "lunch" {
		t.Fatalf("paused filter: %+v", page.Workflows)
	}
	_, err = p.OverviewPage(ctx, store.OverviewFilter{Limit: 3, After: "garbage!"})
	code(t, err, handoff.EINVALID)
}
