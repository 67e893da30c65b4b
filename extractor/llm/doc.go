// Package llm is the extractor's model-backed judgement: a Client that
// implements extractor.Extractor over an OpenAI-compatible API (go-openai),
// with the Hybrid and history extractors, the answer's schema, and the
// grounding that keeps only what the transcript supports. It sits above
// the assembly: the root defines the interface, this package implements it.
package llm
