package transcript

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestConsoleWrappedToolLine: a Claude Code paste wraps a long command
// over indented lines ("… (ctrl+r to expand))"); the call is still one
// call with its result, not a turn of prose with an unpaired result. A
// turn of prose that opens "Word(" and goes on is still prose.
func TestConsoleWrappedToolLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		paste     string
		wantCalls []string // name: summary of each call, in order
		wantText  string   // the assistant text of the first assistant turn
	}{
		{
			name: "command wrapped over two lines",
			paste: "> commit it\n\n" +
				"⏺ Bash(cd /repo && git commit -m \"Fix systematic CI issue: align GitHub Actions with pre-commit…\n" +
				"      … (ctrl+r to expand))\n" +
				"  ⎿  [main 76e7753] Fix systematic CI issue\n" +
				"      1 file changed, 1 insertion(+)\n",
			wantCalls: []string{`Bash: cd /repo && git commit -m "Fix systematic CI issue: align GitHub Actions with pre-commit… … (ctrl+r to expand)`},
		},
		{
			name:      "one-line call",
			paste:     "> list\n\n⏺ Bash(ls)\n  ⎿  a.go\n",
			wantCalls: []string{"Bash: ls"},
		},
		{
			name:     "prose that opens with a parenthesis",
			paste:    "> why\n\n⏺ Because(of the cache) the build\n  was slow.\n",
			wantText: "Because(of the cache) the build\nwas slow.",
		},
		{
			name:     "an unclosed parenthesis with no result after it",
			paste:    "> why\n\n⏺ Note(see below\n    the end)\n\n> ok\n",
			wantText: "Note(see below\n  the end)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Parse(context.Background(), strings.NewReader(tt.paste), Options{Format: FormatClaudeConsole})
			if err != nil {
				t.Fatal(err)
			}
			var calls []string
			text := ""
			results := 0
			for _, m := range tr.Messages {
				for _, c := range m.ToolCalls {
					var in struct{ Summary string }
					if err := json.Unmarshal(c.Input, &in); err != nil {
						t.Fatal(err)
					}
					calls = append(calls, c.Name+": "+in.Summary)
				}
				results += len(m.ToolResults)
				if m.Role == "assistant" && text == "" {
					text = m.Text
				}
			}
			if strings.Join(calls, "\n") != strings.Join(tt.wantCalls, "\n") {
				t.Errorf("calls = %q, want %q", calls, tt.wantCalls)
			}
			if len(tt.wantCalls) > 0 && results != len(tt.wantCalls) {
				t.Errorf("%d results, want one per call", results)
			}
			if tt.wantText != "" && text != tt.wantText {
				t.Errorf("assistant text = %q, want %q", text, tt.wantText)
			}
		})
	}
}

// TestConsoleSoftWrap: a terminal paste wraps long lines at the
// terminal's width; a wrapped line goes on the line before it (the break
// left a space at that line's end, or a lower-case word indented one
// column deeper), while the person's own line breaks, list items and
// short lines stay.
func TestConsoleSoftWrap(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 16) // 80 columns
	tests := []struct {
		name   string
		format Format
		paste  string
		want   string
	}{
		{"break after a space", FormatClaudeConsole,
			"> " + long + "and we don't need to clutter the \n  console with that.\n",
			long + "and we don't need to clutter the console with that."},
		{"break before a lower-case word", FormatClaudeConsole,
			"> " + long + "(this would mean they\n   can't use it?). I made a user\n",
			long + "(this would mean they can't use it?). I made a user"},
		{"the person's own line break", FormatClaudeConsole,
			"> Two things:\n  fix the test\n",
			"Two things:\nfix the test"},
		{"a list item under a long line", FormatClaudeConsole,
			"> " + long + "these:\n   2. Then the second\n",
			long + "these:\n 2. Then the second"},
		{"gemini paste", FormatGeminiConsole,
			"> " + long + "keep the \n  segments grouped.\n",
			long + "keep the segments grouped."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Parse(context.Background(), strings.NewReader(tt.paste), Options{Format: tt.format})
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Messages) == 0 || tr.Messages[0].Text != tt.want {
				t.Errorf("messages = %+v, want the first one's text %q", tr.Messages, tt.want)
			}
		})
	}
}

// TestGeminiNumberedCode: Gemini CLI prints a code block with a number
// before each line; the block is read back as fenced code, numbers out
// and a wrapped line whole, so that it is not taken for the assistant's
// prose, while a numbered list of the assistant's own stays prose.
func TestGeminiNumberedCode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, paste, want string
	}{
		{"a commit message", "> commit it\n✦ Here is the message:\n\n    1 feat(docs): add screenshots\n    2 \n    3 Adds the screenshots of the UI, with a line long enough that the\n      terminal wrapped it.\n   10 not the next number\n",
			"Here is the message:\n\n```\nfeat(docs): add screenshots\n\nAdds the screenshots of the UI, with a line long enough that the terminal wrapped it.\n```\n 10 not the next number"},
		{"a list of the assistant's", "> plan?\n✦ Two steps:\n  1. read the file\n  2. fix the parser\n",
			"Two steps:\n1. read the file\n2. fix the parser"},
		{"one numbered line is no block", "> why?\n✦ Because:\n    1 reason only\n",
			"Because:\n  1 reason only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := Parse(context.Background(), strings.NewReader(tt.paste), Options{Format: FormatGeminiConsole})
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Messages) < 2 || tr.Messages[1].Text != tt.want {
				t.Errorf("messages = %+v\nwant the assistant's text %q", tr.Messages, tt.want)
			}
		})
	}
}
