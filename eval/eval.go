// Package eval scores resume prompts against answer keys, with the same rules as
// ../shared/eval/score.py, so that Go tests can enforce quality bars (for instance
// "never below the raw transcript's tail on any labelled file") without Python.
//
// An answer key (Labels) lists the facts a successor needs to continue a session.
// A fact is present in a prompt when every keyword of at least one of its any_of
// alternatives occurs in it, case-insensitively. Coverage is the weighted share of
// facts present, must-have the share of weight-3 facts present, and any
// must_not_include string found in the prompt is a leak (a hard failure).
//
// The labels live in two places: the real sessions' keys in ../shared/eval/labels
// (transcripts under ../shared/transcripts) and the held-out keys in
// eval/heldout/labels-real (also ../shared/transcripts) and eval/heldout/labels
// (transcripts under eval/heldout/transcripts), which no mechanism was tuned on.
package eval

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// MustHaveWeight is the weight that marks a fact as a must-have.
const MustHaveWeight = 3

// Fact is one thing a successor must learn from the prompt.
type Fact struct {
	ID     string     `json:"id"`
	Kind   string     `json:"kind"`
	AnyOf  [][]string `json:"any_of"`
	Weight int        `json:"weight"`
	Note   string     `json:"note"`
}

// Labels is one session's answer key, in the shared label format.
type Labels struct {
	// Name is the label file's base name without ".json" (score.py's case name).
	Name string `json:"-"`
	// Path is the label file that was read.
	Path   string `json:"-"`
	Format string `json:"format"`
	// File is the transcript, relative to the transcripts root the labels were loaded with.
	File           string   `json:"file"`
	Facts          []Fact   `json:"facts"`
	MustNotInclude []string `json:"must_not_include"`
	Notes          string   `json:"notes"`
	// Transcript is File resolved against the transcripts root.
	Transcript string `json:"-"`
}

// Result is the score of one prompt against one answer key.
type Result struct {
	Coverage        float64  // weighted share of facts present, in [0, 1]
	MustHave        float64  // share of weight-3 facts present; 1 when there are none
	Missing         []string // ids of absent facts, in label order
	MissingMustHave []string // ids of absent weight-3 facts, in label order
	Leaks           []string // must_not_include strings found in the prompt
}

// LoadLabels reads every <name>.json in dir, sorted by name, and resolves each
// one's "file" against transcriptsRoot. Like score.py, it leaves out labels whose
// transcript is absent (or that name none), so a checkout without ../shared still
// scores what it has; a label file that cannot be read or parsed is an error.
func LoadLabels(dir, transcriptsRoot string) ([]Labels, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("eval: read labels dir: %w", err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".json") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []Labels
	for _, n := range names {
		p := filepath.Join(dir, n)
		l, err := ReadLabels(p)
		if err != nil {
			return nil, err
		}
		if l.File == "" {
			continue
		}
		l.Transcript = filepath.Join(transcriptsRoot, l.File)
		if st, err := os.Stat(l.Transcript); err != nil || st.IsDir() {
			continue
		}
		out = append(out, l)
	}
	return out, nil
}

// ReadLabels parses one label file; Name and Path are set from its path,
// Transcript is left empty.
func ReadLabels(path string) (Labels, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Labels{}, fmt.Errorf("eval: read labels: %w", err)
	}
	var l Labels
	if err := json.Unmarshal(b, &l); err != nil {
		return Labels{}, fmt.Errorf("eval: parse labels %s: %w", path, err)
	}
	l.Path = path
	l.Name = strings.TrimSuffix(filepath.Base(path), ".json")
	return l, nil
}

// Present reports whether the fact is in the lower-cased text: all keywords of
// at least one alternative occur in it. An empty alternative is vacuously
// present, as Python's all([]) is.
func (f Fact) Present(lower string) bool {
	for _, alt := range f.AnyOf {
		ok := true
		for _, k := range alt {
			if !strings.Contains(lower, strings.ToLower(k)) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// Score scores a prompt against an answer key with score.py's rules.
func Score(output string, l Labels) Result {
	low := strings.ToLower(output)
	var r Result
	total, got := 0, 0
	must, mustOK := 0, 0
	for _, f := range l.Facts {
		total += f.Weight
		ok := f.Present(low)
		if ok {
			got += f.Weight
		} else {
			r.Missing = append(r.Missing, f.ID)
		}
		if f.Weight == MustHaveWeight {
			must++
			if ok {
				mustOK++
			} else {
				r.MissingMustHave = append(r.MissingMustHave, f.ID)
			}
		}
	}
	if total == 0 {
		total = 1 // score.py: sum(weights) or 1
	}
	r.Coverage = float64(got) / float64(total)
	r.MustHave = 1
	if must > 0 {
		r.MustHave = float64(mustOK) / float64(must)
	}
	for _, s := range l.MustNotInclude {
		if s != "" && strings.Contains(low, strings.ToLower(s)) {
			r.Leaks = append(r.Leaks, s)
		}
	}
	return r
}

// Tail is score.py's "tail" baseline: the last budget*4 characters of the raw
// transcript, counted as Python counts them (Unicode code points). Invalid UTF-8
// becomes U+FFFD, one per invalid byte; Python's decode("utf-8", "replace")
// agrees for stray bytes but folds a truncated multi-byte sequence into one
// U+FFFD, so on such (rare) input the cut can differ by a character or two.
func Tail(raw string, budget int) string {
	r := []rune(raw) // one utf8.RuneError per invalid byte
	n := budget * 4
	switch {
	case n == 0:
		return string(r) // Python: raw[-0:] is the whole string
	case n < 0:
		return string(r[min(-n, len(r)):]) // Python: raw[-(-k):] = raw[k:]
	case n >= len(r):
		return string(r)
	default:
		return string(r[len(r)-n:])
	}
}

// Set is one directory of answer keys with the roots its paths are relative to.
type Set struct {
	Name        string // "shared", "heldout-real" or "heldout-synth"
	Labels      string // directory of <name>.json keys
	Transcripts string // root the keys' "file" paths are relative to
	References  string // directory of <name>.md hand-written resumes
}

// Sets returns the label sets present in a checkout whose repository root is
// repoRoot (for a test in package dir a/b, "../.."): the held-out synthetic set
// always, and the shared set and the held-out real set when ../shared is beside
// the repository. A Go test can range over them to enforce a bar on every file.
func Sets(repoRoot string) []Set {
	shared := filepath.Join(repoRoot, "..", "shared")
	here := filepath.Join(repoRoot, "eval", "heldout")
	var out []Set
	if isDir(filepath.Join(shared, "eval", "labels")) && isDir(filepath.Join(shared, "transcripts")) {
		out = append(out, Set{"shared", filepath.Join(shared, "eval", "labels"), filepath.Join(shared, "transcripts"),
			filepath.Join(shared, "eval", "reference")})
	}
	if isDir(filepath.Join(shared, "transcripts")) {
		out = append(out, Set{"heldout-real", filepath.Join(here, "labels-real"), filepath.Join(shared, "transcripts"),
			filepath.Join(here, "reference")})
	}
	return append(out, Set{"heldout-synth", filepath.Join(here, "labels"), filepath.Join(here, "transcripts"),
		filepath.Join(here, "reference")})
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// Load reads the set's answer keys whose transcripts are present (LoadLabels).
func (s Set) Load() ([]Labels, error) { return LoadLabels(s.Labels, s.Transcripts) }

// TailScore scores the tail baseline of l's transcript at budget: the bar a
// resume prompt of the same budget must not fall below.
func TailScore(l Labels, budget int) (Result, error) {
	raw, err := os.ReadFile(l.Transcript)
	if err != nil {
		return Result{}, fmt.Errorf("eval: read transcript of %s: %w", l.Name, err)
	}
	return Score(Tail(string(raw), budget), l), nil
}
