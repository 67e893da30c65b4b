package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/capacity"
	"github.com/handoff-cli/handoff/extractor"
	"github.com/handoff-cli/handoff/transcript"
)

// ExtractOptions configure ExtractAll.
type ExtractOptions struct {
	// Files are the session transcripts to extract.
	Files []string
	// Format reads every file in this format; "" detects each file's
	// from its content, as compile does, and skips a file that detects
	// as plain prose (a README is no session): only an explicit
	// FormatPlain reads prose.
	Format transcript.Format
	// Extractor extracts each session; required.
	Extractor extractor.Extractor
	// Name and Version identify the extractor. A session is marked done
	// under its content and Version, and only when the extractor called
	// Name answered (not a fallback standing in for it), so another
	// extractor, model or prompt, or a session the fallback did, is
	// extracted again.
	Name, Version string
	// Counter counts tokens for the usage figures; required.
	Counter *capacity.Counter
	// Concurrency is how many sessions are extracted at once (≥ 1).
	Concurrency int
	// Force extracts sessions again even if marked done.
	Force bool
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Done, if set, is told of each finished file (extracted, loaded
	// from an earlier run, or skipped) as soon as it is, one call at a
	// time. An error it returns stops the run.
	Done func(Outcome) error
}

// Outcome is what became of one file.
type Outcome struct {
	Path string
	// Snapshot is the session's stored snapshot; nil when skipped or not
	// reached (the run was interrupted).
	Snapshot *handoff.Snapshot
	// Resumed: extracted by an earlier run, loaded from the store.
	Resumed bool
	// Skipped: not a readable transcript; Err says why.
	Skipped bool
	Err     error
}

// ExtractReport is what ExtractAll did.
type ExtractReport struct {
	// Outcomes are in the order of Files.
	Outcomes []Outcome
	// Extracted, Resumed and Skipped count the outcomes of each kind; a
	// file not reached (interrupted) is in none.
	Extracted, Resumed, Skipped int
}

// extractMark is stored in the cache under a session's content key once
// it is extracted, so a rerun skips it.
type extractMark struct {
	SnapshotID string `json:"snapshot_id"`
	Path       string `json:"path"`
}

// ExtractAll is the batch engine behind `handoff extract`: it builds and
// stores a snapshot of every file (trigger extract, dated at the session's
// last message, no git state: the working tree today says nothing about a
// past session), Concurrency at a time. A workflow the run creates is
// filed as imported history (handoff.WorkflowImported), so live work
// stays first; a workflow that existed keeps its status. A session already extracted with
// the same content and extractor is loaded instead, so an interrupted run
// resumes where it stopped. A file that is not a transcript is an outcome
// (Skipped), not an error; the error is for what must stop the whole run
// (the store failing, a wrong API key, Done failing), and the report so
// far comes with it. When ctx ends, the files not reached have empty
// outcomes and no error is returned: the caller reports the interruption.
func ExtractAll(ctx context.Context, s Store, opts ExtractOptions) (*ExtractReport, error) {
	if opts.Concurrency < 1 {
		return nil, handoff.Errorf(handoff.EINVALID, "extract: concurrency must be at least 1, got %d", opts.Concurrency)
	}
	if opts.Extractor == nil || opts.Counter == nil {
		return nil, handoff.Errorf(handoff.EINTERNAL, "extract: an extractor and a counter are required")
	}
	rep := &ExtractReport{Outcomes: make([]Outcome, len(opts.Files))}
	jobs := make(chan int)
	var (
		wg       sync.WaitGroup
		doneMu   sync.Mutex
		fatalErr error
		once     sync.Once
	)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	fail := func(err error) { once.Do(func() { fatalErr = err; cancel() }) }
	for range min(opts.Concurrency, len(opts.Files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out, fatal := extractOne(ctx, s, opts, opts.Files[i])
				if fatal != nil {
					fail(fatal)
					continue
				}
				rep.Outcomes[i] = out
				if out.Snapshot == nil && !out.Skipped {
					continue // interrupted
				}
				if opts.Done != nil {
					doneMu.Lock()
					err := opts.Done(out)
					doneMu.Unlock()
					if err != nil {
						fail(err)
					}
				}
			}
		}()
	}
feed:
	for i := range opts.Files {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	for _, out := range rep.Outcomes {
		switch {
		case out.Snapshot != nil && out.Resumed:
			rep.Resumed++
		case out.Snapshot != nil:
			rep.Extracted++
		case out.Skipped:
			rep.Skipped++
		}
	}
	return rep, fatalErr
}

// extractOne extracts one session file, or loads it when an earlier run
// did. The second result is an error that must stop the whole run.
func extractOne(ctx context.Context, s Store, opts ExtractOptions, path string) (Outcome, error) {
	out := Outcome{Path: path}
	format := opts.Format
	if format == transcript.FormatAuto {
		var err error
		if format, err = detectFile(path); err != nil {
			out.Skipped, out.Err = true, err
			return out, nil
		}
	}
	mark, err := markKey(path, opts.Version)
	if err != nil {
		out.Skipped, out.Err = true, err
		return out, nil
	}
	if !opts.Force {
		if snap, ok := extracted(ctx, s, mark, opts.Logger); ok {
			out.Snapshot, out.Resumed = snap, true
			return out, nil
		}
	}
	// Parsed from the file, streaming: a session that grew since it was
	// hashed is marked under its older content and extracted again next
	// time, which errs on the safe side.
	t, err := transcript.ParseFile(ctx, path, transcript.Options{Format: format, Source: path, Logger: opts.Logger})
	if err != nil {
		if ctx.Err() != nil {
			return out, nil
		}
		out.Skipped, out.Err = true, err
		return out, nil
	}
	in := BuildOptions{Counter: opts.Counter, Extractor: opts.Extractor, Trigger: handoff.TriggerExtract}
	if end := t.Session.EndedAt; !end.IsZero() {
		// A past session's snapshot is dated at its last message, so
		// --since and newest-first orders follow the history's own time.
		in.Now = func() time.Time { return end }
	}
	_, err = s.Workflow(ctx, DefaultWorkflowID(t))
	existed := err == nil
	if err != nil && handoff.ErrorCode(err) != handoff.ENOTFOUND {
		return out, fmt.Errorf("%s: %w", path, err)
	}
	cp, err := Checkpoint(ctx, s, t, CheckpointOptions{Build: in, Logger: opts.Logger})
	if err != nil {
		if ctx.Err() != nil {
			return out, nil
		}
		return out, fmt.Errorf("%s: %w", path, err)
	}
	snap := cp.Snapshot
	if err := fileAsImported(ctx, s, snap, existed && !cp.Unchanged); err != nil && ctx.Err() == nil {
		return out, fmt.Errorf("%s: %w", path, err)
	}
	out.Snapshot = snap
	// Mark it done only if the extractor asked for answered: a session the
	// fallback stood in for is extracted again next time.
	if u := snap.Usage.Extraction; u != nil && u.Extractor == opts.Name {
		v, _ := json.Marshal(extractMark{SnapshotID: snap.ID, Path: path})
		if err := s.CachePut(ctx, mark, v); err != nil && ctx.Err() == nil {
			return out, fmt.Errorf("record %s as extracted: %w", path, err)
		}
	}
	return out, nil
}

// extracted returns the snapshot an earlier run stored for this content
// and extractor, if it is still there.
func extracted(ctx context.Context, s Store, mark string, log *slog.Logger) (*handoff.Snapshot, bool) {
	v, ok, err := s.CacheGet(ctx, mark)
	if err != nil || !ok {
		return nil, false
	}
	var m extractMark
	if json.Unmarshal(v, &m) != nil || m.SnapshotID == "" {
		return nil, false
	}
	snap, err := s.Snapshot(ctx, m.SnapshotID)
	if err != nil {
		logger(log).Debug("extracted snapshot no longer loads; extracting again", "snapshot", m.SnapshotID, "err", err)
		return nil, false
	}
	return snap, true
}

// markKey keys a session's "extracted" mark by the file's content and the
// extractor's identity (name, model, prompt version), so an edited file, or
// another extractor or prompt, is extracted again. The file is hashed as a
// stream, never held whole.
func markKey(path, version string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	h.Write([]byte{0})
	h.Write([]byte(version))
	h.Write([]byte{0})
	fmt.Fprint(h, handoff.SnapshotSchemaVersion)
	return "extract-session:" + hex.EncodeToString(h.Sum(nil)), nil
}

// importedReason is the event detail of a workflow filed as history.
const importedReason = "history imported by handoff extract"

// fileAsImported marks the workflow of an extracted snapshot as imported
// history when the extraction created it: it is in progress only because
// a save creates workflows so. A workflow that existed before (live work,
// or history a person reopened) keeps its status, unless keep is false and
// it is still in progress with this extract snapshot as its newest (an
// earlier run stored it and stopped before filing it).
func fileAsImported(ctx context.Context, s Store, snap *handoff.Snapshot, keep bool) error {
	if keep {
		return nil
	}
	wf, err := s.Workflow(ctx, snap.WorkflowID)
	if err != nil {
		return fmt.Errorf("file workflow %s as imported: %w", snap.WorkflowID, err)
	}
	if wf.Status != handoff.WorkflowInProgress {
		return nil
	}
	latest, err := s.LatestSnapshot(ctx, wf.ID)
	if err != nil || latest.ID != snap.ID || latest.Trigger != handoff.TriggerExtract {
		return err
	}
	if err := s.SetWorkflowStatus(ctx, wf.ID, handoff.WorkflowImported, importedReason); err != nil {
		return fmt.Errorf("file workflow %s as imported: %w", wf.ID, err)
	}
	return nil
}

// detectHeadBytes is how much of a file detectFile reads, as much as
// transcript.Parse gives Detect.
const detectHeadBytes = 64 << 10

// detectFile decides a file's format from its first bytes, as compile
// does. Plain prose is not taken for a session: EINVALID, naming the
// flag that reads it anyway.
func detectFile(path string) (transcript.Format, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, detectHeadBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	format, err := transcript.Detect(head[:n])
	if err != nil {
		return "", err
	}
	if format == transcript.FormatPlain {
		return "", handoff.Errorf(handoff.EINVALID, "plain prose, not a recognised transcript format (--format plain reads it anyway)")
	}
	return format, nil
}
