package capacity

import "strings"

// DefaultContextWindow is the window assumed for a model the table does not
// know: 200k is what every current Claude model has, and Claude Code is the
// agent most transcripts come from. A wrong guess shows: ContextWindow says
// known=false, and `--context-window` overrides it.
const DefaultContextWindow = 200_000

// oneMillionTag is the suffix Claude Code puts on a model alias to ask for
// the 1M-token context beta ("sonnet[1m]", "claude-sonnet-4-5[1m]").
const oneMillionTag = "[1m]"

// oneMillion is the window of the 1M-token Claude context beta.
const oneMillion = 1_000_000

// windowEntry maps a model-name prefix (lower case, provider prefix
// removed) to its context window in tokens: the whole window, input plus
// output, as the vendor publishes it.
type windowEntry struct {
	prefix string
	tokens int
}

// windowTable lists current model families. ContextWindow picks the
// longest prefix that matches, so a specific entry ("gpt-4o") wins over its
// family ("gpt-4"). Values are from the vendors' model pages; where a model
// comes in generations with different windows, the prefix names the
// generation.
// It is a function, not a package variable, so nothing can change it.
func windowTable() []windowEntry {
	return []windowEntry{
		// Anthropic. Every Claude 3, 3.5, 3.7, 4 and 4.x model (Opus, Sonnet,
		// Haiku) has 200k; the 1M beta is tagged "[1m]" (see oneMillionTag).
		{"claude", 200_000},
		{"claude-2", 100_000},
		{"claude-2.1", 200_000},
		{"claude-instant", 100_000},
		{"opus", 200_000}, // Claude Code aliases
		{"sonnet", 200_000},
		{"haiku", 200_000},

		// OpenAI.
		{"gpt-5", 400_000}, // gpt-5, -mini, -nano, -codex, gpt-5.x
		{"gpt-5-chat", 128_000},
		{"gpt-4.1", 1_047_576},
		{"gpt-4.5", 128_000},
		{"gpt-4o", 128_000},
		{"chatgpt-4o", 128_000},
		{"gpt-4-turbo", 128_000},
		{"gpt-4-1106", 128_000},
		{"gpt-4-0125", 128_000},
		{"gpt-4-vision", 128_000},
		{"gpt-4-32k", 32_768},
		{"gpt-4", 8_192},
		{"gpt-3.5-turbo", 16_385},
		{"gpt-3.5-turbo-instruct", 4_096},
		{"gpt-oss", 131_072},
		{"o1", 200_000},
		{"o1-mini", 128_000},
		{"o1-preview", 128_000},
		{"o3", 200_000},
		{"o4-mini", 200_000},
		{"codex-mini", 200_000},

		// Google.
		{"gemini", 1_048_576}, // 1.5 Flash, 2.0, 2.5, 3
		{"gemini-1.5-pro", 2_097_152},
		{"gemini-1.0", 32_760},

		// Alibaba Qwen.
		{"qwen", 32_768},
		{"qwen2", 32_768},
		{"qwen2.5", 32_768}, // 128k only with YaRN scaling
		{"qwen-2.5", 32_768},
		{"qwen2.5-turbo", 1_000_000},
		{"qwen-turbo", 1_000_000},
		{"qwen-plus", 131_072},
		{"qwen3", 262_144}, // Qwen3-2507 and Qwen3-Coder
		{"qwq", 131_072},

		// Meta Llama. 3.0 had 8k; 3.1 and later 128k.
		{"llama-2", 4_096},
		{"llama2", 4_096},
		{"llama-3", 8_192},
		{"llama3", 8_192},
		{"meta-llama-3", 8_192},
		{"llama-3.1", 131_072},
		{"llama-3.2", 131_072},
		{"llama-3.3", 131_072},
		{"llama3.1", 131_072},
		{"llama3.2", 131_072},
		{"llama3.3", 131_072},
		{"llama3-1", 131_072}, // Bedrock spelling
		{"llama3-2", 131_072},
		{"llama3-3", 131_072},
		{"meta-llama-3.1", 131_072},
		{"meta-llama-3.2", 131_072},
		{"meta-llama-3.3", 131_072},
		{"llama-4", 1_048_576},

		// DeepSeek.
		{"deepseek", 131_072}, // V3, V3.x, R1, deepseek-chat, deepseek-reasoner

		// Mistral.
		{"mistral", 32_768},
		{"mistral-7b", 32_768},
		{"open-mistral-7b", 32_768},
		{"mistral-large", 131_072},
		{"mistral-medium", 131_072},
		{"mistral-small", 131_072},
		{"mistral-nemo", 131_072},
		{"open-mistral-nemo", 131_072},
		{"mixtral-8x7b", 32_768},
		{"open-mixtral-8x7b", 32_768},
		{"mixtral-8x22b", 65_536},
		{"open-mixtral-8x22b", 65_536},
		{"codestral", 262_144},
		{"devstral", 131_072},
		{"ministral", 131_072},
		{"pixtral", 131_072},
		{"magistral", 131_072},

		// xAI.
		{"grok-2", 131_072},
		{"grok-3", 131_072},
		{"grok-4", 256_000},
		{"grok-code-fast", 256_000},
	}
}

// isProviderSegment reports whether s is one of the leading "xxx." segments
// Bedrock and similar gateways put before a model name
// ("us.anthropic.claude-…", "meta.llama3-1-70b-…"): cross-region prefixes
// and vendor names. "deepseek." stays: Bedrock's "deepseek.r1-v1:0" names
// the family only there.
func isProviderSegment(s string) bool {
	switch s {
	case "us", "eu", "apac", "global", "au", "jp", "ca", "us-gov",
		"anthropic", "meta", "mistral", "amazon", "cohere", "qwen", "openai", "google", "ai21":
		return true
	}
	return false
}

// isProviderColonPrefix reports whether s is a "provider:" prefix some
// frameworks use ("anthropic:claude-…", "openai:gpt-…"). A colon elsewhere
// is a tag ("llama3.1:8b") and stays.
func isProviderColonPrefix(s string) bool {
	switch s {
	case "anthropic", "openai", "google", "google-gla", "google-vertex", "gemini", "bedrock", "vertex",
		"vertex_ai", "azure", "groq", "mistral", "deepseek", "openrouter", "ollama", "xai":
		return true
	}
	return false
}

// ContextWindow returns the context window of model in tokens and whether
// the table knows the model. The name is matched case-insensitively by the
// longest known prefix, after removing provider prefixes ("anthropic/",
// "openai/", "models/", "openrouter/…/", Bedrock's "us.anthropic.",
// "openai:"). A name ending in "[1m]" is Claude's 1M-token context beta.
// An unknown model gives (DefaultContextWindow, false).
func ContextWindow(model string) (tokens int, known bool) {
	name := normalizeModel(model)
	if rest, ok := strings.CutSuffix(name, oneMillionTag); ok && rest != "" {
		return oneMillion, true
	}
	best := windowEntry{}
	for _, e := range windowTable() {
		if strings.HasPrefix(name, e.prefix) && len(e.prefix) > len(best.prefix) {
			best = e
		}
	}
	if best.prefix == "" {
		return DefaultContextWindow, false
	}
	return best.tokens, true
}

// normalizeModel lower-cases a model name and strips the provider prefixes
// gateways and frameworks add, leaving the vendor's own model id.
func normalizeModel(model string) string {
	name := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if provider, rest, ok := strings.Cut(name, ":"); ok && isProviderColonPrefix(provider) {
		name = rest
	}
	for {
		segment, rest, ok := strings.Cut(name, ".")
		if !ok || !isProviderSegment(segment) {
			break
		}
		name = rest
	}
	return name
}
