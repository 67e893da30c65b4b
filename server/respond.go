package server

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/handoff-cli/handoff"
)

// HTTP-only error codes, beside the CLI's (handoff.EINVALID and the rest):
// a request without the token, and a browser request from another origin.
const (
	codeUnauthorized = "unauthorized"
	codeForbidden    = "forbidden"
)

// apiError is the body of every failed API request.
type apiError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// httpStatus maps an error's class to its HTTP status.
func httpStatus(code string) int {
	switch code {
	case handoff.EINVALID:
		return http.StatusBadRequest
	case handoff.ENOTFOUND:
		return http.StatusNotFound
	case handoff.ECONFLICT, handoff.ECLAIMED:
		return http.StatusConflict
	case handoff.EUNAVAILABLE:
		return http.StatusServiceUnavailable
	case codeUnauthorized:
		return http.StatusUnauthorized
	case codeForbidden:
		return http.StatusForbidden
	}
	return http.StatusInternalServerError
}

// handlerFunc is an API handler: it returns the status and the value to
// encode, or an error that writeError turns into the JSON error body.
type handlerFunc func(r *http.Request) (int, any, error)

// api adapts a handlerFunc.
func (s *Server) api(h handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		status, v, err := h(r)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, status, v)
	}
}

// writeError writes err as {"error": {"code", "message"}}. A body over its
// limit is EINVALID with 413. Internal failures are logged; their message
// is still returned, since the server's user is the database's owner.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	code := handoff.ErrorCode(err)
	status := httpStatus(code)
	if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
		code, status = handoff.EINVALID, http.StatusRequestEntityTooLarge
	}
	if status >= 500 {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	}
	var body apiError
	body.Error.Code = code
	body.Error.Message = err.Error()
	writeJSON(w, status, body)
}

// errorCode builds an error with a code for the HTTP-only classes.
func errorCode(code, msg string) error { return &handoff.Error{Code: code, Message: msg} }

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v) // the status line is sent; a failed write is the client's
}
