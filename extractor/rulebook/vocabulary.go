package rulebook

// vocabularyRules are the extractor's word lists moved verbatim: the
// extractor builds its sets from them with Words.
func vocabularyRules() []Rule {
	return []Rule{
		{
			ID: "facts.probe-programs", Layer: LayerFacts, Kind: KindWords,
			Purpose:  "Programs that only read or filter what a check wrote: a chain's failure after them is theirs as much as the check's (a grep that matched nothing exits 1).",
			Words:    []string{"grep", "rg", "egrep", "tail", "head", "ls", "cat", "wc", "find", "test", "[", "file", "stat", "du", "tee", "sed", "awk", "open", "xdg-open"},
			Examples: []string{"grep -c FAIL build.log", "tail -20 build.log"},
			Counter:  []string{"make all", "go build ./..."},
		},
		{
			ID: "facts.status-words", Layer: LayerFacts, Kind: KindWords,
			Purpose:  "Subcommands that ask how something stands or who one is, whose failing answer is information, not an error.",
			Words:    []string{"status", "whoami", "can-i", "get-caller-identity"},
			Examples: []string{"gh auth status", "npm whoami", "kubectl auth can-i", "aws sts get-caller-identity"},
			Counter:  []string{"gh pr create", "git push"},
		},
		{
			ID: "facts.console-fences", Layer: LayerFacts, Kind: KindWords,
			Purpose:  "Fence info strings of terminal sessions and output, whose lines are the tools' words, not the speaker's.",
			Words:    []string{"console", "shell-session", "terminal", "output", "log"},
			Examples: []string{"console", "shell-session"},
			Counter:  []string{"go", "python"},
		},
		{
			ID: "facts.probe-interpreters", Layer: LayerFacts, Kind: KindWords,
			Purpose:  "Interpreters that run a script file named after them (\"bash scripts/validate.sh\"), so a probe batch knows which script a shell command runs.",
			Words:    []string{"bash", "sh", "zsh", "python", "python3", "node", "ruby", "perl", "deno", "bun"},
			Examples: []string{"bash run.sh", "python3 probe.py"},
			Counter:  []string{"go run main.go", "cargo run"},
		},
		{
			ID: "conversation.predicate-after", Layer: LayerConversation, Kind: KindWords,
			Purpose:  "The words after a predicative \"important\" (\"important to/that/for/because/here/now/enough/too\"), which states a requirement, unlike an attributive one.",
			Words:    []string{"to", "that", "for", "because", "here", "now", "enough", "too", "as", "than", "and", "but", "is", "are", "if", "when", "since", "so"},
			Examples: []string{"it's important to credit the authors", "important because"},
			Counter:  []string{"important tasks", "of important note"},
		},
		{
			ID: "conversation.rule-frame", Layer: LayerConversation, Kind: KindWords,
			Purpose: "The words that frame a rule rather than say what it is about (its verbs of keeping and insisting, and function words), so restatements of one rule are found by what is left.",
			Words: []string{"keep", "ensure", "make", "sure", "preserve", "always", "never", "don't", "dont", "not", "must", "should", "please",
				"use", "the", "and", "with", "all", "any", "that", "this", "for", "are", "is", "it", "its", "to", "of", "in", "on",
				"be", "we", "you", "our", "your", "existing", "also"},
			Examples: []string{"Preserve AFI Codex and AOS alignment.", "Ensure it aligns with AFI Codex and AOS."},
			Counter:  []string{"AFI Codex AOS alignment"},
		},
		{
			ID: "conversation.rule-verbs", Layer: LayerConversation, Kind: KindWords,
			Purpose: "The verbs a rule opens with after \"please\" or \"let's\" (\"please don't …\", \"let's never …\", \"please keep …\"), which make the sentence a rule, not a task.",
			Words: []string{"don't", "don’t", "dont", "do", "never", "always", "not", "no", "keep", "avoid", "stop", "only", "use", "prefer", "remember",
				"ask", "check", "leave", "preserve", "stick", "follow", "refrain", "respect", "stay", "note"},
			Examples: []string{"please don't push", "let's never force-push", "please keep the API stable"},
			Counter:  []string{"please fix the parser", "let's add tests"},
		},
		{
			ID: "conversation.english-words", Layer: LayerConversation, Kind: KindWords,
			Purpose: "English function words: a trigram guess on a short message can name another language, but a message in which one word in seven is one of these is English.",
			Words: []string{"the", "and", "to", "of", "a", "in", "is", "it", "you", "that", "for", "on", "with", "this", "be", "are", "please",
				"can", "what", "why", "how", "do", "not", "we", "i", "my", "let's", "lets", "now", "all", "from", "add", "fix", "make"},
			Examples: []string{"Say hello and list files.", "please fix the parser"},
			Counter:  []string{"Hej, vis filerne her", "Bonjour, liste les fichiers"},
		},
		{
			ID: "conversation.trivial-words", Layer: LayerConversation, Kind: KindWords,
			Purpose: "Words of greetings, acknowledgements and go-aheads (\"continue\"): a short message made only of them carries no request of its own.",
			Words: []string{"hi", "hello", "hey", "thanks", "thank", "you", "ok", "okay", "yes", "yep", "yeah", "no", "nope", "sure", "continue", "go",
				"ahead", "proceed", "y", "n", "lgtm", "do", "it", "please", "great", "good", "cool", "nice", "k", "fine", "done", "perfect",
				"awesome", "next", "right", "correct", "exactly", "agreed", "sounds", "ty", "thx", "go-ahead", "on", "carry", "keep", "going"},
			Examples: []string{"thanks", "ok go ahead"},
			Counter:  []string{"Add a parser for the config files"},
		},
		{
			ID: "conversation.shell-programs", Layer: LayerConversation, Kind: KindWords,
			Purpose: "Programs people type by name: a request line that starts with one and reads as a command line ran it.",
			Words: []string{"pwd", "ls", "ll", "cd", "cat", "less", "head", "tail", "mkdir", "rm", "rmdir", "mv", "cp", "touch", "chmod", "chown",
				"ln", "find", "grep", "rg", "echo", "export", "source", "env", "which", "whoami", "clear", "tree", "du", "df", "ps", "kill",
				"git", "gh", "npm", "npx", "pnpm", "yarn", "bun", "node", "deno", "make", "cmake", "cargo", "go", "python", "python3",
				"pip", "pip3", "uv", "poetry", "pytest", "ruby", "bundle", "rake", "gradle", "mvn", "dotnet", "swift", "docker", "kubectl",
				"terraform", "curl", "wget", "ssh", "scp", "brew", "apt", "apt-get", "sudo", "bash", "sh", "zsh", "code", "open",
				"aider", "claude", "codex", "gemini"},
			Examples: []string{"pwd", "git status"},
			Counter:  []string{"Please review the parser"},
		},
		{
			ID: "conversation.verb-programs", Layer: LayerConversation, Kind: KindWords,
			Purpose: "Programs whose names are English verbs too, so a line starting with one needs a shell mark to read as a command.",
			Words: []string{"make", "go", "open", "find", "touch", "code", "source", "clear", "which", "kill", "cat", "head", "tail", "less",
				"bundle", "export", "echo", "tree", "env", "ln", "run"},
			Examples: []string{"make all", "open index.html"},
			Counter:  []string{"git status", "pwd"},
		},
	}
}
