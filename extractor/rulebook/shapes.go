package rulebook

// shapeRules are patterns moved from the extractor by hand, verbatim
// (those holding a backquote as the interpreted string they were), with
// examples written from their doc comments and tests: shared text shapes
// first, then facts, conversation and decisions.
func shapeRules() []Rule {
	return []Rule{
		{
			ID: "text.ansi", Layer: LayerText, Kind: KindPattern,
			Purpose:  "Matches a terminal's ANSI escape sequence, stripped from a local command's output before it is read.",
			Pattern:  `\x1b\[[0-9;?]*[A-Za-z]`,
			Examples: []string{"\x1b[1mContext Usage\x1b[22m", "\x1b[?25l"},
			Counter:  []string{"[1mContext Usage", "plain output"},
		},
		{
			ID: "text.space-run", Layer: LayerText, Kind: KindPattern,
			Purpose:  "Matches a run of white space, folded to one blank where a command or text is compared.",
			Pattern:  `\s+`,
			Examples: []string{"go  test ./...", "line one\nline two"},
			Counter:  []string{"pytest", "go-test"},
		},
		{
			ID: "text.code-span", Layer: LayerText, Kind: KindPattern,
			Purpose:  "Matches a one-line code span and its text, which names a command, file or identifier.",
			Pattern:  "`([^`\n]+)`",
			Examples: []string{"Run `make test` after the edit.", "See `docs/PLAN.md`."},
			Counter:  []string{"Run make test after the edit.", "an empty `` span"},
		},
		{
			ID: "text.fence-block", Layer: LayerText, Kind: KindPattern,
			Purpose:  "Matches a fenced code block, or an unclosed one to the end, so what is quoted in it is not read as the speaker's words.",
			Pattern:  "(?s)```.*?(?:```|$)",
			Examples: []string{"```\nError: boom\n```", "Output:\n```text\nFAIL"},
			Counter:  []string{"Error: boom", "`one` span"},
		},
		{
			ID: "text.fence-line", Layer: LayerText, Kind: KindPattern,
			Purpose:  "Matches a code fence line and its info string (\"```console\", \"~~~\"), which opens or closes a fence.",
			Pattern:  "^\\s{0,3}(```+|~~~+)\\s*([\\w+-]*)",
			Examples: []string{"```console", "~~~", "  ```shell-session"},
			Counter:  []string{"    ```indented as code", "text ```python"},
		},
		{
			ID: "text.echo-quote", Layer: LayerText, Kind: KindPattern,
			Purpose:  "Matches a quoted span of a sentence or more (“…” or \"…\"), which may repeat what a tool printed; code spans are left alone.",
			Pattern:  "“[^”]{12,}”|\"[^\"\\n]{12,}\"",
			Examples: []string{"The hook prints “files were modified, do not commit” and exits.", "It said \"permission denied on /var/run\"."},
			Counter:  []string{"It said \"denied\".", "Run `files were modified, do not commit`."},
		},
		{
			ID: "text.ground-quote", Layer: LayerText, Kind: KindPattern,
			Purpose:  "Matches a quoted span of a sentence or more (“…”, \"…\" or `…`), checked against the tool output it may quote.",
			Pattern:  "“[^”]{12,}”|\"[^\"\\n]{12,}\"|`[^`\\n]{12,}`",
			Examples: []string{"The hook prints “files were modified, do not commit” and exits.", "It printed `permission denied on /var/run`."},
			Counter:  []string{"It said \"denied\".", "Run `make`."},
		},
		{
			ID: "facts.git-program", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches the program name of a git call, bare or by path, so a shell command's git steps are found.",
			Pattern:  `(?:^|/)git$`,
			Examples: []string{"git", "/usr/bin/git"},
			Counter:  []string{"gitk", "git-lfs", "legit"},
		},
		{
			ID: "facts.branch-behind", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches git status's line that the branch is behind its upstream, the upstream and the count.",
			Pattern:  `^Your branch is behind '([^']+)' by (\d+) commits?`,
			Examples: []string{"Your branch is behind 'origin/main' by 3 commits, and can be fast-forwarded."},
			Counter:  []string{"Your branch is ahead of 'origin/main' by 1 commit."},
		},
		{
			ID: "facts.diverged", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches git status's line that the branch and its upstream have diverged, and the upstream.",
			Pattern:  `^Your branch and '([^']+)' have diverged`,
			Examples: []string{"Your branch and 'origin/main' have diverged,"},
			Counter:  []string{"Your branch is up to date with 'origin/main'."},
		},
		{
			ID: "facts.diverged-counts", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches the line after a divergence that counts the commits on each side.",
			Pattern:  `^and have (\d+) and (\d+) different commits`,
			Examples: []string{"and have 2 and 3 different commits each, respectively."},
			Counter:  []string{"and have diverged"},
		},
		{
			ID: "facts.long-status", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches output that opens as git's long status does, so it is read as a status even when the command was not seen.",
			Pattern:  `^\s*(?:On branch \S+|HEAD detached (?:at|from) \S+)\s*\n\s*(?:Your branch |Changes |Untracked files|nothing to commit|All conflicts|You have unmerged|Unmerged paths)`,
			Examples: []string{"On branch main\nYour branch is up to date with 'origin/main'.", "HEAD detached at 1a2b3c4\nnothing to commit, working tree clean"},
			Counter:  []string{"On branch main", "Switched to branch 'main'\nYour branch is up to date with 'origin/main'."},
		},
		{
			ID: "facts.swift-fail", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a failing XCTest case's name in Swift test output (\"error: -[AppTests testLogin] : … failed\").",
			Pattern:  `(?m)error: -\[(\S+ \S+)\] : .*failed`,
			Examples: []string{"/src/AppTests.swift:12: error: -[AppTests.LoginTests testLogin] : XCTAssertEqual failed: (\"1\") is not equal to (\"2\")"},
			Counter:  []string{"Test Case '-[AppTests.LoginTests testLogin]' passed (0.01 seconds)."},
		},
		{
			ID: "facts.swe-edit", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches SWE-agent's edit command, which names the lines it replaces (\"edit 12:14\").",
			Pattern:  `^edit\s+\d+:\d+`,
			Examples: []string{"edit 12:14", "edit 3:3\n    return x\nend_of_edit"},
			Counter:  []string{"open src/app.py 12", "edit the parser"},
		},
		{
			ID: "facts.shell-wrap", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a command wrapped in a shell's -c (\"bash -lc '…'\"), so the command inside is read instead.",
			Pattern:  `(?s)^(?:/\S*/)?(?:bash|sh|zsh)\s+-l?c\s+(?:"(.*)"|'(.*)')\s*$`,
			Examples: []string{"bash -lc 'go test ./...'", "/bin/zsh -c \"npm run build\""},
			Counter:  []string{"bash scripts/deploy.sh", "bash -lc go test"},
		},
		{
			ID: "facts.wrapper-head", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a harness's wrapper line (\"<tool> failed[ for `<command>`]: <Struct>[(<Variant>…] {\"), whose payload says what failed.",
			Pattern:  "^[\\w.-]+ failed(?: for `[^`\n]*`)?: ([A-Z]\\w*)((?:\\([A-Z]\\w*)*) \\{",
			Examples: []string{"exec_command failed: SandboxDenied { message: \"x\" }", "exec_command failed for `pytest -q`: CreateProcess { message: \"x\" }"},
			Counter:  []string{"exec_command failed: permission denied", "the build failed: see log"},
		},
		{
			ID: "facts.search-block", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches Aider's edit block: the file's name on its own line, a fence, then <<<<<<< SEARCH; group 1 is the file.",
			Pattern:  "(?m)^([^\\s`][^\\n]*?)\\s*\\n```[\\w+-]*\\s*\\n<<<<<<< SEARCH",
			Examples: []string{"budget/importers/csv.py\n```python\n<<<<<<< SEARCH"},
			Counter:  []string{"```python\n<<<<<<< SEARCH", "budget/importers/csv.py\n```python\nimport csv"},
		},
		{
			ID: "facts.quoted-command", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a command in backticks at the start of a result, as SpecStory writes a shell call.",
			Pattern:  "^\x60([^\x60\n]+)\x60",
			Examples: []string{"`npm test`", "`git status` ran"},
			Counter:  []string{"Ran `npm test`", "``"},
		},
		{
			ID: "facts.specstory-shell", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches SpecStory's shell result: an optional description line, the command in backticks, then the output in a fence.",
			Pattern:  "(?s)^(?:[^\n\x60][^\n]*\n\\s*)?\x60([^\x60\n]+)\x60[ \t]*\n\\s*\x60\x60\x60\\w*\n(.*?)(?:\n\x60\x60\x60\\s*$|\\z)",
			Examples: []string{"Run the tests\n`npm test`\n```\n1 passing\n```", "`git status`\n```\nOn branch main\n```"},
			Counter:  []string{"`npm test` ran fine", "```\n1 passing\n```"},
		},
		{
			ID: "conversation.to-rest", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "Matches the rest of a sentence opening with \"to\", after a described rule word (\"it always has to\").",
			Pattern:  `^\s+to\b`,
			Examples: []string{" to run the linter first", "  to"},
			Counter:  []string{"to run the linter", " together"},
		},
		{
			ID: "conversation.quoted-rule", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "Matches a quote that is itself a rule (I said \"never push\"): the person quoting their own instruction.",
			Pattern:  `(?i)^["“«„]\s*(?:don'?t|do not|never|always|make sure|avoid|please)\b`,
			Examples: []string{"\"never push to main\"", "“Don't touch the migrations”"},
			Counter:  []string{"\"files were modified\"", "never push to main"},
		},
		{
			ID: "conversation.swe-issue", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "Matches SWE-agent's task template: a preamble, the issue after \"ISSUE:\", and the harness's standing instructions after \"INSTRUCTIONS:\", so the issue alone is the request.",
			Pattern:  `(?s)^[^\n]*\bissue\b[^\n]*:\s*\nISSUE:\s*\n(.+?)\n\s*INSTRUCTIONS:\s*\n`,
			Examples: []string{"We're currently solving the following issue within our repository. Here's the issue text:\nISSUE:\nTimeDelta serialization precision\nINSTRUCTIONS:\nNow, you're going to solve this issue on your own."},
			Counter:  []string{"ISSUE:\nTimeDelta serialization precision", "Fix the issue: the parser drops keys"},
		},
		{
			ID: "conversation.resume-command", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "Matches a slash command in a code span of the assistant's words whose name says it resumes, recovers or restores a session: the way back the session itself set up.",
			Pattern:  "`(/[a-z][\\w:-]*(?:recover|resume|restore|reload|continue|checkpoint)[\\w:-]*|/(?:recover|resume|restore|reload|continue)[\\w:-]*)(?:\\s[^`]*)?`",
			Examples: []string{"Run `/recover-from-checkpoint` in the next session.", "then `/resume`"},
			Counter:  []string{"Run /recover-from-checkpoint next.", "Run `/clear` first."},
		},
		{
			ID: "decisions.heredoc", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a shell command that writes a file from a here-document (`cat > path <<'EOF'` or `cat <<'EOF' > path`), the body up to EOF, so a decision record written that way is read.",
			Pattern:  `(?s)\b(?:cat|tee)\s+(?:>>?\s*([^\s<>|;&]+)\s+<<-?\s*['"]?(\w+)['"]?|<<-?\s*['"]?(\w+)['"]?\s*>>?\s*([^\s<>|;&]+))[^\n]*\n(.*?)\n[ \t]*(?:EOF|END|MD|DOC|EOT|\w+)[ \t]*(?:\n|$)`,
			Examples: []string{"cat > docs/adr/001.md <<'EOF'\n# Decision: use SQLite\nEOF", "cat <<EOF > notes.md\nD1: keep Y\nEOF"},
			Counter:  []string{"cat docs/adr/001.md", "echo '# Decision' > notes.md"},
		},
		{
			ID: "decisions.opening-span", Layer: LayerDecisions, Kind: KindPattern,
			Purpose:  "Matches a code span that opens a sentence, after a list mark, emphasis or a quote: the subject the sentence is about.",
			Pattern:  "^[\\s*>•\"“'-]*`([^`\n]+)`",
			Examples: []string{"`sqlite` is the store now.", "- **`ruff`** replaces flake8"},
			Counter:  []string{"We chose `sqlite` as the store.", "sqlite is the store now."},
		},
	}
}

// wordShapeRules are small word and file-name shapes the extractor
// tests tokens with, moved verbatim.
func wordShapeRules() []Rule {
	return []Rule{
		{
			ID: "facts.pass-line-file", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a file name's dot and extension in a pass line, so a line that names what was built (\"Output written on paper.pdf\") is preferred over a bare \"Built target x\".",
			Pattern:  `\w\.[A-Za-z]\w*\b`,
			Examples: []string{"Output written on paper.pdf (25 pages, 4 bytes).", "[ 40%] Linking C shared library libvsla.so"},
			Counter:  []string{"[100%] Built target vsla", "Build succeeded."},
		},
		{
			ID: "facts.command-word", Layer: LayerFacts, Kind: KindPattern,
			Purpose:  "Matches a word that can be a program or subcommand name (a letter, then letters, digits, _, : or -), not a path, flag or argument.",
			Pattern:  `^[A-Za-z][\w:-]*$`,
			Examples: []string{"git", "get-caller-identity", "test:unit"},
			Counter:  []string{"./run.sh", "--version", "src/app.py"},
		},
		{
			ID: "conversation.lower-word", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "Matches a lower-case subject of four or more letters, digits or hyphens opening a problem sentence (\"sharp is missing …\"): it names the thing, for finding later work on it.",
			Pattern:  `^[a-z][a-z0-9-]{3,}$`,
			Examples: []string{"sharp", "cuda-runtime"},
			Counter:  []string{"The", "npm", "Parser"},
		},
		{
			ID: "conversation.step-file", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "Matches a code span of a procedure's step that ends as a file name does (a dot and a short extension), whose base name a tool call would show.",
			Pattern:  `[\w.-]*[\w-]\.[A-Za-z]{1,5}$`,
			Examples: []string{"SESSION_STATUS.md", "/h/.claude/SESSION_STATUS.md"},
			Counter:  []string{"git status", "v1.2"},
		},
		{
			ID: "conversation.step-placeholder", Layer: LayerConversation, Kind: KindPattern,
			Purpose:  "Matches a token that opens with a bracket (\"[message]\", \"<file>\", \"{name}\"), a placeholder of a step, not a word a call would show.",
			Pattern:  `^[\[<{]`,
			Examples: []string{"[message]", "<file>", "{name}"},
			Counter:  []string{"commit", "-m"},
		},
	}
}
