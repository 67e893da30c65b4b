package store

import (
	"crypto/rand"
	"encoding/binary"
)

// idAlphabet is Crockford's base32 in lower case: no i, l, o or u, so an
// id read aloud or retyped is hard to get wrong.
const idAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// idLength is how many random characters follow the prefix: 60 bits, so
// ids never collide in practice and a few characters usually suffice as a
// unique prefix.
const idLength = 12

// NewID returns prefix followed by 12 random base32 characters, e.g.
// "snap_7k2m9q4xw1ab". The characters are all random, not time-ordered, on
// purpose: a person picks a snapshot by typing the first few characters
// after the prefix, which a timestamp head would make identical for every
// snapshot of the same day. Order comes from created_at and session_number.
func NewID(prefix string) string {
	var b [8]byte
	rand.Read(b[:]) // crypto/rand.Read never fails (it panics instead)
	n := binary.BigEndian.Uint64(b[:])
	out := make([]byte, len(prefix)+idLength)
	copy(out, prefix)
	for i := len(out) - 1; i >= len(prefix); i-- {
		out[i] = idAlphabet[n&31]
		n >>= 5
	}
	return string(out)
}
