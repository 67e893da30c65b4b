package server

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/compiler"
	"github.com/handoff-cli/handoff/history"
)

// The dashboard is server-rendered html/template pages, readable without
// JavaScript; web/static/app.js only adds the copy button and the pause
// and resume dialogs, which call the JSON API. html/template escapes
// every value by context, and no transcript text is ever marked
// template.HTML.
//
//go:embed web
var webFS embed.FS

func staticFS() fs.FS {
	sub, err := fs.Sub(webFS, "web")
	if err != nil { // the embedded tree is fixed at build time
		panic(err)
	}
	return sub
}

type pages struct {
	index, workflow, search *template.Template
}

func newPages() (*pages, error) {
	funcs := template.FuncMap{
		"ago":    ago,
		"stamp":  func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
		"pct":    func(f float64) string { return strconv.FormatFloat(100*f, 'f', 1, 64) + "%" },
		"status": statusLabel,
		"short":  shortID,
		"total":  func(it snapshotItem) int { return it.TasksCompleted + it.TasksRemaining },
		"clip":   clip,
		"list":   func(v ...string) []string { return v },
	}
	parse := func(name string) (*template.Template, error) {
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(webFS, "web/layout.html", "web/"+name)
		if err != nil {
			return nil, fmt.Errorf("parse dashboard template %s: %w", name, err)
		}
		return t, nil
	}
	var p pages
	var err error
	if p.index, err = parse("index.html"); err != nil {
		return nil, err
	}
	if p.workflow, err = parse("workflow.html"); err != nil {
		return nil, err
	}
	if p.search, err = parse("search.html"); err != nil {
		return nil, err
	}
	return &p, nil
}

// page adapts a page handler: it renders into a buffer first, so a
// failure is a clean error page rather than half a document.
func (s *Server) page(h func(r *http.Request) (*template.Template, any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		t, data, err := h(r)
		var buf bytes.Buffer
		if err == nil {
			err = t.Execute(&buf, data)
		}
		if err != nil {
			status := httpStatus(handoff.ErrorCode(err))
			if status >= 500 {
				s.log.Error("page failed", "path", r.URL.Path, "err", err)
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(status)
			_ = s.pages.index.ExecuteTemplate(w, "error", map[string]any{"Status": status, "Message": err.Error()})
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = buf.WriteTo(w)
	}
}

// indexPage lists a page of workflows (?status=, ?after= the previous
// page's cursor) from the summary columns: its cost does not grow with
// the number of workflows.
func (s *Server) indexPage(r *http.Request) (*template.Template, any, error) {
	q := r.URL.Query()
	f, err := overviewFilter(q.Get("status"), "", q.Get("after"))
	if err != nil {
		return nil, nil, err
	}
	f.Limit = indexPageSize
	page, err := s.cfg.Store.OverviewPage(r.Context(), f)
	if err != nil {
		return nil, nil, err
	}
	next := ""
	if page.Next != "" {
		v := url.Values{"after": {page.Next}}
		if f.Status != "" {
			v.Set("status", string(f.Status))
		}
		next = "/?" + v.Encode()
	}
	return s.pages.index, map[string]any{
		"Workflows": page.Workflows, "Next": next, "Status": string(f.Status), "First": f.After == "",
		"Query": q.Get("q"), "Title": "Workflows",
	}, nil
}

// workflowView is the workflow page's data.
type workflowView struct {
	Title     string
	Workflow  *handoff.Workflow
	Snapshots []entry
	Items     []snapshotItem
	// Maker says who made the selected snapshot ("ann@laptop-a").
	Maker     string
	Events    []handoff.Event
	Selected  *handoff.Snapshot
	Plot      *plot
	Prompt    *compiler.Result
	Budget    int
	Diff      string
	From, To  string
	CanPause  bool
	CanResume bool
}

func (s *Server) workflowPage(r *http.Request) (*template.Template, any, error) {
	wf, err := s.workflow(r)
	if err != nil {
		return nil, nil, err
	}
	snaps, err := s.snapshots(r, wf.ID)
	if err != nil {
		return nil, nil, err
	}
	v := &workflowView{
		Title: wf.Name, Workflow: wf, Snapshots: snaps,
		CanPause:  wf.Status == handoff.WorkflowInProgress,
		CanResume: wf.Status == handoff.WorkflowPaused,
	}
	for _, e := range snaps {
		v.Items = append(v.Items, e.item())
	}
	v.Plot = newPlot(v.Items)
	q := r.URL.Query()
	if sid := q.Get("snapshot"); sid != "" {
		sel, err := s.snapshotOf(r, wf, sid)
		if err != nil {
			return nil, nil, err
		}
		v.Selected = sel
		for _, e := range snaps {
			if e.Snap.ID == sel.ID {
				v.Selected, v.Maker = e.Snap, maker(e)
			}
		}
	} else if len(snaps) > 0 {
		latest := snaps[len(snaps)-1] // time order: the newest is the latest
		v.Selected, v.Maker = latest.Snap, maker(latest)
	}
	if v.Events, err = s.cfg.Store.Events(r.Context(), wf.ID); err != nil {
		return nil, nil, err
	}
	if v.Budget, err = budgetParam(r); err != nil {
		return nil, nil, err
	}
	if v.Selected != nil {
		if v.Prompt, err = compiler.Compile(v.Selected, compiler.Options{Budget: v.Budget, Counter: s.cfg.Counter}); err != nil {
			return nil, nil, fmt.Errorf("compile resume prompt: %w", err)
		}
	}
	v.From, v.To = q.Get("from"), q.Get("to")
	if v.From == "" && len(snaps) >= 2 {
		// Forwards: from the one before the latest to the latest.
		v.From, v.To = snaps[len(snaps)-2].Snap.ID, snaps[len(snaps)-1].Snap.ID
	}
	if v.From != "" {
		d, err := s.diffOf(r, wf, v.From, v.To)
		if err != nil {
			return nil, nil, err
		}
		var b strings.Builder
		if err := history.WriteText(&b, d); err != nil {
			return nil, nil, err
		}
		v.Diff = b.String()
	}
	return s.pages.workflow, v, nil
}

// maker words who made e ("ann on laptop-a"), "" when not recorded.
func maker(e entry) string {
	switch {
	case e.User != "" && e.Machine != "":
		return e.User + " on " + e.Machine
	case e.User != "":
		return e.User
	}
	return e.Machine
}

// clip shortens a long text for a table cell, at a rune boundary.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// plot is the inline SVG of context use across snapshots: coordinates are
// computed here so the template only places them.
type plot struct {
	Width, Height int
	Points        []plotPoint
	Line          string
	Grid          []gridLine
}

type plotPoint struct {
	X, Y    float64
	Session int
	Label   string
}

type gridLine struct {
	Y     float64
	Label string
}

const (
	plotW, plotH         = 640, 180
	plotLeft, plotRight  = 44, 16
	plotTop, plotBottom  = 12, 28
	plotInnerW, plotInnH = plotW - plotLeft - plotRight, plotH - plotTop - plotBottom
)

func newPlot(items []snapshotItem) *plot {
	if len(items) == 0 {
		return nil
	}
	p := &plot{Width: plotW, Height: plotH}
	for _, f := range []float64{0, 0.5, 1} {
		p.Grid = append(p.Grid, gridLine{Y: plotY(f), Label: strconv.Itoa(int(f*100)) + "%"})
	}
	var pts []string
	for i, it := range items {
		x := float64(plotLeft + plotInnerW/2)
		if len(items) > 1 {
			x = plotLeft + float64(i)*float64(plotInnerW)/float64(len(items)-1)
		}
		y := plotY(it.ContextUtilization)
		p.Points = append(p.Points, plotPoint{X: x, Y: y, Session: it.SessionNumber,
			Label: fmt.Sprintf("session %d: %.1f%%", it.SessionNumber, 100*it.ContextUtilization)})
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x, y))
	}
	p.Line = strings.Join(pts, " ")
	return p
}

func plotY(f float64) float64 {
	f = min(max(f, 0), 1)
	return plotTop + (1-f)*plotInnH
}

// ago is a relative time ("5 minutes ago").
func ago(t time.Time) string {
	d := time.Since(t)
	switch {
	case d < 0:
		return "just now"
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return plural(int(d/time.Minute), "minute") + " ago"
	case d < 24*time.Hour:
		return plural(int(d/time.Hour), "hour") + " ago"
	case d < 60*24*time.Hour:
		return plural(int(d/(24*time.Hour)), "day") + " ago"
	}
	return t.UTC().Format("2006-01-02")
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// statusLabel is a status as people read it ("in progress").
func statusLabel(s handoff.WorkflowStatus) string { return strings.ReplaceAll(string(s), "_", " ") }

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
