// Package prose is the extractor's lowest layer of its own (rulebook's
// LayerText): helpers that cut, split, fold and match text, and the
// gated regular expressions every rule's pattern runs on. It consults
// only the catalogue, so every layer above can use it.
package prose
