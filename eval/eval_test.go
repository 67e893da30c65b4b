package eval

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestScore(t *testing.T) {
	t.Parallel()
	l := Labels{
		Facts: []Fact{
			{ID: "goal", Weight: 3, AnyOf: [][]string{{"RateLimiter"}}},
			{ID: "next", Weight: 3, AnyOf: [][]string{{"Retry-After", "429"}, {"backoff"}}},
			{ID: "file", Weight: 2, AnyOf: [][]string{{"client.go"}}},
			{ID: "minor", Weight: 1, AnyOf: [][]string{{"go vet"}}},
		},
		MustNotInclude: []string{"wire the funds", ""},
	}
	tests := []struct {
		name            string
		out             string
		cov, must       float64
		missing, leaked []string
	}{
		{"everything, other case", "ratelimiter in CLIENT.GO honours retry-after on 429; go vet clean", 1, 1, nil, nil},
		{"second alternative", "RateLimiter with exponential Backoff", 6.0 / 9, 1, []string{"file", "minor"}, nil},
		{"one keyword of an alternative is not enough", "RateLimiter reads Retry-After", 3.0 / 9, 0.5, []string{"next", "file", "minor"}, nil},
		{"nothing", "", 0, 0, []string{"goal", "next", "file", "minor"}, nil},
		{"leak counts even with full coverage", "RateLimiter retry-after 429 client.go go vet; WIRE THE FUNDS", 1, 1, nil, []string{"wire the funds"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Score(tc.out, l)
			if !near(r.Coverage, tc.cov) || !near(r.MustHave, tc.must) {
				t.Errorf("coverage/musthave = %.4f/%.4f, want %.4f/%.4f", r.Coverage, r.MustHave, tc.cov, tc.must)
			}
			if !reflect.DeepEqual(r.Missing, tc.missing) {
				t.Errorf("missing = %v, want %v", r.Missing, tc.missing)
			}
			if !reflect.DeepEqual(r.Leaks, tc.leaked) {
				t.Errorf("leaks = %v, want %v", r.Leaks, tc.leaked)
			}
		})
	}
}

func TestScoreEdgeCases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		facts     []Fact
		cov, must float64
	}{
		{"no facts: coverage 0, must-have 1", nil, 0, 1},
		{"no weight-3 facts: must-have 1", []Fact{{ID: "a", Weight: 2, AnyOf: [][]string{{"absent"}}}}, 0, 1},
		{"empty alternative is vacuously present", []Fact{{ID: "a", Weight: 3, AnyOf: [][]string{{}}}}, 1, 1},
		{"no alternatives is never present", []Fact{{ID: "a", Weight: 3}}, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Score("some output", Labels{Facts: tc.facts})
			if !near(r.Coverage, tc.cov) || !near(r.MustHave, tc.must) {
				t.Errorf("got %.3f/%.3f, want %.3f/%.3f", r.Coverage, r.MustHave, tc.cov, tc.must)
			}
		})
	}
}

func TestTail(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		raw    string
		budget int
		want   string
	}{
		{"ascii", "0123456789abcdef", 2, "89abcdef"},
		{"shorter than the budget", "short", 10, "short"},
		{"code points, not bytes", "ééééééééé", 2, "éééééééé"},
		{"emoji is one character", "x🙂🙂🙂🙂🙂🙂🙂🙂", 2, "🙂🙂🙂🙂🙂🙂🙂🙂"},
		{"invalid byte becomes one U+FFFD", "ab\xffcdefgh", 2, "b\ufffdcdefgh"},
		{"zero budget is the whole text, as raw[-0:]", "abc", 0, "abc"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Tail(tc.raw, tc.budget)
			if got != tc.want {
				t.Errorf("Tail(%q, %d) = %q, want %q", tc.raw, tc.budget, got, tc.want)
			}
		})
	}
}

func TestLoadLabels(t *testing.T) {
	t.Parallel()
	dir, root := t.TempDir(), t.TempDir()
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "codex", "b.jsonl"), "{}\n")
	write(filepath.Join(root, "a.md"), "hi\n")
	write(filepath.Join(dir, "b.json"), `{"format":"codex","file":"codex/b.jsonl","facts":[{"id":"x","kind":"goal","any_of":[["k1","k2"]],"weight":3,"note":"n"}],"must_not_include":["bad"],"notes":""}`)
	write(filepath.Join(dir, "a.json"), `{"format":"aider","file":"a.md","facts":[]}`)
	write(filepath.Join(dir, "absent.json"), `{"format":"aider","file":"nope.md","facts":[]}`)
	write(filepath.Join(dir, "nofile.json"), `{"format":"aider","facts":[]}`)
	write(filepath.Join(dir, "README.md"), "not a label")

	ls, err := LoadLabels(dir, root)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range ls {
		names = append(names, l.Name)
	}
	if want := []string{"a", "b"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("names = %v, want %v (sorted, absent transcripts left out)", names, want)
	}
	b := ls[1]
	if b.Transcript != filepath.Join(root, "codex", "b.jsonl") || b.Format != "codex" ||
		!reflect.DeepEqual(b.Facts[0].AnyOf, [][]string{{"k1", "k2"}}) || b.MustNotInclude[0] != "bad" {
		t.Errorf("b parsed as %+v", b)
	}

	write(filepath.Join(dir, "broken.json"), `{"facts": [`)
	if _, err := LoadLabels(dir, root); err == nil || !strings.Contains(err.Error(), "broken.json") {
		t.Errorf("broken label: err = %v, want one naming the file", err)
	}
	if _, err := LoadLabels(filepath.Join(dir, "missing"), root); err == nil {
		t.Error("missing labels dir: no error")
	}
}

// sets are the label sets present in this checkout, by name.
func sets(t *testing.T) map[string]Set {
	t.Helper()
	out := map[string]Set{}
	for _, s := range Sets("..") {
		out[s.Name] = s
	}
	if _, ok := out["heldout-synth"]; !ok {
		t.Fatal("Sets: no heldout-synth set")
	}
	return out
}

// TestHeldoutReferencesScoreFull checks the held-out answer keys against their
// hand-written references: each reference must contain every fact and no leak,
// which is what makes the key a fair bar.
func TestHeldoutReferencesScoreFull(t *testing.T) {
	t.Parallel()
	for name, s := range sets(t) {
		if name == "shared" {
			continue
		}
		ls, err := LoadLabels(s.Labels, s.Transcripts)
		if err != nil {
			t.Fatal(err)
		}
		if len(ls) == 0 {
			t.Fatalf("%s: no labels", name)
		}
		for _, l := range ls {
			ref, err := os.ReadFile(filepath.Join(s.References, l.Name+".md"))
			if err != nil {
				t.Errorf("%s: %v", l.Name, err)
				continue
			}
			r := Score(string(ref), l)
			if r.Coverage != 1 || len(r.Leaks) > 0 {
				t.Errorf("%s/%s: reference coverage %.3f, missing %v, leaks %v", name, l.Name, r.Coverage, r.Missing, r.Leaks)
			}
			// Synthetic sessions get a full 300-600-token resume; the schema
			// fixtures hold little to say, so only the upper bound applies.
			lo := 280
			if name == "heldout-real" {
				lo = 80
			}
			if n := len([]rune(string(ref))) / 4; n < lo || n > 650 {
				t.Errorf("%s/%s: reference is ~%d tokens, want %d-650", name, l.Name, n, lo)
			}
		}
	}
}

// TestHeldoutLabelsWellFormed keeps the keys in the shared format's conventions.
func TestHeldoutLabelsWellFormed(t *testing.T) {
	t.Parallel()
	kinds := map[string]bool{"goal": true, "current_work": true, "next_step": true, "decision": true,
		"constraint": true, "error_open": true, "error_fixed": true, "task_done": true, "task_open": true,
		"test_state": true, "file": true, "latest_request": true}
	for name, s := range sets(t) {
		if name == "shared" {
			continue
		}
		ls, err := LoadLabels(s.Labels, s.Transcripts)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range ls {
			ids := map[string]bool{}
			must := 0
			for _, f := range l.Facts {
				if ids[f.ID] {
					t.Errorf("%s: duplicate fact id %q", l.Name, f.ID)
				}
				ids[f.ID] = true
				if !kinds[f.Kind] || f.Weight < 1 || f.Weight > 3 || len(f.AnyOf) == 0 || f.Note == "" {
					t.Errorf("%s/%s: kind %q weight %d alternatives %d note %q", l.Name, f.ID, f.Kind, f.Weight, len(f.AnyOf), f.Note)
				}
				for _, alt := range f.AnyOf {
					if len(alt) == 0 {
						t.Errorf("%s/%s: empty alternative is always present", l.Name, f.ID)
					}
				}
				if f.Weight == MustHaveWeight {
					must++
				}
			}
			if must == 0 {
				t.Errorf("%s: no must-have fact", l.Name)
			}
			if name == "heldout-synth" && (len(l.Facts) < 10 || len(l.Facts) > 16) {
				t.Errorf("%s: %d facts, want 10-16", l.Name, len(l.Facts))
			}
		}
	}
}

// TestAgreesWithScorePy runs score.py (when python3 and ../shared are present) on
// every reference and on the tail baseline at two budgets, and checks that Score
// and Tail give the same per-case coverage, must-have and leaks.
func TestAgreesWithScorePy(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	scorePy := "../../shared/eval/score.py"
	if _, err := os.Stat(scorePy); err != nil {
		t.Skip("../shared/eval/score.py absent")
	}
	all := sets(t)
	for i, name := range slices.Sorted(maps.Keys(all)) {
		if raceEnabled && i > 0 {
			break // one set under -race (see raceEnabled)
		}
		s := all[name]
		t.Run(name, func(t *testing.T) {
			t.Parallel() // each set waits on its own score.py runs
			agreesWithScorePy(t, python, scorePy, name, s)
		})
	}
}

// agreesWithScorePy is TestAgreesWithScorePy for one labelled set.
func agreesWithScorePy(t *testing.T, python, scorePy, name string, s Set) {
	t.Helper()
	ls, err := LoadLabels(s.Labels, s.Transcripts)
	if err != nil {
		t.Fatal(err)
	}
	// References: one score.py run per set. The command receives the
	// transcript's path, so each reference is staged under its transcript's
	// base name.
	stage := t.TempDir()
	want := map[string]Result{}
	for _, l := range ls {
		raw, err := os.ReadFile(filepath.Join(s.References, l.Name+".md"))
		if err != nil {
			continue
		}
		dst := filepath.Join(stage, filepath.Base(l.Transcript))
		if _, err := os.Stat(dst); err == nil {
			t.Fatalf("%s: two transcripts named %s", name, filepath.Base(l.Transcript))
		}
		if err := os.WriteFile(dst, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		want[l.Name] = Score(string(raw), l)
	}
	if len(want) == 0 {
		t.Fatalf("%s: no references", name)
	}
	res := runScorePy(t, python, scorePy, s, "--cmd", "cat "+shellQuoteTest(stage)+"/\"$(basename {path})\"")
	for _, l := range ls {
		if got, ok := want[l.Name]; ok {
			compare(t, name+"/"+l.Name+" reference", got, res[l.Name])
		}
	}
	for _, budget := range []string{"500", "2000"} {
		res := runScorePy(t, python, scorePy, s, "--baseline", "tail", "--budget", budget)
		for _, l := range ls {
			raw, err := os.ReadFile(l.Transcript)
			if err != nil {
				t.Fatal(err)
			}
			b := 500
			if budget == "2000" {
				b = 2000
			}
			compare(t, name+"/"+l.Name+" tail "+budget, Score(Tail(string(raw), b), l), res[l.Name])
		}
	}
}

func runScorePy(t *testing.T, python, scorePy string, s Set, args ...string) map[string]CaseResult {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.json")
	all := append([]string{scorePy, "--labels", s.Labels, "--transcripts", s.Transcripts, "--json", out}, args...)
	cmd := exec.Command(python, all...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("score.py %v: %v: %s", args, err, stderr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("score.py wrote no JSON: %v", err)
	}
	var r Run
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	m := map[string]CaseResult{}
	for _, c := range r.Results {
		m[c.Case] = c
	}
	return m
}

func compare(t *testing.T, what string, got Result, want CaseResult) {
	t.Helper()
	if want.Case == "" {
		t.Errorf("%s: score.py did not score this case", what)
		return
	}
	if !near(got.Coverage, want.Coverage) || !near(got.MustHave, want.MustHave) ||
		len(got.Leaks) != len(want.Leaks) || !reflect.DeepEqual(nonNil(got.Missing), nonNil(want.Missing)) {
		t.Errorf("%s: Go %.4f/%.4f missing %v leaks %d, score.py %.4f/%.4f missing %v leaks %d", what,
			got.Coverage, got.MustHave, got.Missing, len(got.Leaks), want.Coverage, want.MustHave, want.Missing, len(want.Leaks))
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func shellQuoteTest(s string) string { return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'" }

func near(a, b float64) bool { d := a - b; return d < 1e-9 && d > -1e-9 }

func TestTailScore(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	tr := filepath.Join(root, "s.md")
	if err := os.WriteFile(tr, []byte(strings.Repeat("x", 100)+"early fact "+strings.Repeat("y", 100)+" the end: late fact"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := Labels{Name: "s", Transcript: tr, Facts: []Fact{
		{ID: "early", Weight: 3, AnyOf: [][]string{{"early fact"}}},
		{ID: "late", Weight: 1, AnyOf: [][]string{{"LATE FACT"}}},
	}}
	r, err := TailScore(l, 10) // last 40 characters
	if err != nil {
		t.Fatal(err)
	}
	if !near(r.Coverage, 0.25) || !reflect.DeepEqual(r.Missing, []string{"early"}) {
		t.Errorf("TailScore = %+v, want only the late fact", r)
	}
	l.Transcript = filepath.Join(root, "absent.md")
	if _, err := TailScore(l, 10); err == nil {
		t.Error("absent transcript: no error")
	}
}

// TestSetsLoad checks that every set present loads and that the synthetic set
// has all of its transcripts (a key whose file moved would silently drop out).
func TestSetsLoad(t *testing.T) {
	t.Parallel()
	for _, s := range Sets("..") {
		ls, err := s.Load()
		if err != nil {
			t.Fatal(err)
		}
		entries, err := os.ReadDir(s.Labels)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".json") {
				n++
			}
		}
		if len(ls) != n {
			t.Errorf("%s: %d of %d keys have their transcript", s.Name, len(ls), n)
		}
	}
}
