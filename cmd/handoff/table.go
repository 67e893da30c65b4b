package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// table prints rows the way gh and kubectl do: on a terminal, aligned
// columns cut to the terminal's width; piped, tab-separated values with
// no padding and nothing cut, so `cut -f`, awk and sort see whole fields.
// The header is kept in both forms (TSV readers take it as column names).
type table struct {
	out   io.Writer
	tty   bool
	width int
	rows  [][]string
	// fixed marks the columns never cut on a terminal.
	fixed map[int]bool
	// main is the column cut last (the text a person reads the table
	// for), or -1.
	main int
	// whole prints the last column whole on a terminal, wrapped by it
	// (a path in a report), instead of cutting it.
	whole bool
}

// cutLast names the column that keeps its width longest on a narrow
// terminal: the others are cut to minColumn first.
func (t *table) cutLast(col int) *table {
	t.main = col
	return t
}

// wrapLast prints the last column whole on a terminal (wrapped there),
// for a report whose details must not be cut, such as a path.
func (t *table) wrapLast() *table {
	t.whole = true
	return t
}

// keep marks columns (by index) that are never cut on a terminal: the
// ids a person copies into the next command.
func (t *table) keep(cols ...int) *table {
	for _, c := range cols {
		t.fixed[c] = true
	}
	return t
}

// newTable starts a table for stdout with these column names.
func (a *app) newTable(header ...string) *table {
	tty, width := a.stdoutTerminal()
	return &table{out: a.stdout, tty: tty, width: width, rows: [][]string{header}, fixed: map[int]bool{}, main: -1}
}

// row adds a row; a cell's tabs and line breaks become spaces so a row is
// always one line.
func (t *table) row(cells ...string) {
	clean := make([]string, len(cells))
	for i, c := range cells {
		clean[i] = oneLine(c)
	}
	t.rows = append(t.rows, clean)
}

// id is how the table shows a long id: its first 8 characters on a
// terminal (enough to be unique in practice, and every command takes a
// unique prefix), whole when piped. Short, structured ids (snap_…) stay
// whole.
func (t *table) id(id string) string {
	if t.tty && len(id) > 12 && !strings.HasPrefix(id, "snap_") {
		return id[:8]
	}
	return id
}

// gap is the space between aligned columns.
const gap = 2

// minColumn is the narrowest a long column is cut to on a narrow
// terminal; a column no wider than shortColumn (a date, a count, a
// status) is never cut: cutting it would leave nothing readable.
const (
	minColumn   = 12
	shortColumn = 20
	// mainColumn is the width the main column (cutLast) keeps while
	// columns right of it can be left out instead.
	mainColumn = 40
)

func (t *table) flush() error {
	// Rows are written through a buffer as they are laid out, not
	// gathered into one string first: a listing of every snapshot is
	// megabytes.
	b := bufio.NewWriterSize(t.out, 64<<10)
	if !t.tty {
		for _, r := range t.rows {
			for i, c := range r {
				if i > 0 {
					b.WriteByte('\t')
				}
				b.WriteString(c)
			}
			b.WriteByte('\n')
		}
		return b.Flush()
	}
	widths := t.columnWidths()
	for _, r := range t.rows {
		var line strings.Builder
		for i, c := range r {
			if widths[i] == 0 {
				break
			}
			if !t.whole || i < len(r)-1 {
				c = cut(c, widths[i])
			}
			line.WriteString(c)
			if i < len(r)-1 && widths[i+1] > 0 {
				line.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+gap))
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	return b.Flush()
}

// columnWidths fits the columns to the terminal: the widest column that
// may be cut loses a rune at a time, down to minColumn; a fixed column
// (an id a person copies) and a short one are never cut. When that is not enough the
// rightmost columns are left out (width 0), as a narrow terminal cannot
// show them anyway and wrapped rows would be unreadable.
func (t *table) columnWidths() []int {
	var widths []int
	for _, r := range t.rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	floor := make([]int, len(widths))
	for i, w := range widths {
		floor[i] = minColumn
		if t.fixed[i] || w <= shortColumn || (t.whole && i == len(widths)-1) {
			floor[i] = w
		}
	}
	if t.whole {
		// The last column wraps on the terminal: fit the others beside
		// as much of it as a line holds.
		last := len(widths) - 1
		floor[last] = min(floor[last], max(minColumn, t.width/2))
		widths[last] = floor[last]
	}
	shown := len(widths)
	total := func() int {
		n := gap * (shown - 1)
		for _, w := range widths[:shown] {
			n += w
		}
		return n
	}
	for total() > t.width {
		widest := -1
		for i, w := range widths[:shown] {
			if w > floor[i] && i != t.main && (widest < 0 || w > widths[widest]) {
				widest = i
			}
		}
		if widest < 0 && t.main >= 0 && t.main < shown {
			// The others are as narrow as they go: cut the main column
			// down to mainColumn, then leave out the columns right of
			// it, then cut it further.
			switch {
			case widths[t.main] > max(floor[t.main], mainColumn):
				widest = t.main
			case shown-1 > t.main:
				shown--
				widths[shown] = 0
				continue
			case widths[t.main] > floor[t.main]:
				widest = t.main
			}
		}
		if widest >= 0 {
			widths[widest]--
			continue
		}
		if shown == 1 {
			break
		}
		shown--
		widths[shown] = 0
	}
	return widths
}

// cut shortens s to n runes, marking the cut with an ellipsis.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	if n <= 1 {
		return string(r[:n])
	}
	return string(r[:n-1]) + "…"
}

// oneLine replaces tabs and line breaks with spaces.
func oneLine(s string) string {
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		clean = s[i] != '\t' && s[i] != '\n' && s[i] != '\r'
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}

// cellf formats a cell.
func cellf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
