package transcript

import (
	"bufio"
	"context"
	"crypto/md5"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Finders for agents that keep a file per session under the home
// directory, keyed by the working directory in their own way.

// filesIn lists the non-empty files matching pattern as SessionRefs.
func filesIn(pattern string) []SessionRef {
	matches, _ := filepath.Glob(pattern)
	var out []SessionRef
	for _, m := range matches {
		if fi, err := os.Stat(m); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
			out = append(out, SessionRef{Path: m, Updated: fi.ModTime()})
		}
	}
	return out
}

// findPi lists pi's sessions of dir: ~/.pi/agent/sessions/--<dir with /
// as ->--/*.jsonl.
func findPi(_ context.Context, home, dir string) []SessionRef {
	name := "--" + strings.ReplaceAll(strings.TrimPrefix(dir, "/"), "/", "-") + "--"
	return filesIn(filepath.Join(home, ".pi", "agent", "sessions", name, "*.jsonl"))
}

// findKimi lists Kimi CLI's sessions of dir:
// ~/.kimi/sessions/<md5 of dir>/<id>/context.jsonl.
func findKimi(_ context.Context, home, dir string) []SessionRef {
	sum := md5.Sum([]byte(dir))
	return filesIn(filepath.Join(home, ".kimi", "sessions", fmt.Sprintf("%x", sum), "*", "context.jsonl"))
}

// maxGooseScan bounds how many of the newest Goose sessions are opened
// to read their working directory.
const maxGooseScan = 200

// findGoose lists Goose's JSONL sessions whose metadata line names dir.
func findGoose(_ context.Context, home, dir string) []SessionRef {
	all := filesIn(filepath.Join(home, ".local", "share", "goose", "sessions", "*.jsonl"))
	sort.Slice(all, func(i, j int) bool { return all[i].Updated.After(all[j].Updated) })
	var out []SessionRef
	for _, f := range all[:min(len(all), maxGooseScan)] {
		if firstLineField(f.Path, "working_dir") == dir {
			out = append(out, f)
		}
	}
	return out
}

// firstLineField reads a string field of a file's first JSON line, as a
// cleaned path.
func firstLineField(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReaderSize(f, 64<<10).ReadBytes('\n')
	var obj map[string]json.RawMessage
	if json.Unmarshal(line, &obj) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(obj[key], &s) != nil || s == "" {
		return ""
	}
	return filepath.Clean(s)
}
