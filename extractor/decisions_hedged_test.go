package extractor

import (
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

// TestHedgedClaimIsNoDecision: a choice whose main clause hedges is no
// settled decision but a guess, listed as unconfirmed; a hedge in its
// reason or in another clause leaves it a decision.
func TestHedgedClaimIsNoDecision(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"appears to be the correct", "`ZSTATE = 3` appears to be the correct value for synced rows.", false},
		{"strongest candidate", "`mode = 2`: this is our strongest candidate for the archived state.", false},
		{"best hypothesis", "Best hypothesis: the `ttl` column means seconds, not minutes.", false},
		{"probably", "I'll probably use Redis instead of memcached.", false},
		{"I think could", "I think we could use `sqlc` instead of hand-written queries.", false},
		{"seems to be the right", "The lock file seems to be the real culprit, so rather than `npm ci` it is what to fix.", false},
		{"hedge in reason", "I'll use `pgx` instead of `lib/pq` because it is probably faster.", true},
		{"hedge in other clause", "It may be slow, so I'll use Redis instead of memcached.", true},
		{"settled", "`ZSTATE = 3` turns out to be the correct value: the rows we checked all have it.", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := extract(t, []handoff.Message{{Index: 1, Role: handoff.RoleAssistant, Text: tc.text}})
			settled, guesses := 0, 0
			for _, d := range res.Decisions {
				if strings.HasPrefix(d.Description, handoff.UnconfirmedPrefix) {
					guesses++
				} else {
					settled++
				}
			}
			if got := settled > 0; got != tc.want {
				t.Errorf("%q: settled decision = %v (%+v), want %v", tc.text, got, res.Decisions, tc.want)
			}
			// A guess is kept, said as one: a successor needs it.
			if tc.want && guesses > 0 {
				t.Errorf("%q: a settled choice also listed as a guess (%+v)", tc.text, res.Decisions)
			}
		})
	}
}

// TestHedgedClaimConfirmedLater: a held hypothesis becomes a decision when
// the person's next reply approves it, when a later unhedged sentence
// confirms its subject, or when a later call writes its subject into a
// file; not on an approval of something later, nor on a mere mention.
func TestHedgedClaimConfirmedLater(t *testing.T) {
	t.Parallel()
	const claim = "`retries = 5` appears to be the correct setting for the flaky upstream."
	for _, tc := range []struct {
		name  string
		build func(c *sessiontest.Convo)
		want  bool
	}{
		{"unconfirmed", func(c *sessiontest.Convo) { c.Say(claim).User("what about the cache?").Say("The cache is fine.") }, false},
		{"person approves", func(c *sessiontest.Convo) { c.Say(claim).User("yes, go ahead") }, true},
		{"approval of a later thing", func(c *sessiontest.Convo) {
			c.Say(claim).User("also bump the version").Say("I'll bump it to 1.2.").User("yes")
		}, false},
		{"confirmed by a later sentence", func(c *sessiontest.Convo) {
			c.Say(claim).User("check it").Say("Confirmed: with `retries = 5` all 40 runs pass.")
		}, true},
		{"later hedged mention", func(c *sessiontest.Convo) {
			c.Say(claim).User("check it").Say("`retries = 5` might be confirmed by the next run.")
		}, false},
		{"later mention without confirmation", func(c *sessiontest.Convo) {
			c.Say(claim).User("check it").Say("I still need to look at `retries = 5` more closely.")
		}, false},
		{"written into a file", func(c *sessiontest.Convo) {
			c.Say(claim)
			c.Call("Updating the config.", "Write", map[string]string{"file_path": "/home/dev/app/config.toml", "content": "[upstream]\nretries = 5\n"})
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t)
			c.User("make the upstream calls reliable")
			tc.build(c)
			res := extract(t, c.Msgs)
			got := false
			for _, d := range res.Decisions {
				if d.Description == handoff.UnconfirmedPrefix+claim && tc.want {
					t.Errorf("confirmed hypothesis still listed as unconfirmed: %+v", d)
				}
				if d.Description == claim {
					got = true
					if d.Source.Index != 1 {
						t.Errorf("confirmed hypothesis sourced to message %d, want 1 (where it was said)", d.Source.Index)
					}
				}
			}
			if got != tc.want {
				t.Errorf("decision = %v (%+v), want %v", got, res.Decisions, tc.want)
			}
		})
	}
}

// TestGuessAtSettledChoice: a hedged claim that restates a settled
// decision adds nothing; two guesses at one thing are listed once, in the
// newer words, where they were said.
func TestGuessAtSettledChoice(t *testing.T) {
	t.Parallel()
	c := sessiontest.NewConvo(t)
	c.User("find which state marks synced rows")
	c.Say("`state = 3` appears to be the value for synced rows.")
	c.User("and the archived ones?")
	c.Say("`state = 3`: this is our strongest candidate, the archived ones have 5.")
	c.User("now set up the linter")
	c.Say("I'll use `ruff` instead of `flake8` for linting.")
	res := extract(t, c.Msgs)
	var guesses []handoff.Decision
	for _, d := range res.Decisions {
		if strings.HasPrefix(d.Description, handoff.UnconfirmedPrefix) {
			guesses = append(guesses, d)
		}
	}
	if len(guesses) != 1 || !strings.Contains(guesses[0].Description, "strongest candidate") {
		t.Fatalf("guesses = %+v, want the newer of the two, once", guesses)
	}
	if last := res.Decisions[len(res.Decisions)-1]; strings.HasPrefix(last.Description, handoff.UnconfirmedPrefix) {
		t.Errorf("the guess is listed after a later decision: %+v", res.Decisions)
	}
}
