// Package ranks holds tiktoken's BPE rank tables for o200k_base and
// cl100k_base, pre-decoded into a compact binary form with a hash index,
// embedded in the program and read in place: opening a table costs
// nothing, a token's rank is found without a Go map (Lookup), and a full
// map (Fill) costs no base64 decoding and no allocation per token.
//
// The tables are generated from tiktoken-go-loader's own data by
// `go generate` (see gen/), and a test checks them id-for-id against that
// loader. Format (package format writes it; integers are uint32
// little-endian):
//
//	Magic
//	n, the token count; s, the index's slot count
//	256 bytes: the longest token starting with each byte (0: none)
//	n+1 offsets into the blob: token r is blob[off[r]:off[r+1]]
//	s slots: 0 if empty, else rank+1 in the low 18 bits and the top 14
//	bits of the token's hash above them (a tag that rejects most
//	non-matching slots without touching the blob)
//	the blob: every token's bytes, in rank order
//
// The index is open addressing with linear probing, about 0.6 full; a
// token's first slot is the low 32 bits of its hash (FNV-1a 64, then
// murmur3's finalizer) scaled to s, then the next slots in turn. Tokens
// are stored in rank order, so record r has rank r (tiktoken's files
// have contiguous ranks; the generator refuses a file that does not).
package ranks

import (
	_ "embed" // the tables
	"errors"
	"fmt"
	"path"
	"strings"

	tiktoken "github.com/pkoukk/tiktoken-go"

	"github.com/handoff-cli/handoff/capacity/internal/ranks/format"
)

//go:generate go run ./gen

// Magic opens every table (format.Magic).
const Magic = format.Magic

const (
	rankBits = format.RankBits
	rankMask = format.RankMask
)

// The tables are embedded as strings so that the keys Lookup returns and
// the map keys Fill makes are substrings of read-only data: no copy, no
// allocation per token.
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

// Vocab is an opened table: slices of the table string, read in place.
// It is a small value, read-only, safe for concurrent use.
type Vocab struct {
	n, nslots int
	maxLen    int
	firstMax  string // 256 bytes
	offsets   string // (n+1)*4 bytes
	slots     string // nslots*4 bytes
	blob      string
}

// Open checks a table's header and sizes and returns it opened. It reads
// the header and the 256-byte length table only, so it costs nothing
// measurable; Fill and Lookup check each record they read, so a table
// damaged inside is an error from Fill and a miss from Lookup, never a
// panic.
func Open(table string) (Vocab, error) {
	if !strings.HasPrefix(table, Magic) {
		return Vocab{}, errors.New("rank table: bad magic (regenerate with go generate)")
	}
	rest := table[len(Magic):]
	if len(rest) < 8+256 {
		return Vocab{}, errors.New("rank table: truncated header")
	}
	n, nslots := uint64(u32(rest, 0)), uint64(u32(rest, 1))
	rest = rest[8:]
	if n+1 >= 1<<rankBits || nslots <= n || nslots > 1<<30 {
		return Vocab{}, fmt.Errorf("rank table: bad sizes (%d tokens, %d slots)", n, nslots)
	}
	v := Vocab{n: int(n), nslots: int(nslots), firstMax: rest[:256]}
	rest = rest[256:]
	need := 4*(n+1) + 4*nslots
	if uint64(len(rest)) < need {
		return Vocab{}, errors.New("rank table: truncated offsets or index")
	}
	v.offsets, v.slots, v.blob = rest[:4*(n+1)], rest[4*(n+1):need], rest[need:]
	if u32(v.offsets, 0) != 0 || int(u32(v.offsets, int(n))) != len(v.blob) {
		return Vocab{}, fmt.Errorf("rank table: offsets span %d..%d, blob has %d bytes",
			u32(v.offsets, 0), u32(v.offsets, int(n)), len(v.blob))
	}
	for b := range 256 {
		v.maxLen = max(v.maxLen, int(v.firstMax[b]))
	}
	return v, nil
}

// u32 reads the little-endian uint32 at index i (in units of 4 bytes) of s.
func u32(s string, i int) uint32 {
	s = s[4*i : 4*i+4]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// Len returns the number of tokens, so a caller can size a map for Fill.
func (v Vocab) Len() int { return v.n }

// MaxLen returns the length in bytes of the longest token.
func (v Vocab) MaxLen() int { return v.maxLen }

// MaxLenFrom returns the length of the longest token that starts with the
// byte b, 0 if none does: a substring starting with b and longer than this
// is never a token.
func (v Vocab) MaxLenFrom(b byte) int { return int(v.firstMax[b]) }

// token returns the bytes of rank r, or ok false if the offsets are bad.
func (v Vocab) token(r int) (string, bool) {
	a, b := u32(v.offsets, r), u32(v.offsets, r+1)
	if a > b || int(b) > len(v.blob) {
		return "", false
	}
	return v.blob[a:b], true
}

// Lookup returns the rank of s if s is a token, and the table's own copy
// of its bytes as key (a substring of the embedded table: storing it as a
// map key copies nothing). It allocates nothing.
func (v Vocab) Lookup(s string) (rank int, key string, ok bool) {
	if s == "" {
		return 0, "", false
	}
	return v.find(s, format.Hash(s))
}

// Token is a token found in a table: its rank and its bytes, a substring
// of the embedded table.
type Token struct {
	Rank int
	Key  string
}

// AppendPrefixes appends to dst every token that is a prefix of s,
// shortest first, and returns it with the number of lengths it tried: up
// to the longest token starting with s's first byte. It hashes
// incrementally, so trying every prefix costs one byte of hashing each.
func (v Vocab) AppendPrefixes(dst []Token, s string) (_ []Token, tried int) {
	if s == "" {
		return dst, 0
	}
	m := min(len(s), v.MaxLenFrom(s[0]))
	h := uint64(format.Offset)
	for l := 1; l <= m; l++ {
		h = format.Step(h, s[l-1])
		if rank, key, ok := v.find(s[:l], format.Finish(h)); ok {
			dst = append(dst, Token{rank, key})
		}
	}
	return dst, m
}

// find probes the index for s, whose hash is h.
func (v Vocab) find(s string, h uint64) (rank int, key string, ok bool) {
	if v.nslots == 0 {
		return 0, "", false
	}
	tag := format.Tag(h)
	i := format.Home(h, v.nslots)
	for range v.nslots {
		e := u32(v.slots, i)
		if e == 0 {
			return 0, "", false
		}
		if e>>rankBits == tag {
			if r := int(e&rankMask) - 1; r >= 0 && r < v.n {
				if tok, good := v.token(r); good && tok == s {
					return r, tok, true
				}
			}
		}
		if i++; i == v.nslots {
			i = 0
		}
	}
	return 0, "", false
}

// Fill adds every token to ranks with its rank. The keys share the table's
// memory. It fails on a malformed table, never half silently.
func (v Vocab) Fill(ranks map[string]int) error {
	for r := range v.n {
		tok, ok := v.token(r)
		if !ok || tok == "" {
			return fmt.Errorf("rank table: record %d of %d has bad offsets", r, v.n)
		}
		ranks[tok] = r
	}
	return nil
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
	v, err := Open(table)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	ranks := make(map[string]int, v.Len())
	if err := v.Fill(ranks); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return ranks, nil
}
