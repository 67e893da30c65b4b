package handoff

import (
	"encoding/json"
	"fmt"
)

// upgradeSnapshot applies the in-memory step from snapshot JSON layout v to
// v+1. Stored snapshots are immutable, so an old row is never rewritten;
// it is upgraded each time it is read.
func upgradeSnapshot(v int, m map[string]json.RawMessage) {
	switch v {
	case 0:
		// Snapshots written before the layout carried schema_version had
		// no trigger for on-demand compiles: an absent trigger is one.
		if _, ok := m["trigger"]; !ok {
			m["trigger"] = json.RawMessage(`"manual"`)
		}
	}
}

// DecodeSnapshot parses a stored snapshot of any schema version this build
// knows, upgrading an older layout in memory to SnapshotSchemaVersion. A
// body that does not parse is ECORRUPT; one written by a newer build is
// ECONFLICT (upgrade handoff to read it).
func DecodeSnapshot(body []byte) (*Snapshot, error) {
	var head struct {
		SchemaVersion int `json:"schema_version"`
	}
	if err := json.Unmarshal(body, &head); err != nil {
		return nil, Errorf(ECORRUPT, "stored JSON does not decode: %w", err)
	}
	v := head.SchemaVersion
	switch {
	case v < 0:
		return nil, Errorf(ECORRUPT, "stored JSON has schema version %d", v)
	case v > SnapshotSchemaVersion:
		return nil, Errorf(ECONFLICT, "snapshot schema version %d is newer than this build of handoff knows (%d): upgrade handoff", v, SnapshotSchemaVersion)
	case v < SnapshotSchemaVersion:
		var m map[string]json.RawMessage
		if err := json.Unmarshal(body, &m); err != nil {
			return nil, Errorf(ECORRUPT, "stored JSON does not decode: %w", err)
		}
		if m == nil { // JSON null
			return nil, Errorf(ECORRUPT, "stored JSON is null, not a snapshot")
		}
		for ; v < SnapshotSchemaVersion; v++ {
			upgradeSnapshot(v, m)
		}
		m["schema_version"] = json.RawMessage(fmt.Sprint(SnapshotSchemaVersion))
		upgraded, err := json.Marshal(m)
		if err != nil {
			return nil, Errorf(EINTERNAL, "upgrade snapshot from schema version %d: %w", head.SchemaVersion, err)
		}
		body = upgraded
	}
	var snap Snapshot
	if err := json.Unmarshal(body, &snap); err != nil {
		return nil, Errorf(ECORRUPT, "stored JSON does not decode: %w", err)
	}
	return &snap, nil
}
