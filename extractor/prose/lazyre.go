package prose

import (
	"regexp"
	"sync"
)

// LazyRegexp is a regular expression compiled on first use rather than at
// package initialisation. The extractor holds some two hundred patterns;
// compiling them all when the binary starts cost every command about
// 4 ms and 4 MB of allocation, although most commands (formats,
// --version, a hook answered from the provider's usage) never extract.
// The compiled value is built once by sync.OnceValue and never changes
// after, so a package-level lazyRegexp is immutable, safe for concurrent
// use, and matches exactly as regexp.MustCompile(pattern) would; a bad
// pattern still panics, on first use instead of at start
// (TestLazyPatternsCompile compiles every one).
type LazyRegexp struct {
	gate func() *RegexGate
}

// LazyRE returns pattern's lazyRegexp. Like gated, it derives from the
// pattern the literals every match contains, and the Match and Find
// methods answer "no match" without running the regexp when the text
// holds none of them (see gatedRegexp): the answer is the regexp's own.
func LazyRE(pattern string) LazyRegexp {
	return LazyRegexp{gate: sync.OnceValue(func() *RegexGate { return BuildGate(pattern) })}
}

// Regexp returns the compiled regexp, compiling it on the first call.
func (l LazyRegexp) Regexp() *regexp.Regexp { return l.gate().Regexp() }

func (l LazyRegexp) String() string            { return l.gate().String() }
func (l LazyRegexp) Match(b []byte) bool       { return l.gate().Regexp().Match(b) }
func (l LazyRegexp) MatchString(s string) bool { return l.gate().MatchString(s) }

// miss returns the built gate, and nil when s cannot hold a match.
func (l LazyRegexp) miss(s string) *RegexGate {
	if g := l.gate(); g.MayMatch(s) {
		return g
	}
	return nil
}

func (l LazyRegexp) FindString(s string) string {
	if g := l.miss(s); g != nil {
		return g.Regexp().FindString(s)
	}
	return ""
}
func (l LazyRegexp) FindStringIndex(s string) []int {
	if g := l.miss(s); g != nil {
		return g.Regexp().FindStringIndex(s)
	}
	return nil
}
func (l LazyRegexp) FindStringSubmatch(s string) []string {
	if g := l.miss(s); g != nil {
		return g.Regexp().FindStringSubmatch(s)
	}
	return nil
}
func (l LazyRegexp) FindStringSubmatchIndex(s string) []int {
	if g := l.miss(s); g != nil {
		return g.Regexp().FindStringSubmatchIndex(s)
	}
	return nil
}
func (l LazyRegexp) FindAllString(s string, n int) []string {
	if g := l.miss(s); g != nil {
		return g.Regexp().FindAllString(s, n)
	}
	return nil
}
func (l LazyRegexp) FindAllStringIndex(s string, n int) [][]int {
	if g := l.miss(s); g != nil {
		return g.Regexp().FindAllStringIndex(s, n)
	}
	return nil
}
func (l LazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	if g := l.miss(s); g != nil {
		return g.Regexp().FindAllStringSubmatch(s, n)
	}
	return nil
}
func (l LazyRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if g := l.miss(s); g != nil {
		return g.Regexp().FindAllStringSubmatchIndex(s, n)
	}
	return nil
}

// The replacing methods return src itself when the gate is closed: with
// no match there is nothing to replace, which is what the regexp would
// return too, without its scan of the whole text (failingLine strips
// tool_use_error tags from every failed output, which rarely has one).
// Split is the regexp's own, ungated.

func (l LazyRegexp) ReplaceAllString(src, repl string) string {
	if g := l.miss(src); g != nil {
		return g.Regexp().ReplaceAllString(src, repl)
	}
	return src
}
func (l LazyRegexp) ReplaceAllLiteralString(src, repl string) string {
	if g := l.miss(src); g != nil {
		return g.Regexp().ReplaceAllLiteralString(src, repl)
	}
	return src
}
func (l LazyRegexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	if g := l.miss(src); g != nil {
		return g.Regexp().ReplaceAllStringFunc(src, repl)
	}
	return src
}
func (l LazyRegexp) Split(s string, n int) []string { return l.gate().Regexp().Split(s, n) }
func (l LazyRegexp) SubexpNames() []string          { return l.gate().Regexp().SubexpNames() }
func (l LazyRegexp) SubexpIndex(name string) int    { return l.gate().Regexp().SubexpIndex(name) }
func (l LazyRegexp) NumSubexp() int                 { return l.gate().Regexp().NumSubexp() }
