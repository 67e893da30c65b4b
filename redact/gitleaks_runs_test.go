package redact

import (
	"slices"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff/internal/secretsamples"
)

func TestRequiredRunsAndLeads(t *testing.T) {
	t.Parallel()
	runs := []struct {
		pattern string
		want    []int // the runs' lengths
	}{
		{`(?i)[\w.-]{0,50}?(?:linear)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|:)[\x60'"\s=]{0,5}([a-f0-9]{32})(?:[\x60'"\s;]|$)`, []int{32}},
		{`\b((?:hvs\.[\w-]{90,120}|s\.(?i:[a-z0-9]{24})))(?:[\x60'"\s;]|$)`, []int{90, 24}},
		{`\b(ghp_[0-9a-zA-Z]{36})`, []int{36}},
		{`\b(abc|def[0-9]{20})`, nil}, // a branch with no run
		{`x[a-z]{4}`, nil},            // too short to test
	}
	for _, c := range runs {
		var got []int
		for _, r := range analyse(c.pattern, nil).runs {
			got = append(got, r.min)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("runs of %q = %v, want %v", c.pattern, got, c.want)
		}
	}
	leads := []struct {
		pattern  string
		keywords []string
		want     bool
	}{
		{`\b((?:sc|ext|scauth|authress)_(?i)[a-z0-9]{5,30})`, []string{"sc_", "ext_", "scauth_", "authress_"}, true},
		{`\b((?:hvs\.[\w-]{90,120}|s\.(?i:[a-z0-9]{24})))`, []string{"hvs.", "s."}, true},
		{`\b(ey[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9]{17,})`, []string{"ey"}, true},
		{`\b(foo_[a-z]{10})`, []string{"bar"}, false},                // the keyword is not the lead
		{`(?i)[\w.-]{0,50}?(?:lob)[a-z]{3}`, []string{"lob"}, false}, // no \b lead
		{`\b(ext[a-z]{4})`, []string{"extra"}, false},                // the lead is shorter than the keyword
		{`\b(-----BEGIN[A-Z ]+KEY)`, []string{"-----begin"}, false},  // a lead \b cannot precede
	}
	for _, c := range leads {
		if got := analyse(c.pattern, c.keywords).lead; got != c.want {
			t.Errorf("lead of %q with %q = %v, want %v", c.pattern, c.keywords, got, c.want)
		}
	}
}

// TestPrefiltersFindTheSame runs the catalogue with and without the run
// and lead tests on every sample (and the largest shared transcript when
// present): the tests may only save work, never change a finding.
func TestPrefiltersFindTheSame(t *testing.T) {
	t.Parallel()
	var texts []string
	for _, all := range []map[string]secretsamples.Samples{secretsamples.Gitleaks(), secretsamples.Own()} {
		for _, s := range all {
			texts = append(texts, s.TPs...)
			texts = append(texts, s.FPs...)
		}
	}
	texts = append(texts, strings.Join(texts, "\n"), "output_text_"+strings.Repeat("a1", 40)+" files.Abcdefghijklmnopqrstuvwx1")
	// The largest shared transcript is the plain run's: under -race it
	// was most of this test's cost and checks no concurrency (see
	// raceEnabled).
	if _, big := largestShared(t); big != "" && !testing.Short() && !raceEnabled {
		texts = append(texts, big)
	}
	with := newGLEngine()
	without := newGLEngine()
	for k := range without.rules {
		full := without.rules[k].shape
		without.rules[k].shape = func() glShape {
			sh := full()
			sh.runs, sh.lead = nil, false
			return sh
		}
	}
	for _, text := range texts {
		a, b := &scanner{}, &scanner{}
		with.find(text, a)
		without.find(text, b)
		// A window run again repeats what it found (merge joins
		// repeats), so the findings compare as sets.
		if !slices.Equal(findingSet(a.catalog), findingSet(b.catalog)) {
			t.Errorf("findings differ on %q:\n with the tests: %v\n without:        %v", clipValue(text), a.catalog, b.catalog)
		}
	}
}

func findingSet(fs []Finding) []Finding {
	out := slices.Clone(fs)
	slices.SortFunc(out, func(x, y Finding) int {
		if x.Start != y.Start {
			return x.Start - y.Start
		}
		if x.End != y.End {
			return x.End - y.End
		}
		return strings.Compare(x.Kind, y.Kind)
	})
	return slices.Compact(out)
}
