package handoff

import (
	"errors"
	"fmt"
)

// Error codes classify failures so the CLI can pick an exit code and a
// headline without parsing messages. Packages wrap their errors with
// context; Errorf marks the kind once, where it is known.
const (
	// EINVALID: the input or the request is wrong (bad flag, unreadable
	// transcript, unknown format). Fix the input and run again.
	EINVALID = "invalid"
	// ENOTFOUND: a named snapshot, workflow or file does not exist.
	ENOTFOUND = "not_found"
	// ECONFLICT: the request conflicts with current state (a workflow
	// transition that is not allowed, a duplicate).
	ECONFLICT = "conflict"
	// EUNAVAILABLE: a resource is busy or out of reach (locked database,
	// LLM endpoint down). Trying again later may work.
	EUNAVAILABLE = "unavailable"
	// ECORRUPT: stored data is damaged (a database that is not SQLite, a
	// snapshot row that does not decode).
	ECORRUPT = "corrupt"
	// EINTERNAL: a bug, or a failure with no better class.
	EINTERNAL = "internal"
	// ECLAIMED: resuming a workflow another session has already resumed
	// (claimed) and not paused since. Distinct from ECONFLICT so a script
	// can tell "someone else is on it" from "not allowed".
	ECLAIMED = "claimed"
)

// Error is an error with a code and a message meant for the person running
// the tool. Wrap it with fmt.Errorf("...: %w", err) to add context; the
// code survives wrapping.
type Error struct {
	Code string
	// Message is the whole text shown to the person, cause included.
	Message string
	// Err is the underlying cause, if any, kept for errors.Is / errors.As.
	Err error
}

// Error implements error.
func (e *Error) Error() string { return e.Message }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error with the given code and a formatted message. A
// %w verb in the format becomes the cause.
func Errorf(code, format string, args ...any) *Error {
	wrapped := fmt.Errorf(format, args...)
	return &Error{Code: code, Message: wrapped.Error(), Err: errors.Unwrap(wrapped)}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL
// for any other non-nil error, and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}
