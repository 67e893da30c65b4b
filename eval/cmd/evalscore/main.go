// Command evalscore is the Go stand-in for ../shared/eval/score.py, used by
// eval/run when ../shared is absent (or python3 is missing), and the table
// printer for eval/run's results.
//
//	evalscore score --labels DIR --transcripts DIR (--cmd CMD | --baseline tail) --budget N [--json FILE]
//	evalscore table DIR      # DIR holds <set>.<budget>.<handoff|tail>.json files
//
// score runs CMD once per labelled transcript with the transcript on stdin
// ({budget}, {path} and {format} substituted, as score.py does), scores stdout with
// package eval and writes score.py's --json shape.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/handoff-cli/handoff/eval"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		slog.Error("evalscore", "err", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: evalscore score|table …")
	}
	switch args[0] {
	case "score":
		return score(args[1:])
	case "table":
		if len(args) != 2 {
			return errors.New("usage: evalscore table DIR")
		}
		return table(args[1])
	}
	return fmt.Errorf("unknown subcommand %q", args[0])
}

func score(args []string) error {
	fs := flag.NewFlagSet("score", flag.ContinueOnError)
	labels := fs.String("labels", "", "directory of <case>.json labels")
	root := fs.String("transcripts", "", "root the labels' \"file\" paths are relative to")
	cmd := fs.String("cmd", "", "command reading a transcript on stdin and printing the prompt")
	baseline := fs.String("baseline", "", "tail: score the transcript's last budget*4 characters")
	budget := fs.Int("budget", 2000, "token budget")
	jsonOut := fs.String("json", "", "write per-case results to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if (*cmd == "") == (*baseline == "") || (*baseline != "" && *baseline != "tail") {
		return errors.New("give exactly one of --cmd or --baseline tail")
	}
	ls, err := eval.LoadLabels(*labels, *root)
	if err != nil {
		return err
	}
	mode := *cmd
	if *baseline != "" {
		mode = *baseline
	}
	res := eval.Run{Budget: *budget, Mode: mode}
	for _, l := range ls {
		raw, err := os.ReadFile(l.Transcript)
		if err != nil {
			return fmt.Errorf("read transcript: %w", err)
		}
		var out string
		var runErr *string
		if *baseline != "" {
			out = eval.Tail(string(raw), *budget)
		} else {
			o, err := runCmd(*cmd, l, *budget, raw)
			out = o
			if err != nil {
				s := err.Error()
				runErr = &s
			}
		}
		r := eval.Score(out, l)
		res.Results = append(res.Results, eval.CaseResult{
			Case: l.Name, Format: l.Format, Coverage: r.Coverage, MustHave: r.MustHave,
			Missing: r.Missing, MissingMustHave: r.MissingMustHave, Leaks: r.Leaks,
			Tokens: int(math.Ceil(float64(len([]rune(out))) / 4)), Error: runErr,
		})
		fmt.Printf("%-40s %-12s %8.3f %8.3f %5d\n", l.Name, l.Format, r.Coverage, r.MustHave, len(r.Leaks))
	}
	c, m, leaks := res.Means()
	fmt.Printf("SCORE coverage=%.3f musthave=%.3f leaks=%d\n", c, m, leaks)
	if *jsonOut != "" {
		b, err := json.MarshalIndent(res, "", " ")
		if err != nil {
			return fmt.Errorf("encode results: %w", err)
		}
		if err := os.WriteFile(*jsonOut, b, 0o644); err != nil {
			return fmt.Errorf("write results: %w", err)
		}
	}
	return nil
}

// runCmd runs the command through sh with the transcript on stdin, as score.py does.
func runCmd(cmd string, l eval.Labels, budget int, stdin []byte) (string, error) {
	c := strings.NewReplacer("{budget}", strconv.Itoa(budget), "{path}", shellQuote(l.Transcript),
		"{format}", shellQuote(l.Format)).Replace(cmd)
	x := exec.Command("sh", "-c", c)
	x.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	x.Stdout, x.Stderr = &out, &errb
	if err := x.Run(); err != nil {
		return out.String(), fmt.Errorf("%s: %w: %s", l.Name, err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'" }

// table reads <set>.<budget>.<handoff|tail>.json files and prints the comparison.
func table(dir string) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.*.handoff.json"))
	if err != nil {
		return fmt.Errorf("list results: %w", err)
	}
	sort.Strings(files)
	var cells []eval.Cell
	for _, f := range files {
		parts := strings.Split(filepath.Base(f), ".")
		budget, err := strconv.Atoi(parts[1])
		if err != nil {
			return fmt.Errorf("result file %s: budget: %w", f, err)
		}
		h, err := eval.ReadRun(f)
		if err != nil {
			return err
		}
		t, err := eval.ReadRun(strings.TrimSuffix(f, ".handoff.json") + ".tail.json")
		if err != nil {
			return err
		}
		cells = append(cells, eval.Cell{Set: parts[0], Budget: budget, Handoff: h, Tail: t})
	}
	if len(cells) == 0 {
		return fmt.Errorf("no results in %s", dir)
	}
	return eval.WriteTable(os.Stdout, cells)
}
