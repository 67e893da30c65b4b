package follow

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzFollowChunks writes data to a file in chunks of every size and
// checks that the follower hands out exactly the complete lines of data,
// in order, whatever the chunking: no partial line early, none lost.
func FuzzFollowChunks(f *testing.F) {
	f.Add([]byte("a\nbb\n\nccc"), uint8(3))
	f.Add([]byte("{\"type\":\"user\"}\r\n{\"type\":\"assistant\"}\n"), uint8(1))
	f.Add([]byte("no newline at all"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(path, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		fl, err := Open(path, Options{NoNotify: true, MaxLineBytes: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		defer fl.Close()
		w, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()

		var got [][]byte
		var offsets []int64
		n := int(step)%16 + 1
		for i := 0; i < len(data); i += n {
			if _, err := w.Write(data[i:min(i+n, len(data))]); err != nil {
				t.Fatal(err)
			}
			for {
				more, err := fl.poll()
				if err != nil {
					t.Fatal(err)
				}
				if !more {
					break
				}
				for _, ev := range fl.queue {
					if ev.Kind != Line {
						t.Fatalf("unexpected %v event", ev.Kind)
					}
					got = append(got, ev.Data)
					offsets = append(offsets, ev.Offset)
				}
				fl.queue = fl.queue[:0]
			}
		}

		var want [][]byte
		var wantOffsets []int64
		rest, at := data, int64(0)
		for {
			i := bytes.IndexByte(rest, '\n')
			if i < 0 {
				break
			}
			want = append(want, bytes.TrimSuffix(rest[:i], []byte("\r")))
			wantOffsets = append(wantOffsets, at)
			rest, at = rest[i+1:], at+int64(i)+1
		}
		if len(got) != len(want) {
			t.Fatalf("got %d lines, want %d", len(got), len(want))
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) || offsets[i] != wantOffsets[i] {
				t.Fatalf("line %d: %q at %d, want %q at %d", i, got[i], offsets[i], want[i], wantOffsets[i])
			}
		}
		if fl.Offset() != int64(len(data)) {
			t.Errorf("offset %d, want %d", fl.Offset(), len(data))
		}
	})
}
