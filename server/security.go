package server

import (
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
)

// tokenCookie carries the token for the dashboard's pages and its fetch
// calls, set by visiting /?token=TOKEN once; a browser cannot add a bearer
// header to a page load.
const tokenCookie = "handoff_token"

// secure wraps the mux with what every request passes: security headers,
// the token check (when a token is configured) and, for state-changing
// requests, the browser same-origin check (net/http's
// CrossOriginProtection, which reads Sec-Fetch-Site and Origin; clients
// that send neither, such as curl or an agent's HTTP library, pass).
func (s *Server) secure(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, errorCode(codeForbidden, "cross-origin request refused: state-changing requests must come from the dashboard's own origin"))
	}))
	guarded := cop.Handler(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'")
		if s.cfg.Token == "" && !loopbackHost(r.Host) {
			// Without a token the server is only for this machine. A page
			// on another site whose name was re-pointed at 127.0.0.1 (DNS
			// rebinding) looks same-origin to the browser, but its Host
			// header still names that site.
			s.writeError(w, r, errorCode(codeForbidden, "host "+r.Host+" refused: without a token only localhost names are served"))
			return
		}
		if s.cfg.Token != "" {
			if r.Method == http.MethodGet && r.URL.Path == "/" && r.URL.Query().Has("token") {
				s.login(w, r)
				return
			}
			if !s.authorized(r) {
				w.Header().Set("WWW-Authenticate", `Bearer realm="handoff"`)
				s.writeError(w, r, errorCode(codeUnauthorized, "a bearer token is required (Authorization: Bearer TOKEN, or open /?token=TOKEN once in a browser)"))
				return
			}
		}
		guarded.ServeHTTP(w, r)
	})
}

// authorized reports whether r carries the configured token, compared in
// constant time (on digests, so the length does not leak either).
func (s *Server) authorized(r *http.Request) bool {
	got := ""
	if auth := r.Header.Get("Authorization"); auth != "" {
		scheme, tok, ok := strings.Cut(auth, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			return false
		}
		got = strings.TrimSpace(tok)
	} else if c, err := r.Cookie(tokenCookie); err == nil {
		got = c.Value
	}
	return got != "" && tokenEqual(got, s.cfg.Token)
}

func tokenEqual(a, b string) bool {
	ha, hb := sha256.Sum256([]byte(a)), sha256.Sum256([]byte(b))
	return subtle.ConstantTimeCompare(ha[:], hb[:]) == 1
}

// login turns /?token=TOKEN into an HttpOnly, same-site cookie and
// redirects to /, so the token leaves the address bar and history.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	tok := r.URL.Query().Get("token")
	if !tokenEqual(tok, s.cfg.Token) {
		s.writeError(w, r, errorCode(codeUnauthorized, "wrong token"))
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: tokenCookie, Value: tok, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// loopbackHost reports whether a Host header names this machine:
// localhost or a loopback address, with or without a port.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") || strings.HasSuffix(strings.ToLower(host), ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
