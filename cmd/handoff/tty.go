package main

import "os"

// isTerminal reports whether f is a character device (a terminal). It uses
// only the file mode, which is enough to tell a pipe or file from a TTY
// without another dependency.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	return fi.Mode()&os.ModeCharDevice != 0
}
