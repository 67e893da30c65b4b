// Package compiler renders a session snapshot into a resume prompt that
// never exceeds its token budget.
//
// The snapshot is rendered once into ready-made, escaped pieces; a search
// then chooses how many items of each kind to show. Kinds are ranked: the
// search fills the most important first (unresolved errors, failing tests,
// the current task, the goal, recent decisions, the next tasks) and gives
// what is left to the rest, so what is dropped is always the least
// important (resolved errors, git file lists, modified files, done tasks,
// ...). Each candidate is rendered and counted with the caller's counter,
// so the budget holds for any template and any counter, and every cut is
// reported in Result.Dropped. When even the skeleton of the default
// template does not fit, a compact layout (prompts.CompactResumeTemplate)
// is searched the same way, then with tiny field caps; only when that fails
// too is the text cut at the budget (Result.Truncated).
package compiler

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"text/template"
	"unicode/utf8"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/prompts"
)

// DefaultBudget is the token budget used when Options.Budget is 0.
const DefaultBudget = 2000

// DefaultShowCommand is how the prompt tells its reader to get the full
// records of a snapshot.
const DefaultShowCommand = "handoff show"

// truncationMarker ends a prompt that had to be cut mid-text.
const truncationMarker = "\n\n[… cut to fit the token budget]\n"

// TokenCounter counts tokens the way the budget is meant: the compiler
// never returns a prompt for which Count exceeds the budget.
// *capacity.Counter satisfies it.
type TokenCounter interface {
	Count(text string) int
}

// Options configures Compile.
type Options struct {
	// Budget is the hard maximum of tokens in the prompt, as Counter
	// counts them. 0 means DefaultBudget; negative is invalid.
	Budget int
	// Template is a text/template over View; "" means the default
	// prompts.ResumeTemplate().
	Template string
	// Counter counts tokens; required.
	Counter TokenCounter
	// ShowCommand is the command the prompt names for more detail;
	// "" means DefaultShowCommand.
	ShowCommand string
	// Logger receives diagnostics (renders tried, what was cut); nil
	// discards them.
	Logger *slog.Logger
}

// Dropped says how many items of one section were left out to fit the
// budget. "texts shortened" counts shown strings that were clipped.
type Dropped struct {
	Section string `json:"section"`
	Count   int    `json:"count"`
}

// Result is a compiled resume prompt and what it cost.
type Result struct {
	Prompt string
	// Tokens is Counter.Count(Prompt).
	Tokens int
	// Budget is the budget the prompt was fitted to.
	Budget  int
	Dropped []Dropped
	// Truncated reports that even with every droppable item dropped the
	// template (for the default template: its compact layout) did not fit,
	// so the text was cut at the budget and ends with a marker saying so.
	Truncated bool
}

// compilation is one Compile call's state.
type compilation struct {
	snap    *handoff.Snapshot
	show    string
	m       *material
	tmpl    *template.Template
	counter TokenCounter
	budget  int
	limits  config
	buf     bytes.Buffer
	renders int
}

// Compile renders s into a resume prompt of at most opts.Budget tokens.
// A nil snapshot, a missing counter, a negative budget or a template that
// does not parse or execute is an EINVALID error.
func Compile(s *handoff.Snapshot, opts Options) (*Result, error) {
	if s == nil {
		return nil, handoff.Errorf(handoff.EINVALID, "compile: no snapshot")
	}
	if opts.Counter == nil {
		return nil, handoff.Errorf(handoff.EINVALID, "compile: no token counter")
	}
	budget := opts.Budget
	if budget == 0 {
		budget = DefaultBudget
	}
	if budget < 1 {
		return nil, handoff.Errorf(handoff.EINVALID, "compile: budget must be at least 1 token, got %d", opts.Budget)
	}
	text := opts.Template
	custom := text != ""
	if !custom {
		text = prompts.ResumeTemplate()
	}
	tmpl, err := prompts.Parse("resume", text)
	if err != nil {
		return nil, err
	}
	show := strings.TrimSpace(opts.ShowCommand)
	if show == "" {
		show = DefaultShowCommand
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}

	c := &compilation{snap: s, show: show, tmpl: tmpl, counter: opts.Counter, budget: budget}
	c.useMaterial(caps{budget: budget})
	res, err := c.fit(custom)
	if err != nil {
		return nil, err
	}
	log.Debug("compiled resume prompt", "tokens", res.Tokens, "budget", budget, "renders", c.renders,
		"dropped", res.Dropped, "truncated", res.Truncated)
	return res, nil
}

// attempt is a rendered candidate.
type attempt struct {
	cfg    config
	text   string
	tokens int
}

// fit finds the fullest rendering that fits. It first tries everything
// (the common case: one render); then searches the full layout; then, for
// the default template, the compact layout, first with the usual field
// caps and then with tiny ones; and last cuts the text at the budget.
func (c *compilation) fit(custom bool) (*Result, error) {
	if text, err := c.render(c.tmpl, c.limits); err != nil {
		return nil, err
	} else if len(text) <= max(16*c.budget, 64<<10) {
		if n := c.count(text); n <= c.budget {
			return c.result(attempt{c.limits, text, n}), nil
		}
	}
	tmpl := c.tmpl
	a, ok, err := c.search(tmpl, fullLayout())
	if err != nil {
		return nil, err
	}
	if !ok && !custom {
		if tmpl, err = prompts.Parse("resume-compact", prompts.CompactResumeTemplate()); err != nil {
			return nil, fmt.Errorf("embedded compact template: %w", err)
		}
		if a, ok, err = c.search(tmpl, compactLayout()); err != nil {
			return nil, err
		}
	}
	if !ok && !custom {
		c.useMaterial(caps{budget: c.budget, tiny: true})
		if a, ok, err = c.search(tmpl, compactLayout()); err != nil {
			return nil, err
		}
	}
	if ok {
		return c.result(a), nil
	}
	if a, err = c.cut(a.text); err != nil {
		return nil, err
	}
	res := c.result(a)
	res.Truncated = true
	return res, nil
}

// useMaterial renders the snapshot's pieces with field caps cp.
func (c *compilation) useMaterial(cp caps) {
	c.m = newMaterial(c.snap, cp, c.show)
	c.limits = c.m.limits()
}

// search finds the fullest configuration of the knobs in use that fits
// tmpl. It starts from nothing and, knob by knob in rank order, finds the
// largest count that still fits by galloping (1, 2, 4, … items) and then
// bisecting, so each knob costs O(log n) renders and no render is much
// larger than twice the budget. Every accepted candidate was counted, so
// the result never exceeds the budget even where adding an item happens
// to cost nothing. When even nothing does not fit, it returns that
// rendering and false.
func (c *compilation) search(tmpl *template.Template, use knobSet) (attempt, bool, error) {
	var cfg config
	text, err := c.render(tmpl, cfg)
	if err != nil {
		return attempt{}, false, err
	}
	best := attempt{cfg, text, c.count(text)}
	if best.tokens > c.budget {
		return best, false, nil
	}
	for k := knob(0); k < numKnobs; k++ {
		limit := c.limits[k]
		if limit == 0 || !use[k] || !c.reachable(k, cfg) {
			continue
		}
		lo, hi := 0, -1 // lo fits; hi, when ≥ 0, does not
		for step := 1; ; step *= 2 {
			v := min(step, limit)
			a, ok, err := c.try(tmpl, cfg, k, v)
			if err != nil {
				return attempt{}, false, err
			}
			if !ok {
				hi = v
				break
			}
			lo, best = v, a
			if v == limit {
				break
			}
		}
		for hi >= 0 && hi-lo > 1 {
			mid := lo + (hi-lo)/2
			a, ok, err := c.try(tmpl, cfg, k, mid)
			if err != nil {
				return attempt{}, false, err
			}
			if ok {
				lo, best = mid, a
			} else {
				hi = mid
			}
		}
		cfg[k] = lo
	}
	return best, true, nil
}

// try renders cfg with knob k set to v and reports whether it fits.
func (c *compilation) try(tmpl *template.Template, cfg config, k knob, v int) (attempt, bool, error) {
	cfg[k] = v
	text, err := c.render(tmpl, cfg)
	if err != nil {
		return attempt{}, false, err
	}
	n := c.count(text)
	return attempt{cfg, text, n}, n <= c.budget, nil
}

func (c *compilation) count(text string) int { return c.counter.Count(text) }

func (c *compilation) render(t *template.Template, cfg config) (string, error) {
	c.renders++
	c.buf.Reset()
	if err := t.Execute(&c.buf, c.view(cfg)); err != nil {
		return "", handoff.Errorf(handoff.EINVALID, "execute resume template: %w", err)
	}
	return c.buf.String(), nil
}

// cut returns the longest prefix of text (on a rune boundary) that, with
// the truncation marker, fits the budget; without the marker when even
// the marker alone does not fit.
func (c *compilation) cut(text string) (attempt, error) {
	marker := truncationMarker
	if c.count(marker) > c.budget {
		marker = ""
		if c.count("") > c.budget {
			return attempt{}, handoff.Errorf(handoff.EINVALID, "compile: budget %d is below what the counter gives empty text", c.budget)
		}
	}
	lo, hi := 0, len(text) // text[:lo] fits; text[:hi] does not
	best := marker
	bestTokens := c.count(marker)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		for mid > lo && !utf8.RuneStart(text[mid]) {
			mid--
		}
		if mid == lo {
			break
		}
		candidate := strings.TrimRight(text[:mid], " \t\n") + marker
		if n := c.count(candidate); n <= c.budget {
			lo, best, bestTokens = mid, candidate, n
		} else {
			hi = mid
		}
	}
	return attempt{text: best, tokens: bestTokens}, nil
}

// result builds the Result for an accepted attempt, listing what it left
// out.
func (c *compilation) result(a attempt) *Result {
	return &Result{Prompt: a.text, Tokens: a.tokens, Budget: c.budget, Dropped: c.dropped(a.cfg)}
}

// dropped lists what cfg leaves out, least important first.
func (c *compilation) dropped(cfg config) []Dropped {
	m := c.m
	n := c.shown(cfg)
	details := min(cfg[kDecisionDetails], n[lDecisions])
	detailDropped := 0
	for _, d := range m.decisions[len(m.decisions)-n[lDecisions] : len(m.decisions)-details] {
		detailDropped += boolInt(d.hasDetail)
	}
	all := []Dropped{
		{"resolved errors", len(m.resolved) - n[lResolved]},
		{"git files", len(m.gitFiles) - n[lGitFiles]},
		{"files modified", len(m.files) - n[lFiles]},
		{"done tasks", len(m.done) - n[lDone]},
		{"superseded-decision note", c.limits[kSuperseded] - cfg[kSuperseded]},
		{"decision details", detailDropped},
		{"pending tasks", len(m.pending) - n[lPending]},
		{"decisions", len(m.decisions) - n[lDecisions]},
		{"in-progress tasks", len(m.inProgress) - n[lInProgress]},
		{"failing test names", len(m.failing) - n[lFailing]},
		{"unresolved errors", len(m.unresolved) - n[lUnresolved]},
		{sectionShortened, c.clipped(cfg, n)},
	}
	var out []Dropped
	for _, d := range all {
		if d.Count > 0 {
			out = append(out, d)
		}
	}
	return out
}

// clipped counts the shown strings that were shortened.
func (c *compilation) clipped(cfg config, shown counts) int {
	m := c.m
	n := m.headerClipped + boolInt(m.nextStepCut)
	if cfg[kGoal] == 1 || c.limits[kGoal] == 0 {
		n += boolInt(m.goalFullCut)
	} else {
		n += boolInt(m.goalShortCut)
	}
	n += sumClipped(m.unresolved[:shown[lUnresolved]])
	n += sumClipped(m.failing[:shown[lFailing]])
	n += sumClipped(m.inProgress[:shown[lInProgress]])
	n += sumClipped(m.pending[:shown[lPending]])
	n += sumClipped(m.done[len(m.done)-shown[lDone]:])
	n += sumClipped(m.files[:shown[lFiles]])
	n += sumClipped(m.gitFiles[:shown[lGitFiles]])
	n += sumClipped(m.resolved[len(m.resolved)-shown[lResolved]:])
	nd := shown[lDecisions]
	details := min(cfg[kDecisionDetails], nd)
	for i, d := range m.decisions[len(m.decisions)-nd:] {
		if i >= nd-details {
			n += d.fullClipped
		} else {
			n += d.briefClipped
		}
	}
	return n
}

func sumClipped[T any](items []item[T]) int {
	n := 0
	for _, it := range items {
		n += it.clipped
	}
	return n
}

// sectionShortened is the Dropped section counting clipped strings.
const sectionShortened = "texts shortened"
