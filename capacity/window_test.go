package capacity

import "testing"

func TestContextWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		model string
		want  int
		known bool
	}{
		// Anthropic
		{"claude-sonnet-4-20250514", 200_000, true},
		{"claude-opus-4-1-20250805", 200_000, true},
		{"claude-3-5-sonnet-20241022", 200_000, true},
		{"claude-3.7-sonnet", 200_000, true},
		{"claude-3-haiku-20240307", 200_000, true},
		{"claude-haiku-4-5", 200_000, true},
		{"claude-sonnet-4-5-20250929[1m]", 1_000_000, true},
		{"sonnet[1m]", 1_000_000, true},
		{"opus", 200_000, true},
		{"claude-2.0", 100_000, true},
		{"claude-2.1", 200_000, true},
		{"anthropic/claude-3.5-sonnet", 200_000, true},
		{"us.anthropic.claude-3-5-sonnet-20241022-v2:0", 200_000, true},
		{"claude-3-5-sonnet-v2@20241022", 200_000, true},
		{"anthropic:claude-sonnet-4-0", 200_000, true},
		// OpenAI
		{"gpt-4o", 128_000, true},
		{"gpt-4o-mini-2024-07-18", 128_000, true},
		{"openai/gpt-4o", 128_000, true},
		{"gpt-4.1", 1_047_576, true},
		{"gpt-4.1-nano", 1_047_576, true},
		{"gpt-5", 400_000, true},
		{"gpt-5-codex", 400_000, true},
		{"gpt-5.1-codex-max", 400_000, true},
		{"gpt-5-mini", 400_000, true},
		{"gpt-5-chat-latest", 128_000, true},
		{"o1", 200_000, true},
		{"o1-mini", 128_000, true},
		{"o3-mini", 200_000, true},
		{"o4-mini-2025-04-16", 200_000, true},
		{"gpt-4-turbo-2024-04-09", 128_000, true},
		{"gpt-4-0613", 8_192, true},
		{"gpt-4", 8_192, true},
		{"gpt-4-32k", 32_768, true},
		{"gpt-3.5-turbo", 16_385, true},
		{"GPT-4O", 128_000, true},
		// Google
		{"gemini-2.5-pro", 1_048_576, true},
		{"models/gemini-2.0-flash", 1_048_576, true},
		{"gemini-1.5-flash-002", 1_048_576, true},
		{"gemini-1.5-pro", 2_097_152, true},
		{"gemini/gemini-2.5-flash", 1_048_576, true},
		// open models
		{"Qwen/Qwen2.5-72B-Instruct", 32_768, true},
		{"qwen2.5-coder:32b", 32_768, true},
		{"qwen3-coder-480b-a35b-instruct", 262_144, true},
		{"qwen3-235b-a22b-2507", 262_144, true},
		{"meta-llama/Llama-3.1-70B-Instruct", 131_072, true},
		{"llama3.3:70b", 131_072, true},
		{"meta.llama3-1-70b-instruct-v1:0", 131_072, true},
		{"llama3:8b", 8_192, true},
		{"deepseek-chat", 131_072, true},
		{"deepseek/deepseek-r1", 131_072, true},
		{"mistral-large-latest", 131_072, true},
		{"codestral-2501", 262_144, true},
		{"open-mixtral-8x22b", 65_536, true},
		{"mistral-7b-instruct", 32_768, true},
		{"grok-4", 256_000, true},
		// unknown
		{"", DefaultContextWindow, false},
		{"my-local-model", DefaultContextWindow, false},
		{"[1m]", DefaultContextWindow, false},
	}
	for _, tc := range tests {
		got, known := ContextWindow(tc.model)
		if got != tc.want || known != tc.known {
			t.Errorf("ContextWindow(%q) = %d, %v; want %d, %v", tc.model, got, known, tc.want, tc.known)
		}
	}
}

func TestNormalizeModel(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"  Claude-Sonnet-4 ":                      "claude-sonnet-4",
		"openrouter/anthropic/claude-3.5-sonnet":  "claude-3.5-sonnet",
		"eu.anthropic.claude-3-haiku-20240307-v1": "claude-3-haiku-20240307-v1",
		"openai:gpt-4o":                           "gpt-4o",
		"llama3.1:8b":                             "llama3.1:8b",
		"deepseek.r1-v1:0":                        "deepseek.r1-v1:0",
	}
	for in, want := range tests {
		if got := normalizeModel(in); got != want {
			t.Errorf("normalizeModel(%q) = %q, want %q", in, got, want)
		}
	}
}
