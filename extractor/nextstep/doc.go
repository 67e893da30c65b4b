// Package nextstep is the extractor's layer that says the single most
// useful thing to do first on resuming: an ordered cascade of named rules
// (rulebook's next.* ids) over the snapshot the lower layers built.
package nextstep
