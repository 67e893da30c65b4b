package lazyre

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestRegexpMatchesLikeMustCompile(t *testing.T) {
	t.Parallel()
	tests := []struct{ pattern, text string }{
		{`(?m)^error: (\w+)$`, "ok\nerror: disk\nerror: net"},
		{`\d+`, "no digits"},
		{`(?i)fail(ed)?`, "FAILED then failed"},
	}
	for _, tt := range tests {
		l, re := New(tt.pattern), regexp.MustCompile(tt.pattern)
		if got, want := l.MatchString(tt.text), re.MatchString(tt.text); got != want {
			t.Errorf("%s: MatchString = %v, want %v", tt.pattern, got, want)
		}
		if got, want := l.FindAllStringSubmatch(tt.text, -1), re.FindAllStringSubmatch(tt.text, -1); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("%s: FindAllStringSubmatch = %q, want %q", tt.pattern, got, want)
		}
		if got, want := l.ReplaceAllStringFunc(tt.text, strings.ToUpper), re.ReplaceAllStringFunc(tt.text, strings.ToUpper); got != want {
			t.Errorf("%s: ReplaceAllStringFunc = %q, want %q", tt.pattern, got, want)
		}
		if got, want := l.ReplaceAllString(tt.text, "<$0>"), re.ReplaceAllString(tt.text, "<$0>"); got != want {
			t.Errorf("%s: ReplaceAllString = %q, want %q", tt.pattern, got, want)
		}
		if l.Regexp().String() != tt.pattern {
			t.Errorf("Regexp() = %q, want %q", l.Regexp(), tt.pattern)
		}
	}
}

func TestSources(t *testing.T) {
	t.Parallel()
	got, dynamic, err := Sources("testdata/src", map[string]int{"lazyRE": 1, "screened": 2, "lazyre.New": 1})
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, p := range got {
		patterns = append(patterns, p.Pattern)
	}
	if want := []string{`a+b`, `x|yz`, `\d`, `q+`}; !slices.Equal(patterns, want) {
		t.Errorf("patterns = %q, want %q", patterns, want)
	}
	if len(dynamic) != 1 || dynamic[0].Line != 10 {
		t.Errorf("non-constant calls at %v, want one at line 10", dynamic)
	}
	if _, _, err := Sources("testdata/missing", map[string]int{"lazyRE": 1}); err != nil {
		t.Errorf("a directory with no Go files: %v, want no error", err)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	n, errs := Check("testdata/src", map[string]int{"lazyRE": 1, "bad": 1})
	if n != 3 {
		t.Errorf("found %d patterns, want 3", n)
	}
	// The run-time pattern at line 10 and the bad one at line 3 of bad.go.
	if len(errs) != 2 {
		t.Errorf("errors %v, want two", errs)
	}
}
