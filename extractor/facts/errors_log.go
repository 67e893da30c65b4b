package facts

import (
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// openError is an error record with what its resolution is judged by.
type openError struct {
	rec     handoff.ErrorRecord
	key     string // tool + normalized command
	prog    string // programKey of the command
	files   []string
	args    []string // the paths and URLs the command works on
	pkgs    []string // the packages a failed install was for
	hook    bool     // a commit hook's "....Failed" line
	edited  bool     // a file it names was edited since
	last    int      // message index of the latest occurrence
	notes   int      // assistant turns seen since the latest occurrence
	pending bool     // the assistant announced a workaround; a success confirms it
	// workedAround is the first success after a workaround was announced
	// (pending): the error is settled as worked around at the end unless
	// later evidence says it was fixed (see confirmWorkaround).
	workedAround *handoff.MessageRef
	// probe is the probe batch the failing call belongs to (probeKey).
	probe string
	// query marks a question's failing answer (askingCommand); blocker,
	// a later sentence saying the work is blocked by it (queryBlocked).
	query, blocker bool
}

// errorLog folds failures and resolves them against later evidence.
type errorLog struct {
	list     []*openError
	contexts []string
	// recent are errors still within reach of the assistant's next turns.
	recent  []*openError
	ignored map[string]int
	// green is the message index of the latest passing test run, -1
	// before any.
	green int
	heads *Headlines // nil: no cache
	// probeOK holds the probe batches (probeKey) with a run that passed.
	probeOK map[string]bool
}

func newErrorLog() *errorLog { return &errorLog{ignored: map[string]int{}, green: -1} }

// noteTurns is how many assistant turns after a failure may diagnose it or
// say it was fixed or worked around.
const noteTurns = 3

func errorKey(tool, command string) string {
	return strings.ToLower(tool) + "\x00" + NormalizeCommand(command)
}

var fileRefRe = prose.LazyRE(rulebook.Pattern("facts.file-ref"))

// observe records one result: a failure becomes (or repeats) an error; a
// success resolves what it answers.
func (l *errorLog) observe(m handoff.Message, r handoff.ToolResult, call *CallInfo, fail bool) {
	if call != nil && call.wrapper {
		return // its nested calls' results are the outcome
	}
	tool, command, said := r.Name, "", ""
	if call != nil {
		command, said = call.Command, call.said
		if tool == "" {
			tool = call.Name
		}
	}
	if !fail {
		if call == nil || (call.Kind == KindOther && call.Command == call.Name) {
			if rc := resultCall(tool, r); rc != nil {
				call = rc
			}
		}
		l.success(m, call)
		return
	}
	if kind := IgnoredResult(call, r); kind != "" {
		l.ignored[kind]++
		return
	}
	probe := probeKey(call)
	if probe != "" && l.probeOK[probe] {
		// The rejected case of a probe batch whose accepted case passed.
		l.ignored[IgnoreProbe]++
		return
	}
	full := l.heads.FailingLine(r.Content)
	msg := prose.Truncate(full, ErrorMessageLimit)
	key := errorKey(tool, command)
	if command == "" || command == tool {
		key += "\x00" + msg // without a command, only the same message is a repeat
	}
	for i := len(l.list) - 1; i >= 0; i-- {
		if e := l.list[i]; e.key == key && e.rec.Resolution == handoff.ResolutionUnresolved {
			e.rec.Occurrences++
			e.rec.Message = msg
			e.last, e.notes, e.pending, e.edited, e.workedAround = m.Index, 0, false, false, nil
			l.remember(e)
			return
		}
	}
	e := &openError{
		rec: handoff.ErrorRecord{
			ID:          "e" + strconv.Itoa(len(l.list)+1),
			Type:        classifyError(call, r.Content),
			Message:     msg,
			Context:     lastSentences(said, 1),
			Command:     command,
			Tool:        tool,
			Resolution:  handoff.ResolutionUnresolved,
			Source:      m.Ref(),
			Occurrences: 1,
		},
		key:   key,
		last:  m.Index,
		probe: probe,
	}
	if call.Shell() {
		e.prog = ProgramKey(command)
		e.args = principalArgs(command)
		e.pkgs = installPackages(command)
	}
	e.hook = hookFailedRe.MatchString(r.Content)
	e.questionRecord(call)
	seen := map[string]bool{}
	for _, s := range append(fileRefRe.FindAllString(full, 4), fileRefRe.FindAllString(command, 4)...) {
		b := path.Base(s)
		if !seen[b] {
			seen[b] = true
			e.files = append(e.files, b)
		}
	}
	if call != nil && call.Kind == KindEdit {
		for _, p := range call.Paths {
			if b := path.Base(p); !seen[b] {
				seen[b] = true
				e.files = append(e.files, b)
			}
		}
	}
	l.list = append(l.list, e)
	l.contexts = append(l.contexts, said)
	l.remember(e)
}

func (l *errorLog) remember(e *openError) {
	for _, r := range l.recent {
		if r == e {
			return
		}
	}
	l.recent = append(l.recent, e)
}

// success resolves the open errors a successful call answers: the same
// command, the same program on the same target, a broader green run of
// the same test suite, or any success touching a file named in the error
// after that file was edited. It also confirms announced workarounds.
func (l *errorLog) success(m handoff.Message, call *CallInfo) {
	if call == nil {
		return
	}
	l.probeSucceeded(call)
	ref := m.Ref()
	s := newSuccessRun(call)
	for _, e := range l.list {
		if e.rec.Resolution == handoff.ResolutionUnresolved {
			s.settle(e, ref)
		}
	}
}

// successRun is a successful call as the open errors are judged against
// it.
type successRun struct {
	call *CallInfo
	key  string // errorKey
	prog string // programKey, "" for a call that is no shell command
	// test marks a test command, help one that only prints help or a
	// version.
	test, help bool
	args, pkgs []string // principalArgs, installPackages
	bases      []string // the base names of the files an edit changed
}

func newSuccessRun(call *CallInfo) successRun {
	s := successRun{call: call, key: errorKey(call.Name, call.Command)}
	if call.Shell() {
		s.prog = ProgramKey(call.Command)
		s.test = IsTestCommand(call.Command)
		s.help = helpOnly(call.Command)
		s.args = principalArgs(call.Command)
		s.pkgs = installPackages(call.Command)
	}
	if call.Kind == KindEdit {
		for _, p := range call.Paths {
			s.bases = append(s.bases, path.Base(p))
		}
	}
	return s
}

// settle resolves the open error e when the run answers it, first
// matching reason wins; a run that answers nothing confirms an announced
// workaround.
func (s successRun) settle(e *openError, ref handoff.MessageRef) {
	call, prog := s.call, s.prog
	switch {
	case e.key == s.key && call.Command != "" && call.Command != call.Name:
		e.resolve(handoff.ResolutionFixed, ref)
	case s.help:
		e.confirmWorkaround(ref)
	case prog != "" && s.sameAttempt(e):
		e.resolve(aliasResolution(e, prog), ref)
	case prog != "" && e.shellish() && chainCovers(e.rec.Command, call.Command):
		e.resolve(handoff.ResolutionFixed, ref) // every step of the failed chain went through
	case len(e.pkgs) > 0 && sharesItem(e.pkgs, s.pkgs):
		e.resolve(handoff.ResolutionFixed, ref) // installed after all, maybe by another manager
	case s.test && e.rec.Type == "test_failure" && SuiteCovers(call.Command, e.rec.Command):
		e.resolve(handoff.ResolutionFixed, ref)
	case len(s.bases) > 0 && sharesFile(e.files, s.bases):
		if call.Kind == KindEdit && e.rec.Tool == call.Name || !e.shellish() {
			e.resolve(handoff.ResolutionFixed, ref) // the edit that failed went through
		} else {
			e.edited = true
		}
	case e.edited && call.Shell() && (mentionsAny(call.Command, e.files) || (prog != "" && firstWord(prog) == firstWord(e.prog))):
		e.resolve(handoff.ResolutionFixed, ref)
	default:
		e.confirmWorkaround(ref)
	}
}

// sameAttempt reports a run of the program that failed in e on the same
// target: the same program key, or the same program and subcommand on
// the same paths with other flags or from another directory.
func (s successRun) sameAttempt(e *openError) bool {
	return sameProgramKey(e.prog, s.prog) ||
		len(e.args) > 0 && aliasedHead(e.prog) == aliasedHead(s.prog) && argsCovered(e.args, s.args)
}

// workaround reports whether e is settled as worked around, or will be
// unless later evidence says it was fixed.
func (e *openError) workaround() bool {
	return e.rec.Resolution == handoff.ResolutionWorkaround || e.workaroundLater()
}

// workaroundLater reports whether e is open but will be settled as
// worked around by records: a success followed an announced workaround
// and nothing since showed it fixed.
func (e *openError) workaroundLater() bool {
	return e.rec.Resolution == handoff.ResolutionUnresolved && e.workedAround != nil
}

// confirmWorkaround notes the first success after the assistant
// announced a workaround for e (pending). It does not settle e yet:
// records settles it as worked around only if nothing later says it was
// fixed. A rerun of the failed command, the same program on the same
// target or a green run of its suite says so, whatever words came before
// ("passes 1 instead of the burst argument" diagnoses a bug; it does not
// announce a way around it), and the edit that fixes the bug often comes
// first.
func (e *openError) confirmWorkaround(ref handoff.MessageRef) {
	if e.pending && e.workedAround == nil {
		e.workedAround = &ref
	}
}

// resultCall stands in for the call of a result the format gave none for
// (SpecStory's apply_patch, console pastes): an edit tool's result that
// names files is an edit of them, so a failed edit of the same file by
// the same tool is answered by it.
func resultCall(name string, r handoff.ToolResult) *CallInfo {
	if name == "" || !editNameHint(name) {
		return nil
	}
	files := fileRefRe.FindAllString(prose.HeadOf(r.Content, 400), 4)
	if len(files) == 0 {
		return nil
	}
	return &CallInfo{Name: name, Kind: KindEdit, Paths: files, Command: name + " " + strings.Join(files, " ")}
}

// tested notes a passing test run.
func (l *errorLog) tested(m handoff.Message) { l.green = m.Index }

// committed resolves what a successful commit settles: a commit hook
// that failed before (the hooks passed this time), and build, test and
// lint failures that a passing test run after them already answered.
func (l *errorLog) committed(m handoff.Message) {
	ref := m.Ref()
	for _, e := range l.list {
		if e.rec.Resolution != handoff.ResolutionUnresolved || e.last >= m.Index {
			continue
		}
		switch {
		case e.hook:
			e.resolve(handoff.ResolutionFixed, ref)
		case (e.rec.Type == "build_error" || e.rec.Type == "test_failure") && l.green > e.last:
			e.resolve(handoff.ResolutionFixed, ref)
		}
	}
}

var userFailRe = prose.LazyRE(rulebook.Pattern("facts.user-fail"))

// userPasted reads a message of the person's: when it quotes the command
// of an open error followed by output that shows no failure, the person
// ran it themselves and it worked.
func (l *errorLog) userPasted(m handoff.Message, text string) {
	for _, e := range l.list {
		cmd := strings.TrimSpace(prose.FirstLine(e.rec.Command))
		if e.rec.Resolution != handoff.ResolutionUnresolved || len(cmd) < 6 || e.prog == "" {
			continue
		}
		i := strings.Index(text, cmd)
		if i < 0 {
			continue
		}
		after := strings.TrimSpace(text[i+len(cmd):])
		if after == "" || ContentFailRe.MatchString(after) || userFailRe.MatchString(after) {
			continue
		}
		e.resolve(handoff.ResolutionFixed, m.Ref())
		e.rec.ResolutionNotes = "the person ran it and pasted output that shows no failure"
	}
}

func (e *openError) shellish() bool { return e.prog != "" }

func (e *openError) resolve(res handoff.Resolution, ref handoff.MessageRef) {
	e.rec.Resolution = res
	e.rec.ResolvedBy = &ref
	e.pending = false
}

var (
	fixedSayRe      = prose.LazyRE(rulebook.Pattern("facts.fixed-say"))
	workaroundSayRe = prose.LazyRE(rulebook.Pattern("facts.workaround-say"))
	// hopeSayRe is a check still to run, not a report: "let me see if
	// the integration works", "run it again to confirm it passes". said
	// blanks it before looking for "works" or "fixed". ("This should fix
	// it" stays a claim of a fix.)
	hopeSayRe    = prose.LazyRE(rulebook.Pattern("facts.hope-say"))
	negatedSayRe = prose.LazyRE(rulebook.Pattern("facts.negated-say"))
)

// said reads an assistant turn of the main thread against the errors of
// the last few turns: its first sentences become the diagnosis of errors
// that have none, "fixed" resolves them, "instead"/"not needed" marks a
// workaround that the next success confirms.
func (l *errorLog) said(m handoff.Message, text string) {
	if len(l.list) == 0 {
		return
	}
	clean := fenceRe.ReplaceAllString(text, " ")
	l.laterReport(m, clean)
	l.queryBlocked(clean)
	if len(l.recent) == 0 {
		return
	}
	fixed := fixedSayRe.MatchString(hopeSayRe.ReplaceAllString(clean, " ")) && !negatedSayRe.MatchString(clean)
	work := workaroundSayRe.MatchString(clean)
	note := firstSentences(clean, 2)
	ref := m.Ref()
	keep := l.recent[:0]
	for _, e := range l.recent {
		if e.rec.Resolution != handoff.ResolutionUnresolved {
			continue
		}
		if e.rec.ResolutionNotes == "" && note != "" {
			e.rec.ResolutionNotes = prose.Truncate(note, errorNotesLimit)
		}
		switch {
		case fixed:
			e.resolve(handoff.ResolutionFixed, ref)
			if note != "" {
				e.rec.ResolutionNotes = prose.Truncate(note, errorNotesLimit)
			}
			continue
		case work:
			e.pending = true
			if note != "" {
				e.rec.ResolutionNotes = prose.Truncate(note, errorNotesLimit)
			}
		}
		if e.notes++; e.notes < noteTurns {
			keep = append(keep, e)
		}
	}
	l.recent = keep
}

// records lists the errors newest first (by latest occurrence), without
// the questions' answers (settledQuestion), which count as probes.
func (l *errorLog) records() ([]handoff.ErrorRecord, []string) {
	idx := make([]int, 0, len(l.list))
	for i, e := range l.list {
		if e.settledQuestion() {
			l.ignored[IgnoreProbe]++
			continue
		}
		idx = append(idx, i)
	}
	sort.SliceStable(idx, func(a, b int) bool { return l.list[idx[a]].last > l.list[idx[b]].last })
	out := make([]handoff.ErrorRecord, len(idx))
	ctx := make([]string, len(idx))
	for i, j := range idx {
		e := l.list[j]
		out[i] = e.rec
		if e.workaroundLater() {
			out[i].Resolution = handoff.ResolutionWorkaround
			out[i].ResolvedBy = e.workedAround
		}
		ctx[i] = l.contexts[j]
	}
	return out, ctx
}
