package extractor

import (
	"go/token"
	"regexp"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/decisions"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
	"github.com/handoff-cli/handoff/internal/lazyre"
)

// TestLazyPatternsCompile compiles every pattern the package's source
// hands to lazyRE or gated: both compile on first use, so a bad pattern
// would otherwise panic only when a transcript first reaches it.
func TestLazyPatternsCompile(t *testing.T) {
	t.Parallel()
	patterns := sourcePatterns(t)
	for _, p := range patterns {
		if _, err := regexp.Compile(p.Pattern); err != nil {
			t.Errorf("%s: %v", p.At, err)
		}
	}
	if len(patterns) < 200 {
		t.Errorf("found %d patterns; the package and its rulebook declare about two hundred and fifty", len(patterns))
	}
	p := decisions.CompilePatterns()
	all := append(append(append([]prose.LazyRegexp{p.NotChoice, p.Rationale, p.Follow, p.Reversal,
		p.Workaround, p.Skip, p.Layout, p.Library, p.Architecture}, p.Assistant...), p.User...), p.ChosenAlt...)
	for _, re := range all {
		re.Regexp() // panics on a bad pattern
	}
}

// TestLazyGatesMatchLikeRegexp checks every pattern's gate on the shared
// corpus: the lazyRegexp's Find methods answer "no match" whenever its
// gate is closed, and MatchString answers as the regexp does. Each
// pattern meets every gateStride-th text, from an offset that moves with
// the pattern, so every text meets a share of the patterns: all of it
// would take half a minute of CPU.
func TestLazyGatesMatchLikeRegexp(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	heads, lines := corpusTexts(t)
	texts := messageTexts(t)
	for _, h := range heads {
		texts = append(texts, prose.HeadOf(h, 512)) // the whole heads would only slow the test
	}
	texts = raceSample(append(texts, lines...))
	if len(texts) == 0 {
		t.Skip("../shared/transcripts not present")
	}
	const gateStride = 8
	for i, p := range sourcePatterns(t) {
		g := prose.BuildGate(p.Pattern)
		for j := i % gateStride; j < len(texts); j += gateStride {
			s := texts[j]
			want := g.Regexp().MatchString(s)
			if want && !g.MayMatch(s) {
				t.Errorf("%s: gate closed on %.80q, which the regexp matches", p.At, s)
			}
			if got := g.MatchString(s); got != want {
				t.Errorf("%s: MatchString(%.80q) = %v, the regexp says %v", p.At, s, got, want)
			}
		}
	}
}

// messageTexts returns the heads of the shared corpus's message texts and
// their distinct lines, which the conversation patterns read.
func messageTexts(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	forSharedTranscripts(func(_ string, tr *handoff.Transcript) {
		for _, m := range tr.Messages {
			text := prose.HeadOf(m.Text, 512)
			add(text)
			for _, l := range strings.Split(text, "\n") {
				add(strings.TrimSpace(l))
			}
		}
	})
	return out
}

// sourcePatterns returns every constant pattern the package's non-test
// source hands to lazyRE, gated or screened, and every pattern rule of the
// rulebook.
func sourcePatterns(t *testing.T) []lazyre.Pattern {
	t.Helper()
	out, _, err := lazyre.Sources(".", map[string]int{"lazyRE": 1, "gated": 1, "screened": 2, "screenedLines": 3})
	if err != nil {
		t.Fatal(err)
	}
	// The patterns moved to the rulebook reach lazyRE as
	// rulebook.Pattern(id), which the source does not spell out: take them
	// from the catalogue.
	for _, r := range rulebook.Catalogue() {
		if r.Kind == rulebook.KindPattern {
			out = append(out, lazyre.Pattern{Pattern: r.Pattern, At: token.Position{Filename: "rulebook:" + r.ID}})
		}
	}
	return out // a pattern built at run time (compileDecisionPatterns) is checked whole
}
