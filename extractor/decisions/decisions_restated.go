package decisions

import (
	"slices"
	"strings"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// A choice said twice is listed once, in its newest words. An agent
// restates what it settled on as the session goes ("`ZSTATE = 3` is the
// value …", later "`ZSTATE = 3`: this is what cloud books carry …");
// two lines for one choice cost budget and read like two choices. The
// newest wording is the one the work last stood on, so it is kept, with
// the older one's why and rejected options when it gives none.
//
// Two candidates choose the same thing when their texts are near
// duplicates, when both open with the same code span (the subject of the
// sentence: "`X = 3`: …", "`X = 3` is …"), or when both chose the same
// concrete thing (a chosen phrase written as code, or a path or an
// identifier).

// restateJaccard is how alike two descriptions' word sets must be to be
// one decision said twice.
const restateJaccard = 0.8

// openingSpanRe is a code span that opens a sentence, after a list mark,
// emphasis or a quote: the subject the sentence is about.
var openingSpanRe = prose.LazyRE(rulebook.Pattern("decisions.opening-span"))

// restates reports whether candidate c chooses what old chose.
func restates(c, old candidate) bool {
	if c.label != "" && old.label != "" {
		return c.label == old.label
	}
	if prose.Jaccard(prose.WordSet(c.Description), prose.WordSet(old.Description)) >= restateJaccard {
		return true
	}
	if a, b := openingSpan(c.Description), openingSpan(old.Description); a != "" && a == b {
		return true
	}
	if len(c.chosen) == 0 || len(old.chosen) == 0 {
		return false
	}
	a, b := normSpace(c.chosen[0]), normSpace(old.chosen[0])
	return a != "" && a == b && namesCode(c.chosen[0], c.Description)
}

// namesCode reports whether a chosen phrase names code: it was written as
// a code span (cleanPhrase drops the backticks) or is an identifier.
func namesCode(chosen, desc string) bool {
	return strings.Contains(desc, "`"+chosen+"`") || identifierRe.MatchString(chosen)
}

// openingSpan returns the code span a description opens with, spaces
// collapsed and lower-cased, or "".
func openingSpan(desc string) string {
	if sm := openingSpanRe.FindStringSubmatch(desc); sm != nil {
		return normSpace(sm[1])
	}
	return ""
}

func normSpace(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// restated takes current decision i out of the list and returns c, its
// newer wording, to be added in its place at the end of the list, where
// newer decisions go: c takes i's id (decisions that i superseded keep
// pointing at the same choice) and keeps i's why and rejected options
// when it gives none itself.
func (s *Set) restated(i int, c candidate) candidate {
	old := s.meta[i]
	c.ID = old.ID
	if c.Rationale == "" {
		c.Rationale = old.Rationale
	}
	for _, a := range old.alts {
		if !prose.ContainsFold(c.alts, a) {
			c.alts = append(c.alts, a)
		}
	}
	c.Alternatives = c.alts
	s.List = slices.Delete(s.List, i, i+1)
	s.meta = slices.Delete(s.meta, i, i+1)
	return c
}
