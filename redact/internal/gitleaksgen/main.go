// Command gitleaksgen turns a gitleaks source snapshot into data:
// redact/gitleaks_rules.go (every rule of config/gitleaks.toml, with the
// allowlists that can apply to text without a file path) and
// internal/secretsamples/gitleaks.go (each rule's true- and false-positive
// samples, for the tests of redact and of every output path).
//
// The samples exist only as Go code in gitleaks' cmd/generate/config/rules,
// built with random generators, so the snapshot's own generator is run
// with two small patches: utils.Validate records each rule's samples, and
// secrets.NewSecret seeds its generator from the pattern so a rerun on the
// same snapshot writes the same file.
//
//	go run ./internal/gitleaksgen -src /path/to/gitleaks     (from redact/; a checkout or a bare git dir)
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Sample caps: gitleaks writes up to ~100 true positives for a rule (the
// same secret in every assignment style); the first few of each kind are
// enough to hold the rule, and keep the test data small.
const (
	maxTrue  = 6
	maxFalse = 24
)

func main() {
	src := flag.String("src", os.Getenv("GITLEAKS_SRC"), "gitleaks checkout or bare git directory")
	out := flag.String("out", ".", "directory to write gitleaks_rules.go into (package redact)")
	samplesOut := flag.String("samples", "../internal/secretsamples", "directory to write gitleaks.go into (package secretsamples)")
	flag.Parse()
	if err := run(*src, *out, *samplesOut); err != nil {
		fmt.Fprintln(os.Stderr, "gitleaksgen:", err)
		os.Exit(1)
	}
}

func run(src, out, samplesOut string) error {
	if src == "" {
		return errors.New("no gitleaks snapshot: pass -src or set GITLEAKS_SRC")
	}
	work, err := os.MkdirTemp("", "gitleaksgen-")
	if err != nil {
		return fmt.Errorf("temp dir: %w", err)
	}
	defer os.RemoveAll(work)
	commit, err := unpack(src, work)
	if err != nil {
		return err
	}
	licence, err := os.ReadFile(filepath.Join(work, "LICENSE"))
	if err != nil {
		return fmt.Errorf("gitleaks licence: %w", err)
	}
	if err := patch(work); err != nil {
		return err
	}
	samplesPath := filepath.Join(work, "samples.jsonl")
	tomlPath := filepath.Join(work, "generated.toml")
	cmd := exec.Command("go", "run", ".", tomlPath)
	cmd.Dir = filepath.Join(work, "cmd", "generate", "config")
	cmd.Env = append(os.Environ(), "HANDOFF_SAMPLES="+samplesPath, "GOFLAGS=-mod=mod")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("run gitleaks' generator: %w", err)
	}
	var cfg config
	if _, err := toml.DecodeFile(tomlPath, &cfg); err != nil {
		return fmt.Errorf("read generated gitleaks.toml: %w", err)
	}
	samples, err := readSamples(samplesPath)
	if err != nil {
		return err
	}
	rules, err := renderRules(licenceHeader(commit, string(licence), "redact"), commit, cfg)
	if err != nil {
		return err
	}
	tests, err := renderSamples(licenceHeader(commit, string(licence), "secretsamples"), samples)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "gitleaks_rules.go"), rules, 0o644); err != nil {
		return fmt.Errorf("write rules: %w", err)
	}
	if err := os.WriteFile(filepath.Join(samplesOut, "gitleaks.go"), tests, 0o644); err != nil {
		return fmt.Errorf("write samples: %w", err)
	}
	return nil
}

// unpack copies the snapshot into work and returns its commit.
func unpack(src, work string) (string, error) {
	gitDir := src
	if _, err := os.Stat(filepath.Join(src, "objects")); err != nil {
		gitDir = filepath.Join(src, ".git")
	}
	rev, err := exec.Command("git", "--git-dir", gitDir, "rev-parse", "HEAD").Output()
	if err != nil {
		return "", fmt.Errorf("read the snapshot's commit in %s: %w", src, err)
	}
	archive := exec.Command("git", "--git-dir", gitDir, "archive", "HEAD")
	tar := exec.Command("tar", "-x", "-C", work)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return "", fmt.Errorf("git archive: %w", err)
	}
	tar.Stdin = pipe
	if err := tar.Start(); err != nil {
		return "", fmt.Errorf("tar: %w", err)
	}
	if err := archive.Run(); err != nil {
		return "", fmt.Errorf("git archive: %w", err)
	}
	if err := tar.Wait(); err != nil {
		return "", fmt.Errorf("tar: %w", err)
	}
	return strings.TrimSpace(string(rev)), nil
}

const dumpFile = `package utils

import (
	"encoding/json"
	"os"
)

// dumpSamples is handoff's patch: it records a rule's samples.
func dumpSamples(id string, tps, fps []string) {
	path := os.Getenv("HANDOFF_SAMPLES")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	if err := json.NewEncoder(f).Encode(map[string]any{"id": id, "tps": tps, "fps": fps}); err != nil {
		panic(err)
	}
}
`

// patch makes the snapshot's generator record samples, deterministically.
func patch(work string) error {
	utils := filepath.Join(work, "cmd", "generate", "config", "utils")
	if err := os.WriteFile(filepath.Join(utils, "zz_handoff_samples.go"), []byte(dumpFile), 0o644); err != nil {
		return fmt.Errorf("patch utils: %w", err)
	}
	edits := []struct{ file, anchor, insert string }{
		{filepath.Join(utils, "validate.go"), "\tr := &rule\n", "\tdumpSamples(r.RuleID, truePositives, falsePositives)\n"},
		{filepath.Join(work, "cmd", "generate", "secrets", "regen.go"), "\treturn g.Generate(1)", "\tg.SetSeed(seedOf(regex))\n"},
	}
	for _, e := range edits {
		b, err := os.ReadFile(e.file)
		if err != nil {
			return fmt.Errorf("patch: %w", err)
		}
		s := string(b)
		k := strings.Index(s, e.anchor)
		if k < 0 {
			return fmt.Errorf("patch %s: %q not found (gitleaks changed its generator)", e.file, e.anchor)
		}
		if strings.HasPrefix(e.insert, "\tdump") {
			k += len(e.anchor)
		}
		s = s[:k] + e.insert + s[k:]
		if strings.HasSuffix(e.file, "regen.go") {
			s += "\nfunc seedOf(s string) int64 {\n\tvar h int64 = 1469598103934665603\n\tfor i := 0; i < len(s); i++ {\n\t\th = (h ^ int64(s[i])) * 1099511628211\n\t}\n\treturn h\n}\n"
		}
		if err := os.WriteFile(e.file, []byte(s), 0o644); err != nil {
			return fmt.Errorf("patch: %w", err)
		}
	}
	return nil
}

type allowlist struct {
	Description string   `toml:"description"`
	Condition   string   `toml:"condition"`
	RegexTarget string   `toml:"regexTarget"`
	Regexes     []string `toml:"regexes"`
	StopWords   []string `toml:"stopwords"`
	Paths       []string `toml:"paths"`
	Commits     []string `toml:"commits"`
}

type rule struct {
	ID          string      `toml:"id"`
	Description string      `toml:"description"`
	Regex       string      `toml:"regex"`
	Path        string      `toml:"path"`
	SecretGroup int         `toml:"secretGroup"`
	Entropy     float64     `toml:"entropy"`
	Keywords    []string    `toml:"keywords"`
	Allowlists  []allowlist `toml:"allowlists"`
	Required    []struct {
		ID string `toml:"id"`
	} `toml:"required"`
}

type config struct {
	Allowlist allowlist `toml:"allowlist"`
	Rules     []rule    `toml:"rules"`
}

type sample struct {
	ID  string   `json:"id"`
	TPs []string `json:"tps"`
	FPs []string `json:"fps"`
}

func readSamples(path string) (map[string]sample, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("samples: %w", err)
	}
	defer f.Close()
	out := map[string]sample{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var s sample
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return nil, fmt.Errorf("samples: %w", err)
		}
		prev := out[s.ID]
		prev.ID = s.ID
		prev.TPs = append(prev.TPs, s.TPs...)
		prev.FPs = append(prev.FPs, s.FPs...)
		out[s.ID] = prev
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("samples: %w", err)
	}
	return out, nil
}

func licenceHeader(commit, licence, pkg string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by redact/internal/gitleaksgen from gitleaks %s; DO NOT EDIT.\n//\n", commit)
	b.WriteString("// The rules and samples below are gitleaks' (https://github.com/gitleaks/gitleaks),\n")
	b.WriteString("// used under its licence:\n//\n")
	for _, line := range strings.Split(strings.TrimRight(licence, "\n"), "\n") {
		if line == "" {
			b.WriteString("//\n")
			continue
		}
		b.WriteString("//\t" + line + "\n")
	}
	b.WriteString("\npackage " + pkg + "\n\n")
	return b.String()
}

// multiLine: the pattern spans lines (a PEM block, a curl command
// continued with backslashes, a YAML document), so it is run from the
// keyword's line onwards rather than on its line alone.
var multiLine = regexp.MustCompile(`\[\\s\\S|\(\?s|\[\\r\\n\]|[^\\]\\n`)

func lit(s string) string {
	if !strings.Contains(s, "`") && strconv.CanBackquote(s) {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

func strs(list []string) string {
	if len(list) == 0 {
		return "nil"
	}
	parts := make([]string, len(list))
	for i, s := range list {
		parts[i] = lit(s)
	}
	return "[]string{" + strings.Join(parts, ", ") + "}"
}

// allowLit renders an allowlist, or "" when it can never apply to a
// transcript (it needs a file path or a commit).
func allowLit(a allowlist) string {
	and := strings.EqualFold(a.Condition, "AND")
	if and && (len(a.Paths) > 0 || len(a.Commits) > 0) {
		return ""
	}
	if len(a.Regexes) == 0 && len(a.StopWords) == 0 {
		return ""
	}
	return fmt.Sprintf("{and: %v, target: %q, regexes: %s, stopwords: %s}", and, a.RegexTarget, strs(a.Regexes), strs(a.StopWords))
}

func renderRules(header, commit string, cfg config) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	fmt.Fprintf(&b, "// gitleaksCommit is the gitleaks commit the rules were generated from.\nconst gitleaksCommit = %q\n\n", commit)
	fmt.Fprintf(&b, "// gitleaksGlobalAllow is gitleaks' global allowlist (its file paths left out).\nfunc gitleaksGlobalAllow() glAllow {\n\treturn glAllow%s\n}\n\n", orEmpty(allowLit(cfg.Allowlist)))
	b.WriteString("// gitleaksRules is gitleaks' default rule set, in its order.\nfunc gitleaksRules() []glRule {\n\treturn []glRule{\n")
	for _, r := range cfg.Rules {
		fmt.Fprintf(&b, "\t\t{id: %q, regex: %s, path: %s, secretGroup: %d, entropy: %v, keywords: %s, multiLine: %v",
			r.ID, lit(r.Regex), lit(r.Path), r.SecretGroup, r.Entropy, strs(r.Keywords), multiLine.MatchString(r.Regex))
		var allows []string
		for _, a := range r.Allowlists {
			if s := allowLit(a); s != "" {
				allows = append(allows, s)
			}
		}
		if len(allows) > 0 {
			fmt.Fprintf(&b, ", allow: []glAllow{%s}", strings.Join(allows, ", "))
		}
		if len(r.Required) > 0 {
			var ids []string
			for _, q := range r.Required {
				ids = append(ids, q.ID)
			}
			fmt.Fprintf(&b, ", required: %s", strs(ids))
		}
		b.WriteString("},\n")
	}
	b.WriteString("\t}\n}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("format rules: %w", err)
	}
	return src, nil
}

func orEmpty(s string) string {
	if s == "" {
		return "{}"
	}
	return s
}

// pick keeps n distinct samples spread evenly over their sorted list:
// gitleaks builds some from map iteration, so its order is not stable.
func pick(list []string, n int) []string {
	seen := map[string]bool{}
	var all []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			all = append(all, s)
		}
	}
	sort.Strings(all)
	if len(all) <= n {
		return all
	}
	out := make([]string, 0, n)
	for k := range n {
		out = append(out, all[k*len(all)/n])
	}
	return out
}

func renderSamples(header string, samples map[string]sample) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(header)
	b.WriteString("// Gitleaks returns each gitleaks rule's true-positive and false-positive\n// samples as gitleaks' generator validates them (a few of each), by rule id.\n")
	b.WriteString("func Gitleaks() map[string]Samples {\n\treturn map[string]Samples{\n")
	ids := make([]string, 0, len(samples))
	for id := range samples {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		s := samples[id]
		fmt.Fprintf(&b, "\t\t%q: {TPs: %s, FPs: %s},\n", id, strs(pick(s.TPs, maxTrue)), strs(pick(s.FPs, maxFalse)))
	}
	b.WriteString("\t}\n}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("format samples: %w", err)
	}
	return src, nil
}
