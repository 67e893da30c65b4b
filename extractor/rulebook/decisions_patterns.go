package rulebook

// decisionPatterns are the decisions layer's patterns moved from the extractor
// verbatim, each with the examples it must match and the near-misses it
// must not; the extractor compiles them with Pattern.
func decisionPatterns() []Rule {
	return []Rule{
		{
			ID: "decisions.bare-lets-not", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches \"let's not <verb>\" with nothing after the verb (\"OK, good start, but let's not rush.\"): a tone, not a choice of anything.",
			Pattern:  `(?i)\blet'?s\s+not\s+[\p{L}-]+[\s.!,]*$`,
			Examples: []string{"OK, good start, but let's not rush."},
			Counter:  []string{"Best hypothesis: ZSTATE 3 means the book is synced to iCloud."},
		},
		{
			ID: "decisions.claim-confirm", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a word that settles a claim: the session checked it.",
			Pattern:  `(?i)\b(?:confirm(?:s|ed|ing)?|verified|verifies|proven|proved|is indeed|are indeed|definitely|definitively|established|settled|works|worked|passes|passed)\b`,
			Examples: []string{"confirmed by a later sentence", "settled"},
			Counter:  []string{"later mention without confirmation", "unconfirmed"},
		},
		{
			ID: "decisions.hindsight-all", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches an adverbial that puts the whole sentence in hindsight: \"In hindsight, choosing X over Y was overkill\".",
			Pattern:  `(?i)\b(?:in hindsight|in retrospect|with hindsight|rétrospectivement|im nachhinein|en retrospectiva)\b`,
			Examples: []string{"In hindsight, choosing X over Y was overkill", "In hindsight, choosing Redis over memcached was overkill."},
			Counter:  []string{"And please keep it always in sync with the README.", "Perhaps we could do it without the wrapper script."},
		},
		{
			ID: "decisions.clause-break", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Splits a sentence into clauses: punctuation, a spaced dash, or a conjunction that opens a new main clause.",
			Pattern:  `(?i)[,;:]\s+|\s+[—–-]\s+|\s+(?:so|but|and now|now|therefore|hence|then)\s+`,
			Examples: []string{"In hindsight, choosing Redis over memcached was overkill.", "regret then present choice"},
			Counter:  []string{"see fig. two vs. three! ok then", "then check the logs for errors"},
		},
		{
			ID: "decisions.labelled-decision", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a line that opens with a decision label: a list mark, bold, then \"D<n>\", \"ADR-<n>\" or \"Decision\", then a separator (\":\", a dash, or the bold's close) and the decision itself.",
			Pattern:  `^(?:[-*+]\s+)?(?:\*\*)?(D\d{1,2}|(?i:adr[- ]?\d{1,4}|decision(?:\s+\d{1,3})?))(?:(?:\*\*)?\s*[:—–]\s*(?:\*\*)?|\s+[-—–]\s+|\*\*\s+)\s*(\S.{2,})$`,
			Examples: []string{"- **D6** back-catalog heals by re-sync, no backfill", "D6: back-catalog heals by re-sync, no backfill"},
			Counter:  []string{"ADR and a bare Decision label", "Decision"},
		},
		{
			ID: "decisions.about-label", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a body that goes on talking about the label instead of stating a decision: \"**D9** is now purely machine identity\", \"**D6** recorded\", \"D5 and D7 stay\".",
			Pattern:  `^(?:is|was|are|were|has|had|have|now|still|already|also|and|or|but|which|that|then|so|stays?|remains?|says|said|covers|records?|recorded|captures?|captured|holds|landed|needs|moved|changed|updated|added|removed|(?:to|in|on|with|from|of|for)\b)\b`,
			Examples: []string{"in a fence", "then: Carry on with what the assistant said comes next"},
			Counter:  []string{"**D9** is now purely machine identity", "bold label with no separator"},
		},
		{
			ID: "decisions.interjection", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches an opening exclamation of one or two words (\"Perfect! \", \"Got it! \"): tone, not part of what was proposed.",
			Pattern:  `^[\p{L}'’]+(?:\s+[\p{L}'’]+)?!\s+`,
			Examples: []string{"Perfect! ", "Got it! "},
			Counter:  []string{"Clearing it on start fixes this. Should I do that?"},
		},
		{
			ID: "decisions.table-row", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a markdown table row, so a proposal laid out as a table is read row by row.",
			Pattern:  `^\|.*\|$`,
			Examples: []string{"| Secret | Still Needed? |", "|--------|---------------|"},
			Counter:  []string{"Rename the flag to --dry-run: - cmd/root.go - README.md"},
		},
		{
			ID: "decisions.table-sep", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a markdown table's separator row, which carries no words of the proposal.",
			Pattern:  `^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$`,
			Examples: []string{"|--------|---------------|", "|---|---|"},
			Counter:  []string{"Rename the flag to --dry-run: - cmd/root.go - README.md"},
		},
		{
			ID: "decisions.config-item", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a config list entry, commented out or not: \"-   id: check-yaml\", \"# - id: end-of-file-fixer\", \"- run: make\".",
			Pattern:  `^#?\s*-\s+[\w.-]+:\s*(\S.*)$`,
			Examples: []string{"-   id: check-yaml", "# - id: end-of-file-fixer"},
			Counter:  []string{"Rename the flag to --dry-run: - cmd/root.go - README.md"},
		},
		{
			ID: "decisions.heading-mark", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a markdown heading's leading hashes, stripped so a heading of a proposal reads as its words.",
			Pattern:  `^#{1,6}\s+`,
			Examples: []string{"# Remove these (auto-modify files):", "# -   id: trailing-whitespace"},
			Counter:  []string{"Rename the flag to --dry-run: - cmd/root.go - README.md"},
		},
		{
			ID: "decisions.git-revert-line", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches the line `git revert` prints for the commit it made: `[main bcb5223] Revert \"refactor: Consolidate …\"`.",
			Pattern:  `(?m)^\s*\[[^\]\n]+\]\s+Revert\s+"(.+)"\s*$`,
			Examples: []string{"[main 1b07bd5] Revert \"feat: Improve error handling for permission denied cases\"", "[main bcb5223] Revert \"refactor: Consolidate path functions into LibraryPaths dataclass\""},
			Counter:  []string{"the agent's own revert report has no person's why", "git log lines naming an old revert are no new revert"},
		},
		{
			ID: "decisions.conventional", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a commit subject's type prefix (\"feat(ui): \").",
			Pattern:  `^[a-z]+(?:\([^)]*\))?!?:\s*`,
			Examples: []string{"feat(ui): ", "make: *** No rule to make target 'install'.  Stop."},
			Counter:  []string{"the agent's own revert report has no person's why"},
		},
		{
			ID: "decisions.reverted-word", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Marks a message that reports a revert.",
			Pattern:  `(?i)\b(?:reverted|rolled back|undid|undone)\b`,
			Examples: []string{"Reverted! The LibraryPaths dataclass is gone.", "I tried ccache, reverted it because the cache dir is read-only."},
			Counter:  []string{"- **D6** back-catalog heals by re-sync, no backfill", "Stop hook feedback: The context window is 86% full."},
		},
		{
			ID: "decisions.gone", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches what the report says is gone: \"the LibraryPaths dataclass is gone\", \"the retry wrapper has been removed\".",
			Pattern:  `(?i)(?:^|[,;:]\s*|\bbut\s+)(?:the\s+)?([^,;:.!?]{3,80}?)\s+(?:is|are|has been|have been|was|were)\s+(?:now\s+)?(?:gone|removed|reverted|undone|rolled back)\b`,
			Examples: []string{"the LibraryPaths dataclass is gone", "the retry wrapper has been removed"},
			Counter:  []string{"Reverted! The LibraryPaths dataclass is gone.", "I tried ccache, reverted it because the cache dir is read-only."},
		},
		{
			ID: "decisions.tried", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches \"tried X, reverted\" / \"tried X but rolled it back\".",
			Pattern:  `(?i)\btried\s+(.{3,80}?)(?:,\s*|\s+and\s+|\s+but\s+)(?:then\s+)?(?:reverted|rolled (?:it |that )?back|undid)`,
			Examples: []string{"I tried ccache, reverted it because the cache dir is read-only.", "I tried the retry wrapper, reverted it since it hid the real error."},
			Counter:  []string{"Reverted! The LibraryPaths dataclass is gone.", "Tried and reverted: Improve error handling for permission denied cases"},
		},
		{
			ID: "decisions.revert-ask", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches the person asking for a revert.",
			Pattern:  `(?i)\b(?:revert|undo|roll (?:it |that )?back|back (?:it |that )?out)\b`,
			Examples: []string{"the agent's own revert report has no person's why", "git log lines naming an old revert are no new revert"},
			Counter:  []string{"Reverted! The LibraryPaths dataclass is gone.", "I tried ccache, reverted it because the cache dir is read-only."},
		},
		{
			ID: "decisions.decision-title", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a heading or label that is itself one decision: \"### Decision: Use X\", \"D2: keep Y\", \"**Decision**: Z\", \"ADR-003: W\".",
			Pattern:  `(?i)^(?:#{1,6}\s*)?(?:[-*+]\s+)?(?:\*\*)?(decision|d\d{1,2}|adr[- ]?\d{1,4})(?:\*\*)?(?:\s*[:—–]|\s+-)\s*(?:\*\*)?\s*(.{3,})$`,
			Examples: []string{"### Decision: Use X", "D2: keep Y"},
			Counter:  []string{"a decisions section: sub-headings with their items", "decision records with rationale and alternatives"},
		},
		{
			ID: "decisions.decisions-heading", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a heading whose section lists decisions: its words are decisions, optionally qualified (\"Key Architectural Decisions\", \"Design decisions made\"), or a bare \"Design\", \"Architecture\", \"Approach\" heading.",
			Pattern:  `(?i)^(?:\d{1,2}[.)]?\s*)?(?:(?:(?:key|main|major|important|architectur\w*|design|technical|technology|tech|implementation|recent|core|our|the|made|chosen|final|accepted)\s+)*decisions?(?:\s+made|\s+log|\s+record)?|(?:(?:the|our|chosen|final|proposed|selected|overall)\s+)?(?:design|architecture|approach))\s*(?:\([^)]*\))?\s*:?$`,
			Examples: []string{"Key Architectural Decisions", "Design decisions made"},
			Counter:  []string{"a decisions section: sub-headings with their items", "decision records with rationale and alternatives"},
		},
		{
			ID: "decisions.alts-heading", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a heading that opens the alternatives of a written decision (\"Alternatives considered\", \"Rejected options\").",
			Pattern:  `(?i)^(?:alternatives?(?: considered)?|options considered|rejected(?: options| alternatives)?)\s*:?$`,
			Examples: []string{"Alternatives considered:", "rejected"},
			Counter:  []string{"decision records with rationale and alternatives", "- Flask: rejected, untyped."},
		},
		{
			ID: "decisions.written-heading", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a markdown heading of a decision record, its level (group 1) and title (group 2).",
			Pattern:  `^(#{1,6})\s+(.+?)\s*#*$`,
			Examples: []string{"### Decision: Return RESOURCE_NOT_FOUND for unknown tools", "### Decision: Use FastAPI for transport"},
			Counter:  []string{"a decisions section: sub-headings with their items"},
		},
		{
			ID: "decisions.written-rationale", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "WrittenAltsRe label the lines a decision record gives its why and what it was chosen over.",
			Pattern:  `(?i)^(?:[-*+]\s+)?(?:\*\*)?(?:rationale|why|reason|because)(?:\*\*)?\s*:\s*(?:\*\*)?\s*(.+)$`,
			Examples: []string{"Rationale: matches the constitution.", "Rationale: typed"},
			Counter:  []string{"decision records with rationale and alternatives", "a bare revert ask takes the message before as its reason"},
		},
		{
			ID: "decisions.written-alts", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches the label of a written decision's alternatives line (\"Alternatives considered:\", \"Rejected:\").",
			Pattern:  `(?i)^(?:[-*+]\s+)?(?:\*\*)?(?:alternatives?(?: considered)?|rejected|options considered)(?:\*\*)?\s*:\s*(?:\*\*)?\s*(.*)$`,
			Examples: []string{"Alternatives considered:", "- Alternatives considered: [what else evaluated]"},
			Counter:  []string{"decision records with rationale and alternatives", "- Flask: rejected, untyped."},
		},
		{
			ID: "decisions.aider-removed-line", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches Aider's whole /undo answer line: \"Removed: 7e3d1b2 feat: skip own-account transfers in importers\".",
			Pattern:  `(?m)^>?\s*Removed: ([0-9a-f]{7,40}) (.+?)\s*$`,
			Examples: []string{"Removed: 7e3d1b2 feat: skip own-account transfers in importers"},
			Counter:  []string{"Removed the debug flag from flags.go.", "- ✅ Removed the tables: 142 bytes"},
		},
		{
			ID: "decisions.hedged", Layer: LayerDecisions, Kind: KindPattern,
			Purpose: "Matches a word that hedges the claim of its clause (\"appears to be\", \"probably\", \"our strongest candidate\", \"I think Z could work\"): the session does not know yet, so the claim is held until something confirms it.",
			Pattern: `(?i)\b(?:appears?|appeared|seems?|seemed|seemingly|apparently|likely|unlikely|probably|presumably|possibly|perhaps|maybe|might|may (?:be|have|work|need)|could be|candidate|hypothes[ie]s|tentative(?:ly)?|not (?:yet )?sure|unsure|suspect|my guess|best guess|educated guess|suggests? that|vermutlich|wahrscheinlich|anscheinend|scheint|probablement|semble|peut-être|parece|probablemente|quizás|tal vez)\b` +
				`|\bI (?:think|believe|guess|suspect|assume)\b.*\b(?:could|might|may|should work)\b`,
			Examples: []string{"I'll probably use Y", "I think Z could work", "`X = 3` appears to be the correct value"},
			Counter:  []string{"I'll use a token bucket instead of a fixed window.", "Confirmed: ZSTATE 3 is the synced state."},
		},
		{
			ID: "decisions.offer-to-look", Layer: LayerDecisions, Kind: KindPattern,
			Purpose: "Matches a proposal trigger followed by a verb that only looks, reads or tells (\"Should I show you the uncommitted changes?\", \"Want me to check the logs first?\"): an offer to look chooses nothing.",
			Pattern: `(?i)\b(?:should I|shall I|would you like me to|do you want me to|want me to|I can(?: now)?|I'?d like to)\s+` +
				`(?:first\s+|quickly\s+|also\s+|just\s+)?` +
				`(?:show|explain|check|look|read|review|see|inspect|investigate|examine|explore|walk you through|clarify|summari[sz]e|list|tell|describe|open|display|print|dig|search|find|verify|diagnose|analy[sz]e|go over|take a look|have a look|double-check)\b`,
			Examples: []string{"Should I show you the uncommitted code changes?", "Want me to check the logs first?"},
			Counter:  []string{"I recommend switching the importer to pgx.", "Should I proceed with Batch 1 first?"},
		},
		{
			ID: "decisions.identifier", Layer: LayerDecisions, Kind: KindPattern,
			Purpose: "Matches a token a successor can act on: code in backticks, a path, a file name or pkg.Func, a flag, a number, snake_case, kebab-case with two dashes, CamelCase or camelCase, or a quoted name; a choice whose sentence names none chose nothing.",
			Pattern: "`[^`]+`" +
				`|[\p{L}\d_.-]*/[\p{L}\d_.-]+` +
				`|\b[\p{L}\d_-]+\.[a-z][a-z\d]{0,5}\b` +
				`|(?:^|\s)--?[a-zA-Z][\w-]*` +
				`|\b\d+(?:\.\d+)*\b` +
				`|\b\w*_\w+\b` +
				`|\b\p{Ll}+(?:-[\p{Ll}\d]+){2,}\b` +
				`|\b\p{Lu}?\p{Ll}+\p{Lu}\w*\b` +
				`|["“][^"”\s][^"”]{0,40}["”]` +
				`|(?:^|[^\p{L}])['‘][^'’\s][^'’]{0,40}['’](?:[^\p{L}]|$)`,
			Examples: []string{"I'll go with that instead of editing main.go.", "I'll use it instead of `os.Exit`.", "I'll use that rather than --force.", "Let's go with that rather than 3 retries.", `I'll go with that instead of "legacy mode".`},
			Counter:  []string{"Let's work WITH that rather than against it.", "I'll go with this one instead."},
		},
		{
			ID: "decisions.hindsight", Layer: LayerDecisions, Kind: KindPattern,
			Purpose: "Matches a counterfactual clause about the past (a modal with a perfect infinitive, \"it would have been better\", \"I wish I had\", and the same in French, German and Spanish): a regret or a lesson, not a choice the work rests on.",
			Pattern: `(?i)` +
				`\b(?:should|shouldn['’]?t|should not|ought(?:n['’]?t| not)? to|could|couldn['’]?t|would|wouldn['’]?t|might|must)` +
				`(?:\s+(?:not|just|really|probably|also|simply|instead|rather|first|never|already))*(?:\s+have|\s*['’]ve)\s+` +
				`(?:(?:just|simply|first|also|instead)\s+)?` + pastParticiple + `\b` +
				`|\b(?:it|that|this)(?:\s+would|['’]d)\s+have\s+been\s+(?:better|wiser|simpler|easier|cleaner|safer|smarter|faster|preferable|more \w+)\b` +
				`|\bi wish (?:i|we) had\b|\bhad (?:i|we) (?:used|known|checked|asked|run|read)\b` +
				// French: j'aurais dû, on aurait dû, nous aurions dû; il aurait mieux valu.
				`|\b(?:aurais|aurait|aurions|auriez|auraient)\s+(?:d[uû]|mieux valu|pu)(?:[\s.,;:!?]|$)` +
				// German: hätte … sollen/müssen/können; wäre besser gewesen.
				`|\bh[äa]tten?\b[^.;:!?]{0,60}\b(?:sollen|m[üu]ssen|k[öo]nnen)\b|\bw[äa]re\b[^.;:!?]{0,30}\bbesser gewesen\b` +
				// Spanish: debería haber, debí haber, hubiera sido mejor.
				`|\b(?:deber[íi]a|deb[íi]|deber[íi]amos|debimos|tendr[íi]a que)\s+haber\b|\bhubiera sido mejor\b`,
			Examples: []string{"But I should have used ripgrep directly rather than the Task tool for this search.", "It would have been better to use `git mv` instead of copying the file.", "J'aurais dû utiliser `rg` instead of grep.", "Ich hätte `rg` instead of grep verwenden sollen.", "Debería haber usado `rg` instead of grep."},
			Counter:  []string{"Each handler should have a test, so I'll use `httptest` instead of a live server.", "We would have to rewrite the parser, so I'll use `goyacc` instead of a hand-written one."},
		},
	}
}

// pastParticiple is a regular past participle or a common irregular
// one: "have used" is the perfect, "should have a test" is not
// (decisions.hindsight).
const pastParticiple = `(?:\w+ed|been|done|gone|made|taken|written|run|known|seen|put|set|kept|left|let|read|built|chosen|given|got|gotten|thought|told|found|brought|sent|spent|said|split|begun|stuck|shown|held|meant|dealt|won|lost|paid|taught|understood|rewritten|undone|overridden)`
