// Command gen writes the rank tables of package ranks from
// tiktoken-go-loader's embedded vocabularies (no network). Run it through
// `go generate` in capacity/internal/ranks; it writes into the current
// directory. The layout is package format's, which ranks reads with.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"log/slog"
	"os"

	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"

	"github.com/handoff-cli/handoff/capacity/internal/ranks/format"
)

// vocabularies are the tiktoken files a table is generated for.
var vocabularies = []string{"o200k_base", "cl100k_base"}

func main() {
	for _, name := range vocabularies {
		if err := generate(name); err != nil {
			slog.Error("generate rank table", "vocabulary", name, "err", err)
			os.Exit(1)
		}
	}
}

// generate writes name.ranks: the loader's tokens in rank order and an
// open-addressing index over them. The format stores no ranks in the
// token list, only the order, so it refuses a vocabulary whose ranks are
// not exactly 0..n-1.
func generate(name string) error {
	m, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(name + ".tiktoken")
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	n := len(m)
	byRank := make([]string, n)
	seen := make([]bool, n)
	for tok, rank := range m {
		if rank < 0 || rank >= n || seen[rank] {
			return fmt.Errorf("ranks are not 0..%d: rank %d is out of range or repeated", n-1, rank)
		}
		seen[rank] = true
		byRank[rank] = tok
	}
	b, err := format.Encode(byRank)
	if err != nil {
		return err
	}
	return write(name+".ranks", b)
}

func write(file string, b []byte) (err error) {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, f.Close()) }()
	w := bufio.NewWriter(f)
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", file, err)
	}
	return nil
}
