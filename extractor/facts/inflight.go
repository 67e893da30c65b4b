package facts

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// workInFlight is what the assistant was doing when the session stopped
// mid-task: the calls it made after its last words, the action those words
// announced, and the command that would verify the work once done. A pause
// near a full context cuts here; the agent's own summary names exactly
// these, and a next step without them only names a plan title.
type workInFlight struct {
	// intent is the sentence of the last words that announced an action.
	intent string
	// trailing describes the calls after the last words, oldest first.
	trailing []string
	// verify is the command to run once the work is done; why says what
	// makes it the one (a script just written, the check that last failed).
	verify, why string
}

// AddWorkInFlight sets the end state's in-flight work, unless the format
// recorded that the run finished.
func AddWorkInFlight(s *handoff.Snapshot, main []handoff.Message, calls []SessionCall, sw rulebook.Switches) {
	if e := s.EndState; e != nil && (e.Signal == "finished" || e.Signal == "submitted" || e.Signal == "task complete") {
		return
	}
	// The assistant's last words, spoken or thought: a thinking block
	// between calls says what the next call is for.
	lastText := -1
	for i, m := range main {
		if m.Role == handoff.RoleAssistant && (strings.TrimSpace(m.Text) != "" || strings.TrimSpace(m.Thinking) != "") {
			lastText = i
		}
	}
	w := readWorkInFlight(main, lastText, calls, sw)
	if w.intent == "" && len(w.trailing) == 0 {
		return
	}
	if s.EndState == nil {
		s.EndState = &handoff.EndState{}
	}
	e := s.EndState
	e.Intent, e.Trailing, e.Verify, e.VerifyWhy = w.intent, w.trailing, w.verify, w.why
}

// readWorkInFlight reads the work after the assistant's last words in main
// (lastText is that message's index in main, -1 when it never spoke).
func readWorkInFlight(main []handoff.Message, lastText int, calls []SessionCall, sw rulebook.Switches) workInFlight {
	var w workInFlight
	if lastText >= 0 && sw.On("conversation.stated-intent") {
		w.intent = statedIntent(main[lastText].Text)
		if w.intent == "" {
			w.intent = statedIntent(main[lastText].Thinking)
		}
	}
	start := slices.IndexFunc(calls, func(c SessionCall) bool { return c.At >= lastText })
	if lastText < 0 || start < 0 {
		return w
	}
	// Only calls a result is paired with by id can say they are done:
	// in a console paste nothing tells a finished call from a cut one.
	trailing := slices.DeleteFunc(slices.Clone(calls[start:]), func(c SessionCall) bool { return c.call.ID == "" })
	if len(trailing) == 0 {
		return w
	}
	w.trailing = describeTrailing(trailing, sw)
	if sw.On("facts.unrun-script") {
		w.verify, w.why = unrunScript(calls, start)
	}
	if w.verify == "" && sw.On("facts.recheck-after-edits") {
		w.verify, w.why = recheckAfterEdits(calls, start, sw)
	}
	return w
}

// SessionCall is one call of the main thread with its reading and result.
type SessionCall struct {
	At     int // index in main
	call   handoff.ToolCall
	Info   *CallInfo
	Result handoff.ToolResult
	Done   bool // a result came back
}

// input is the call's decoded input. It is decoded on demand, not kept:
// held for every call of a long session, the decoded inputs were
// megabytes live through the rest of the Build.
func (s SessionCall) input() map[string]any { return DecodeObject(s.call.Input) }

// InputStr is Str of the call's input at key, decoding only an input
// that may hold the key.
func (s SessionCall) InputStr(key string) string {
	if !mayHaveKey(s.call.Input, `"`+key+`"`) {
		return ""
	}
	return Str(s.input(), key)
}

// SessionCalls lists the main thread's calls in order, classified once.
func SessionCalls(main []handoff.Message, results map[string]handoff.ToolResult, heads *Headlines) []SessionCall {
	sh := &Shapes{Heads: heads}
	var out []SessionCall
	for i, m := range main {
		if m.Role != handoff.RoleAssistant {
			continue
		}
		for _, c := range m.ToolCalls {
			r, ok := results[c.ID]
			out = append(out, SessionCall{At: i, call: c, Info: sh.Classify(c), Result: r, Done: ok && c.ID != ""})
		}
	}
	return out
}

// statedIntent returns the last sentence of text that announces what the
// assistant is about to do ("Now I need to add the missing functions.",
// "Let me update the benchmark runner:"), "" when none does.
func statedIntent(text string) string {
	re := statedIntentRe
	sentences := prose.SplitSentences(prose.WithoutMarkup(StripCode(WithoutThinking(text))))
	for i := len(sentences) - 1; i >= 0; i-- {
		s := strings.TrimSpace(sentences[i])
		if re.MatchString(s) && !strings.HasSuffix(s, "?") {
			// The sentence before often carries the what ("Now I need to
			// add the missing implementations. Let me check which:").
			if i > 0 && len(s) < 60 && re.MatchString(sentences[i-1]) {
				s = strings.TrimSpace(sentences[i-1]) + " " + s
			}
			return prose.Truncate(s, 240)
		}
	}
	return ""
}

// describeTrailing says in a line per file or command what the calls after
// the last words did: consecutive edits of one file are one line, with the
// names the edits brought in and took out.
func describeTrailing(calls []SessionCall, sw rulebook.Switches) []string {
	var out []string
	looks := 0
	lastFile, lastLine := "", -1
	for _, c := range calls {
		switch {
		case c.Info.Kind == KindEdit && len(c.Info.Paths) > 0:
			p := c.Info.Paths[0]
			verb := "edited"
			in := c.input()
			if Str(in, "content") != "" || Str(in, "file_text") != "" {
				verb = "wrote"
			}
			delta := ""
			if sw.On("facts.edit-delta") {
				delta = editDelta(in)
			}
			if p == lastFile && lastLine >= 0 {
				out[lastLine] = strings.TrimSuffix(out[lastLine], ")") + "; " + strings.TrimPrefix(delta, " (")
				if delta == "" {
					out[lastLine] += ")"
				}
				continue
			}
			line := verb + " `" + p + "`" + delta
			if c.Done && c.Result.Failed() {
				line += " → failed: " + QuoteData(prose.Truncate(failingLine(c.Result.Content), 160))
			}
			out = append(out, line)
			lastFile, lastLine = p, len(out)-1
			continue
		case c.Info.Kind == KindShell:
			line := "ran `" + prose.Truncate(prose.FirstLine(c.Info.Command), 160) + "`"
			switch {
			case !c.Done:
				line += " (no result yet)"
			case c.Result.Failed():
				line += " → failed: " + QuoteData(prose.Truncate(failingLine(c.Result.Content), 160))
			default:
				line += " → ok"
			}
			out = append(out, line)
		case c.Info.Kind == KindPlan:
			continue
		default:
			looks++
			continue
		}
		lastFile, lastLine = "", -1
	}
	if looks > 0 {
		out = append(out, fmt.Sprintf("%d read-only %s", looks, prose.Plural(looks, "call", "calls")))
	}
	return out
}

// editDelta names what an edit changed, as identifiers: those the new text
// has that the old lacked, and the reverse (" (+\unprom; −\unpad)"). ""
// when the edit has no old and new text or changed no identifier.
func editDelta(in map[string]any) string {
	oldText, newText := Str(in, "old_string"), Str(in, "new_string")
	if oldText == "" {
		oldText = Str(in, "old_str")
	}
	if newText == "" {
		newText = Str(in, "new_str")
	}
	if oldText == "" && newText == "" {
		return ""
	}
	was, now := identifierSet(oldText), identifierSet(newText)
	var added, removed []string
	for _, id := range identifierList(newText) {
		if !was[id] && !slices.Contains(added, id) {
			added = append(added, id)
		}
	}
	// Names the edit defines or calls ("vsla_get_f64_basic(") say more
	// than the types and variables around them: they go first.
	slices.SortStableFunc(added, func(a, b string) int {
		ca, cb := strings.Contains(newText, a+"("), strings.Contains(newText, b+"(")
		switch {
		case ca && !cb:
			return -1
		case cb && !ca:
			return 1
		}
		return 0
	})
	for _, id := range identifierList(oldText) {
		if !now[id] && !slices.Contains(removed, id) {
			removed = append(removed, id)
		}
	}
	if len(added) == 0 && len(removed) == 0 {
		return ""
	}
	var parts []string
	if len(added) > 0 {
		parts = append(parts, "+"+strings.Join(FirstN(added, 8), " +"))
	}
	if len(removed) > 0 {
		parts = append(parts, "−"+strings.Join(FirstN(removed, 4), " −"))
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// identifierList returns the identifiers of text in order: code names,
// LaTeX commands, paths; words of prose are not identifiers.
func identifierList(text string) []string {
	return editDeltaRe.FindAllString(text, -1)
}

func identifierSet(text string) map[string]bool {
	out := map[string]bool{}
	for _, id := range identifierList(text) {
		out[id] = true
	}
	return out
}

// FirstN returns at most the first n items of list.
func FirstN(list []string, n int) []string {
	if len(list) > n {
		return append(list[:n:n], fmt.Sprintf("%d more", len(list)-n))
	}
	return list
}

// unrunScript returns the command that runs a script the session wrote
// after its last words (or just before them) and never ran since, with its
// options when it defines any: the work that was about to be tried.
func unrunScript(calls []SessionCall, start int) (string, string) {
	for i := len(calls) - 1; i >= start; i-- {
		c := calls[i]
		if c.Info.Kind != KindEdit || len(c.Info.Paths) == 0 || (c.Done && c.Result.Failed()) {
			continue
		}
		in := c.input()
		if Str(in, "content") == "" && Str(in, "file_text") == "" {
			continue // not a new file written whole
		}
		p := c.Info.Paths[0]
		runner := scriptRunner(calls[:i], p)
		if runner == "" || ranLater(calls[i+1:], p) {
			continue
		}
		why := "it was written after the last words and has not run yet"
		if opts := scriptOptions(Str(in, "content")); len(opts) > 0 {
			why += "; its options: " + strings.Join(opts, " ")
		}
		return runner + p, why
	}
	return "", ""
}

// scriptRunner is how the session runs a script at p: the interpreter its
// own earlier successful commands used for the same kind of file
// ("python3 " when `python` was not found), else the usual one; "" when p
// is not a script.
func scriptRunner(before []SessionCall, p string) string {
	ext := path.Ext(p)
	usual := map[string]string{".py": "python3 ", ".sh": "bash ", ".js": "node ", ".ts": "npx tsx ", ".rb": "ruby ", ".pl": "perl "}[ext]
	if usual == "" {
		return ""
	}
	for i := len(before) - 1; i >= 0; i-- {
		c := before[i]
		if !c.Info.Shell() || !c.Done || c.Result.Failed() {
			continue
		}
		for _, stage := range strings.FieldsFunc(c.Info.Command, func(r rune) bool { return r == '&' || r == ';' || r == '|' }) {
			f := strings.Fields(stage)
			if len(f) >= 2 && strings.HasSuffix(f[1], ext) && rulebook.HasWord("facts.script-interpreters", path.Base(f[0])) {
				return f[0] + " "
			}
		}
	}
	return usual
}

// ranLater reports a later call that ran or named the file p's name.
func ranLater(calls []SessionCall, p string) bool {
	base := path.Base(p)
	for _, c := range calls {
		if c.Info.Shell() && strings.Contains(c.Info.Command, base) {
			return true
		}
	}
	return false
}

// scriptOptions lists the command-line options a script's source defines
// (argparse, click, Go's flag package, getopt-style case labels), in order.
func scriptOptions(src string) []string {
	var out []string
	for _, m := range scriptOptionsRe.FindAllStringSubmatch(src, -1) {
		for _, g := range m[1:] {
			if g == "" {
				continue
			}
			if !strings.HasPrefix(g, "-") {
				g = "-" + g
			}
			if !slices.Contains(out, g) {
				out = append(out, g)
			}
		}
	}
	return FirstN(out, 10)
}

// recheckAfterEdits returns the check to run again once the edits after
// the last words are done: the newest failing check or build before them
// (with the symbols it failed on), else the newest successful run that
// exercised an edited file (named it, or ran a script the session wrote
// that names it).
func recheckAfterEdits(calls []SessionCall, start int, sw rulebook.Switches) (string, string) {
	var edited []string
	for _, c := range calls[start:] {
		if c.Info.Kind == KindEdit {
			for _, p := range c.Info.Paths {
				edited = append(edited, path.Base(p))
			}
		}
	}
	if len(edited) == 0 {
		return "", ""
	}
	// What the edits since defined is no longer missing.
	added := map[string]bool{}
	for _, c := range calls[start:] {
		if c.Info.Kind == KindEdit {
			in := c.input()
			for _, id := range identifierList(Str(in, "new_string") + Str(in, "content") + Str(in, "new_str")) {
				added[id] = true
			}
		}
	}
	written := map[string]string{} // base name → content the session wrote
	for _, c := range calls[:start] {
		if c.Info.Kind == KindEdit && len(c.Info.Paths) > 0 {
			if content := c.InputStr("content"); content != "" {
				written[path.Base(c.Info.Paths[0])] = content
			}
		}
	}
	// Programs that ran without failing later than the call being looked
	// at: a failure they followed was worked past ("cd bench: no such
	// directory", then the same nvcc from the right place).
	passedLater := map[string]bool{}
	for i := start - 1; i >= 0; i-- {
		c := calls[i]
		if !c.Info.Shell() || !c.Done || ReadOnlyCommand(c.Info.Command) {
			continue
		}
		prog := programAlias(path.Base(firstField(c.Info.programKey())))
		if c.Result.Failed() && passedLater[prog] {
			continue
		}
		if !c.Result.Failed() {
			passedLater[prog] = true
		}
		if c.Result.Failed() {
			if CheckKey(c.Info.Command) == "" && !c.Info.testCommand() {
				continue
			}
			why := "it failed on its last run, before these edits"
			if sw.On("facts.failing-symbols") {
				if syms := failingSymbols(c.Result.Content, added); len(syms) > 0 {
					why += ": " + strings.Join(syms, "; ")
				} else if syms := failingSymbols(c.Result.Content, nil); len(syms) > 0 {
					// Every missing name is one the edits since define:
					// the re-run says whether that was all.
					why += ": " + strings.Join(syms, "; ") + " — names these edits define"
				}
			}
			return prose.FirstLine(c.Info.Command), why
		}
		if exercises(c.Info.Command, edited, written) {
			return prose.FirstLine(c.Info.Command), "it last ran before these edits"
		}
	}
	return "", ""
}

// ReadOnlyCommand reports a shell command that only looks.
func ReadOnlyCommand(cmd string) bool {
	kind, _ := ReadOnlyShell(cmd)
	return kind != ""
}

// exercises reports a command that names one of the edited files, or runs
// a script whose written content names one.
func exercises(cmd string, edited []string, written map[string]string) bool {
	for _, e := range edited {
		if strings.Contains(cmd, e) {
			return true
		}
	}
	for name, content := range written {
		if !strings.Contains(cmd, name) {
			continue
		}
		for _, e := range edited {
			if strings.Contains(content, e) {
				return true
			}
		}
	}
	return false
}

// failingSymbols lists what a failed build said is missing or doubled,
// grouped by what the compiler or linker said of them ("undefined
// reference to a, b"), at most ten names, leaving out those the edits
// since defined.
func failingSymbols(output string, defined map[string]bool) []string {
	type group struct {
		what  string
		names []string
	}
	var groups []*group
	seen := map[string]bool{}
	total := 0
	for _, m := range failingSymbolsRe.FindAllStringSubmatch(output, -1) {
		what, name := strings.ToLower(strings.TrimSpace(m[1])), m[2]
		if seen[name] || defined[name] || total >= 10 {
			continue
		}
		seen[name] = true
		total++
		i := slices.IndexFunc(groups, func(g *group) bool { return g.what == what })
		if i < 0 {
			groups = append(groups, &group{what: what})
			i = len(groups) - 1
		}
		groups[i].names = append(groups[i].names, name)
	}
	out := make([]string, len(groups))
	for i, g := range groups {
		out[i] = g.what + " " + strings.Join(g.names, ", ")
	}
	return out
}

// firstField is the first space-separated field of s, "" for none.
func firstField(s string) string {
	f, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return f
}

// The patterns of this file's rules, compiled on first use behind
// their literal gates.
var (
	statedIntentRe   = prose.LazyRE(rulebook.Pattern("conversation.stated-intent"))
	editDeltaRe      = prose.LazyRE(rulebook.Pattern("facts.edit-delta"))
	scriptOptionsRe  = prose.LazyRE(rulebook.Pattern("facts.script-options"))
	failingSymbolsRe = prose.LazyRE(rulebook.Pattern("facts.failing-symbols"))
)
