package transcript

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regular expression compiled on first use, not at
// package initialisation: a command that reads no transcript, or only
// one format, no longer compiles every format's patterns when the binary
// starts (about 0.5 ms and 0.3 MB before each command). The compiled
// value comes from sync.OnceValue and never changes after, so a
// package-level lazyRegexp is immutable and safe for concurrent use; it
// matches exactly as regexp.MustCompile(pattern) would, and a bad pattern
// still panics, on first use (TestLazyPatternsCompile compiles each one).
type lazyRegexp struct {
	re func() *regexp.Regexp
}

// lazyRE returns pattern's lazyRegexp.
func lazyRE(pattern string) lazyRegexp {
	return lazyRegexp{re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })}
}

func (l lazyRegexp) MatchString(s string) bool { return l.re().MatchString(s) }
func (l lazyRegexp) Match(b []byte) bool       { return l.re().Match(b) }
func (l lazyRegexp) FindString(s string) string {
	return l.re().FindString(s)
}
func (l lazyRegexp) FindStringIndex(s string) []int { return l.re().FindStringIndex(s) }
func (l lazyRegexp) FindStringSubmatch(s string) []string {
	return l.re().FindStringSubmatch(s)
}
func (l lazyRegexp) FindStringSubmatchIndex(s string) []int {
	return l.re().FindStringSubmatchIndex(s)
}
func (l lazyRegexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.re().FindAllStringSubmatch(s, n)
}
func (l lazyRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.re().FindAllStringSubmatchIndex(s, n)
}
func (l lazyRegexp) FindAllStringIndex(s string, n int) [][]int {
	return l.re().FindAllStringIndex(s, n)
}
func (l lazyRegexp) FindAllString(s string, n int) []string {
	return l.re().FindAllString(s, n)
}
func (l lazyRegexp) ReplaceAllString(src, repl string) string {
	return l.re().ReplaceAllString(src, repl)
}
