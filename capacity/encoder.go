package capacity

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	tiktoken "github.com/pkoukk/tiktoken-go"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity/internal/ranks"
)

// Encoding names a BPE vocabulary. The names are tiktoken's own.
type Encoding string

// The encodings a Counter can use. Both are embedded in the program (see
// package ranks), so counting works offline.
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
// from the embedded rank tables directly, without tiktoken.SetBpeLoader,
// which sets a package-level global inside tiktoken-go.
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

// newTiktoken builds the full tiktoken encoder for enc, over the whole
// rank map, from the rank tables embedded by package ranks (pre-decoded
// from tiktoken-go-loader's data, so no base64 and no allocation per
// token). An on-demand encoder (bpe) switches to it once the texts it was
// given have cost about as much as this build.
//
// The encoder it returns can encode, not decode. tiktoken.NewCoreBPE
// spends half its time on two things encoding never reads: an id→bytes
// decoder map and a sorted copy of every token's bytes (unused in
// tiktoken-go v0.1.8). It keeps the ranks map it is given without copying
// it, so it is handed the map while still empty (both extras are then
// empty too) and the map is filled afterwards.
func newTiktoken(enc Encoding) (*tiktoken.Tiktoken, error) {
	spec, vocab, err := openSpec(enc)
	if err != nil {
		return nil, err
	}
	tk, mergeable, err := emptyTiktoken(enc, spec, vocab.Len())
	if err != nil {
		return nil, err
	}
	if err := vocab.Fill(mergeable); err != nil {
		return nil, fmt.Errorf("load %s ranks: %w", enc, err)
	}
	return tk, nil
}

// openSpec returns enc's pattern and special tokens and its opened rank
// table (which costs nothing: the table is read in place).
func openSpec(enc Encoding) (encodingSpec, ranks.Vocab, error) {
	spec, ok := specFor(enc)
	if !ok {
		return spec, ranks.Vocab{}, unknownEncoding(enc)
	}
	table, err := ranks.Table(spec.file)
	if err != nil {
		return spec, ranks.Vocab{}, fmt.Errorf("load %s ranks: %w", enc, err)
	}
	vocab, err := ranks.Open(table)
	if err != nil {
		return spec, ranks.Vocab{}, fmt.Errorf("load %s ranks: %w", enc, err)
	}
	return spec, vocab, nil
}

// emptyTiktoken builds a tiktoken encoder over an empty rank map of the
// given capacity and returns both: the encoder reads the very map
// (NewCoreBPE keeps it without copying), so what the caller adds to it
// afterwards is what the encoder sees.
func emptyTiktoken(enc Encoding, spec encodingSpec, size int) (*tiktoken.Tiktoken, map[string]int, error) {
	mergeable := make(map[string]int, size)
	core, err := tiktoken.NewCoreBPE(mergeable, spec.specialTokens, spec.pattern)
	if err != nil {
		return nil, nil, fmt.Errorf("build %s encoder: %w", enc, err)
	}
	special := make(map[string]any, len(spec.specialTokens))
	for tok := range spec.specialTokens {
		special[tok] = true
	}
	meta := &tiktoken.Encoding{
		Name:           string(enc),
		PatStr:         spec.pattern,
		MergeableRanks: mergeable,
		SpecialTokens:  spec.specialTokens,
	}
	return tiktoken.NewTiktoken(core, meta, special), mergeable, nil
}

func unknownEncoding(enc Encoding) error {
	return handoff.Errorf(handoff.EINVALID, "unknown token encoding %q (known: %s, %s)", enc, O200kBase, CL100kBase)
}

// processTables builds each encoding's encoder at most once per process,
// on first request, and hands every Counter the same one. It is a memo of
// data embedded in the program, not state that changes a result: the
// encoder's rank map only grows, with tokens of the embedded vocabulary
// (see bpe), and every count is the full vocabulary's whatever the map
// holds. A process that runs several commands in turn (the server, the
// MCP server, the CLI's in-process tests, which run hundreds of commands
// per test binary) shares what its counts have loaded, and past the
// budget the full map, built once.
var processTables = map[Encoding]func() (*bpe, error){
	O200kBase:  sync.OnceValues(func() (*bpe, error) { return newBPE(O200kBase) }),
	CL100kBase: sync.OnceValues(func() (*bpe, error) { return newBPE(CL100kBase) }),
}

// sharedTiktoken returns the process's encoder for enc, building it on
// the first call.
func sharedTiktoken(enc Encoding) (*bpe, error) {
	build, ok := processTables[enc]
	if !ok {
		return nil, unknownEncoding(enc)
	}
	return build()
}

// lazyEncoder gets a Counter's encoder on first use, once, so a program
// that never counts (a hook answered from provider usage) never compiles
// the tokenizer's patterns, and one certain to count can start early
// (warm). The build is small now (two regexps and an empty map, about 40
// µs: BenchmarkBuildCounter); the rank map fills as texts are encoded (see
// bpe). The encoder is built once per process (processTables), so a
// second Counter for the same encoding finds it, and the tokens its
// counts loaded, ready.
type lazyEncoder struct {
	enc Encoding
	// build makes the encoder; nil means sharedTiktoken. Tests and
	// benchmarks set newBPE for an encoder of their own, as in a new
	// process.
	build   func(Encoding) (*bpe, error)
	once    sync.Once
	started atomic.Bool // a warm goroutine was started
	built   atomic.Bool // the build has finished, with or without error
	encoder *bpe
	err     error
}

// get returns the encoder, building it first if no one has; concurrent
// callers wait for the one build.
func (l *lazyEncoder) get() (*bpe, error) {
	l.once.Do(func() {
		build := l.build
		if build == nil {
			build = sharedTiktoken
		}
		l.encoder, l.err = build(l.enc)
		l.built.Store(true)
	})
	return l.encoder, l.err
}

// warm starts the build in a goroutine unless one was started already or
// it is done.
func (l *lazyEncoder) warm() {
	if l.built.Load() || !l.started.CompareAndSwap(false, true) {
		return
	}
	go l.get()
}
