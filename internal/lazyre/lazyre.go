// Package lazyre holds a regular expression compiled on first use, not at
// package initialisation, and the source scan that lets a package's tests
// compile every such pattern it declares.
//
// A command that reads no transcript, or only one format, no longer
// compiles every pattern when the binary starts (about 0.5 ms and 0.3 MB
// per package before each command). The extractor wraps the same idea in
// a literal gate of its own (extractor/prefilter.go); this is the plain
// form the transcript parsers use.
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use. The compiled value
// comes from sync.OnceValue and never changes after, so a package-level
// Regexp is immutable and safe for concurrent use; it matches exactly as
// regexp.MustCompile(pattern) would, and a bad pattern still panics, on
// first use (Sources lets a test compile each one).
type Regexp struct {
	re func() *regexp.Regexp
}

// New returns pattern's Regexp.
func New(pattern string) Regexp {
	return Regexp{re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })}
}

// Regexp returns the compiled regexp, compiling it on the first call.
func (l Regexp) Regexp() *regexp.Regexp { return l.re() }

func (l Regexp) MatchString(s string) bool      { return l.re().MatchString(s) }
func (l Regexp) Match(b []byte) bool            { return l.re().Match(b) }
func (l Regexp) FindString(s string) string     { return l.re().FindString(s) }
func (l Regexp) FindStringIndex(s string) []int { return l.re().FindStringIndex(s) }
func (l Regexp) FindStringSubmatch(s string) []string {
	return l.re().FindStringSubmatch(s)
}
func (l Regexp) FindStringSubmatchIndex(s string) []int {
	return l.re().FindStringSubmatchIndex(s)
}
func (l Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return l.re().FindAllStringSubmatch(s, n)
}
func (l Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return l.re().FindAllStringSubmatchIndex(s, n)
}
func (l Regexp) FindAllStringIndex(s string, n int) [][]int {
	return l.re().FindAllStringIndex(s, n)
}
func (l Regexp) FindAllString(s string, n int) []string {
	return l.re().FindAllString(s, n)
}
func (l Regexp) ReplaceAllString(src, repl string) string {
	return l.re().ReplaceAllString(src, repl)
}
func (l Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return l.re().ReplaceAllStringFunc(src, repl)
}
