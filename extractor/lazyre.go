package extractor

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regular expression compiled on first use rather than at
// package initialisation. The extractor holds some two hundred patterns;
// compiling them all when the binary starts cost every command about
// 4 ms and 4 MB of allocation, although most commands (formats,
// --version, a hook answered from the provider's usage) never extract.
// The compiled value is built once by sync.OnceValue and never changes
// after, so a package-level lazyRegexp is immutable, safe for concurrent
// use, and matches exactly as regexp.MustCompile(pattern) would; a bad
// pattern still panics, on first use instead of at start
// (TestLazyPatternsCompile compiles every one).
type lazyRegexp struct {
	gate func() *regexGate
}

// lazyRE returns pattern's lazyRegexp. Like gated, it derives from the
// pattern the literals every match contains, and the Match and Find
// methods answer "no match" without running the regexp when the text
// holds none of them (see gatedRegexp): the answer is the regexp's own.
func lazyRE(pattern string) lazyRegexp {
	return lazyRegexp{gate: sync.OnceValue(func() *regexGate { return buildGate(pattern) })}
}

// Regexp returns the compiled regexp, compiling it on the first call.
func (l lazyRegexp) Regexp() *regexp.Regexp { return l.gate().Regexp() }

func (l lazyRegexp) String() string            { return l.gate().String() }
func (l lazyRegexp) Match(b []byte) bool       { return l.gate().Regexp().Match(b) }
func (l lazyRegexp) MatchString(s string) bool { return l.gate().MatchString(s) }

// miss returns the built gate, and nil when s cannot hold a match.
func (l lazyRegexp) miss(s string) *regexGate {
	if g := l.gate(); g.mayMatch(s) {
		return g
	}
	return nil
}

func (l lazyRegexp) FindString(s string) string {
	if g := l.miss(s); g != nil {
		return g.Regexp().FindString(s)
	}
	return ""
}
func (l lazyRegexp) FindStringIndex(s string) []int {
	if g := l.miss(s); g != nil {
		return g.Regexp().FindStringIndex(s)
	}
	return nil
}
func (l lazyRegexp) FindStringSubmatch(s string) []string {
	if g := l.miss(s); g != nil {
		return g.Regexp().FindStringSubmatch(s)
	}
	return nil
}
func (l lazyRegexp) FindStringSubmatchIndex(s string) []int {
	if g := l.miss(s); g != nil {
		return g.Regexp().FindStringSubmatchIndex(s)
	}
	return nil
}
func (l lazyRegexp) FindAllString(s string, n int) []string {
	if g := l.miss(s); g != nil {
		return g.Regexp().FindAllString(s, n)
	}
	return nil
}
func (l lazyRegexp) FindAllStringIndex(s string, n int) [][]int {
	if g := l.miss(s); g != nil {
		return g.Regexp().FindAllStringIndex(s, n)
	}
	return nil
}
func (l lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	if g := l.miss(s); g != nil {
		return g.Regexp().FindAllStringSubmatch(s, n)
	}
	return nil
}
func (l lazyRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
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

func (l lazyRegexp) ReplaceAllString(src, repl string) string {
	if g := l.miss(src); g != nil {
		return g.Regexp().ReplaceAllString(src, repl)
	}
	return src
}
func (l lazyRegexp) ReplaceAllLiteralString(src, repl string) string {
	if g := l.miss(src); g != nil {
		return g.Regexp().ReplaceAllLiteralString(src, repl)
	}
	return src
}
func (l lazyRegexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	if g := l.miss(src); g != nil {
		return g.Regexp().ReplaceAllStringFunc(src, repl)
	}
	return src
}
func (l lazyRegexp) Split(s string, n int) []string { return l.gate().Regexp().Split(s, n) }
func (l lazyRegexp) SubexpNames() []string          { return l.gate().Regexp().SubexpNames() }
func (l lazyRegexp) SubexpIndex(name string) int    { return l.gate().Regexp().SubexpIndex(name) }
func (l lazyRegexp) NumSubexp() int                 { return l.gate().Regexp().NumSubexp() }
