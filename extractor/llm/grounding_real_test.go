package llm

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/transcript"
)

// overlap is a record's content-word count and how many of them a source
// shares.
type overlap struct{ n, shared int }

func measureOverlap(record, source string) overlap {
	rw, sw := contentWords(record), contentWords(source)
	o := overlap{n: len(rw)}
	for w := range rw {
		if sw[w] {
			o.shared++
		}
	}
	return o
}

func acceptRate(os []overlap, need func(n int) int) float64 {
	ok := 0
	for _, o := range os {
		if o.n > 0 && o.shared >= need(o.n) {
			ok++
		}
	}
	return float64(ok) / float64(max(len(os), 1))
}

// TestGroundingOnRealTranscripts measures the grounding rule on the real
// Claude Code and Codex sessions. Every sentence of four or more content
// words that the person or the assistant wrote becomes a record three
// ways: a paraphrase cited to its own message (every other word of the
// sentence, framed as a model would, plus a third as many words from
// elsewhere in the session), the sentence cited to the next message (a
// model's off-by-one), and cited to a distant message. A good rule keeps
// the first and refuses the others; the rule of "two words or 30%,
// whichever is smaller" is reported alongside for comparison.
func TestGroundingOnRealTranscripts(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	if raceEnabled {
		t.Skip("rates over the whole corpus, no concurrency: the plain run measures them (see raceEnabled)")
	}
	var files []string
	for _, g := range []string{"claude-code/*.jsonl", "codex/*.jsonl"} {
		m, _ := filepath.Glob("../../../shared/transcripts/" + g)
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Skip("no transcripts in ../../shared/transcripts")
	}
	var own, adjacent, distant []overlap
	for _, f := range files {
		tr, err := transcript.ParseFile(context.Background(), f, transcript.Options{Source: f})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var texts []string
		for _, m := range tr.Messages {
			if !sendable(m) {
				continue
			}
			if s := assistantText(m); s != "" {
				texts = append(texts, s)
			} else if s := personWords(m, nil); s != "" && m.Role == handoff.RoleUser {
				texts = append(texts, s)
			}
		}
		for i, text := range texts {
			for _, sent := range prose.SplitSentences(text) {
				if len(contentWords(sent)) < 4 {
					continue
				}
				var kept []string
				for k, w := range strings.Fields(sent) {
					if k%2 == 0 {
						kept = append(kept, w)
					}
				}
				novel := strings.Fields(texts[(i+len(texts)/3)%len(texts)])
				kept = append(kept, novel[:min(len(novel), len(kept)/3)]...)
				own = append(own, measureOverlap("The assistant decided to "+strings.Join(kept, " "), text))
				if i+1 < len(texts) {
					adjacent = append(adjacent, measureOverlap(sent, texts[i+1]))
				}
				if j := (i + len(texts)/2) % len(texts); j != i && j != i+1 {
					distant = append(distant, measureOverlap(sent, texts[j]))
				}
			}
		}
	}
	if len(own) < 200 {
		t.Skipf("only %d sentences; too few to measure", len(own))
	}
	briefRule := func(n int) int { return min(2, int(math.Ceil(0.3*float64(n)))) }
	ownRate, adjRate, farRate := acceptRate(own, groundNeed), acceptRate(adjacent, groundNeed), acceptRate(distant, groundNeed)
	t.Logf("%d sentences from %d sessions", len(own), len(files))
	t.Logf("rule in use  (max(min(2,n), ceil(0.5n))): faithful %.3f accepted; wrong adjacent %.3f, wrong distant %.3f", ownRate, adjRate, farRate)
	t.Logf("two or 30%%, whichever smaller:           faithful %.3f accepted; wrong adjacent %.3f, wrong distant %.3f",
		acceptRate(own, briefRule), acceptRate(adjacent, briefRule), acceptRate(distant, briefRule))
	if ownRate < 0.95 {
		t.Errorf("faithful records accepted %.3f, want ≥ 0.95", ownRate)
	}
	if adjRate > 0.20 || farRate > 0.06 {
		t.Errorf("wrong citations accepted: adjacent %.3f (want ≤ 0.20), distant %.3f (want ≤ 0.06)", adjRate, farRate)
	}
}
