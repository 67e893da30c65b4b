package capacity

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestNewCounterUnknownEncoding(t *testing.T) {
	t.Parallel()
	for _, enc := range []Encoding{"", "p50k_base", "O200K_BASE", "gpt-4o"} {
		_, err := NewCounter(enc)
		if code := handoff.ErrorCode(err); code != handoff.EINVALID {
			t.Errorf("NewCounter(%q): error %v (code %q), want code %q", enc, err, code, handoff.EINVALID)
		}
	}
}

func TestCounterEncoding(t *testing.T) {
	t.Parallel()
	for _, enc := range bothEncodings {
		if got := counterFor(t, enc).Encoding(); got != enc {
			t.Errorf("Encoding() = %q, want %q", got, enc)
		}
	}
}

func TestCountKnownTexts(t *testing.T) {
	t.Parallel()
	// Counts published with OpenAI's tiktoken (its README and cookbook).
	tests := []struct {
		enc  Encoding
		text string
		want int
	}{
		{O200kBase, "", 0},
		{O200kBase, "hello world", 2},
		{CL100kBase, "hello world", 2},
		{CL100kBase, "tiktoken is great!", 6},
	}
	for _, tc := range tests {
		if got := counterFor(t, tc.enc).Count(tc.text); got != tc.want {
			t.Errorf("%s Count(%q) = %d, want %d", tc.enc, tc.text, got, tc.want)
		}
	}
	// Special-token text is ordinary text: several tokens, not the one
	// special token, and no panic.
	for _, enc := range bothEncodings {
		if got := counterFor(t, enc).Count("<|endoftext|>"); got < 2 {
			t.Errorf("%s Count(<|endoftext|>) = %d, want it counted as ordinary text", enc, got)
		}
	}
}

func TestCountMessageCountsEveryPart(t *testing.T) {
	t.Parallel()
	c := counterFor(t, O200kBase)
	exit := 1
	input := json.RawMessage(`{"command":"go test ./...","description":"run the tests"}`)
	tests := []struct {
		name string
		msg  handoff.Message
		want int
	}{
		{"empty", handoff.Message{Role: handoff.RoleUser}, MessageOverhead},
		{"text", handoff.Message{Text: "Please fix the failing test."},
			MessageOverhead + c.Count("Please fix the failing test.")},
		{"thinking", handoff.Message{Thinking: "The test fails because the map is nil."},
			MessageOverhead + c.Count("The test fails because the map is nil.")},
		{"tool call", handoff.Message{ToolCalls: []handoff.ToolCall{{ID: "toolu_01", Name: "Bash", Input: input}}},
			MessageOverhead + ToolBlockOverhead + c.Count("Bash") + c.Count(string(input))},
		{"tool result", handoff.Message{ToolResults: []handoff.ToolResult{{CallID: "toolu_01", Content: "FAIL: TestX", ExitCode: &exit}}},
			MessageOverhead + ToolBlockOverhead + c.Count("FAIL: TestX")},
		{"cut tool result scales to its original size",
			handoff.Message{ToolResults: []handoff.ToolResult{{Content: strings.Repeat("line of output\n", 100), OriginalBytes: 1500 * 4}}},
			MessageOverhead + ToolBlockOverhead + c.Count(strings.Repeat("line of output\n", 100))*4},
		{"all parts", handoff.Message{
			Text: "Running the tests.", Thinking: "Check first.",
			ToolCalls:   []handoff.ToolCall{{Name: "Bash", Input: input}, {Name: "Read", Input: json.RawMessage(`{"file_path":"/a.go"}`)}},
			ToolResults: []handoff.ToolResult{{Content: "ok"}},
		}, MessageOverhead + c.Count("Running the tests.") + c.Count("Check first.") +
			2*ToolBlockOverhead + c.Count("Bash") + c.Count(string(input)) + c.Count("Read") + c.Count(`{"file_path":"/a.go"}`) +
			ToolBlockOverhead + c.Count("ok")},
	}
	for _, tc := range tests {
		if got := c.CountMessage(tc.msg); got != tc.want {
			t.Errorf("%s: CountMessage = %d, want %d", tc.name, got, tc.want)
		}
	}
	msgs := make([]handoff.Message, len(tests))
	want := 0
	for i, tc := range tests {
		msgs[i] = tc.msg
		want += tc.want
	}
	if got := c.CountMessages(msgs); got != want {
		t.Errorf("CountMessages = %d, want the sum %d", got, want)
	}
}

func TestCountMessageUsesCache(t *testing.T) {
	t.Parallel()
	c, err := NewCounter(O200kBase) // a fresh cache, not the shared counter's
	if err != nil {
		t.Fatal(err)
	}
	m := handoff.Message{Text: "a message worth caching", ToolResults: []handoff.ToolResult{{Content: "output"}}}
	first := c.CountMessage(m)
	if n := c.cache.size(); n != 1 {
		t.Fatalf("cache holds %d entries after one message, want 1", n)
	}
	// Fields the count does not read do not change the key.
	m.Index, m.ID, m.Line, m.Role = 9, "uuid-9", 42, handoff.RoleAssistant
	if again := c.CountMessage(m); again != first || c.cache.size() != 1 {
		t.Errorf("second count = %d (cache %d entries), want %d from the one cached entry", again, c.cache.size(), first)
	}
}

func TestMessageKeyDistinguishesContent(t *testing.T) {
	t.Parallel()
	c := counterFor(t, O200kBase)
	msgs := map[string]handoff.Message{
		"text":              {Text: "ab"},
		"text moved":        {Text: "a", Thinking: "b"},
		"thinking":          {Thinking: "ab"},
		"tool name":         {ToolCalls: []handoff.ToolCall{{Name: "ab"}}},
		"tool input":        {ToolCalls: []handoff.ToolCall{{Input: json.RawMessage(`"ab"`)}}},
		"two calls":         {ToolCalls: []handoff.ToolCall{{Name: "a"}, {Name: "b"}}},
		"result":            {ToolResults: []handoff.ToolResult{{Content: "ab"}}},
		"result cut":        {ToolResults: []handoff.ToolResult{{Content: "ab", OriginalBytes: 10}}},
		"call and result":   {ToolCalls: []handoff.ToolCall{{Name: "a"}}, ToolResults: []handoff.ToolResult{{Content: "b"}}},
		"empty":             {},
		"empty call":        {ToolCalls: []handoff.ToolCall{{}}},
		"empty result":      {ToolResults: []handoff.ToolResult{{}}},
		"text with newline": {Text: "a\nb"},
	}
	seen := map[uint64]string{}
	for name, m := range msgs {
		k := c.messageKey(&m)
		if other, dup := seen[k]; dup {
			t.Errorf("messages %q and %q have the same cache key", name, other)
		}
		seen[k] = name
	}
}

func TestMessageCacheIsBounded(t *testing.T) {
	t.Parallel()
	mc := newMessageCache(8)
	for k := range uint64(100) {
		mc.put(k, int(k))
		mc.get(3) // keep one key in use
	}
	if n := mc.size(); n > 8 {
		t.Errorf("cache of capacity 8 holds %d entries", n)
	}
	if v, ok := mc.get(3); !ok || v != 3 {
		t.Errorf("recently used key evicted: get(3) = %d, %v", v, ok)
	}
	if _, ok := mc.get(0); ok {
		t.Errorf("oldest unused key still cached")
	}
}

// TestCounterConcurrentUse runs Count and CountMessage from several
// goroutines on one Counter; with -race it checks the Counter's claim to be
// safe for concurrent use, and the results must match sequential ones.
func TestCounterConcurrentUse(t *testing.T) {
	t.Parallel()
	c := counterFor(t, O200kBase)
	msgs := make([]handoff.Message, 40)
	for i := range msgs {
		msgs[i] = handoff.Message{Text: fmt.Sprintf("message %d: %s", i%10, strings.Repeat("word ", i))}
	}
	want := make([]int, len(msgs))
	for i, m := range msgs {
		want[i] = c.Count(m.Text) + MessageOverhead
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8*len(msgs))
	for g := range 8 {
		wg.Go(func() {
			for i := range msgs {
				j := (i + g*5) % len(msgs)
				if got := c.CountMessage(msgs[j]); got != want[j] {
					errs <- fmt.Sprintf("goroutine %d: message %d counted %d, want %d", g, j, got, want[j])
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
