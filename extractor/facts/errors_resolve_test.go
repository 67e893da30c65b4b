package facts

import (
	"testing"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

// TestRerunsSettleErrors: a rerun from another directory, under the
// interpreter's versioned name, or as part of a longer && chain settles
// the failure; a report stated later settles an install that was
// blocked.
func TestRerunsSettleErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		build func(c *sessiontest.Convo)
		want  handoff.Resolution
	}{
		{"path suffix: rerun from the root", func(c *sessiontest.Convo) {
			c.Bash("", "python3 competitors/cupy_benchmark.py --size 10", "python3: can't open file 'competitors/cupy_benchmark.py': [Errno 2] No such file or directory", 2)
			c.Bash("", "python3 bench/competitors/cupy_benchmark.py --size 10 --iterations 3", "done", 0)
		}, handoff.ResolutionFixed},
		{"python and python3 are one program", func(c *sessiontest.Convo) {
			c.Bash("", "python run_benchmarks.py --sizes 10", "/bin/bash: line 1: python: command not found", 127)
			c.Bash("", "python3 run_benchmarks.py --sizes 10", "ok", 0)
		}, handoff.ResolutionWorkaround},
		{"pip and pip3", func(c *sessiontest.Convo) {
			c.Bash("", "pip3 install -r requirements.txt", "ERROR: Could not open requirements file", 1)
			c.Bash("", "pip install -r requirements.txt", "Successfully installed x", 0)
		}, handoff.ResolutionFixed},
		{"a longer && chain ran every step", func(c *sessiontest.Convo) {
			c.Bash("", `docker build -t app:slim . && docker run --rm app:slim node -e "require('sharp')"`, "Error: Could not load the \"sharp\" module", 1)
			c.Bash("", `docker build -t app:slim . && docker run --rm app:slim node -e "require('sharp'); console.log('ok')" && docker images app:slim`, "ok\n268MB", 0)
		}, handoff.ResolutionFixed},
		{"a workaround reported much later", func(c *sessiontest.Convo) {
			c.Bash("", "python3 -m pip install --user pytest fastapi httpx", "ERROR: No matching distribution found for pytest", 1)
			for i := 0; i < 5; i++ {
				c.Bash("Writing code.", "touch src/a"+sessiontest.Itoa(i)+".py", "", 0)
			}
			c.Say("Done.\n\nEnvironment note:\n- `pytest`/`fastapi` installation is blocked by network restrictions here, so execution used `unittest`-based tests that are now passing.")
		}, handoff.ResolutionWorkaround},
		{"a diagnosis that says 'instead', then the fix and a green rerun", func(c *sessiontest.Convo) {
			c.Bash("", "go test ./...", "--- FAIL: TestClient_RespectsLimit (2.41s)\nFAIL", 1)
			c.Say("The test is right and the option is wrong: WithRateLimit passes a burst of 1 instead of the burst argument.")
			id := c.Call("", "Edit", map[string]string{"file_path": "options.go", "old_string": "1", "new_string": "burst"})
			c.Result(id, "ok", false, -1)
			c.Bash("", "go test ./...", "ok  example.com/geo 0.3s", 0)
		}, handoff.ResolutionFixed},
		{"a workaround announced, then another way succeeds", func(c *sessiontest.Convo) {
			c.Bash("", "npm run build", "Error: generate is not a function", 1)
			c.Say("The build keeps failing; let me try a different approach and check the dev server instead.")
			c.Bash("", "npx next dev --port 3000", "ready on http://localhost:3000", 0)
		}, handoff.ResolutionWorkaround},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := sessiontest.NewConvo(t).User("do the work")
			tt.build(c)
			f := Compute(c.Msgs)
			if len(f.Errors) != 1 || f.Errors[0].Resolution != tt.want {
				t.Fatalf("errors = %+v, want one %s", f.Errors, tt.want)
			}
		})
	}
	// Still open: another file of the same name elsewhere is not a
	// suffix; a chain joined by ; vouches for no step; a later report that
	// names the package without saying how the work went on.
	open := []func(c *sessiontest.Convo){
		func(c *sessiontest.Convo) {
			c.Bash("", "python3 competitors/x.py", "python3: can't open file 'competitors/x.py': [Errno 2] No such file or directory", 2)
			c.Bash("", "python3 other/x.py", "done", 0)
		},
		func(c *sessiontest.Convo) {
			c.Bash("", `make && ./run --check`, "make: *** [all] Error 2", 2)
			c.Bash("", `make; ./run --check; docker images`, "done", 0)
		},
		func(c *sessiontest.Convo) {
			// "see if … works" is a check still to run, not a report.
			c.Bash("", "npm run build", "Error: generate is not a function", 1)
			c.Say("The build issue might be related to the configuration. Let me see if the dev server works:")
		},
		func(c *sessiontest.Convo) {
			c.Bash("", "pip install pytest", "ERROR: No matching distribution found for pytest", 1)
			for i := 0; i < 5; i++ {
				c.Say("Still looking.")
			}
			c.Say("The pytest install is blocked.")
		},
	}
	for i, build := range open {
		c := sessiontest.NewConvo(t).User("do the work")
		build(c)
		if f := Compute(c.Msgs); len(f.Errors) != 1 || f.Errors[0].Resolution != handoff.ResolutionUnresolved {
			t.Errorf("case %d: errors = %+v, want one unresolved", i, f.Errors)
		}
	}
}
