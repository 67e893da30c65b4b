package transcript

import "github.com/handoff-cli/handoff/internal/lazyre"

// lazyRE returns pattern compiled on first use (lazyre.New): a command
// that reads no transcript, or only one format, does not compile every
// format's patterns when the binary starts. TestLazyPatternsCompile
// compiles each pattern handed to it.
func lazyRE(pattern string) lazyre.Regexp { return lazyre.New(pattern) }
