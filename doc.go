// Package handoff holds the domain types shared by every other package:
// messages read from an agent transcript, the session snapshot built from
// them, and the workflow lifecycle that snapshots belong to.
//
// Nothing here touches the disk or the network. The packages below the
// module root each own one job (transcript parsing, token capacity,
// extraction, compiling the resume prompt, storage) and exchange only these
// plain values, so each can be tested on its own and replaced without
// touching the others.
package handoff
