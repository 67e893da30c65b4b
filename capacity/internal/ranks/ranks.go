// Package ranks holds tiktoken's BPE rank tables for o200k_base and
// cl100k_base, pre-decoded into a compact binary form and embedded in the
// program, so a tokenizer is built without the base64 decoding and the
// per-token allocations that tiktoken-go-loader's text format costs.
//
// The tables are generated from tiktoken-go-loader's own data by
// `go generate` (see gen/), and a test checks them id-for-id against that
// loader. Format, after the Magic line: a uvarint count, then count records
// of uvarint length and the token's bytes, in rank order, so the record at
// index i has rank i (tiktoken's files have contiguous ranks; the generator
// refuses a file that does not).
package ranks

import (
	_ "embed" // the tables
	"errors"
	"fmt"
	"path"
	"strings"

	tiktoken "github.com/pkoukk/tiktoken-go"
)

//go:generate go run ./gen

// Magic opens every table; the trailing version digit changes with the
// format. gen/main.go writes the same string (it cannot import this
// package, which does not compile before the tables exist).
const Magic = "tiktoken-ranks 1\n"

// The tables are embedded as strings so that the map keys Fill makes are
// substrings of read-only data: no copy, no allocation per token.
var (
	//go:embed o200k_base.ranks
	o200kBase string
	//go:embed cl100k_base.ranks
	cl100kBase string
)

// Table returns the embedded table for a tiktoken vocabulary file name such
// as "o200k_base.tiktoken" (a URL or path is reduced to its base name, as
// tiktoken-go-loader does).
func Table(file string) (string, error) {
	switch strings.TrimSuffix(path.Base(file), ".tiktoken") {
	case "o200k_base":
		return o200kBase, nil
	case "cl100k_base":
		return cl100kBase, nil
	}
	return "", fmt.Errorf("no embedded rank table for %q (have o200k_base, cl100k_base)", file)
}

// Len returns the number of tokens a table holds, read from its header, so
// a caller can size its map before Fill.
func Len(table string) (int, error) {
	n, _, err := header(table)
	return n, err
}

// Fill adds every token of table to ranks with its rank. The keys share the
// table's memory. It fails on a malformed table, never half silently: a
// record that runs past the end or a count that disagrees with the records
// is an error.
func Fill(table string, ranks map[string]int) error {
	n, off, err := header(table)
	if err != nil {
		return err
	}
	for rank := range n {
		l, w := uvarint(table[off:])
		if w <= 0 || uint64(len(table)-off-w) < l {
			return fmt.Errorf("rank table: record %d of %d is truncated", rank, n)
		}
		off += w
		ranks[table[off:off+int(l)]] = rank
		off += int(l)
	}
	if off != len(table) {
		return fmt.Errorf("rank table: %d bytes after the %d records", len(table)-off, n)
	}
	return nil
}

func header(table string) (count, off int, err error) {
	if !strings.HasPrefix(table, Magic) {
		return 0, 0, errors.New("rank table: bad magic (regenerate with go generate)")
	}
	off = len(Magic)
	n, w := uvarint(table[off:])
	if w <= 0 || n > uint64(len(table)) {
		return 0, 0, errors.New("rank table: bad count")
	}
	return int(n), off + w, nil
}

// uvarint is binary.Uvarint on a string, which spares a conversion per
// record: it returns the value and the bytes read, or w <= 0 when s ends
// inside the number or the number overflows 64 bits.
func uvarint(s string) (v uint64, w int) {
	var shift uint
	for i := 0; i < len(s) && i < 10; i++ {
		b := s[i]
		if b < 0x80 {
			if i == 9 && b > 1 {
				return 0, -(i + 1)
			}
			return v | uint64(b)<<shift, i + 1
		}
		v |= uint64(b&0x7f) << shift
		shift += 7
	}
	return 0, 0
}

// Loader is a tiktoken.BpeLoader over the embedded tables: a drop-in for
// tiktoken-go-loader's OfflineLoader with the same result for o200k_base
// and cl100k_base.
type Loader struct{}

var _ tiktoken.BpeLoader = Loader{}

// LoadTiktokenBpe returns the ranks of the named vocabulary in a new map.
func (Loader) LoadTiktokenBpe(file string) (map[string]int, error) {
	table, err := Table(file)
	if err != nil {
		return nil, err
	}
	n, err := Len(table)
	if err != nil {
		return nil, err
	}
	ranks := make(map[string]int, n)
	if err := Fill(table, ranks); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return ranks, nil
}
