package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

// TestClipJSONString checks the streaming clipper against the plain way
// (unmarshal, then clipOutput) on strings with escapes, multi-byte runes
// and surrogate pairs at every cut position.
func TestClipJSONString(t *testing.T) {
	t.Parallel()
	texts := []string{
		"",
		"short",
		strings.Repeat("abc", 50),
		strings.Repeat("é€😀x", 40),
		"line1\nline2\t\"quoted\" \\ back\u0001slash " + strings.Repeat("ü", 30),
		strings.Repeat("\u2028\u00e9", 33),
	}
	raws := []string{`"\ud83d\ude00\ud83d"`, `"\ud800x\udc00 lone surrogates ` + strings.Repeat("z", 40) + `"`, `"\/slash\b\f\r"`}
	for _, s := range texts {
		b, _ := json.Marshal(s)
		raws = append(raws, string(b))
		// the same with every non-ASCII rune escaped
		var esc strings.Builder
		esc.WriteByte('"')
		for _, r := range s {
			if r < 0x80 && r >= 0x20 && r != '"' && r != '\\' {
				esc.WriteRune(r)
				continue
			}
			r1, r2 := r, rune(0)
			if r > 0xFFFF {
				r -= 0x10000
				r1, r2 = 0xD800+(r>>10), 0xDC00+(r&0x3FF)
			}
			esc.WriteString(`\u` + hex(r1))
			if r2 != 0 {
				esc.WriteString(`\u` + hex(r2))
			}
		}
		esc.WriteByte('"')
		raws = append(raws, esc.String())
	}
	for _, raw := range raws {
		var want string
		if err := json.Unmarshal([]byte(raw), &want); err != nil {
			t.Fatalf("bad test literal %s: %v", raw, err)
		}
		for limit := 1; limit <= len(want)+2; limit++ {
			d := &Decoder{opts: Options{MaxToolOutputBytes: limit}}
			wantS, wantN := d.clipOutput(want)
			got, n, err := clipJSONString([]byte(raw), limit)
			if err != nil || got != wantS || n != wantN {
				t.Fatalf("limit %d, %s:\ngot  %q, %d, %v\nwant %q, %d", limit, raw, got, n, err, wantS, wantN)
			}
		}
	}
	// Texts past the head and the redaction overlap go through the tail
	// ring, where runs of plain ASCII are copied whole and wrap it.
	long := strings.Repeat("plain ascii run of text \"q\" é€😀\n", 700) + strings.Repeat("x", 9000)
	longRaw, _ := json.Marshal(long)
	var want string
	if err := json.Unmarshal(longRaw, &want); err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{1, 2, 100, 4095, 4096, 8191, 8193, 12000, 20001, len(want) - 9000, len(want) - 1, len(want), len(want) + 1} {
		d := &Decoder{opts: Options{MaxToolOutputBytes: limit}}
		wantS, wantN := d.clipOutput(want)
		got, n, err := clipJSONString(longRaw, limit)
		if err != nil || got != wantS || n != wantN {
			t.Fatalf("long text, limit %d: got %d bytes, %d, %v; want %d bytes, %d", limit, len(got), n, err, len(wantS), wantN)
		}
	}
	for _, bad := range []string{`"abc`, `"a\x"`, `"a\u12"`, "\"a\x01\"", `"a"b"`} {
		if _, _, err := clipJSONString([]byte(bad), 4); err == nil {
			t.Errorf("clipJSONString(%q) accepted", bad)
		}
	}
}

func hex(r rune) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[r>>12&15], digits[r>>8&15], digits[r>>4&15], digits[r&15]})
}

// TestToolResultsResolvedPerBlock checks that tool results decoded as
// slices of the line (rawJSON) each keep their own content when one line
// holds several, short and long, escaped and not.
func TestToolResultsResolvedPerBlock(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("a\\n", 40000)
	line := `{"type":"user","sessionId":"s","uuid":"u","message":{"role":"user","content":[` +
		`{"type":"tool_result","tool_use_id":"t1","content":"first"},` +
		`{"type":"tool_result","tool_use_id":"t2","content":"` + big + `"},` +
		`{"type":"tool_result","tool_use_id":"t3","content":[{"type":"text","text":"third"}]},` +
		`{"type":"tool_result","tool_use_id":"t4","content":"fourth \u00e9"}]}}`
	tr, err := Parse(context.Background(), strings.NewReader(line+"\n"), Options{Strict: true, MaxToolOutputBytes: 100})
	if err != nil {
		t.Fatal(err)
	}
	res := tr.Messages[0].ToolResults
	if len(res) != 4 || res[0].Content != "first" || res[2].Content != "third" || res[3].Content != "fourth é" {
		t.Fatalf("results = %+v", res)
	}
	if res[1].OriginalBytes != 80000 || !strings.HasPrefix(res[1].Content, "a\na\n") || !strings.HasSuffix(res[1].Content, "a\na\n") {
		t.Errorf("long result: %d original, %q", res[1].OriginalBytes, res[1].Content)
	}
}

// FuzzClipJSONString checks the streaming clipper against the plain way
// (json.Unmarshal, then clipOutput) on any literal encoding/json accepts,
// bytes that are not UTF-8 included, and that it rejects what it rejects.
func FuzzClipJSONString(f *testing.F) {
	for _, s := range []string{`"abc"`, `"a\nb\tc"`, `"\ud83d\ude00x"`, "\"\xff\xfe\\n\"", `"\u0041` + strings.Repeat("é", 20) + `"`} {
		f.Add([]byte(s), 8)
	}
	f.Fuzz(func(t *testing.T, raw []byte, limit int) {
		limit = limit%200 + 1
		if limit < 1 {
			limit = -limit + 1
		}
		raw = bytes.TrimSpace(raw) // as toolText hands it over
		var want string
		wantErr := json.Unmarshal(raw, &want)
		got, n, err := clipJSONString(raw, limit)
		if wantErr != nil {
			if err == nil && len(raw) > 0 && raw[0] == '"' && raw[len(raw)-1] == '"' && len(raw) >= 2 {
				// Both quotes and nothing else to reject: encoding/json
				// refuses for a reason the clipper must share.
				t.Fatalf("clipJSONString(%q) accepted what encoding/json rejects: %v", raw, wantErr)
			}
			return
		}
		if err != nil {
			t.Fatalf("clipJSONString(%q, %d): %v", raw, limit, err)
		}
		d := &Decoder{opts: Options{MaxToolOutputBytes: limit}}
		wantS, wantN := d.clipOutput(want)
		if got != wantS || n != wantN {
			t.Fatalf("limit %d, %q:\ngot  %q, %d\nwant %q, %d", limit, raw, got, n, wantS, wantN)
		}
	})
}

// TestClipJSONStringAllocatesByLiteral guards the allocation that made
// short escaped tool results cost 40 KiB each: what clipJSONString
// allocates follows the literal's size, not the output limit.
func TestClipJSONStringAllocatesByLiteral(t *testing.T) {
	lit, _ := json.Marshal(strings.Repeat("ok\tline\n", 25)) // 200 bytes, escaped
	const calls = 200
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range calls {
		if _, _, err := clipJSONString(lit, DefaultMaxToolOutputBytes); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / calls; per > 4*uint64(len(lit)) {
		t.Errorf("clipJSONString of a %d-byte literal allocates %d bytes per call, want at most %d", len(lit), per, 4*len(lit))
	}
}
