package session

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/handoff-cli/handoff"
)

// A session of a workflow is one agent session, holding every snapshot
// taken of it. SessionKey says which agent session a transcript records,
// Digest which content: together they let the store file a grown
// transcript's snapshot under the same session and store nothing for a
// re-compile of unchanged content.

// stdinOpening is how many opening messages identify a transcript read
// from standard input, which has neither a session id nor a path. They
// stay the same as the transcript grows, and their timestamps (when the
// format has them) set one session apart from another that opened with
// the same words.
const stdinOpening = 3

// SessionKey identifies the agent session t records:
//
//   - "id:" + the agent's own session id, when the format has one (Claude
//     Code, Codex, Gemini): hooks, watch and compile of the same session
//     agree, wherever the file lives;
//   - else "path:" + the transcript's absolute path (Aider histories, plain
//     text, Chat Completions JSON saved to a file): the file is the session;
//   - else, for standard input, "stdin:" + a hash of its format and first
//     messages, which a grown transcript keeps.
//
// The "id:" form is what store.SessionKey derives from a stored snapshot,
// so a snapshot copied between stores (sync) keeps its session.
func SessionKey(t *handoff.Transcript) string {
	if t.Session.ID != "" {
		return "id:" + t.Session.ID
	}
	if src := t.Session.Source; src != "" && src != "-" {
		if abs, err := filepath.Abs(src); err == nil {
			return "path:" + abs
		}
		return "path:" + src
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", t.Session.Format)
	opening := t.Messages[:min(stdinOpening, len(t.Messages))]
	if err := json.NewEncoder(h).Encode(opening); err != nil {
		// Messages are plain data and always encode; without them the
		// session is keyed by the format alone rather than failing a save.
		fmt.Fprintf(h, "%d", len(opening))
	}
	return "stdin:" + hex.EncodeToString(h.Sum(nil))[:16]
}

// Digest identifies what a snapshot of t is built from: the (redacted)
// messages, the session id, and how it is built (the extractor asked,
// extractedBy — the one that actually answered, which differs when the
// LLM fell back to the heuristic — and the measure settings). The same
// transcript compiled the same way twice has one digest; a grown
// transcript, another extractor, a fallback followed by a real answer or
// another context window has another. The trigger is left out: a pause
// of content already stored pauses with the stored snapshot.
func Digest(t *handoff.Transcript, opts BuildOptions, extractedBy string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00", t.Session.ID, t.Session.Format, extractedBy)
	if opts.Extractor != nil {
		fmt.Fprintf(h, "%s\x00", opts.Extractor.Name())
	}
	fmt.Fprintf(h, "%s\x00%d\x00%t\x00%s\x00", opts.Measure.Model, opts.Measure.ContextWindow, opts.Measure.EstimateTail, opts.Workflow)
	if err := json.NewEncoder(h).Encode(t.Messages); err != nil {
		// Never matches a stored digest: the snapshot is stored.
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}
