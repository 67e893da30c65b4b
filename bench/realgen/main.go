// Command realgen writes a real-content transcript of a given size for
// bench/scale.sh: it replays the shared sessions of one agent (every
// *.jsonl file of -src, in name order, again and again) as one session
// until the file reaches -size bytes. Each replay gets fresh ids (every
// uuid, message, request, tool-call and turn id gets a -rN suffix, the
// session id is one new id for the whole file) and timestamps shifted to
// follow the previous replay, so the result reads as one long session whose
// lines are the agents' own, byte for byte apart from those values. bench/synth's
// rounds of identical tool output keep the heap tiny; these do not.
//
// A Codex rollout's session_meta line is kept once, at the top: a second
// one would start another session.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() {
	size := flag.Int64("size", 10<<20, "file size in `bytes` (the last line may pass it)")
	src := flag.String("src", "", "`dir`ectory of shared sessions of one agent (e.g. ../shared/transcripts/codex)")
	flag.Parse()
	if flag.NArg() != 1 || *src == "" {
		fmt.Fprintln(os.Stderr, "usage: realgen -src DIR [-size N] OUT.jsonl")
		os.Exit(2)
	}
	if err := generate(*src, *size, flag.Arg(0)); err != nil {
		fmt.Fprintln(os.Stderr, "realgen:", err)
		os.Exit(1)
	}
}

// isIDKey reports whether a field's string value identifies a record, a
// message, a request, a tool call or a turn in Claude Code and Codex lines:
// each replay rewrites those so no two replays share an id.
func isIDKey(k string) bool {
	switch k {
	case "uuid", "parentUuid", "leafUuid", "logicalParentUuid", "id", "messageId", "requestId",
		"tool_use_id", "toolUseID", "sourceToolUseID", "agentId", "call_id", "turn_id",
		"backgroundTaskId", "bash_id", "shellId", "shell_id", "thread_id", "parent_thread_id", "forked_from_id":
		return true
	}
	return false
}

// isSessionKey reports whether a field names the session; every replay
// uses the file's one new id.
func isSessionKey(k string) bool { return k == "sessionId" || k == "session_id" }

func generate(src string, size int64, out string) error {
	files, err := filepath.Glob(filepath.Join(src, "*.jsonl"))
	if err != nil || len(files) == 0 {
		return fmt.Errorf("no *.jsonl files in %s", src)
	}
	slices.Sort(files)
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	g := &gen{w: w, size: size, session: fmt.Sprintf("bench%08x-0000-4000-8000-%012x", time.Now().Unix()&0xffffffff, size)}
	for round := 0; g.written < size; round++ {
		for _, file := range files {
			if g.written >= size {
				break
			}
			if err := g.replay(file, round); err != nil {
				return fmt.Errorf("%s: %w", file, err)
			}
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

type gen struct {
	w       *bufio.Writer
	session string
	size    int64 // stop at the first line that reaches it
	written int64
	metaOut bool      // a session_meta line was written
	last    time.Time // the newest timestamp written so far
	replays int
}

// replay writes one shared file with fresh ids, its timestamps shifted to
// start a minute after the last one written.
func (g *gen) replay(path string, round int) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	g.replays++
	suffix := fmt.Sprintf("-r%d", g.replays)
	var shift time.Duration
	first := true
	newest := g.last
	for line := range bytes.Lines(data) {
		if g.written >= g.size {
			break
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal(line, &rec); err != nil {
			continue // not a record: leave it out rather than write a broken line
		}
		if rec["type"] == "session_meta" {
			if g.metaOut {
				continue
			}
			g.metaOut = true
		}
		repl := map[string]string{}
		collect(rec, suffix, g.session, repl)
		for old, ts := range timestamps(rec) {
			if first && !g.last.IsZero() {
				shift = g.last.Add(time.Minute).Sub(ts)
			}
			first = false
			nt := ts.Add(shift)
			if nt.After(newest) {
				newest = nt
			}
			repl[old] = nt.UTC().Format("2006-01-02T15:04:05.000Z07:00")
		}
		// The line's own bytes, with each value replaced where it is
		// quoted: the content stays exactly the agent's.
		for old, nw := range repl {
			line = bytes.ReplaceAll(line, []byte(`"`+old+`"`), []byte(`"`+nw+`"`))
		}
		n, err := g.w.Write(append(line, '\n'))
		if err != nil {
			return err
		}
		g.written += int64(n)
	}
	g.last = newest
	return nil
}

// collect records the new value of every id and session field in v.
func collect(v any, suffix, session string, repl map[string]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && s != "" && !strings.ContainsAny(s, "\"\\") {
				switch {
				case isSessionKey(k):
					repl[s] = session
				case isIDKey(k):
					repl[s] = s + suffix
				}
				continue
			}
			collect(x, suffix, session, repl)
		}
	case []any:
		for _, x := range v {
			collect(x, suffix, session, repl)
		}
	}
}

// timestamps returns the top-level and payload timestamps of a record.
func timestamps(rec map[string]any) map[string]time.Time {
	ts := map[string]time.Time{}
	add := func(m map[string]any) {
		if s, ok := m["timestamp"].(string); ok {
			if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
				ts[s] = t
			}
		}
	}
	add(rec)
	if p, ok := rec["payload"].(map[string]any); ok {
		add(p)
	}
	return ts
}
