package rulebook

// decisionSetPatterns are the sentence patterns of the decision set
// (decisions.CompilePatterns), moved from the extractor verbatim: the
// assistant's and the person's choosing sentences, the choice and its
// alternative captured, the rationale, a reversal, and the decision's
// type. Each is matched without regard to case.
func decisionSetPatterns() []Rule {
	return []Rule{
		// The assistant's settled choices stated as a judgement rather
		// than in the first person. Each is shown only when it names a
		// concrete thing (the compiler's check), so "the best approach is
		// to take it step by step" stays out.
		{
			ID: "decisions.prose-best-way", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a choice stated as a judgement: \"The simplest solution is to rename …\", \"the cleanest fix would be …\".",
			Pattern:  `(?i)` + `\b(?:simplest|best|cleanest|proper|right|correct|better|safest|easiest|cleaner|preferred)\s+(?:solution|approach|fix|option|way)\s+(?:here\s+)?(?:is|would be|will be)\s+(?:to\s+)?\S`,
			Examples: []string{"The simplest solution is to rename the field.", "The cleanest fix would be a wrapper."},
			Counter:  []string{"This is the simplest solution.", "The best approach.."},
		},
		{
			ID: "decisions.prose-solution-label", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a choice under a label that opens the line: \"Better solution: exclude specs from mypy\", \"Final design: …\".",
			Pattern:  `(?i)` + `^(?:the\s+)?(?:better|best|proposed|recommended|chosen|final)\s+(?:solution|approach|fix|option|choice|design)\s*:\s*\S`,
			Examples: []string{"Better solution: exclude specs from mypy", "Final design: one table per tenant"},
			Counter:  []string{"A better solution would help.", "We need a better solution: soon"},
		},
		{
			ID: "decisions.prose-should-be-primary", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a thing made the one to use: \"The unified API should be the primary interface\".",
			Pattern:  `(?i)` + `\bshould\s+be\s+the\s+(?:primary|canonical|single|default|main|only)\b`,
			Examples: []string{"The unified API should be the primary interface", "config.toml should be the single source of truth"},
			Counter:  []string{"It should be the last step.", "the primary interface is the API"},
		},
		{
			ID: "decisions.prose-hypothesis", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches the hypothesis the work now rests on: \"Best hypothesis: …\", \"the working hypothesis\".",
			Pattern:  `(?i)` + `\b(?:best|most likely|leading|working)\s+hypothesis\b`,
			Examples: []string{"Best hypothesis: ZSTATE 3 means the book is synced to iCloud.", "Our working hypothesis is a stale cache."},
			Counter:  []string{"A hypothesis we rejected.", "the best hypotheses so far"},
		},
		{
			ID: "decisions.prose-strongest-candidate", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a finding the work now rests on: \"this is our strongest candidate for a cloud-synced book\", \"the most likely cause\".",
			Pattern:  `(?i)` + `\b(?:strongest|likeliest|most likely|leading)\s+(?:candidate|explanation|cause|guess|theory)\b`,
			Examples: []string{"`ZSTATE = 3`: this is our strongest candidate for a cloud-synced book", "The most likely cause is the proxy."},
			Counter:  []string{"a candidate for removal", "the strongest test so far"},
		},
		{
			ID: "decisions.prose-appears-correct", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a value found to be the right one: \"X appears to be the correct value for Y\".",
			Pattern:  `(?i)` + `\b(?:appears|seems|turns out)\s+to\s+be\s+the\s+(?:correct|right|actual|real)\b`,
			Examples: []string{"`ZSTATE = 3` appears to be the correct value for a synced book", "It turns out to be the real cause."},
			Counter:  []string{"It appears to be broken.", "the correct value appears later"},
		},
		// The assistant choosing in the first person.
		{
			ID: "decisions.choose-instead", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a first person choosing something \"instead\" (\"I'll use `rg` instead of grep\"), not one narrating what it looks at (\"I'm now reading X instead\").",
			Pattern:  `(?i)` + `\b` + weChoose + `\b.*\binstead\b`,
			Examples: []string{"I'll use `rg` instead of grep for the search.", "I'm switching to that instead, it works better."},
			Counter:  []string{"I'm now reading the config instead of the docs.", "Use X instead of Y."},
		},
		{
			ID: "decisions.instead-of-choose", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a choice that names the alternative first: \"Instead of a fixed window, I'll use a token bucket\".",
			Pattern:  `(?i)` + `\binstead of\b.+,\s*` + weChoose + `\b`,
			Examples: []string{"Instead of a fixed window, I'll use a token bucket."},
			Counter:  []string{"I'll use a token bucket instead of a fixed window.", "Instead of a fixed window, use a token bucket."},
		},
		{
			ID: "decisions.decided", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a decision said to be taken: \"We've decided to keep the SQLite store\", \"decided against it\".",
			Pattern:  `(?i)` + `\b(?:i'?ve|i have|we'?ve|we have)?\s*decided\s+(?:to|on|that|against)\b`,
			Examples: []string{"We've decided to keep the SQLite store.", "I decided against the rewrite."},
			Counter:  []string{"Nothing is decided yet.", "the undecided items"},
		},
		{
			ID: "decisions.switch-to", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches the assistant switching to something, at the sentence start or in the first person: \"I'm switching to `pnpm`\", \"Switched from npm to pnpm\".",
			Pattern:  `(?i)` + `(?:^|\b(?:i'?m|we'?re|i'?ll|we'?ll|let'?s|i will|we will|i)\s+)switch(?:ing|ed)?\s+(?:back\s+)?(?:from\s+.+?\s+)?to\b`,
			Examples: []string{"I'm switching to `pnpm` for installs.", "Switched from npm to pnpm."},
			Counter:  []string{"The loader switches to the fallback path.", "the user switched to dark mode"},
		},
		{
			ID: "decisions.go-with", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a first person going with something: \"Let's go with pgx\", \"I'm going with the streaming parser\".",
			Pattern:  `(?i)` + `\b(?:let'?s|i'?ll|we'?ll|i'?m|we'?re)\s+go(?:ing)?\s+with\b`,
			Examples: []string{"Let's go with pgx.", "I'm going with the streaming parser."},
			Counter:  []string{"It goes with the config.", "Go with pgx."},
		},
		{
			ID: "decisions.going-with-opening", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a sentence that opens with \"Going with\": the choice with its subject left out.",
			Pattern:  `(?i)` + `^going with\b`,
			Examples: []string{"Going with pgx for the driver."},
			Counter:  []string{"I'm going with pgx.", "Going without the cache."},
		},
		{
			ID: "decisions.chose-over", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a choice of one thing over another: \"We picked SQLite over Postgres\".",
			Pattern:  `(?i)` + `\b(?:chose|choose|choosing|chosen|picked|picking|prefer|preferring)\b.+\bover\b`,
			Examples: []string{"We picked SQLite over Postgres for the fixtures.", "I prefer tabs over spaces here."},
			Counter:  []string{"I picked up the logs.", "It is over now."},
		},
		{
			ID: "decisions.opt-for", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches opting for something: \"I opted for a token bucket\".",
			Pattern:  `(?i)` + `\bopt(?:ed|ing)?\s+for\b`,
			Examples: []string{"I opted for a token bucket.", "Opting for the simpler schema."},
			Counter:  []string{"The option for retries is off.", "I opted out."},
		},
		{
			ID: "decisions.choose-rather-than", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a first person choosing one thing \"rather than\" another, not one narrating what it looks at.",
			Pattern:  `(?i)` + `\b` + weChoose + `\b.*\brather than\b`,
			Examples: []string{"Let's work WITH that rather than against it.", "I'll use pgx rather than lib/pq."},
			Counter:  []string{"I'm now reading the config rather than the docs.", "Use pgx rather than lib/pq."},
		},
		{
			ID: "decisions.will-skip", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a first person skipping a piece of work: \"We'll skip the e2e suite\".",
			Pattern:  `(?i)` + `\b(?:we'?ll|i'?ll|i will|we will|let'?s)\s+skip\b`,
			Examples: []string{"We'll skip the e2e suite for now.", "Let's skip the migration."},
			Counter:  []string{"The loop skips to the next day.", "We skipped it yesterday."},
		},
		{
			ID: "decisions.workaround-label", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a workaround under its label: \"Workaround: pin the version\".",
			Pattern:  `(?i)` + `\bworkaround:`,
			Examples: []string{"Workaround: pin the version to 1.2."},
			Counter:  []string{"a workaround for the bug", "As a workaround, I'll pin the version."},
		},
		{
			ID: "decisions.as-workaround", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a choice made \"as a workaround\".",
			Pattern:  `(?i)` + `\bas a workaround\b`,
			Examples: []string{"As a workaround, I'll pin the version."},
			Counter:  []string{"Workaround: pin the version to 1.2.", "a workaround for the bug"},
		},
		{
			ID: "decisions.revert-to", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a return to an earlier choice: \"Reverting to the old parser\", \"going back to npm\".",
			Pattern:  `(?i)` + `\b(?:revert(?:ing)?|go(?:ing)? back|switch(?:ing)? back)\s+to\b`,
			Examples: []string{"Reverting to the old parser.", "I'm going back to npm."},
			Counter:  []string{"Reverted the commit.", "go back and check"},
		},
		// The person's choices.
		{
			ID: "decisions.user-lets", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches the person's \"let's use/keep/go with/not …\".",
			Pattern:  `(?i)` + `\blet'?s\s+(?:use|go with|keep|stick with|switch to|not|skip|avoid)\b`,
			Examples: []string{"ok let's keep it", "let's use pgx"},
			Counter:  []string{"let's see what fails", "lets go"},
		},
		{
			ID: "decisions.user-dont", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches the person forbidding an action on something: \"don't touch the public API\", \"never push to main\".",
			Pattern:  `(?i)` + `\b(?:don'?t|do not|never|please don'?t)\s+(?:delete|remove|use|touch|change|modify|commit|push|add|rename|drop|install|run|rewrite)\b`,
			Examples: []string{"don't touch the public API", "never push to main"},
			Counter:  []string{"I don't know why it fails", "don't worry about it"},
		},
		{
			ID: "decisions.user-use-instead", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches the person's \"use X instead of Y\".",
			Pattern:  `(?i)` + `\buse\s+.+?\s+instead of\b`,
			Examples: []string{"use `rg` instead of grep", "Use the staging database instead of prod."},
			Counter:  []string{"instead of grep, try rg", "use rg instead"},
		},
		{
			ID: "decisions.user-instead-of", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches the person's \"instead of\".",
			Pattern:  `(?i)` + `\binstead of\b`,
			Examples: []string{"instead of grep, try rg"},
			Counter:  []string{"do it instead", "use rg please"},
		},
		{
			ID: "decisions.user-always-use", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches the person's \"always/only/please use\".",
			Pattern:  `(?i)` + `\b(?:always|only|please)\s+use\b`,
			Examples: []string{"always use pnpm", "please use the staging database"},
			Counter:  []string{"we use pnpm", "always check the logs"},
		},
		{
			ID: "decisions.user-prefer", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches the person wanting a thing used or kept: \"I'd prefer you to use pgx\", \"I want to keep the old API\".",
			Pattern:  `(?i)` + `\bi(?:'d| would)?\s+(?:want|prefer)\s+(?:you to\s+)?(?:use|keep|go with|stick with)\b`,
			Examples: []string{"I'd prefer you to use pgx", "I want you to keep the old API"},
			Counter:  []string{"I want a faster build", "you prefer to use pgx"},
		},
		{
			ID: "decisions.user-go-with", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches the person's \"go with\".",
			Pattern:  `(?i)` + `\bgo with\b`,
			Examples: []string{"go with the second option"},
			Counter:  []string{"going with it", "go without the cache"},
		},
		{
			ID: "decisions.not-choice", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a switch that moves around the tree (to a directory, branch, tab, worktree or window), which is not a decision.",
			Pattern:  `(?i)` + `\bswitch(?:ing|ed)?\s+(?:back\s+)?to\s+(?:the\s+)?(?:\S+\s+)?(?:directory|dir|folder|branch|tab|worktree|terminal|window)\b`,
			Examples: []string{"Switching to the main branch.", "switch to the repo directory"},
			Counter:  []string{"I'm switching to `pnpm` for installs.", "Switched from npm to pnpm."},
		},
		// The chosen thing (submatch c) and its alternative (a).
		{
			ID: "decisions.alt-use-instead-of", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Captures the choice and the alternative of \"use X instead of Y\".",
			Pattern:  `(?i)` + `\buse\s+(?P<c>.+?)\s+instead\s+of\s+(?P<a>.+?)` + clauseEnd,
			Examples: []string{"use `rg` instead of grep", "I'll use a token bucket instead of a fixed window."},
			Counter:  []string{"use rg", "instead of grep, try rg"},
		},
		{
			ID: "decisions.alt-instead-of-we", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Captures the alternative and the choice of \"instead of Y, I'll (use) X\".",
			Pattern:  `(?i)` + `\binstead\s+of\s+(?P<a>.+?),\s*` + weAct + `\s+(?:use\s+|go with\s+|switch to\s+)?(?P<c>.+?)` + clauseEnd,
			Examples: []string{"Instead of a fixed window, I'll use a token bucket."},
			Counter:  []string{"Instead of a fixed window, use a token bucket.", "I'll use a token bucket instead of a fixed window."},
		},
		{
			ID: "decisions.alt-switch-from-to", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Captures the alternative and the choice of \"switch from Y to X\".",
			Pattern:  `(?i)` + `\bswitch(?:ing|ed)?\s+(?:back\s+)?from\s+(?P<a>.+?)\s+to\s+(?P<c>.+?)` + clauseEnd,
			Examples: []string{"Switched from npm to pnpm."},
			Counter:  []string{"Switching to pnpm.", "switched off"},
		},
		{
			ID: "decisions.alt-switch-to", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Captures the choice of \"switch to X\".",
			Pattern:  `(?i)` + `\bswitch(?:ing|ed)?\s+(?:back\s+)?to\s+(?P<c>.+?)` + clauseEnd,
			Examples: []string{"Switching to pnpm.", "I'm switching to that instead, it works better."},
			Counter:  []string{"The loader switches to the fallback path.", "switched off"},
		},
		{
			ID: "decisions.alt-chose-over", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Captures the choice and the alternative of \"picked X over Y\".",
			Pattern:  `(?i)` + `\b(?:chose|choose|choosing|chosen|picked|picking|prefer|preferring)\s+(?P<c>.+?)\s+over\s+(?P<a>.+?)` + clauseEnd,
			Examples: []string{"We picked SQLite over Postgres for the fixtures.", "In hindsight, choosing Redis over memcached was overkill."},
			Counter:  []string{"I picked up the logs.", "It is over now."},
		},
		{
			ID: "decisions.alt-opt-for", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Captures the choice of \"opted for X\".",
			Pattern:  `(?i)` + `\bopt(?:ed|ing)?\s+for\s+(?P<c>.+?)` + clauseEnd,
			Examples: []string{"I opted for a token bucket."},
			Counter:  []string{"The option for retries is off.", "I opted out."},
		},
		{
			ID: "decisions.alt-revert-to", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Captures the choice of \"reverting/going back to X\".",
			Pattern:  `(?i)` + `\b(?:revert(?:ing)?|go(?:ing)? back)\s+to\s+(?P<c>.+?)` + clauseEnd,
			Examples: []string{"Reverting to the old parser.", "I'm going back to npm."},
			Counter:  []string{"Reverted the commit.", "go back and check"},
		},
		{
			ID: "decisions.alt-go-with", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Captures the choice of \"go with X\".",
			Pattern:  `(?i)` + `\bgo(?:ing)?\s+with\s+(?P<c>.+?)` + clauseEnd,
			Examples: []string{"Let's go with pgx.", "I'm going with the streaming parser."},
			Counter:  []string{"It goes with the config.", "go without the cache"},
		},
		{
			ID: "decisions.alt-decided-on", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Captures the choice of \"decided on X\" or \"decided to use X\".",
			Pattern:  `(?i)` + `\bdecided\s+(?:to\s+use|on)\s+(?P<c>.+?)` + clauseEnd,
			Examples: []string{"We decided on pgx.", "I decided to use pgx for the driver."},
			Counter:  []string{"We decided to wait.", "Nothing is decided yet."},
		},
		{
			ID: "decisions.alt-rather-than", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Captures the choice (the one or two words before) and the alternative of \"X rather than Y\".",
			Pattern:  `(?i)` + `\b(?P<c>\S+(?:\s+\S+)?)\s+rather\s+than\s+(?P<a>.+?)` + clauseEnd,
			Examples: []string{"Redis is loaded; I'll go with that rather than memcached.", "I'll use pgx rather than lib/pq."},
			Counter:  []string{"Rather than memcached, Redis.", "I'd rather not."},
		},
		{
			ID: "decisions.alt-rather-than-bare", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Captures the alternative of \"rather than Y\".",
			Pattern:  `(?i)` + `\brather\s+than\s+(?P<a>.+?)` + clauseEnd,
			Examples: []string{"Rather than memcached, use Redis."},
			Counter:  []string{"I'd rather not.", "rather slow"},
		},
		{
			ID: "decisions.alt-instead-of", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Captures the alternative of \"instead of Y\".",
			Pattern:  `(?i)` + `\binstead\s+of\s+(?P<a>.+?)` + clauseEnd,
			Examples: []string{"instead of grep, try rg"},
			Counter:  []string{"do it instead", "use rg please"},
		},
		{
			ID: "decisions.alt-use", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Captures the choice of \"use/keep/stick with X\".",
			Pattern:  `(?i)` + `\b(?:use|keep|stick with)\s+(?P<c>.+?)` + clauseEnd,
			Examples: []string{"keep the old API", "I'll stick with npm."},
			Counter:  []string{"It was used twice.", "the keeper of the keys"},
		},
		// What a decision is related by, and what type it is.
		{
			ID: "decisions.rationale", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Captures the reason given for a decision: the rest of the sentence after \"because\", \"since\", \"so that\", \"given that\", \"as it …\".",
			Pattern:  `(?i)` + `\b(?:because|since|so that|given that|as (?:it|they|this|that|the|we|there|otherwise))\b\s*(.+)$`,
			Examples: []string{"I'll use pgx because it supports COPY.", "We keep SQLite, given that the tests run offline."},
			Counter:  []string{"I'll use pgx.", "as expected"},
		},
		{
			ID: "decisions.follow", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a sentence that opens by following on from the one before (\"This keeps …\", \"Otherwise …\", \"The reason …\"), read as the decision's rationale.",
			Pattern:  `(?i)` + `^(?:this|that|it|because|since|the reason|otherwise|that way|which|so that)\b`,
			Examples: []string{"This keeps one noisy client from starving others.", "Otherwise the cache goes stale."},
			Counter:  []string{"Use pgx.", "Thistle is a plant."},
		},
		{
			ID: "decisions.reversal", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a word that turns a decision back: \"back\", \"revert\", \"actually\", \"after all\", \"undo\".",
			Pattern:  `(?i)` + `\b(?:back|revert(?:ing|ed)?|actually|after all|undo)\b`,
			Examples: []string{"Actually, let's keep npm.", "Reverted to the old parser."},
			Counter:  []string{"Let's use pnpm.", "the backend"},
		},
		{
			ID: "decisions.type-workaround", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Types a decision as a workaround: a hack, a temporary choice, one \"for now\".",
			Pattern:  `(?i)` + `\b(?:workaround|work around|temporar(?:y|ily)|hack|for now)\b`,
			Examples: []string{"As a workaround, I'll pin the version.", "For now I'll hard-code the path."},
			Counter:  []string{"I'll use pgx.", "the hackathon"},
		},
		{
			ID: "decisions.type-skip", Layer: LayerDecisions, Kind: KindPattern,
			Purpose: "Types a decision as work left undone, said of the work itself (\"we'll skip the e2e suite\", \"out of scope\", \"I won't port X\"), not \"skip\" in a description of how code behaves.",
			Pattern: `(?i)` + `\b(?:(?:we|i|let'?s)(?:'ll| will| can| are| am|'re|'m)?\s+(?:just\s+|also\s+)?(?:skip(?:ping)?|not (?:do|port|implement|add|fix|support)|won'?t|will not|not going to)` +
				`|skipping\b.{0,60}\b(?:for now|this time|entirely|altogether)` +
				`|defer(?:ring)?|postpone|out of scope|leave .+ for later)\b`,
			Examples: []string{"We'll skip the e2e suite.", "I won't port the Windows build.", "That is out of scope."},
			Counter:  []string{"The loop skips to the next day.", "This won't compile."},
		},
		{
			ID: "decisions.type-layout", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Types a decision as one about the module layout.",
			Pattern:  `(?i)` + `\bmodule layout\b`,
			Examples: []string{"I'll keep the module layout flat."},
			Counter:  []string{"module loading", "the page layout"},
		},
		{
			ID: "decisions.type-library", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Types a decision as the choice of a library, package or framework.",
			Pattern:  `(?i)` + `\b(?:package|library|libraries|lib|module|dependency|dependencies|import|crate|gem|npm install|go get|pip install|sdk|framework)\b`,
			Examples: []string{"I'll use the pgx library.", "Let's drop the dependency."},
			Counter:  []string{"I'll rename the field.", "the imported names"},
		},
		{
			ID: "decisions.type-architecture", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Types a decision as one of architecture: design, structure, interfaces, layers, schema.",
			Pattern:  `(?i)` + `\b(?:architecture|design|structure|refactor(?:ing)?|interface|layer(?:s|ing)?|abstraction|schema)\b`,
			Examples: []string{"I'll refactor the parser into layers.", "Keep the schema as it is."},
			Counter:  []string{"I'll rename the field.", "the designer's mockups"},
		},
	}
}

// The decision set's shared pieces.
const (
	// weAct is a first person about to act or choosing.
	weAct = `(?:i'?ll|i will|we'?ll|we will|let'?s|i'?m going to|we'?re going to|i'?d rather|we should|i'?m|we'?re)`
	// weChoose is a first person choosing, not narrating progress: "I'm
	// now reading X rather than Y" reports what the agent looks at, "I'll
	// use X rather than Y" or "I'm switching to X instead" decides.
	weChoose = `(?:i'?ll|i will|we'?ll|we will|let'?s|i'?m going to|we'?re going to|i'?d rather|we should|i should|` +
		`(?:i|we) (?:decided|chose|opted|went)|(?:i|we)'?ve (?:decided|chosen|opted|gone)|` +
		`(?:i'?m|we'?re)\s+(?:now\s+)?(?:using|switching|going with|keeping|replacing|changing|moving|dropping|removing|adding|sticking))`
	// clauseEnd closes a captured phrase: a clause word or punctuation.
	clauseEnd = `(?:\s+(?:because|since|so that|so|as|for|which|to|in|and|but|when|while|here|now|from|instead|over|rather)\b|[,;:!?()"]|\.(?:\s|$)|$)`
)
