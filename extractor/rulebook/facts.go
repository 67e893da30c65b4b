package rulebook

// factRules read facts from tool calls: what the calls after the last
// words did, what a just-written script takes, what a failed build named,
// which plan tasks later calls finished, which failures a later call
// worked around.
func factRules() []Rule {
	return []Rule{
		{
			ID: "facts.edit-delta", Layer: LayerFacts, Kind: KindPattern, Switch: true,
			Purpose:  "The identifiers an edit brought in or took out (code names, LaTeX commands, flags), so an in-flight edit says what it changed, not only which file.",
			Pattern:  `\\[A-Za-z]+|\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b|--[a-z][a-z0-9-]+`,
			Examples: []string{`$\unprom_{d}(x)$`, "vsla_get_f64_basic(t)", "runBenchmark()", "class BenchmarkConfig", "--enable-gpu"},
			Counter:  []string{"the quick brown fox", "Hello World", "a - b"},
		},
		{
			ID: "facts.unrun-script", Layer: LayerFacts, Kind: KindStep, Switch: true,
			Purpose:  "A script written after the last words and not run since is the next thing to try: run it, the way the session ran scripts (python3, not python), with the options it defines.",
			Examples: []string{"script written, not run"}, Counter: []string{"script written and run"},
		},
		{
			ID: "facts.script-options", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "The command-line options a script defines (argparse, click, Go's flag, shell case labels), for running a script the session just wrote.",
			Pattern:  `(?m)(?:add_argument|add_option|\.option)\(\s*['"](--?[\w-]+)['"]|\bflag\.(?:String|Int|Bool|Duration|Float64|Int64|Uint)(?:Var)?\([^"\n]*"([\w-]+)"|^\s*(--[\w-]+)\)`,
			Examples: []string{`parser.add_argument('--sizes', type=str)`, `@click.option("--dry-run")`, `n := flag.Int("iterations", 10, "")`, "  --quick)\n    QUICK=1"},
			Counter:  []string{`print("--sizes")`, "run with --quick"},
		},
		{
			ID: "facts.recheck-after-edits", Layer: LayerFacts, Kind: KindStep, Switch: true,
			Purpose:  "Edits after the last words are checked by the command that last failed before them, else by the last run that exercised an edited file (named it, or ran a script the session wrote that names it).",
			Examples: []string{"edits after a failing build", "edits after a run of their script"}, Counter: []string{"script written, not run"},
		},
		{
			ID: "facts.failing-symbols", Layer: LayerFacts, Kind: KindPattern, Switch: true,
			Purpose:  "The names a failed build said are missing or doubled, the substance of the fix a successor must make.",
			Pattern:  "(?i)(undefined reference to|multiple definition of|use of undeclared identifier|cannot find (?:symbol|name|value|function|type|macro)|has no (?:attribute|member(?: named)?)|cannot import name|undefined:)\\s+[`'‘\"]?([A-Za-z_][\\w:.]*)",
			Examples: []string{"main.c:(.text+0x1f8): undefined reference to `vsla_set_f32'", "a.o: multiple definition of `vsla_zero_element'; b.o: first defined here", "./x.go:3:2: undefined: fooBar", "error[E0425]: cannot find value `cfg` in this scope"},
			Counter:  []string{"collect2: error: ld returned 1 exit status", "make: *** [all] Error 2"},
		},
		{
			ID: "facts.plan-done-by-later-calls", Layer: LayerFacts, Kind: KindStep, Switch: true,
			Purpose:  "An unfinished task whose words a successful call after the plan's last update matches was worked on after the list was written: it is marked, and the current and next task move past it.",
			Examples: []string{"stale plan"}, Counter: []string{"plan task"},
		},
		{
			ID: "facts.plan-filler-words", Layer: LayerFacts, Kind: KindWords,
			Purpose:  "Words of a task's text that name no work of their own, so they never tie a call to a task.",
			Words:    []string{"the", "and", "for", "with", "all", "into", "from", "that", "this", "then", "new", "add", "fix", "update", "create", "make", "run", "test", "tests", "check", "file", "files", "und", "der", "die", "das", "mit", "für", "les", "des", "pour"},
			Examples: []string{"Update the README", "Add tests for the parser"},
			Counter:  []string{"Rename workflow documents", "ImageGenerator Verzeichnis erstellen"},
		},
		{
			ID: "facts.script-interpreters", Layer: LayerFacts, Kind: KindWords,
			Purpose:  "Programs that run a script named after them, so the session's own way of running a script (python3, not python) is reused for one it just wrote.",
			Words:    []string{"python", "python3", "node", "bash", "sh", "zsh", "ruby", "perl", "bun", "deno", "tsx", "ts-node", "php", "uv", "pytest"},
			Examples: []string{"python3", "bash"},
			Counter:  []string{"mv", "cat", "chmod"},
		},
		{
			ID: "facts.error-worked-around", Layer: LayerFacts, Kind: KindStep, Switch: true,
			Purpose:  "A failed tool call (not a shell) followed by a successful call of the same tool with other arguments was worked around: it is not open, and the arguments that differ are named.",
			Examples: []string{"worked-around error"}, Counter: []string{"open error"},
		},
		{
			ID: "facts.error-abandoned", Layer: LayerFacts, Kind: KindPattern, Switch: true,
			Purpose:  "The assistant's words after a failed command that turn away from it; with the command never run again and later calls succeeding, the error is set aside, not open.",
			Pattern:  `(?i)\b(?:(?:a |an )?(?:different|simpler|another|alternative|other) (?:approach|way|method|strategy|route)|instead of (?:running|using|trying)|let me (?:try|take) (?:a |an )?(?:different|simpler|another)|skip (?:this|that|it) for now|work around (?:it|this|that))\b`,
			Examples: []string{"Let me try a simpler approach and summarize what we've discovered.", "Let me use a different approach and just run the suite", "I'll skip this for now."},
			Counter:  []string{"Let me fix the import and run it again.", "The approach works."},
		},
		{
			ID: "facts.approved-plan", Layer: LayerFacts, Kind: KindStep, Switch: true,
			Purpose:  "The newest plan document the agent presented for approval (a call input with a multi-line plan, Claude Code's ExitPlanMode) that was not turned down: its headings and items, the phases and files the todo list only names.",
			Examples: []string{"approved plan"}, Counter: []string{"rejected plan"},
		},
	}
}
