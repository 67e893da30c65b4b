package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/handoff-cli/handoff/transcript"
)

// Format detection for a file that may still be empty or half-written.

// detectHead detects the format from what the file already holds (up to
// the last complete line of its first 64 KiB), or returns "" for an empty
// file, whose format is then detected from its first line.
func detectHead(path string) (transcript.Format, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("watch: %w", err)
	}
	defer f.Close()
	head := make([]byte, 64<<10)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("watch: read %s: %w", path, err)
	}
	head = head[:n]
	if i := lastNewline(head); i >= 0 {
		head = head[:i+1]
	} else {
		return "", nil
	}
	if len(trimSpace(head)) == 0 {
		return "", nil
	}
	format, err := transcript.Detect(head)
	if err != nil {
		return "", fmt.Errorf("watch %s: %w", path, err)
	}
	return format, nil
}

func lastNewline(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '\n' {
			return i
		}
	}
	return -1
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\n' || b[0] == '\r' || b[0] == '\t') {
		b = b[1:]
	}
	return b
}
