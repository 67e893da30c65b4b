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
// pattern still panics, on first use instead of at start (every pattern
// is used by the package's tests).
type lazyRegexp struct {
	re func() *regexp.Regexp
}

// lazyRE returns pattern's lazyRegexp.
func lazyRE(pattern string) lazyRegexp {
	return lazyRegexp{re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })}
}

// Regexp returns the compiled regexp, compiling it on the first call.
func (l lazyRegexp) Regexp() *regexp.Regexp { return l.re() }

func (l lazyRegexp) String() string                 { return l.re().String() }
func (l lazyRegexp) Match(b []byte) bool            { return l.re().Match(b) }
func (l lazyRegexp) MatchString(s string) bool      { return l.re().MatchString(s) }
func (l lazyRegexp) FindString(s string) string     { return l.re().FindString(s) }
func (l lazyRegexp) FindStringIndex(s string) []int { return l.re().FindStringIndex(s) }
func (l lazyRegexp) FindStringSubmatch(s string) []string {
	return l.re().FindStringSubmatch(s)
}
func (l lazyRegexp) FindStringSubmatchIndex(s string) []int {
	return l.re().FindStringSubmatchIndex(s)
}
func (l lazyRegexp) FindAllString(s string, n int) []string {
	return l.re().FindAllString(s, n)
}
func (l lazyRegexp) FindAllStringIndex(s string, n int) [][]int {
	return l.re().FindAllStringIndex(s, n)
}
func (l lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.re().FindAllStringSubmatch(s, n)
}
func (l lazyRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.re().FindAllStringSubmatchIndex(s, n)
}
func (l lazyRegexp) ReplaceAllString(src, repl string) string {
	return l.re().ReplaceAllString(src, repl)
}
func (l lazyRegexp) ReplaceAllLiteralString(src, repl string) string {
	return l.re().ReplaceAllLiteralString(src, repl)
}
func (l lazyRegexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return l.re().ReplaceAllStringFunc(src, repl)
}
func (l lazyRegexp) Split(s string, n int) []string { return l.re().Split(s, n) }
func (l lazyRegexp) SubexpNames() []string          { return l.re().SubexpNames() }
func (l lazyRegexp) SubexpIndex(name string) int    { return l.re().SubexpIndex(name) }
func (l lazyRegexp) NumSubexp() int                 { return l.re().NumSubexp() }
