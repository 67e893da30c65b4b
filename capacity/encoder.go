package capacity

import (
	"fmt"
	"strings"

	tiktoken "github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"

	"github.com/handoff-cli/handoff"
)

// Encoding names a BPE vocabulary. The names are tiktoken's own.
type Encoding string

// The encodings a Counter can use. Both ship inside tiktoken-go-loader, so
// counting works offline.
const (
	// O200kBase is the vocabulary of GPT-4o, GPT-4.1, o-series and GPT-5.
	// It is the default: no offline tokenizer exists for Claude or Gemini,
	// and o200k_base is the closest widely used modern vocabulary.
	O200kBase Encoding = "o200k_base"
	// CL100kBase is the vocabulary of GPT-4 and GPT-3.5-turbo.
	CL100kBase Encoding = "cl100k_base"
)

// encodingSpec is what tiktoken needs to build one encoding. The pattern
// strings and special tokens are copied from tiktoken-go v0.1.8
// encoding.go (functions o200k_base and cl100k_base), which copies them from
// OpenAI's tiktoken. They are repeated here so the encoder can be built
// from the offline loader directly, without tiktoken.SetBpeLoader, which
// sets a package-level global inside tiktoken-go.
type encodingSpec struct {
	file          string
	pattern       string
	specialTokens map[string]int
}

func specFor(enc Encoding) (encodingSpec, bool) {
	switch enc {
	case O200kBase:
		return encodingSpec{
			file: "o200k_base.tiktoken",
			pattern: strings.Join([]string{
				`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
				`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
				`\p{N}{1,3}`,
				` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
				`\s*[\r\n]+`,
				`\s+(?!\S)`,
				`\s+`,
			}, "|"),
			specialTokens: map[string]int{
				tiktoken.ENDOFTEXT:   199999,
				tiktoken.ENDOFPROMPT: 200018,
			},
		}, true
	case CL100kBase:
		return encodingSpec{
			file:    "cl100k_base.tiktoken",
			pattern: `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
			specialTokens: map[string]int{
				tiktoken.ENDOFTEXT:   100257,
				tiktoken.FIM_PREFIX:  100258,
				tiktoken.FIM_MIDDLE:  100259,
				tiktoken.FIM_SUFFIX:  100260,
				tiktoken.ENDOFPROMPT: 100276,
			},
		}, true
	}
	return encodingSpec{}, false
}

// newTiktoken builds the plain (unguarded) tiktoken encoder for enc from the
// BPE ranks embedded in tiktoken-go-loader. It takes a few hundred
// milliseconds (parsing the ranks, sorting the vocabulary), which is why a
// Counter is built once and reused.
func newTiktoken(enc Encoding) (*tiktoken.Tiktoken, error) {
	spec, ok := specFor(enc)
	if !ok {
		return nil, handoff.Errorf(handoff.EINVALID, "unknown token encoding %q (known: %s, %s)", enc, O200kBase, CL100kBase)
	}
	ranks, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe(spec.file)
	if err != nil {
		return nil, fmt.Errorf("load %s ranks: %w", enc, err)
	}
	core, err := tiktoken.NewCoreBPE(ranks, spec.specialTokens, spec.pattern)
	if err != nil {
		return nil, fmt.Errorf("build %s encoder: %w", enc, err)
	}
	special := make(map[string]any, len(spec.specialTokens))
	for tok := range spec.specialTokens {
		special[tok] = true
	}
	meta := &tiktoken.Encoding{
		Name:           string(enc),
		PatStr:         spec.pattern,
		MergeableRanks: ranks,
		SpecialTokens:  spec.specialTokens,
	}
	return tiktoken.NewTiktoken(core, meta, special), nil
}
