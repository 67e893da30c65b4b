package extractor

import (
	"testing"

	"github.com/handoff-cli/handoff"
)

// TestRerunsSettleErrors: a rerun from another directory, under the
// interpreter's versioned name, or as part of a longer && chain settles
// the failure; a report stated later settles an install that was
// blocked.
func TestRerunsSettleErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		build func(c *convo)
		want  handoff.Resolution
	}{
		{"path suffix: rerun from the root", func(c *convo) {
			c.bash("", "python3 competitors/cupy_benchmark.py --size 10", "python3: can't open file 'competitors/cupy_benchmark.py': [Errno 2] No such file or directory", 2)
			c.bash("", "python3 bench/competitors/cupy_benchmark.py --size 10 --iterations 3", "done", 0)
		}, handoff.ResolutionFixed},
		{"python and python3 are one program", func(c *convo) {
			c.bash("", "python run_benchmarks.py --sizes 10", "/bin/bash: line 1: python: command not found", 127)
			c.bash("", "python3 run_benchmarks.py --sizes 10", "ok", 0)
		}, handoff.ResolutionWorkaround},
		{"pip and pip3", func(c *convo) {
			c.bash("", "pip3 install -r requirements.txt", "ERROR: Could not open requirements file", 1)
			c.bash("", "pip install -r requirements.txt", "Successfully installed x", 0)
		}, handoff.ResolutionFixed},
		{"a longer && chain ran every step", func(c *convo) {
			c.bash("", `docker build -t app:slim . && docker run --rm app:slim node -e "require('sharp')"`, "Error: Could not load the \"sharp\" module", 1)
			c.bash("", `docker build -t app:slim . && docker run --rm app:slim node -e "require('sharp'); console.log('ok')" && docker images app:slim`, "ok\n268MB", 0)
		}, handoff.ResolutionFixed},
		{"a workaround reported much later", func(c *convo) {
			c.bash("", "python3 -m pip install --user pytest fastapi httpx", "ERROR: No matching distribution found for pytest", 1)
			for i := 0; i < 5; i++ {
				c.bash("Writing code.", "touch src/a"+itoa(i)+".py", "", 0)
			}
			c.say("Done.\n\nEnvironment note:\n- `pytest`/`fastapi` installation is blocked by network restrictions here, so execution used `unittest`-based tests that are now passing.")
		}, handoff.ResolutionWorkaround},
		{"a diagnosis that says 'instead', then the fix and a green rerun", func(c *convo) {
			c.bash("", "go test ./...", "--- FAIL: TestClient_RespectsLimit (2.41s)\nFAIL", 1)
			c.say("The test is right and the option is wrong: WithRateLimit passes a burst of 1 instead of the burst argument.")
			id := c.call("", "Edit", map[string]string{"file_path": "options.go", "old_string": "1", "new_string": "burst"})
			c.result(id, "ok", false, -1)
			c.bash("", "go test ./...", "ok  example.com/geo 0.3s", 0)
		}, handoff.ResolutionFixed},
		{"a workaround announced, then another way succeeds", func(c *convo) {
			c.bash("", "npm run build", "Error: generate is not a function", 1)
			c.say("The build keeps failing; let me try a different approach and check the dev server instead.")
			c.bash("", "npx next dev --port 3000", "ready on http://localhost:3000", 0)
		}, handoff.ResolutionWorkaround},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newConvo(t).user("do the work")
			tt.build(c)
			f := ComputeFacts(c.msgs)
			if len(f.Errors) != 1 || f.Errors[0].Resolution != tt.want {
				t.Fatalf("errors = %+v, want one %s", f.Errors, tt.want)
			}
		})
	}
	// Still open: another file of the same name elsewhere is not a
	// suffix; a chain joined by ; vouches for no step; a later report that
	// names the package without saying how the work went on.
	open := []func(c *convo){
		func(c *convo) {
			c.bash("", "python3 competitors/x.py", "python3: can't open file 'competitors/x.py': [Errno 2] No such file or directory", 2)
			c.bash("", "python3 other/x.py", "done", 0)
		},
		func(c *convo) {
			c.bash("", `make && ./run --check`, "make: *** [all] Error 2", 2)
			c.bash("", `make; ./run --check; docker images`, "done", 0)
		},
		func(c *convo) {
			// "see if … works" is a check still to run, not a report.
			c.bash("", "npm run build", "Error: generate is not a function", 1)
			c.say("The build issue might be related to the configuration. Let me see if the dev server works:")
		},
		func(c *convo) {
			c.bash("", "pip install pytest", "ERROR: No matching distribution found for pytest", 1)
			for i := 0; i < 5; i++ {
				c.say("Still looking.")
			}
			c.say("The pytest install is blocked.")
		},
	}
	for i, build := range open {
		c := newConvo(t).user("do the work")
		build(c)
		if f := ComputeFacts(c.msgs); len(f.Errors) != 1 || f.Errors[0].Resolution != handoff.ResolutionUnresolved {
			t.Errorf("case %d: errors = %+v, want one unresolved", i, f.Errors)
		}
	}
}
