// Command gen writes the rank tables of package ranks from
// tiktoken-go-loader's embedded vocabularies (no network). Run it through
// `go generate` in capacity/internal/ranks; it writes into the current
// directory.
package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"log/slog"
	"os"

	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// magic is ranks.Magic, repeated because package ranks does not compile
// until the tables it embeds exist; ranks' test checks the two agree by
// reading the tables.
const magic = "tiktoken-ranks 1\n"

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

// generate writes name.ranks: the loader's ranks in rank order. The format
// stores no ranks, only the order, so it refuses a vocabulary whose ranks
// are not exactly 0..n-1.
func generate(name string) error {
	m, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(name + ".tiktoken")
	if err != nil {
		return fmt.Errorf("load: %w", err)
	}
	byRank := make([]string, len(m))
	seen := make([]bool, len(m))
	for tok, rank := range m {
		if rank < 0 || rank >= len(m) || seen[rank] {
			return fmt.Errorf("ranks are not 0..%d: rank %d is out of range or repeated", len(m)-1, rank)
		}
		seen[rank] = true
		byRank[rank] = tok
	}
	f, err := os.Create(name + ".ranks")
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.WriteString(magic)
	w.Write(binary.AppendUvarint(nil, uint64(len(byRank))))
	for _, tok := range byRank {
		w.Write(binary.AppendUvarint(nil, uint64(len(tok))))
		w.WriteString(tok)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", f.Name(), err)
	}
	return nil
}
