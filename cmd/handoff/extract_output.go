package main

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/session"
)

// The records `handoff extract` prints: a table, --json or --jsonl.

// records lists a session's decisions and errors as output records.
func records(out session.Outcome) []extractedRecord {
	var list []extractedRecord
	snap := out.Snapshot
	for _, d := range snap.Decisions {
		list = append(list, extractedRecord{Kind: "decision", Path: out.Path, SnapshotID: snap.ID, WorkflowID: snap.WorkflowID, Record: d})
	}
	for _, e := range snap.Errors {
		list = append(list, extractedRecord{Kind: "error", Path: out.Path, SnapshotID: snap.ID, WorkflowID: snap.WorkflowID, Record: e})
	}
	return list
}

func countKind(list []extractedRecord, kind string) int {
	n := 0
	for _, r := range list {
		if r.Kind == kind {
			n++
		}
	}
	return n
}

// writeRecords writes records one JSON object a line.
func writeRecords(w io.Writer, list []extractedRecord) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, r := range list {
		if err := enc.Encode(r); err != nil {
			return fmt.Errorf("write JSON: %w", err)
		}
	}
	return nil
}

// print writes the records as --json or a table.
func (o *extractOptions) print(all []extractedRecord) error {
	w := o.app.stdout
	if o.json {
		if all == nil {
			all = []extractedRecord{}
		}
		return writeJSON(w, all)
	}
	if len(all) == 0 {
		o.app.status("no decisions or errors found")
		return nil
	}
	tb := o.app.newTable("SESSION", "KIND", "TYPE", "STATE", "TEXT")
	for _, r := range all {
		session := strings.TrimSuffix(filepath.Base(r.Path), filepath.Ext(r.Path))
		switch v := r.Record.(type) {
		case handoff.Decision:
			state := "current"
			if v.SupersededBy != "" {
				state = "superseded"
			}
			tb.row(tb.id(session), "decision", string(v.Type), state, v.Description)
		case handoff.ErrorRecord:
			tb.row(tb.id(session), "error", string(v.Type), string(v.Resolution), v.Message)
		}
	}
	return tb.flush()
}

// extractedRecord is one line of extract's output: a decision or an error
// and the session it came from.
type extractedRecord struct {
	Kind       string `json:"kind"` // decision or error
	Path       string `json:"session_path"`
	SnapshotID string `json:"snapshot_id"`
	WorkflowID string `json:"workflow_id"`
	Record     any    `json:"record"`
}
