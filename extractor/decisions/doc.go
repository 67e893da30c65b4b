// Package decisions is the extractor's layer that finds the choices a
// session settled, with their rationale and rejected alternatives: said
// in prose, numbered, written into files, approved by the person, or
// tried and reverted. Hedged claims, hindsight and offers are not choices.
package decisions
