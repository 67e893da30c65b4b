package ranks

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"

	"github.com/handoff-cli/handoff/capacity/internal/ranks/format"
)

var files = []string{"o200k_base.tiktoken", "cl100k_base.tiktoken"}

// TestLoaderMatchesOfflineLoader is the table's correctness proof: every
// token of tiktoken-go-loader's vocabulary has the same rank in the
// embedded table, Lookup finds it there (with a key equal to it), and the
// table holds nothing else. A stale or corrupt table (regenerate with go
// generate after a change to package format) fails here.
func TestLoaderMatchesOfflineLoader(t *testing.T) {
	t.Parallel()
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			want := offlineRanks(t, file)
			got, err := Loader{}.LoadTiktokenBpe("https://openaipublic.blob.core.windows.net/encodings/" + file)
			if err != nil {
				t.Fatalf("Loader: %v", err)
			}
			if len(got) != len(want) {
				t.Errorf("Loader has %d tokens, offline loader %d", len(got), len(want))
			}
			table, _ := Table(file)
			v, err := Open(table)
			if err != nil || v.Len() != len(want) {
				t.Fatalf("Open: Len = %d, %v; want %d", v.Len(), err, len(want))
			}
			bad, maxLen := 0, 0
			var firstMax [256]int
			for tok, rank := range want {
				g, ok := got[tok]
				lr, key, lok := v.Lookup(tok)
				if !ok || g != rank || !lok || lr != rank || key != tok {
					if bad++; bad <= 5 {
						t.Errorf("token %q: Fill rank %d (present %v), Lookup %d %q (found %v); want %d", tok, g, ok, lr, key, lok, rank)
					}
				}
				maxLen = max(maxLen, len(tok))
				firstMax[tok[0]] = max(firstMax[tok[0]], len(tok))
			}
			if bad > 0 {
				t.Errorf("%d of %d tokens differ", bad, len(want))
			}
			if v.MaxLen() != maxLen {
				t.Errorf("MaxLen = %d, want %d", v.MaxLen(), maxLen)
			}
			for b := range 256 {
				if v.MaxLenFrom(byte(b)) != firstMax[b] {
					t.Errorf("MaxLenFrom(%#x) = %d, want %d", b, v.MaxLenFrom(byte(b)), firstMax[b])
				}
			}
		})
	}
}

// TestLookupRejectsNonTokens looks up strings that are not tokens: each
// token with a byte added at either end or its last byte dropped (near
// misses that share most of the hash input), and random byte strings,
// and checks Lookup agrees with the loader's map on every one.
func TestLookupRejectsNonTokens(t *testing.T) {
	t.Parallel()
	for _, file := range files {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			want := offlineRanks(t, file)
			table, _ := Table(file)
			v, err := Open(table)
			if err != nil {
				t.Fatal(err)
			}
			check := func(s string) {
				rank, isTok := want[s]
				r, _, ok := v.Lookup(s)
				if ok != isTok || (ok && r != rank) {
					t.Errorf("Lookup(%q) = %d, %v; want %d, %v", s, r, ok, rank, isTok)
				}
			}
			rng := rand.New(rand.NewPCG(1, 2))
			b64 := "  The quick brown fox's jumps, über naïve 日本語 😀\n\tfunc main() {\xff\x80 ---- ====  "
			misses, every, i := 0, 1, 0
			if raceEnabled {
				every = 10
			}
			for tok := range want {
				if i++; i%every != 0 {
					continue
				}
				for _, s := range []string{tok + "\x00", "\xff" + tok, tok + "zq", tok[:len(tok)-1]} {
					if _, isTok := want[s]; !isTok {
						misses++
					}
					check(s)
				}
			}
			for range 200000 / every {
				b := make([]byte, 1+rng.IntN(6))
				for i := range b {
					b[i] = byte('a' + rng.IntN(26))
				}
				check(string(b))
			}
			check("")
			// AppendPrefixes finds exactly the tokens that are prefixes of a
			// string, via its incremental hash.
			for range 20000 {
				s := string(b64[rng.IntN(len(b64)):])
				var got []int
				toks, tried := v.AppendPrefixes(nil, s)
				for _, tok := range toks {
					if !strings.HasPrefix(s, tok.Key) {
						t.Errorf("AppendPrefixes(%q) gave key %q", s, tok.Key)
					}
					got = append(got, tok.Rank)
				}
				if tried != min(len(s), v.MaxLenFrom(s[0])) {
					t.Errorf("AppendPrefixes(%q) tried %d lengths", s, tried)
				}
				var wantRanks []int
				for l := 1; l <= len(s); l++ {
					if r, ok := want[s[:l]]; ok {
						wantRanks = append(wantRanks, r)
					}
				}
				if !slices.Equal(got, wantRanks) {
					t.Fatalf("AppendPrefixes(%q) = %v, want %v", s, got, wantRanks)
				}
			}
			if misses < len(want)/every {
				t.Errorf("only %d near misses were non-tokens; the test checks little", misses)
			}
		})
	}
}

func TestTableUnknown(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"p50k_base.tiktoken", "", "o200k"} {
		if _, err := Table(file); err == nil {
			t.Errorf("Table(%q) = nil error, want one", file)
		}
	}
}

// build writes a table the way gen does, for the malformed-table tests.
func build(toks ...string) string {
	b, err := format.Encode(toks)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestMalformed checks that a damaged table is an error from Open or Fill
// and a miss from Lookup, not a silently short vocabulary or a panic.
func TestMalformed(t *testing.T) {
	t.Parallel()
	good := build("a", "bc", "\xff\x00")
	v, err := Open(good)
	m := map[string]int{}
	if err != nil || v.Fill(m) != nil || len(m) != 3 || m["bc"] != 1 || m["\xff\x00"] != 2 {
		t.Fatalf("Open/Fill(good) = %v, map %v", err, m)
	}
	if r, _, ok := v.Lookup("bc"); !ok || r != 1 || v.MaxLen() != 2 || v.MaxLenFrom('b') != 2 || v.MaxLenFrom('z') != 0 {
		t.Fatalf("good table: Lookup(bc) = %d, %v; MaxLen %d", r, ok, v.MaxLen())
	}
	hdr := len(Magic) + 8 + 256
	tests := map[string]string{
		"empty":            "",
		"bad magic":        strings.Replace(good, "ranks", "RANKS", 1),
		"no count":         Magic,
		"truncated":        good[:len(good)-1],
		"trailing":         good + "x",
		"count too big":    Magic + "\xff\xff\x00\x00" + good[len(Magic)+4:],
		"too few slots":    Magic + "\x03\x00\x00\x00\x02\x00\x00\x00" + good[len(Magic)+8:],
		"offset past blob": good[:hdr+4] + "\x09\x00\x00\x00" + good[hdr+8:],
	}
	for name, table := range tests {
		v, err := Open(table)
		if err == nil {
			err = v.Fill(map[string]int{})
		}
		if err == nil {
			t.Errorf("%s: Open and Fill = nil error, want one", name)
		}
		if err == nil || name == "offset past blob" {
			v.Lookup("bc") // must not panic
		}
	}
}

// BenchmarkLoad compares building the o200k_base ranks map from the
// embedded table with tiktoken-go-loader's base64 text (the baseline).
func BenchmarkLoad(b *testing.B) {
	b.Run("offline_loader", func(b *testing.B) {
		for b.Loop() {
			if _, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe("o200k_base.tiktoken"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ranks_table", func(b *testing.B) {
		for b.Loop() {
			if _, err := (Loader{}).LoadTiktokenBpe("o200k_base.tiktoken"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkLookup measures one Lookup of a token and of a non-token, the
// unit of the capacity package's on-demand map.
func BenchmarkLookup(b *testing.B) {
	table, _ := Table("o200k_base.tiktoken")
	v, err := Open(table)
	if err != nil {
		b.Fatal(err)
	}
	for _, s := range []string{" the", " Constantinople", "zqxj"} {
		b.Run(strings.TrimSpace(s), func(b *testing.B) {
			for b.Loop() {
				v.Lookup(s)
			}
		})
	}
}

// offlineRanks is tiktoken-go-loader's vocabulary of file, the reference
// the embedded tables are checked against.
func offlineRanks(t *testing.T, file string) map[string]int {
	t.Helper()
	ranks, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(file)
	if err != nil {
		t.Fatalf("offline loader: %v", err)
	}
	return ranks
}
