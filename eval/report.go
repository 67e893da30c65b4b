package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// CaseResult is one case of a score.py --json file (the fields this package reads).
type CaseResult struct {
	Case            string   `json:"case"`
	Format          string   `json:"format"`
	Coverage        float64  `json:"coverage"`
	MustHave        float64  `json:"musthave"`
	Missing         []string `json:"missing"`
	MissingMustHave []string `json:"missing_musthave"`
	Leaks           []string `json:"leaks"`
	Tokens          int      `json:"tokens"`
	Error           *string  `json:"error"`
}

// Run is a whole score.py --json file: one mode over one label set at one budget.
type Run struct {
	Budget  int          `json:"budget"`
	Mode    string       `json:"mode"`
	Results []CaseResult `json:"results"`
}

// ReadRun parses a score.py --json file (or one written by cmd/evalscore).
func ReadRun(path string) (Run, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Run{}, fmt.Errorf("eval: read run: %w", err)
	}
	var r Run
	if err := json.Unmarshal(b, &r); err != nil {
		return Run{}, fmt.Errorf("eval: parse run %s: %w", path, err)
	}
	return r, nil
}

// Means returns the mean coverage and must-have over the run's cases and the
// number of cases with a leak, as score.py's SCORE line does.
func (r Run) Means() (coverage, musthave float64, leaking int) {
	for _, c := range r.Results {
		coverage += c.Coverage
		musthave += c.MustHave
		if len(c.Leaks) > 0 {
			leaking++
		}
	}
	if n := float64(len(r.Results)); n > 0 {
		coverage /= n
		musthave /= n
	}
	return coverage, musthave, leaking
}

// Cell is one (label set, budget) pair of a comparison table: the project's
// command and the tail baseline scored on the same cases.
type Cell struct {
	Set     string
	Budget  int
	Handoff Run
	Tail    Run
}

// BelowTail lists the cases where the command's coverage is below the tail's,
// as "name (handoff 0.41 < tail 0.55)", in case order.
func (c Cell) BelowTail() []string {
	tail := map[string]float64{}
	for _, r := range c.Tail.Results {
		tail[r.Case] = r.Coverage
	}
	var out []string
	for _, r := range c.Handoff.Results {
		if t, ok := tail[r.Case]; ok && r.Coverage < t-1e-9 {
			out = append(out, fmt.Sprintf("%s (handoff %.3f < tail %.3f)", r.Case, r.Coverage, t))
		}
	}
	return out
}

// WriteTable prints one compact table of the cells (set × budget → coverage and
// must-have of handoff and tail, leaking cases of each), then per budget the
// files where handoff's coverage is below tail's.
func WriteTable(w io.Writer, cells []Cell) error {
	sort.SliceStable(cells, func(i, j int) bool {
		if cells[i].Budget != cells[j].Budget {
			return cells[i].Budget < cells[j].Budget
		}
		return cells[i].Set < cells[j].Set
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%-16s %6s %5s  %-17s %-17s %9s %6s\n", "set", "budget", "cases",
		"handoff cov/must", "tail cov/must", "leaks h/t", "<tail")
	for _, c := range cells {
		hc, hm, hl := c.Handoff.Means()
		tc, tm, tl := c.Tail.Means()
		fmt.Fprintf(&b, "%-16s %6d %5d  %6.3f / %-8.3f %6.3f / %-8.3f %5d/%-3d %6d\n", c.Set, c.Budget,
			len(c.Handoff.Results), hc, hm, tc, tm, hl, tl, len(c.BelowTail()))
	}
	budgets := []int{}
	for _, c := range cells {
		if len(budgets) == 0 || budgets[len(budgets)-1] != c.Budget {
			budgets = append(budgets, c.Budget)
		}
	}
	for _, bud := range budgets {
		var lines []string
		for _, c := range cells {
			if c.Budget != bud {
				continue
			}
			for _, s := range c.BelowTail() {
				lines = append(lines, "  "+c.Set+"/"+s)
			}
		}
		fmt.Fprintf(&b, "\nbelow tail at %d: %d\n", bud, len(lines))
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
