package main

import (
	"io"
	"os"

	"golang.org/x/term"
)

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool {
	return term.IsTerminal(int(f.Fd()))
}

// defaultWidth is the width assumed for a terminal that does not report
// one (a serial console, some CI pseudo-terminals).
const defaultWidth = 80

// terminalOf reports whether w is a terminal and, if so, its width in
// columns. Output meant for people (aligned tables, short ids, the
// human view of show) goes to a terminal; anything else gets the form
// scripts read.
func terminalOf(w io.Writer) (tty bool, width int) {
	f, ok := w.(*os.File)
	if !ok || !isTerminal(f) {
		return false, 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil || width <= 0 {
		width = defaultWidth
	}
	return true, width
}

// stdoutTerminal is terminalOf(a.stdout), unless a test fixed the answer.
func (a *app) stdoutTerminal() (bool, int) {
	if a.outTerm != nil {
		return a.outTerm()
	}
	return terminalOf(a.stdout)
}
