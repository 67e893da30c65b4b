package transcript

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// validSeeds are the edge cases of the JSON grammar validJSON must decide
// as json.Valid does.
var validSeeds = []string{
	``, ` `, `{}`, `[]`, ` {"a":1} `, `{"a":1}x`, `{"a":1,}`, `[1,]`, `[,1]`, `{"a"}`, `{"a" 1}`, `{a:1}`,
	`"x"`, `"x`, `"\"`, `"\\"`, `"\/\b\f\n\r\t"`, `"\u00e9"`, `"\u00G9"`, `"\u00e"`, `"\x"`, "\"a\x01b\"", "\"a\x7fb\"",
	"\"\xff\xfe\"", "\"é\"", `0`, `-0`, `01`, `-`, `1.`, `1.5`, `.5`, `1e5`, `1E+5`, `1e-`, `1e`, `-1.5e-3`, `+1`,
	`true`, `tru`, `truex`, `false`, `null`, `nul`, `NaN`, `[true,false,null]`, "{\"a\":\n\t[1 , 2]\r}",
	`{"a":{"b":[{"c":"d"}]}}`, `{"a":{"b":[{"c":"d"}]}`, `]`, `}`, `[}`, `{]`, "\x00", `[1 2]`, `{"a":1 "b":2}`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000),
	strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
}

func TestValidJSONMatchesEncodingJSON(t *testing.T) {
	if testing.Short() {
		t.Skip("long sweep: the full run (go test ./...) covers it, -short skips it")
	}
	t.Parallel()
	for _, s := range validSeeds {
		if got, want := validJSON([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("validJSON(%.60q) = %v, json.Valid says %v", s, got, want)
		}
	}
	// Every line of the shared corpus, and each cut short.
	files, _ := filepath.Glob(filepath.Join(sharedDir, "*", "*.jsonl"))
	if len(files) == 0 {
		t.Skip("../shared/transcripts not present")
	}
	lines := 0
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			l := sc.Bytes()
			lines++
			if raceEnabled && lines%8 != 0 {
				continue // every 8th line under -race; the plain run checks all (see raceEnabled)
			}
			for _, b := range [][]byte{l, l[:len(l)/2], l[:max(len(l)-1, 0)]} {
				if got, want := validJSON(b), json.Valid(b); got != want {
					t.Errorf("%s: validJSON(%.80q) = %v, json.Valid says %v", filepath.Base(f), b, got, want)
				}
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	if lines < 1000 {
		t.Errorf("read %d corpus lines; expected thousands", lines)
	}
}

func FuzzValidJSON(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := validJSON(b), json.Valid(b); got != want {
			t.Errorf("validJSON(%q) = %v, json.Valid says %v", b, got, want)
		}
	})
}

func BenchmarkValidJSON(b *testing.B) {
	data := largestShared(b, "claude-code")
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	raw := make([][]byte, len(lines))
	for i, l := range lines {
		raw[i] = []byte(l)
	}
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			for _, l := range raw {
				json.Valid(l)
			}
		}
	})
	b.Run("validJSON", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			for _, l := range raw {
				validJSON(l)
			}
		}
	})
}
