package transcript

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff/redact"
)

// secretShape is a realistic secret in the context it is usually found
// in: text is what the tool printed, body the part that must never be
// kept (text minus its recognisable prefix).
type secretShape struct {
	name, text, body string
}

func secretShapes() []secretShape {
	rng := rand.New(rand.NewPCG(12, 15))
	str := func(charset string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = charset[rng.IntN(len(charset))]
		}
		return string(b)
	}
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	const b64 = alnum + "+/"
	const b64url = alnum + "-_"
	ghp := str(alnum, 36)
	akia, awsSecret := str("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16), str(b64, 40)
	var pem strings.Builder
	for range 25 {
		pem.WriteString(str(b64, 64) + "\n")
	}
	jwtPayload, jwtSig := str(b64url, 120), str(b64url, 43)
	return []secretShape{
		{"github", "token: ghp_" + ghp + "\n", ghp},
		{"aws", "export AWS_ACCESS_KEY_ID=AKIA" + akia + "\nexport AWS_SECRET_ACCESS_KEY=" + awsSecret + "\n", akia + "\n" + awsSecret},
		{"pem", "-----BEGIN RSA PRIVATE KEY-----\n" + pem.String() + "-----END RSA PRIVATE KEY-----\n", pem.String()},
		{"jwt", "Authorization: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + jwtPayload + "." + jwtSig + "\n", jwtPayload + "." + jwtSig},
	}
}

// leaked returns a 12-byte fragment of body (outside its line breaks)
// that out still holds, or "".
func leaked(out, body string) string {
	for _, part := range strings.Split(body, "\n") {
		for i := 0; i+12 <= len(part); i++ {
			if strings.Contains(out, part[i:i+12]) {
				return part[i : i+12]
			}
		}
	}
	return ""
}

// TestClipNeverLeaksAcrossTheCut places each secret so that the head cut
// or the tail cut falls at every offset within ±64 bytes of the secret's
// start and of its end, clips the text both ways tool output is clipped
// (clipOutput on a string, clipJSONString on the JSON literal, which
// takes the ring path), and checks that no fragment of the secret's body
// is kept. Clipping before redaction failed this: a cut through "ghp_" or
// "-----BEGIN" left a body the redactor could no longer recognise.
func TestClipNeverLeaksAcrossTheCut(t *testing.T) {
	t.Parallel()
	const limit = 2048
	filler := strings.Repeat("compiling module ... ok\n", 700) // ~17 KB, over limit+2·overlap
	step := 1
	if raceEnabled {
		step = 9
	}
	for _, sh := range secretShapes() {
		if got := redact.String(sh.text); leaked(got, sh.body) != "" {
			t.Fatalf("%s: the redactor does not recognise the whole shape: %q", sh.name, got)
		}
		t.Run(sh.name, func(t *testing.T) {
			t.Parallel()
			d := &Decoder{opts: Options{MaxToolOutputBytes: limit}}
			var starts []int
			for _, cut := range []int{limit / 2, len(filler) + len(sh.text) - limit/2} {
				for delta := -64; delta <= 64; delta += step {
					starts = append(starts, cut+delta, cut+delta-len(sh.text))
				}
			}
			for _, at := range starts {
				if at < 0 || at > len(filler) {
					continue
				}
				// The secret starts a line, as the redactor needs a word
				// start; what varies is where the cut falls in it.
				prefix := filler[:at]
				if at > 0 {
					prefix = prefix[:at-1] + "\n"
				}
				text := prefix + sh.text + filler[at:]
				out, n := d.clipOutput(text)
				if n != len(text) {
					t.Fatalf("secret at %d: original %d, want %d", at, n, len(text))
				}
				if frag := leaked(out, sh.body); frag != "" {
					t.Fatalf("clipOutput, secret at %d of %d: %q survived", at, len(text), frag)
				}
				lit, _ := json.Marshal(text)
				jout, jn, err := clipJSONString(lit, limit)
				if err != nil || jn != len(text) {
					t.Fatalf("clipJSONString, secret at %d: %d, %v", at, jn, err)
				}
				if jout != out {
					t.Fatalf("secret at %d: the streaming clip differs from clipOutput:\n%q\n%q", at, jout, out)
				}
			}
		})
	}
}

// TestClipKeepsSizesAndCounts checks the clipped form of text without
// secrets: the head and tail have the sizes the limit gives and the marker
// counts the bytes left out, on both paths.
func TestClipKeepsSizesAndCounts(t *testing.T) {
	t.Parallel()
	for _, size := range []int{3000, 9000, 20000} {
		text := strings.Repeat("héllo wörld ", size/13+1)[:size]
		text = strings.ToValidUTF8(text, "")
		for _, limit := range []int{100, 1000, 2049} {
			d := &Decoder{opts: Options{MaxToolOutputBytes: limit}}
			out, n := d.clipOutput(text)
			if n != len(text) {
				t.Fatalf("size %d limit %d: original %d", size, limit, n)
			}
			i := strings.Index(out, "\n[… ")
			j := strings.Index(out, " bytes elided …]\n")
			if i < 0 || j < 0 {
				t.Fatalf("no marker in %q", out)
			}
			head, tail := out[:i], out[j+len(" bytes elided …]\n"):]
			if !strings.HasPrefix(text, head) || !strings.HasSuffix(text, tail) {
				t.Fatalf("size %d limit %d: head or tail is not the text's", size, limit)
			}
			if len(head) > limit/2 || len(head) < limit/2-3 || len(tail) > limit-limit/2 || len(tail) < limit-limit/2-3 {
				t.Errorf("size %d limit %d: head %d, tail %d bytes", size, limit, len(head), len(tail))
			}
			var elided int
			if _, err := fmt.Sscan(out[i+len("\n[… "):j], &elided); err != nil || elided != len(text)-len(head)-len(tail) {
				t.Errorf("size %d limit %d: marker says %d elided, want %d", size, limit, elided, len(text)-len(head)-len(tail))
			}
			lit, _ := json.Marshal(text)
			if got, gn, err := clipJSONString(lit, limit); err != nil || got != out || gn != n {
				t.Errorf("size %d limit %d: clipJSONString differs from clipOutput", size, limit)
			}
		}
	}
}
