package main

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/extractor/llm"
	"github.com/handoff-cli/handoff/prompts"
)

// The extractors --extractor names.
const (
	extractHeuristic = "heuristic"
	extractLLM       = "llm"
	extractHybrid    = "hybrid"
)

// extractorFlags choose who judges decisions and errors: --extractor and
// --extract-model (compile's --model names the context-window model, a
// different thing).
type extractorFlags struct {
	kind  string
	model string
}

func (f *extractorFlags) add(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.kind, "extractor", "", "who extracts decisions and errors: heuristic, llm or hybrid (default $HANDOFF_EXTRACTOR, else the config file's extractor, else heuristic; an API key alone never selects the llm)")
	fs.StringVar(&f.model, "extract-model", "", "model the llm and hybrid extractors ask (default $HANDOFF_MODEL, else "+llm.DefaultModel+")")
}

// extractorSetup is what building an extractor needs besides the flags.
type extractorSetup struct {
	cache   llm.Cache // nil: no cache (--no-store)
	counter *capacity.Counter
	// history reads whole histories (batch extraction) instead of the
	// checkpoint window.
	history bool
	// concurrency bounds the chunks of one history extracted at once.
	concurrency int
}

// builtExtractor is the extractor a command runs, and what it needs to
// know about it afterwards.
type builtExtractor struct {
	extractor.Extractor
	// name is the extractor asked for: heuristic, llm or hybrid.
	name string
	// version identifies the extractor's output for resuming a batch:
	// name, model and prompt version.
	version string
	// fallback is set for llm and hybrid: it tells whether the heuristic
	// had to stand in.
	fallback *llm.Fallback
	// host is the LLM endpoint's host, "" for the heuristic: the status
	// line names it so a person always sees where transcripts went.
	host  string
	model string
}

// describe names the extractor for the status line: the heuristic, or
// the LLM with its model and the host the transcript is sent to.
func (b *builtExtractor) describe() string {
	if b.host == "" {
		return "extractor " + b.name
	}
	return fmt.Sprintf("extractor %s (%s at %s)", b.name, b.model, b.host)
}

// endpointHost is the host[:port] of an OpenAI-compatible base URL, or
// the URL itself when it does not parse.
func endpointHost(baseURL string) string {
	if baseURL == "" {
		baseURL = llm.DefaultBaseURL
	}
	u, err := url.Parse(baseURL)
	if err != nil || u.Host == "" {
		return baseURL
	}
	return u.Host
}

// newExtractor builds the extractor the flags and the environment name.
// Sending a transcript to a model is opt-in: only --extractor or
// $HANDOFF_EXTRACTOR select llm or hybrid; OPENAI_API_KEY and
// OPENAI_BASE_URL only configure it, since a key exported for other tools
// must never start shipping transcripts off the machine. An LLM-backed
// extractor falls back to the heuristic, with a warning, when the model is
// unavailable.
func (a *app) newExtractor(f extractorFlags, in extractorSetup) (*builtExtractor, error) {
	cfg := llm.ConfigFromEnv(a.getenv)
	kind, source := strings.ToLower(strings.TrimSpace(f.kind)), "--extractor"
	if kind == "" {
		kind, source = strings.ToLower(strings.TrimSpace(a.getenv("HANDOFF_EXTRACTOR"))), "HANDOFF_EXTRACTOR"
	}
	if kind == "" && a.config != nil && a.config.Extractor != "" {
		kind, source = strings.ToLower(strings.TrimSpace(a.config.Extractor)), "extractor in "+a.config.path
	}
	if kind == "" {
		kind = extractHeuristic
	}
	heuristic := extractor.NewHeuristic(a.log())
	switch kind {
	case extractHeuristic:
		return &builtExtractor{Extractor: heuristic, name: kind, version: kind}, nil
	case extractLLM, extractHybrid:
	default:
		return nil, handoff.Errorf(handoff.EINVALID, "unknown %s %q: use heuristic, llm or hybrid", source, kind)
	}
	switch {
	case f.model != "":
		cfg.Model = f.model
	case a.getenv("HANDOFF_MODEL") == "" && a.config != nil && a.config.Model != "":
		cfg.Model = a.config.Model
	}
	cfg.Cache = in.cache
	cfg.Logger = a.log()
	cfg.Concurrency = in.concurrency
	if in.counter != nil {
		cfg.CountTokens = in.counter.Count
	}
	l, err := llm.New(cfg)
	if err != nil {
		return nil, err
	}
	var primary extractor.Extractor = l
	switch {
	case kind == extractHybrid && in.history:
		primary = llm.NewHybrid(l, a.log()).History()
	case kind == extractHybrid:
		primary = llm.NewHybrid(l, a.log())
	case in.history:
		primary = l.History()
	}
	fb := &llm.Fallback{Primary: primary, Secondary: heuristic, OnFallback: func(err error, down bool) {
		if !down {
			a.status("warning: the %s extractor is unavailable, using the offline heuristic instead: %v", kind, err)
		}
	}}
	return &builtExtractor{
		Extractor: fb,
		name:      kind,
		version:   fmt.Sprintf("%s/%s/%s", kind, l.Model(), prompts.ExtractionPromptVersion),
		fallback:  fb,
		host:      endpointHost(cfg.BaseURL),
		model:     l.Model(),
	}, nil
}

// extractionSummary describes what extraction cost, for --verbose and
// progress lines.
func extractionSummary(u *handoff.ExtractionUsage) string {
	if u == nil {
		return "extraction: none"
	}
	s := "extraction: " + u.Extractor
	if u.Model != "" {
		s += " (" + u.Model + ")"
	}
	return fmt.Sprintf("%s · %d call(s) · %d tokens sent · %d received · %d cache hit(s)",
		s, u.Calls, u.PromptTokens, u.CompletionTokens, u.CacheHits)
}
