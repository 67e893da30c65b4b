package extractor

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/conversation"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
	"github.com/handoff-cli/handoff/extractor/nextstep"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// stepCase is a named example of the rulebook's step rules: a snapshot
// given whole (for the next step's cascade) or built from a conversation.
type stepCase struct {
	snap  *handoff.Snapshot
	build func(c *sessiontest.Convo)
}

func ref(i int) handoff.MessageRef { return handoff.MessageRef{Index: i} }

// stepCases are the cases the rulebook's step rules name as examples and
// counter-examples.
func stepCases() map[string]stepCase {
	end := func(e handoff.EndState) *handoff.Snapshot { return &handoff.Snapshot{EndState: &e} }
	return map[string]stepCase{
		"unanswered message": {snap: end(handoff.EndState{LastAssistant: "Fixed the parser.", Unanswered: []string{"Also update the README please"}})},
		"question asked":     {snap: end(handoff.EndState{LastAssistant: "Done. Should I also bump the version?", Question: "Should I also bump the version?"})},
		"api error end":      {snap: end(handoff.EndState{LastAssistant: `API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`})},
		"offered step":       {snap: end(handoff.EndState{LastAssistant: "The parser works. Would you like me to add tests next?", StatedNext: "Would you like me to add tests next?"})},
		"stated next":        {snap: end(handoff.EndState{LastAssistant: "Parser done. Next, I'll wire the CLI flag.", StatedNext: "Next, I'll wire the CLI flag."})},
		"deferred request": {snap: &handoff.Snapshot{LatestRequest: "Next time: migrate the config loader to TOML files",
			EndState: &handoff.EndState{LastAssistant: "Noted, I will leave it for then."}}},
		"in flight call": {snap: end(handoff.EndState{LastAssistant: "Running the tests.", InFlight: []string{"go test ./..."}})},
		"calls after last words": {snap: end(handoff.EndState{LastAssistant: "Let me update the runner:", Intent: "Let me update the runner:",
			Trailing: []string{"edited `run.py` (+run_fft)"}, Verify: "./bench.sh --quick", VerifyWhy: "it last ran before these edits"})},
		"stale failing run": {snap: &handoff.Snapshot{
			TestState: &handoff.TestState{Command: "pytest -q", Status: handoff.TestsFailing, FailingTests: []string{"test_cloud"}, Source: ref(3)},
			Commits:   []handoff.Commit{{Hash: "1a2b3c4", Message: "docs", Source: ref(5)}},
			EndState:  &handoff.EndState{Signal: "user exited", LastAssistant: "Committed the docs as 1a2b3c4 on main.", LastSource: ref(6)}}},
		"failing tests": {snap: &handoff.Snapshot{TestState: &handoff.TestState{Command: "pytest -q", Status: handoff.TestsFailing, FailingTests: []string{"test_cloud"}, Source: ref(3)}}},
		"failing build": {snap: &handoff.Snapshot{Checks: []handoff.CheckState{{Command: "go build ./...", Kind: "build", Status: handoff.TestsFailing, Source: ref(3)}}}},
		"open error": {snap: &handoff.Snapshot{Requests: []handoff.Request{{Text: "lint it", Source: ref(1)}},
			Errors: []handoff.ErrorRecord{{Type: "command_failed", Command: "npm run lint", Message: "3 problems", Resolution: handoff.ResolutionUnresolved, Source: ref(4)}},
			Tasks:  []handoff.Task{{ID: "1", Content: "Write the parser", Status: handoff.TaskInProgress}}, CurrentTaskID: "1"}},
		"plan task":      {snap: &handoff.Snapshot{Tasks: []handoff.Task{{ID: "1", Content: "Write the parser", Status: handoff.TaskInProgress}}, CurrentTaskID: "1"}},
		"agent finished": {snap: end(handoff.EndState{Signal: "submitted", LastAssistant: "Submitting the patch."})},
		"hedged fix":     {snap: end(handoff.EndState{LastAssistant: "I changed the import path; the build should work now."})},
		"final answer":   {snap: end(handoff.EndState{Signal: "task complete", LastAssistant: "Here is the summary of the change you asked for."})},
		"reported next": {snap: end(handoff.EndState{LastAssistant: "The parser is finished and documented.",
			KeyLines: []handoff.KeyLine{{Text: "Next: wire the CLI flag into the root command"}}})},
		"broken check": {snap: &handoff.Snapshot{Requests: []handoff.Request{{Text: "add the feature", Source: ref(3)}},
			Errors:   []handoff.ErrorRecord{{Type: "build_error", Command: "make all", Message: "error: x", Resolution: handoff.ResolutionUnresolved, Source: ref(2)}},
			EndState: &handoff.EndState{LastAssistant: "The feature is implemented and documented in the guide.", LastSource: ref(5)}}},
		"last report":  {snap: end(handoff.EndState{LastAssistant: "I implemented the parser and documented it in the README file."})},
		"request only": {snap: &handoff.Snapshot{LatestRequest: "Add a parser for the config files"}},

		"script written, not run": {build: func(c *sessiontest.Convo) {
			c.User("Write a benchmark script")
			c.Bash("", "python3 old_bench.py --help", "usage: old_bench.py", 0)
			c.Say("Now let me create the benchmark script:")
			id := c.Call("", "Write", map[string]string{"file_path": "/home/dev/app/bench.py", "content": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--sizes')\np.add_argument('--enable-gpu', action='store_true')\n"})
			c.Result(id, "File created successfully", false, -1)
		}},
		"script written and run": {build: func(c *sessiontest.Convo) {
			c.User("Write a benchmark script")
			c.Say("Now let me create the benchmark script:")
			id := c.Call("", "Write", map[string]string{"file_path": "/home/dev/app/bench.py", "content": "import argparse\np = argparse.ArgumentParser()\np.add_argument('--sizes')\n"})
			c.Result(id, "File created successfully", false, -1)
			c.Bash("", "python3 bench.py --sizes 64", "ok", 0)
		}},
		"edits after a failing build": {build: func(c *sessiontest.Convo) {
			c.User("Get the build green")
			c.Bash("", "make -j4", "main.o: In function `run':\nmain.c:(.text+0x1f): undefined reference to `foo_bar'\nmain.c:(.text+0x2f): undefined reference to `baz_qux'\ncollect2: error: ld returned 1 exit status", 2)
			c.Say("Now I need to add the missing functions to lib.c:")
			id := c.Call("", "Edit", map[string]string{"file_path": "/home/dev/app/lib.c", "old_string": "/* end */", "new_string": "int foo_bar(void) { return 0; }\n/* end */"})
			c.Result(id, "The file has been updated.", false, -1)
		}},
		"edits after a run of their script": {build: func(c *sessiontest.Convo) {
			c.User("One command for the whole benchmark")
			id := c.Call("", "Write", map[string]string{"file_path": "/home/dev/app/bench.sh", "content": "#!/bin/sh\npython3 runner.py \"$@\"\n"})
			c.Result(id, "File created successfully", false, -1)
			c.Bash("", "./bench.sh --quick", "3 benchmarks ok", 0)
			c.Say("Let me add the FFT competitor to the runner:")
			id = c.Call("", "Edit", map[string]string{"file_path": "/home/dev/app/runner.py", "old_string": "COMPETITORS = ['blas']", "new_string": "COMPETITORS = ['blas', 'fft_conv']"})
			c.Result(id, "The file has been updated.", false, -1)
		}},
		"stale plan": {build: func(c *sessiontest.Convo) {
			c.User("Canonicalise the art skill, then build the image skill")
			id := c.Call("", "TodoWrite", sessiontest.Todos(
				[2]string{"Rename the skill directory", "completed"},
				[2]string{"Rename workflow documents to TitleCase", "in_progress"},
				[2]string{"Rename the tool script", "pending"},
				[2]string{"Create the ImageGenerator directory", "pending"}))
			c.Result(id, "Todos have been modified successfully.", false, -1)
			c.Bash("", "cd skills/Art/workflows && mv visualize.md Visualize.md", "", 0)
			c.Push(handoff.Message{Role: handoff.RoleAssistant, Thinking: "All workflow documents renamed. Now rename the tool script."})
			c.Bash("", "cd skills/Art/tools && mv generate-image.ts GenerateImage.ts", "", 0)
		}},
		"agent note": {build: func(c *sessiontest.Convo) {
			c.User("Rename the workflow files, then create the image skill")
			c.Bash("", "cd skills/Art/workflows && mv visualize.md Visualize.md", "", 0)
			id := c.Call("", "Edit", map[string]string{"file_path": "/home/dev/app/skills/Art/tools/GenerateImage.ts", "old_string": "a", "new_string": "b"})
			c.Result(id, "The file has been updated.", false, -1)
			c.Bash("", "pytest -q", "1 failed, 3 passed", 1)
			c.Meta("Stop hook feedback: The context window is 86% full. " + handoff.NoteTemplate())
			c.Say("Wrapping up.\n\n## Handoff note\n- Done: renamed the workflow files; updated skills/Art/SKILL.md; all tests pass\n- In flight: nothing\n- Next: mkdir -p skills/ImageGenerator/workflows\n- Remember: TitleCase names")
		}},
		"agent note superseded": {build: func(c *sessiontest.Convo) {
			c.User("Rename the workflow files, then create the image skill")
			c.Say("## Handoff note\n- Done: renamed the workflow files\n- Next: mkdir -p skills/ImageGenerator/workflows")
			c.User("Actually, call it ImageMaker")
			c.Bash("", "mkdir -p skills/ImageMaker/workflows", "", 0)
		}},
		"approved plan": {build: func(c *sessiontest.Convo) {
			c.User("Plan the image skill first")
			id := c.Call("", "ExitPlanMode", map[string]string{"plan": "# Plan: Image skill\n\n## Phase 1: Directory\n- create `skills/Image/`\n\n## Phase 2: Workflows\n### 2.1 Files\n- `Diagram.md`\n- `Dashboard.md`\n```sh\nmkdir x\n```\n| a | b |\n"})
			c.Result(id, "User has approved your plan.", false, -1)
		}},
		"rejected plan": {build: func(c *sessiontest.Convo) {
			c.User("Plan the image skill first")
			id := c.Call("", "ExitPlanMode", map[string]string{"plan": "# Plan: Image skill\n\n## Phase 1\n- create `skills/Image/`\n- more\n"})
			c.Result(id, "The user doesn't want to proceed with this tool use. The tool use was rejected.", true, -1)
		}},
		"report without tool calls": {build: saidReport(false)},
		"report with tool calls":    {build: saidReport(true)},
		"worked-around error": {build: func(c *sessiontest.Convo) {
			c.User("Announce it by voice")
			id := c.Call("", "mcp__tts__speak", map[string]string{"text": "Done", "voice_name": "Ottie"})
			c.Result(id, "Error executing tool speak: No voices found with that name.", true, -1)
			id = c.Call("", "mcp__tts__speak", map[string]string{"text": "Done", "voice_id": "BRk6UBXC"})
			c.Result(id, "Audio saved to /tmp/a.mp3", false, -1)
			c.Say("Announced.")
		}},
	}
}

// saidReport is a session whose report names a file it added, in a
// line with no verdict, followed by a short exchange; withCalls gives it
// a tool call.
func saidReport(withCalls bool) func(c *sessiontest.Convo) {
	return func(c *sessiontest.Convo) {
		c.User("Audit the billing flow and fix what is broken")
		if withCalls {
			c.Bash("", "npm test", "ok", 0)
		}
		c.Say("Here is what was added to the billing flow in this pass:\n\n## Plan expiry\n\n- New `server/lib/planState.js` centralizes the plan logic\n" +
			"- Expired trials show a banner on the overview page\n- The checkout dialog cannot be closed while a payment runs\n" +
			"- Upgrade banners on the overview, billing and analytics pages\n- Help answers updated to match the real behaviour\n" +
			"- Reminder emails now say what happens when the trial ends\n\n**Build verified:** `npm run build` passes.")
		c.User("continue with the admin side")
		c.Say("Working on the admin side now.")
	}
}

// stepFired says whether the rule id fired on a built snapshot, for the
// step rules outside the next step's cascade.
var stepFired = map[string]func(s *handoff.Snapshot) bool{
	"facts.approved-plan": func(s *handoff.Snapshot) bool { return s.PlanDoc != nil },
	"conversation.said-changes": func(s *handoff.Snapshot) bool {
		return s.EndState != nil && slices.ContainsFunc(s.EndState.KeyLines, func(k handoff.KeyLine) bool { return strings.Contains(k.Text, "planState.js") })
	},
	"conversation.said-files": func(s *handoff.Snapshot) bool {
		return s.EndState != nil && slices.Contains(s.EndState.ReportedFiles, "server/lib/planState.js")
	},
	"conversation.said-checks": func(s *handoff.Snapshot) bool {
		return s.EndState != nil && len(s.EndState.ReportedChecks) > 0
	},
	"next.agent-note": func(s *handoff.Snapshot) bool {
		return strings.HasPrefix(s.NextStep, "The agent's own handoff note says")
	},
	"facts.unrun-script": func(s *handoff.Snapshot) bool {
		return s.EndState != nil && strings.Contains(s.EndState.VerifyWhy, "has not run yet")
	},
	"facts.recheck-after-edits": func(s *handoff.Snapshot) bool {
		return s.EndState != nil && s.EndState.Verify != "" && !strings.Contains(s.EndState.VerifyWhy, "has not run yet")
	},
	"facts.plan-done-by-later-calls": func(s *handoff.Snapshot) bool {
		return slices.ContainsFunc(s.Tasks, func(t handoff.Task) bool { return t.Later != "" })
	},
	"facts.error-worked-around": func(s *handoff.Snapshot) bool {
		return slices.ContainsFunc(s.Errors, func(e handoff.ErrorRecord) bool { return e.Resolution == handoff.ResolutionWorkaround })
	},
}

// TestStepExamples runs every step rule of the rulebook on its examples
// (where it must fire) and counter-examples (where it must not). For the
// next step's cascade, firing means deciding the step, or deciding a
// nested run of it.
func TestStepExamples(t *testing.T) {
	cases := stepCases()
	for _, r := range rulebook.Catalogue() {
		if r.Kind != rulebook.KindStep {
			continue
		}
		t.Run(r.ID, func(t *testing.T) {
			check := func(name string, want bool) {
				c, ok := cases[name]
				if !ok {
					t.Fatalf("no step case %q", name)
				}
				s := c.snap
				if c.build != nil {
					cv := sessiontest.NewConvo(t)
					c.build(cv)
					var err error
					if s, err = Build(context.Background(), cv.Transcript(), NewHeuristic(nil)); err != nil {
						t.Fatal(err)
					}
				}
				var fired bool
				if f, ok := stepFired[r.ID]; ok {
					fired = f(s)
				} else if r.Layer == rulebook.LayerNext {
					n := &nextstep.Nexter{S: s, Trail: new([]string)}
					_, id := n.Next()
					fired = id == r.ID || slices.Contains(*n.Trail, r.ID)
				} else {
					t.Fatalf("no way to tell whether %s fired", r.ID)
				}
				if fired != want {
					t.Errorf("%q: fired = %v, want %v (next step %q)", name, fired, want, nextstep.For(s))
				}
			}
			for _, name := range r.Examples {
				check(name, true)
			}
			for _, name := range r.Counter {
				check(name, false)
			}
		})
	}
}

// TestAgentNoteLoop: a note written after the checkpoint's request leads
// the next step as the agent's words, with what the transcript disputes;
// one handed to `handoff note` in a shell reads the same.
func TestAgentNoteLoop(t *testing.T) {
	cases := stepCases()
	cv := sessiontest.NewConvo(t)
	cases["agent note"].build(cv)
	s, err := Build(context.Background(), cv.Transcript(), NewHeuristic(nil))
	if err != nil {
		t.Fatal(err)
	}
	n := s.EndState.Note
	if n == nil || n.Next != "mkdir -p skills/ImageGenerator/workflows" || n.Remember != "TitleCase names" || n.Superseded {
		t.Fatalf("note %+v", n)
	}
	if !strings.HasPrefix(s.NextStep, "The agent's own handoff note says to do next: “mkdir -p skills/ImageGenerator/workflows”") {
		t.Errorf("next step %q", s.NextStep)
	}
	want := []string{"`skills/Art/SKILL.md` done, but no edit", "the tests pass, but the last test run (`pytest -q`) failed"}
	for _, w := range want {
		if !slices.ContainsFunc(n.Disputes, func(d string) bool { return strings.Contains(d, w) }) {
			t.Errorf("disputes %q lack %q", n.Disputes, w)
		}
	}

	cv = sessiontest.NewConvo(t)
	cv.User("Rename the workflow files")
	cv.Bash("", "handoff note <<'EOF'\n## Handoff note\n- Done: renamed the files\n- Next: run make check\nEOF", "## Handoff note\n- Done: renamed the files\n- Next: run make check", 0)
	s, err = Build(context.Background(), cv.Transcript(), NewHeuristic(nil))
	if err != nil {
		t.Fatal(err)
	}
	if n := s.EndState.Note; n == nil || n.Next != "run make check" || n.Superseded {
		t.Errorf("note through handoff note: %+v", n)
	}

	// The MCP tool's note, with or without its heading (the tool adds it).
	for _, note := range []string{"- Done: renamed the files\n- Next: run make check", "## Handoff note\n- Next: run make check"} {
		cv = sessiontest.NewConvo(t)
		cv.User("Rename the workflow files")
		id := cv.Call("", "mcp__handoff__handoff_note", map[string]string{"note": note})
		cv.Result(id, "Noted", false, 0)
		s, err = Build(context.Background(), cv.Transcript(), NewHeuristic(nil))
		if err != nil {
			t.Fatal(err)
		}
		if n := s.EndState.Note; n == nil || n.Next != "run make check" {
			t.Errorf("note through the MCP tool (%q): %+v", note, n)
		}
	}
}

func TestParseNote(t *testing.T) {
	tests := []struct {
		name, text string
		ok         bool
		next, done string
	}{
		{"shape", "## Handoff note\n- Done: a\n- Next: b", true, "b", "a"},
		{"bold labels, continued line", "text\n## Handoff note\n- **Next**: run\n  make -j8\n- **Done**: x", true, "run make -j8", "x"},
		{"the newest of two", "## Handoff note\n- Next: old\n\n## Handoff note\n- Next: new", true, "new", ""},
		{"ends at the next heading", "## Handoff note\n- Next: a\n## Notes\n- Next: b", true, "a", ""},
		{"no heading", "- Next: a", false, "", ""},
		{"heading, no next or done", "## Handoff note\n- Remember: x", false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, ok := conversation.ParseNote(tt.text)
			if ok != tt.ok || n.Next != tt.next || n.Done != tt.done {
				t.Errorf("ParseNote = %+v, %v", n, ok)
			}
		})
	}
}

// TestPlanOutline: headings with their items on one line, a heading with
// none leading the sections under it, code and tables left out.
func TestPlanOutline(t *testing.T) {
	title, got := conversation.PlanOutline("# Plan: Image skill\n\n## Phase 1: Directory\n- create `skills/Image/`\n\n## Phase 2: Workflows\n### 2.1 Files\n- `Diagram.md`\n- **`Dashboard.md`**\n```sh\nbash x.sh\n```\n| a | b |\n")
	want := []string{"Phase 1: Directory: create `skills/Image/`", "Phase 2: Workflows › 2.1 Files: `Diagram.md` ; `Dashboard.md` ; files: x.sh"}
	if title != "Plan: Image skill" || !slices.Equal(got, want) {
		t.Errorf("planOutline = %q, %q; want %q", title, got, want)
	}
}

// TestWorkInFlightDetails pins what the in-flight rules say, beyond firing.
func TestWorkInFlightDetails(t *testing.T) {
	cases := stepCases()
	build := func(name string) *handoff.Snapshot {
		cv := sessiontest.NewConvo(t)
		cases[name].build(cv)
		s, err := Build(context.Background(), cv.Transcript(), NewHeuristic(nil))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := build("script written, not run")
	if e := s.EndState; e.Verify != "python3 /home/dev/app/bench.py" || !strings.Contains(e.VerifyWhy, "--sizes --enable-gpu") {
		t.Errorf("unrun script: verify %q (%s)", e.Verify, e.VerifyWhy)
	}
	s = build("edits after a failing build")
	if e := s.EndState; e.Verify != "make -j4" || !strings.Contains(e.VerifyWhy, "undefined reference to baz_qux") || strings.Contains(e.VerifyWhy, "foo_bar") {
		t.Errorf("failing build: verify %q (%s); want make -j4 with baz_qux and without foo_bar, which the edit defined", e.Verify, e.VerifyWhy)
	}
	if !strings.HasPrefix(s.NextStep, "Continue the work in flight") || !strings.Contains(s.NextStep, "+foo_bar") {
		t.Errorf("failing build: next step %q", s.NextStep)
	}
	s = build("edits after a run of their script")
	if s.EndState.Verify != "./bench.sh --quick" {
		t.Errorf("script's runner: verify %q (%s)", s.EndState.Verify, s.EndState.VerifyWhy)
	}
	s = build("stale plan")
	if s.NextTaskID != "4" || s.CurrentTaskID != "" || s.Tasks[1].Later == "" || s.Tasks[2].Later == "" || s.Tasks[3].Later != "" {
		t.Errorf("stale plan: current %q next %q, later %q", s.CurrentTaskID, s.NextTaskID, []string{s.Tasks[1].Later, s.Tasks[2].Later, s.Tasks[3].Later})
	}
	if strings.Contains(s.NextStep, "task 2") || strings.Contains(s.NextStep, "task 3") || !strings.Contains(s.NextStep, "task 4") {
		t.Errorf("stale plan: next step %q must go on with task 4, not redo 2 or 3", s.NextStep)
	}
	s = build("worked-around error")
	if e := s.Errors[0]; !strings.Contains(e.ResolutionNotes, "voice_id=BRk6UBXC") || strings.Contains(s.NextStep, "speak") {
		t.Errorf("worked around: notes %q, next step %q", e.ResolutionNotes, s.NextStep)
	}
}
