package rulebook

// conversationRules read the speakers' own words: what the assistant
// announced it would do, its handoff note, an earlier summary.
func conversationRules() []Rule {
	return []Rule{
		{
			ID: "conversation.stated-intent", Layer: LayerConversation, Kind: KindPattern, Switch: true,
			Purpose:  "A sentence of the assistant's that announces its next action ('Now I need to add the missing implementations', 'Let me update the runner:'): at a cut mid-task it is what was in flight.",
			Pattern:  `(?i)\b(?:let me (?:(?:now|also|first|then|quickly) )?(?:[a-jl-z]|k[^n])|let's (?:[a-z])|now I(?:'ll| will| need to| have to| must)\b|I(?: still)? need to\b|I(?:'ll| will|'m going to| am going to) (?:now |then |next |first )?(?:[a-ac-z]|b[^e])|next,? I(?:'ll| will)\b|lass(?:t)? (?:mich|uns)\b|ich (?:werde|muss)\b|jetzt (?:muss|werde|noch)\b|je vais\b|voy a\b)`,
			Examples: []string{"Now I need to add the missing function implementations to the tensor file.", "Let me update the benchmark runner:", "I'll now run the full suite.", "Jetzt lass mich die Tests starten:"},
			Counter:  []string{"Let me know if you need anything else.", "I updated the runner and all tests pass.", "I'll be here if you need me."},
		},
		{
			ID: "conversation.compact-instructions", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "A /compact command whose arguments tell the summariser what to keep ('/compact keep the plan and todos'): words to the harness, not a request for work, so never the goal or an earlier request.",
			Pattern:  `^/compact(?:\s|$)`,
			Examples: []string{"/compact MERKE dir alle details zu unserem plan", "/compact keep the failing tests and the plan", "/compact"},
			Counter:  []string{"/compaction-report fix the totals", "compact the JSON output", "please /compact later"},
		},
		{
			ID: "conversation.said-changes", Layer: LayerConversation, Kind: KindStep, Switch: true,
			Purpose:  "In a transcript that records no tool calls (an export that kept only the words), a report line naming a file or identifier is a key line without a verdict, and twice as many key lines are offered (the compiler keeps what fits): what changed is known only from what the reports say.",
			Examples: []string{"report without tool calls"}, Counter: []string{"report with tool calls"},
		},
		{
			ID: "conversation.said-files", Layer: LayerConversation, Kind: KindStep, Switch: true,
			Purpose:  "In a transcript that records no tool calls, the files the assistant's reports name in a line saying they were changed (conversation.change-line) are the only record of what was edited: the prompt names them where a tool transcript lists its edited files.",
			Examples: []string{"report without tool calls"}, Counter: []string{"report with tool calls"},
		},
		{
			ID: "conversation.said-checks", Layer: LayerConversation, Kind: KindStep, Switch: true,
			Purpose:  "In a transcript that records no tool calls, the newest line of the assistant's messages that states a test result and the newest that states a build result (conversation.check-result-line, conversation.test-word) stand in the Tests section for the runs the transcript does not record.",
			Examples: []string{"report without tool calls"}, Counter: []string{"report with tool calls"},
		},
		{
			ID: "conversation.check-result-line", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "Marks a line that states how a test run or a build went: a test, suite or build word and a result (passes, fails, OK, ✅, a count like 65/65), in either order.",
			Pattern:  `(?i)\b(?:tests?|regression|suites?|specs?|e2e|builds?|lint|typecheck|tsc|pytest|jest|vitest)\b.*(?:\b(?:pass(?:es|ed)?|fail(?:s|ed)?|ok)\b|✅|❌|\b\d+\s*/\s*\d+\b)|(?:\b(?:pass(?:es|ed)?|fail(?:s|ed)?)\b|✅|❌|\b\d+\s*/\s*\d+\b).*\b(?:tests?|regression|suites?|builds?)\b`,
			Examples: []string{"`server/scripts/regression.js` → **65/65 PASS**", "**Build verified:** `npm run build` passes.", "Client `npm run build` OK.", "✅ all 12 tests"},
			Counter:  []string{"Next I'll write the tests for the parser.", "Restart the server and open the dashboard.", "The build step reads the config"},
		},
		{
			ID: "conversation.test-word", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "Tells a stated test result from a build result (conversation.check-result-line), so the Tests section keeps the newest of each.",
			Pattern:  `(?i)\b(?:tests?|regression|suites?|specs?|e2e|pytest|jest|vitest)\b`,
			Examples: []string{"`server/scripts/regression.js` → **65/65 PASS**", "✅ all 12 tests"},
			Counter:  []string{"Client `npm run build` OK.", "**Build verified:** `npm run build` passes."},
		},
		{
			ID: "conversation.change-line", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "Marks a report line that says something was or is being changed (added, new, updating, removed, …): a prose-only export keeps this narration in place of the edit calls. An offer ('I can add …') or an instruction ('open …') changed nothing, and a line about what is next (conversation.next-line) is not read.",
			Pattern:  `(?i)\b(?:new|(?:add|creat|updat|chang|modifi|fix|remov|delet|replac|refactor|mov|renam|wir|implement|extract|edit|convert|restor)(?:ed|ing)|rewr(?:ote|itten|iting)|wr(?:ote|itten|iting)|split(?:ting)?)\b`,
			Examples: []string{"- Added `client/src/lib/status.js` with three states:", "- `widget.css` updated to a light theme", "New `server/lib/plan.js` holds the plan logic", "Fixing a bad import path in `mail.js`."},
			Counter:  []string{"If you want, I can add `cron.js` next", "Open `index.html` in the browser", "- Restart the server to run the migration"},
		},
		{
			ID: "conversation.milestone-done", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "Says a numbered part of a plan is finished ('Phase 11 is done'): a problem the reports stated about that part ('Phase 11: the plugin (not built yet)') is settled by a later sentence that says so and states no defect (conversation.defect) of it.",
			Pattern:  `(?i)✅|\b(?:done|complete[d]?|finished|fixed|implemented|shipped)\b`,
			Examples: []string{"**Phase 11 is done.** The plugin and its APIs are live.", "Step 3 ✅", "Phase 2 completed"},
			Counter:  []string{"Phase 11: the plugin (not built yet)", "Safe to start Phase 11.", "Phase 4 still failing"},
		},
		{
			ID: "conversation.numbered-milestone", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "A numbered part of a plan named in a status line ('Phase 2', 'Step 3', 'Etappe 1'): an older line saying it is pending or failing is stale once a later status line gives a verdict on the same part.",
			Pattern:  `(?i)\b(phase|step|stage|milestone|sprint|part|schritt|etappe|étape|fase|paso)\s*#?(\d{1,3}[a-z]?)\b`,
			Examples: []string{"Phase 2: Context-Loader vereinfachen ⏳ PENDING", "STATUS: Phase 1 ✅ + Phase 2 ✅", "Step 3 fails on the import"},
			Counter:  []string{"the phases are listed below", "3 steps remain", "stage the files with git add"},
		},
		{
			ID: "conversation.agent-note", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "A line of the agent's handoff note ('- Next: …' under '## Handoff note'), the shape the checkpoint hook asks for.",
			Pattern:  `(?i)^[-*]\s*(?:\*\*)?(Done|In flight|Next|Open problems|Remember)(?:\*\*)?\s*:\s*(.*)$`,
			Examples: []string{"- Next: run `make -j8` in build/", "- **Done**: renamed the workflow files", "* In flight: editing gradients.tex"},
			Counter:  []string{"Next, I'll run the tests.", "- Nextcloud: synced", "Done: yes"},
		},
		{
			ID: "conversation.note-files", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "A file a handoff note names (a path with an extension), to check it against the edits the transcript shows.",
			Pattern:  `[\w./-]*\w\.(?:go|py|ts|tsx|js|jsx|rs|c|h|cc|cpp|hpp|java|kt|rb|php|cs|swift|tex|md|json|ya?ml|toml|sh|sql|html|css)\b`,
			Examples: []string{"renamed src/vsla_tensor.c", "updated bench/run_benchmark.py"},
			Counter:  []string{"renamed the workflow files", "ran the suite"},
		},
		{
			ID: "conversation.note-green", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "A handoff note's claim that the tests pass, to check against the last test run.",
			Pattern:  `(?i)\b(?:all )?tests? (?:now )?(?:pass|passing|green|succeed)|\bgreen\b`,
			Examples: []string{"all tests pass", "the suite is green", "tests passing after the fix"},
			Counter:  []string{"tests still fail in test_cloud", "wrote the test"},
		},
		{
			ID: "conversation.heredoc", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "A shell heredoc's delimiter, so a note handed to `handoff note <<'EOF'` ends where the heredoc does.",
			Pattern:  `<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?`,
			Examples: []string{"handoff note <<'EOF'", "cat <<END", `cat <<-"NOTE"`},
			Counter:  []string{"x = 1 << 4", "echo '<<'"},
		},
	}
}
