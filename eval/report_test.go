package eval

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestBelowTailAndTable(t *testing.T) {
	run := func(covs map[string]float64, leak string) Run {
		r := Run{Budget: 1000}
		for _, name := range []string{"a", "b", "c"} {
			c := CaseResult{Case: name, Coverage: covs[name], MustHave: covs[name]}
			if name == leak {
				c.Leaks = []string{"x"}
			}
			r.Results = append(r.Results, c)
		}
		return r
	}
	cell := Cell{Set: "heldout-synth", Budget: 1000,
		Handoff: run(map[string]float64{"a": 0.5, "b": 0.9, "c": 0.3}, "c"),
		Tail:    run(map[string]float64{"a": 0.5, "b": 0.4, "c": 0.8}, "b")}
	if got, want := cell.BelowTail(), []string{"c (handoff 0.300 < tail 0.800)"}; !reflect.DeepEqual(got, want) {
		t.Errorf("BelowTail = %v, want %v (a ties, so it is not below)", got, want)
	}
	cov, must, leaks := cell.Handoff.Means()
	if !near(cov, 1.7/3) || !near(must, 1.7/3) || leaks != 1 {
		t.Errorf("Means = %.3f %.3f %d", cov, must, leaks)
	}
	small := cell
	small.Budget = 500
	var b strings.Builder
	if err := WriteTable(&b, []Cell{cell, small}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"heldout-synth       500     3   0.567 / 0.567     0.567 / 0.567        1/1        1",
		"below tail at 500: 1\n  heldout-synth/c (handoff 0.300 < tail 0.800)",
		"below tail at 1000: 1\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, " 500 ") > strings.Index(out, " 1000 ") {
		t.Errorf("rows not ordered by budget:\n%s", out)
	}
}

func TestReadRun(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.json")
	// The shape score.py --json writes (fields this package does not read included).
	doc := `{"budget": 500, "mode": "baseline:tail", "results": [{"case": "x", "format": "codex", "coverage": 0.25,
	  "musthave": 0.5, "missing": ["a"], "missing_musthave": [], "leaks": [], "tokens": 500, "time_s": 0.0,
	  "error": null, "over_budget": false, "output_chars": 2000, "status": "ok"}]}`
	if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := ReadRun(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.Budget != 500 || len(r.Results) != 1 || r.Results[0].Coverage != 0.25 || r.Results[0].Error != nil ||
		!reflect.DeepEqual(r.Results[0].Missing, []string{"a"}) {
		t.Errorf("ReadRun = %+v", r)
	}
	if _, err := ReadRun(filepath.Join(t.TempDir(), "none.json")); err == nil {
		t.Error("missing file: no error")
	}
}
