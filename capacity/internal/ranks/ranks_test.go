package ranks

import (
	"encoding/binary"
	"strings"
	"testing"

	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// TestLoaderMatchesOfflineLoader is the table's correctness proof: every
// token of tiktoken-go-loader's vocabulary has the same rank in the
// embedded table, and the table holds nothing else. A stale or corrupt
// table (regenerate with go generate) fails here.
func TestLoaderMatchesOfflineLoader(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"o200k_base.tiktoken", "cl100k_base.tiktoken"} {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			want, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(file)
			if err != nil {
				t.Fatalf("offline loader: %v", err)
			}
			got, err := Loader{}.LoadTiktokenBpe("https://openaipublic.blob.core.windows.net/encodings/" + file)
			if err != nil {
				t.Fatalf("Loader: %v", err)
			}
			if len(got) != len(want) {
				t.Errorf("Loader has %d tokens, offline loader %d", len(got), len(want))
			}
			bad := 0
			for tok, rank := range want {
				if g, ok := got[tok]; !ok || g != rank {
					if bad++; bad <= 5 {
						t.Errorf("token %q: rank %d (present %v), want %d", tok, g, ok, rank)
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d tokens differ", bad, len(want))
			}
			table, _ := Table(file)
			if n, err := Len(table); err != nil || n != len(want) {
				t.Errorf("Len = %d, %v; want %d", n, err, len(want))
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

// TestFillMalformed checks that a damaged table is an error, not a
// silently short vocabulary.
func TestFillMalformed(t *testing.T) {
	t.Parallel()
	rec := func(toks ...string) string {
		b := []byte(Magic)
		b = binary.AppendUvarint(b, uint64(len(toks)))
		for _, tok := range toks {
			b = binary.AppendUvarint(b, uint64(len(tok)))
			b = append(b, tok...)
		}
		return string(b)
	}
	good := rec("a", "bc", "\xff\x00")
	m := map[string]int{}
	if err := Fill(good, m); err != nil || len(m) != 3 || m["bc"] != 1 || m["\xff\x00"] != 2 {
		t.Fatalf("Fill(good) = %v, map %v", err, m)
	}
	tests := map[string]string{
		"empty":         "",
		"bad magic":     strings.Replace(good, "ranks", "RANKS", 1),
		"no count":      Magic,
		"truncated":     good[:len(good)-1],
		"trailing":      good + "x",
		"count too big": Magic + "\x05" + good[len(Magic)+1:],
		"length overflow": Magic + "\x01" +
			"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f",
	}
	for name, table := range tests {
		if err := Fill(table, map[string]int{}); err == nil {
			t.Errorf("%s: Fill = nil error, want one", name)
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
