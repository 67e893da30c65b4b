// Package format is the layout of a rank table (see package ranks): the
// magic line, the slot layout and the hash of its index, and Encode, which
// writes a table. The generator (ranks/gen) writes the embedded tables
// with it and package ranks reads them with the same hash, so the two
// cannot drift apart; it is a package of its own because ranks does not
// compile before the tables it embeds exist.
package format

import (
	"encoding/binary"
	"fmt"
)

// Magic opens every table; the trailing version digit changes with the
// layout.
const Magic = "tiktoken-ranks 2\n"

// Slot layout: rank+1 in the low RankBits bits, the top TagBits bits of
// the token's hash above them; 0 is an empty slot.
const (
	RankBits = 18
	TagBits  = 32 - RankBits
	RankMask = 1<<RankBits - 1
)

// FNV-1a 64's parameters. The index hashes a string with FNV-1a and then
// murmur3's 64-bit finalizer: FNV-1a alone clustered the index, as its
// low bits mix poorly on short strings.
const (
	Offset = 14695981039346656037
	Prime  = 1099511628211
)

// Step adds one byte to an FNV-1a hash, so a reader can hash a string's
// prefixes one byte at a time.
func Step(h uint64, b byte) uint64 { return (h ^ uint64(b)) * Prime }

// Finish is murmur3's 64-bit finalizer, applied to an FNV-1a hash.
func Finish(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// Hash is the index's hash of s.
func Hash(s string) uint64 {
	h := uint64(Offset)
	for i := 0; i < len(s); i++ {
		h = Step(h, s[i])
	}
	return Finish(h)
}

// Home is the first slot an index of nslots slots probes for hash h.
func Home(h uint64, nslots int) int { return int((h & 0xffffffff) * uint64(nslots) >> 32) }

// Tag is the part of hash h a slot keeps to reject most other strings
// without reading them.
func Tag(h uint64) uint32 { return uint32(h >> (64 - TagBits)) }

// SlotCount gives the index about a 0.6 load factor.
func SlotCount(n int) int { return n*5/3 + 1 }

// Encode writes a table of the tokens, whose rank is their index in
// byRank: the magic line, the token count and slot count (uint32 LE), the
// longest token for each first byte (256 bytes), n+1 offsets into the
// token bytes (uint32 LE), the index's slots (uint32 LE, linear probing
// from Home) and the token bytes in rank order.
func Encode(byRank []string) ([]byte, error) {
	n := len(byRank)
	if n+1 >= 1<<RankBits {
		return nil, fmt.Errorf("%d tokens do not fit %d rank bits", n, RankBits)
	}
	var firstMax [256]byte
	for _, tok := range byRank {
		if tok == "" || len(tok) > 255 {
			return nil, fmt.Errorf("token %q: length %d is outside 1..255", tok, len(tok))
		}
		firstMax[tok[0]] = max(firstMax[tok[0]], byte(len(tok)))
	}
	slots := make([]uint32, SlotCount(n))
	for rank, tok := range byRank {
		h := Hash(tok)
		i := Home(h, len(slots))
		for slots[i] != 0 {
			if i++; i == len(slots) {
				i = 0
			}
		}
		slots[i] = Tag(h)<<RankBits | uint32(rank+1)
	}
	b := []byte(Magic)
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
	return b, nil
}
