package server

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/handoff-cli/handoff"
)

// chromiumPath finds the system Chromium. Locally a missing browser skips
// the browser test; under CI=true it fails it, since CI installs Chromium
// and a skipped check there would pass without checking anything.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "/usr/bin/chromium"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium not found; CI must install it (apt-get install chromium)")
	}
	t.Skip("chromium not installed; apt-get install chromium to run the browser test")
	return ""
}

// TestBrowserPauseResume drives the dashboard in headless Chromium: the
// timeline of a workflow with two snapshots, Pause with a reason, the
// status becoming paused, Resume, the status back to in progress. It
// saves screenshots in $HANDOFF_SCREENSHOT_DIR when set, else t.TempDir().
func TestBrowserPauseResume(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test in -short mode")
	}
	exe := chromiumPath(t)
	f := newFixture(t, nil)
	f.checkpoint("")
	f.nextSession(2)

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 1800),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithErrorf(t.Logf))
	defer bcancel()
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("chromium (%s) did not start: %v", exe, err)
	}

	shots := os.Getenv("HANDOFF_SCREENSHOT_DIR")
	if shots == "" {
		shots = t.TempDir()
	}
	shot := func(name string) chromedp.Action[chromedp.Void] {
		return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			png, err := chromedp.FullScreenshot(100)(ctx, tg) // quality 100 is a PNG
			if err != nil {
				return chromedp.Void{}, err
			}
			path := filepath.Join(shots, name)
			t.Logf("screenshot: %s", path)
			return chromedp.Void{}, os.WriteFile(path, png, 0o644)
		}
	}
	statusIs := func(want string) chromedp.Action[chromedp.Void] {
		poll := chromedp.Poll[bool](`document.querySelector("#status") !== null && document.querySelector("#status").textContent.trim() === "`+want+`"`,
			chromedp.WithPollingTimeout(15*time.Second))
		return acrossReload(func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
			_, err := poll(ctx, tg)
			return chromedp.Void{}, err
		})
	}

	err := chromedp.Do(bctx,
		chromedp.Navigate(f.srv.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("workflows")),
		chromedp.Click(chromedp.CSS(`a[href="/workflows/`+sampleWF+`"]`)),
		chromedp.WaitVisible(chromedp.ID("timeline")),
	)
	if err != nil {
		t.Fatalf("open the workflow page: %v", err)
	}
	cards, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll("#timeline li.card").length`))
	if err != nil {
		t.Fatal(err)
	}
	status, err := chromedp.Run(bctx, chromedp.Text(chromedp.ID("status")))
	if err != nil {
		t.Fatal(err)
	}
	if cards < 2 || strings.TrimSpace(status) != "in progress" {
		t.Fatalf("timeline has %d cards, status %q; want ≥ 2, in progress", cards, status)
	}

	err = chromedp.Do(bctx,
		chromedp.Click(chromedp.ID("pause-btn")),
		chromedp.WaitVisible(chromedp.ID("pause-reason")),
		chromedp.SendKeys(chromedp.ID("pause-reason"), "end of day"),
		chromedp.Click(chromedp.ID("pause-confirm")),
		statusIs("paused"),
		acrossReload(chromedp.WaitVisible(chromedp.ID("resume-btn"))), // after the page reloads
		statusIs("paused"),
		shot("dashboard-paused.png"),
	)
	if err != nil {
		t.Fatalf("pause from the dashboard: %v", err)
	}
	var d workflowDetail
	f.json("GET", "/api/workflows/"+sampleWF, nil, 200, &d)
	if d.Status != handoff.WorkflowPaused || d.PauseReason != "end of day" {
		t.Fatalf("after the Pause click the store says %s %q", d.Status, d.PauseReason)
	}

	err = chromedp.Do(bctx,
		chromedp.Click(chromedp.ID("resume-btn")),
		statusIs("in progress"),
		acrossReload(chromedp.WaitVisible(chromedp.ID("pause-btn"))),
		statusIs("in progress"),
		shot("dashboard-resumed.png"),
	)
	if err != nil {
		t.Fatalf("resume from the dashboard: %v", err)
	}
	f.json("GET", "/api/workflows/"+sampleWF, nil, 200, &d)
	if d.Status != handoff.WorkflowInProgress || d.Latest == nil || d.Latest.Trigger != handoff.TriggerPause {
		t.Fatalf("after the Resume click the store says %s, latest %+v", d.Status, d.Latest)
	}
}

// newBrowser starts headless Chromium for a test; the context ends with it.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	exe := chromiumPath(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1200, 1600),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithErrorf(t.Logf))
	t.Cleanup(bcancel)
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("chromium (%s) did not start: %v", exe, err)
	}
	return bctx
}

// TestBrowserLatestSelected: for a workflow whose last session holds
// several snapshots, the dashboard selects the newest snapshot (the
// latest), shows who made it, and the timeline runs oldest to newest.
func TestBrowserLatestSelected(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test in -short mode")
	}
	f := newFixture(t, nil)
	ids := severalPerSession(t, f.store)
	bctx := newBrowser(t)
	err := chromedp.Do(bctx,
		chromedp.Navigate(f.srv.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("workflows")),
		chromedp.Click(chromedp.CSS(`a[href="/workflows/wf_time"]`)),
		chromedp.WaitVisible(chromedp.ID("snapshot")),
	)
	if err != nil {
		t.Fatalf("open the workflow page: %v", err)
	}
	selected, err := chromedp.Run(bctx, chromedp.Evaluate[string](`document.querySelector("#timeline li.card.selected a").getAttribute("href")`))
	if err != nil {
		t.Fatal(err)
	}
	shown, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS("#snapshot h2 code")))
	if err != nil {
		t.Fatal(err)
	}
	order, err := chromedp.Run(bctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll("#timeline li.card a")).map(a => a.getAttribute("href").replace("?snapshot=", "")).join(",")`))
	if err != nil {
		t.Fatal(err)
	}
	who, err := chromedp.Run(bctx, chromedp.Text(chromedp.ID("maker")))
	if err != nil {
		t.Fatal(err)
	}
	latest := ids[len(ids)-1]
	if selected != "?snapshot="+latest || strings.TrimSpace(shown) != latest {
		t.Errorf("selected card %q, detail of %q; want the latest %s", selected, shown, latest)
	}
	if order != strings.Join(ids, ",") {
		t.Errorf("timeline order %s, want %s", order, strings.Join(ids, ","))
	}
	if strings.TrimSpace(who) != "ann on laptop-a" {
		t.Errorf("made by %q, want ann on laptop-a", who)
	}
}

// TestBrowserSearch: the index's search box finds the sessions whose
// snapshots mention the words, one result per session (its newest
// matching snapshot), with the words marked, and a result opens that
// snapshot on its workflow page.
func TestBrowserSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test in -short mode")
	}
	f := newFixture(t, nil)
	ids := severalPerSession(t, f.store)
	bctx := newBrowser(t)
	err := chromedp.Do(bctx,
		chromedp.Navigate(f.srv.URL+"/"),
		chromedp.WaitVisible(chromedp.ID("search-input")),
		chromedp.SendKeys(chromedp.ID("search-input"), "Postgres"),
		chromedp.Submit(chromedp.ID("search-input")),
		chromedp.WaitVisible(chromedp.ID("results")),
	)
	if err != nil {
		t.Fatalf("search from the index: %v", err)
	}
	links, err := chromedp.Run(bctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll("#results li a")).map(a => a.getAttribute("href")).join(" ")`))
	if err != nil {
		t.Fatal(err)
	}
	marked, err := chromedp.Run(bctx, chromedp.Evaluate[string](`Array.from(document.querySelectorAll("#results mark")).map(m => m.textContent).join(",")`))
	if err != nil {
		t.Fatal(err)
	}
	if len(strings.Fields(links)) != 2 || !strings.Contains(links, "?snapshot="+ids[3]) || !strings.Contains(links, "?snapshot="+ids[0]) {
		t.Fatalf("result links %q, want one per session: %s and %s", links, ids[3], ids[0])
	}
	if !strings.Contains(marked, "postgres") {
		t.Fatalf("marked words %q", marked)
	}
	err = chromedp.Do(bctx,
		chromedp.Click(chromedp.CSS(`#results a[href$="`+ids[3]+`"]`)),
		chromedp.WaitVisible(chromedp.ID("snapshot")),
	)
	if err != nil {
		t.Fatalf("open a result: %v", err)
	}
	shown, err := chromedp.Run(bctx, chromedp.Text(chromedp.CSS("#snapshot h2 code")))
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(shown) != ids[3] {
		t.Fatalf("the result opened %q, want %s", shown, ids[3])
	}
}

// acrossReload runs act again when the page navigated under it: the
// dashboard reloads itself 600 ms after a pause or a resume, and on a
// loaded machine the reload can land in the middle of a check ("Inspected
// target navigated or closed").
func acrossReload[T any](act chromedp.Action[T]) chromedp.Action[T] {
	return func(ctx context.Context, tg *chromedp.Target) (T, error) {
		for {
			v, err := act(ctx, tg)
			if err == nil || !(strings.Contains(err.Error(), "navigated or closed") || strings.Contains(err.Error(), "context was destroyed")) {
				return v, err
			}
			select {
			case <-ctx.Done():
				return v, err
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
}
