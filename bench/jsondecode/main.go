// Command jsondecode is the floor bench/run.sh measures handoff against: it
// reads a JSONL file line by line and decodes every line with
// encoding/json into an any, doing nothing else. A transcript compile has
// to do at least this much work, so its CPU time over this one's says how
// much handoff adds on top of reading the file.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: jsondecode FILE.jsonl")
		os.Exit(2)
	}
	n, err := decode(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "jsondecode:", err)
		os.Exit(1)
	}
	fmt.Println(n, "lines decoded")
}

// decode returns the number of non-empty lines decoded. A line that is not
// JSON is an error: the floor must not be cheaper by skipping work.
func decode(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	n := 0
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && !(len(line) == 1 && line[0] == '\n') {
			var v any
			if jerr := json.Unmarshal(line, &v); jerr != nil {
				return n, fmt.Errorf("line %d: %w", n+1, jerr)
			}
			n++
		}
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, fmt.Errorf("read %s: %w", path, err)
		}
	}
}
