package conversation

import (
	"slices"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff/extractor/internal/sessiontest"
)

// TestKeyLines: the lines of the last reports that carry a verdict, a next
// step, a name or a figure are kept, best first; narration, praise, lines
// of the last message and of reports beyond the newest few are not.
func TestKeyLines(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat("Some narration about the work that carries nothing a successor needs. ", 6)
	c := sessiontest.NewConvo(t)
	c.User("build the GPU path and benchmark it")
	c.Say("Oldest report.\n- `old.c` compiles cleanly\n" + pad)
	c.Say("Report three.\n- ❌ `three.c` fails: 12 errors\n- `three.h` builds\n" + pad)
	c.Say("Report two.\n- `two.c` builds\n" + pad)
	c.Say("## Findings\n- ❌ GPU convolution: NOT IMPLEMENTED, `vsla_gpu_conv_fft()` returns an error\n- Matrix multiplication: 3.54× vs cuBLAS\n- 🎯 Next: implement the convolution in `src/vsla_gpu.cu`\n- Great work overall, this was fun.\n- Option 1: leave it failing\n" + pad)
	c.Say("Done! 🎯 Next: implement the convolution in `src/vsla_gpu.cu`")
	got, found := KeyLines(c.Msgs, len(c.Msgs)-1, c.Msgs[0].Ref())
	var texts, earlier []string
	for _, k := range found {
		earlier = append(earlier, k.Text)
	}
	for _, k := range got {
		texts = append(texts, k.Text)
	}
	all := strings.Join(texts, "\n")
	if want := "`old.c` compiles cleanly"; !slices.Contains(earlier, want) {
		t.Errorf("earlier findings = %q, want %q from the fourth report", earlier, want)
	}
	for _, want := range []string{"NOT IMPLEMENTED", "3.54×", "`two.c` builds", "`three.c` fails"} {
		if !strings.Contains(all, want) {
			t.Errorf("key lines lack %q:\n%s", want, all)
		}
	}
	for _, not := range []string{"Great work", "narration", "Option 1", "`old.c`", "`three.h`", "src/vsla_gpu.cu"} {
		if strings.Contains(all, not) {
			t.Errorf("key lines hold %q (narration, a fourth report, a weak line of an older one, or a line the last message shows):\n%s", not, all)
		}
	}
	if len(got) > 0 && !strings.Contains(got[0].Text, "NOT IMPLEMENTED") {
		t.Errorf("best line = %q, want the failure with its name", got[0].Text)
	}
}
