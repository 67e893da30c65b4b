// Command synth writes a synthetic Claude Code transcript for bench/run.sh's
// memory checks: rounds of a user prompt, an assistant tool call with
// provider usage, and a tool result whose output (repeated in
// toolUseResult, as Claude Code writes it) is -out bytes, until the file
// reaches -size bytes. With -line it writes instead a prompt, a tool call
// and one tool result line whose output is -line bytes: the single huge
// line (a build log or a file dump), as in the transcript and CLI tests.
//
// It mirrors writeSyntheticClaude in transcript/memory_bench_test.go, so the
// whole-process figures here and the heap figures there describe the same
// shape.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"strings"
)

func main() {
	size := flag.Int("size", 100<<20, "file size in `bytes`")
	out := flag.Int("out", 8<<10, "tool output per round in `bytes`")
	line := flag.Int("line", 0, "write one user message of this many `bytes` instead")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: synth [-size N] [-out N] [-line N] FILE")
		os.Exit(2)
	}
	if err := write(flag.Arg(0), *size, *out, *line); err != nil {
		slog.Error("synth", "err", err)
		os.Exit(1)
	}
}

func write(path string, size, out, line int) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if line > 0 {
		text, _ := json.Marshal(strings.Repeat("log line with some words 0123456789 ", line/36+1)[:line])
		fmt.Fprintln(w, `{"type":"user","sessionId":"s","uuid":"u0","timestamp":"2025-01-01T00:00:00Z","message":{"role":"user","content":"dump the build log"}}`)
		fmt.Fprintln(w, `{"type":"assistant","sessionId":"s","uuid":"a0","message":{"id":"m0","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"t0","name":"Bash","input":{"command":"make"}}],"usage":{"input_tokens":10,"cache_read_input_tokens":90000,"output_tokens":20}}}`)
		fmt.Fprintf(w, `{"type":"user","sessionId":"s","uuid":"r0","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t0","content":%s}]}}`+"\n", text)
	} else {
		quoted, _ := json.Marshal(strings.Repeat("compiling module … ok\n", out/24))
		for i, written := 0, 0; written < size; i++ {
			n, _ := fmt.Fprintf(w, `{"type":"user","sessionId":"s","uuid":"u%d","timestamp":"2025-01-01T00:00:00Z","message":{"role":"user","content":"step %d: build it"}}`+"\n", i, i)
			written += n
			n, _ = fmt.Fprintf(w, `{"type":"assistant","sessionId":"s","uuid":"a%d","message":{"id":"m%d","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":"make"}}],"usage":{"input_tokens":10,"cache_read_input_tokens":90000,"output_tokens":20}}}`+"\n", i, i, i)
			written += n
			n, _ = fmt.Fprintf(w, `{"type":"user","sessionId":"s","uuid":"r%d","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":%s}]},"toolUseResult":{"stdout":%s,"stderr":"","interrupted":false}}`+"\n", i, i, quoted, quoted)
			written += n
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}
