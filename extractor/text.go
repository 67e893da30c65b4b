package extractor

import "github.com/handoff-cli/handoff/extractor/text"

// The shared text helpers live in extractor/text, the lowest layer; these
// short names keep the extractor's many call sites as they were.

func truncate(s string, n int) string      { return text.Truncate(s, n) }
func firstLine(s string) string            { return text.FirstLine(s) }
func headOf(s string, n int) string        { return text.HeadOf(s, n) }
func clipSentences(s string, n int) string { return text.ClipSentences(s, n) }
func proseSentences(s string) []string     { return text.ProseSentences(s) }
func wordCount(s string) int               { return text.WordCount(s) }
func lowerASCII(b byte) byte               { return text.LowerASCII(b) }
func asciiLower(s string) string           { return text.ASCIILower(s) }
