// Command gen writes the rank tables of package ranks from
// tiktoken-go-loader's embedded vocabularies (no network). Run it through
// `go generate` in capacity/internal/ranks; it writes into the current
// directory. The format is described in package ranks (ranks.go); the
// hash below must stay the same as ranks.hash, which ranks' test checks
// by looking up every token.
package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"os"

	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// magic is ranks.Magic, repeated because package ranks does not compile
// until the tables it embeds exist; ranks' test checks the two agree by
// reading the tables.
const magic = "tiktoken-ranks 2\n"

// Slot layout, as in package ranks: rank+1 in the low rankBits bits, the
// top tagBits bits of the hash above them; 0 is an empty slot.
const (
	rankBits = 18
	tagBits  = 32 - rankBits
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

// hash is FNV-1a 64 with murmur3's 64-bit finalizer, the same function
// as ranks.hash.
func hash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	// FNV-1a's low bits mix poorly on short strings (the index clustered
	// into probe runs of thousands); murmur3's finalizer spreads them.
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// slotCount gives the index about a 0.6 load factor.
func slotCount(n int) int { return n*5/3 + 1 }

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
	if n+1 >= 1<<rankBits {
		return fmt.Errorf("%d tokens do not fit %d rank bits", n, rankBits)
	}
	byRank := make([]string, n)
	seen := make([]bool, n)
	for tok, rank := range m {
		if rank < 0 || rank >= n || seen[rank] {
			return fmt.Errorf("ranks are not 0..%d: rank %d is out of range or repeated", n-1, rank)
		}
		seen[rank] = true
		byRank[rank] = tok
	}
	var firstMax [256]byte
	for _, tok := range byRank {
		if tok == "" || len(tok) > 255 {
			return fmt.Errorf("token %q: length %d is outside 1..255", tok, len(tok))
		}
		firstMax[tok[0]] = max(firstMax[tok[0]], byte(len(tok)))
	}
	slots := make([]uint32, slotCount(n))
	for rank, tok := range byRank {
		h := hash(tok)
		i := int((h & 0xffffffff) * uint64(len(slots)) >> 32)
		for slots[i] != 0 {
			if i++; i == len(slots) {
				i = 0
			}
		}
		slots[i] = uint32(h>>(64-tagBits))<<rankBits | uint32(rank+1)
	}

	b := []byte(magic)
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(slots)))
	b = append(b, firstMax[:]...)
	off := uint32(0)
	for _, tok := range byRank {
		b = binary.LittleEndian.AppendUint32(b, off)
		off += uint32(len(tok))
	}
	b = binary.LittleEndian.AppendUint32(b, off)
	for _, s := range slots {
		b = binary.LittleEndian.AppendUint32(b, s)
	}
	for _, tok := range byRank {
		b = append(b, tok...)
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
