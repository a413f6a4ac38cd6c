package web

import (
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
	"strings"

	"github.com/nadine-robot/nadine"
)

// securityHeaders are set on every response. The page loads its script and
// style from /assets only; nothing inline, nothing from elsewhere.
var securityHeaders = [][2]string{
	{"Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
		"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"},
	{"X-Content-Type-Options", "nosniff"},
	{"Referrer-Policy", "no-referrer"},
	{"X-Frame-Options", "DENY"},
	{"Cross-Origin-Opener-Policy", "same-origin"},
	{"Cross-Origin-Resource-Policy", "same-origin"},
}

// ServeHTTP applies the security checks, then routes the request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	for _, kv := range securityHeaders {
		h.Set(kv[0], kv[1])
	}
	// /metrics has the API's access rules (a scraper sends the token).
	api := r.URL.Path == "/api" || strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/metrics"
	sw := &statusWriter{ResponseWriter: w, api: api, method: r.Method, path: r.URL.Path}
	w = sw
	switch {
	case !s.hostAllowed(r.Host):
		s.log.Warn("web: request refused: host not allowed", "host", r.Host, "remote", r.RemoteAddr)
		writeErrorStatus(w, http.StatusForbidden, "forbidden",
			"host "+quote(r.Host)+" is not allowed: open the monitor at http://127.0.0.1 or http://localhost")
	case api && s.cop.Check(r) != nil:
		s.log.Warn("web: cross-origin request refused", "method", r.Method, "path", r.URL.Path,
			"origin", r.Header.Get("Origin"), "remote", r.RemoteAddr)
		writeErrorStatus(w, http.StatusForbidden, "forbidden", "cross-origin request refused")
	case api && r.URL.Path != "/api/health" && !s.authorized(r):
		// The token is looked at first: the right one is always served, and
		// the failure limit slows the sender of wrong ones only, never
		// whoever shares its address (docs/operations.md).
		if s.tooManyFailures(w, r) {
			break
		}
		s.failures.fail(clientKey(r))
		h.Set("WWW-Authenticate", `Bearer realm="nadine"`)
		msg := "missing token: send Authorization: Bearer <token>"
		if r.Header.Get("Authorization") != "" {
			msg = "invalid token"
		}
		s.log.Warn("web: request refused: "+msg, "method", r.Method, "path", r.URL.Path, "remote", r.RemoteAddr)
		writeErrorStatus(w, http.StatusUnauthorized, "unauthorized", msg)
	default:
		if api {
			h.Set("Cache-Control", "no-store")
		}
		s.mux.ServeHTTP(w, r)
	}
	s.log.Debug("web: request", "method", r.Method, "path", r.URL.Path, "status", sw.status())
}

// tooManyFailures answers 429 with Retry-After to a client that sent too many
// wrong or missing tokens lately.
func (s *Server) tooManyFailures(w http.ResponseWriter, r *http.Request) bool {
	blocked, wait := s.failures.blocked(clientKey(r))
	if !blocked {
		return false
	}
	retryAfter(w, wait)
	s.log.Warn("web: request refused: too many failed token attempts", "method", r.Method, "path", r.URL.Path, "remote", r.RemoteAddr)
	writeErrorStatus(w, http.StatusTooManyRequests, nadine.ERATELIMIT,
		"too many requests with a wrong or missing token: wait and send the right one")
	return true
}

// authorized reports whether the request carries the token, or no token is
// needed. The comparison takes the same time whatever the token.
func (s *Server) authorized(r *http.Request) bool {
	if s.opts.Token == "" {
		return true
	}
	scheme, got, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	a := sha256.Sum256([]byte(strings.TrimSpace(got)))
	b := sha256.Sum256([]byte(s.opts.Token))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// hostAllowed defeats DNS rebinding while bound to loopback; bound elsewhere,
// the token protects the server.
func (s *Server) hostAllowed(hostport string) bool {
	if !s.loopback {
		return true
	}
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	return isLoopbackHost(host) || s.hosts[host]
}

// isLoopbackHost accepts "localhost", names under it and loopback IPs.
func isLoopbackHost(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// statusWriter turns the router's plain-text 404 and 405 on /api paths into the
// API's JSON errors.
type statusWriter struct {
	http.ResponseWriter
	api          bool
	method, path string
	code         int
	swallow      bool
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code != 0 {
		return
	}
	w.code = code
	if w.api && code >= 400 && !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		w.swallow = true
		msg := http.StatusText(code)
		switch code {
		case http.StatusNotFound:
			msg = "no such endpoint: " + w.method + " " + w.path
		case http.StatusMethodNotAllowed:
			msg = "method " + w.method + " not allowed on " + w.path + " (allowed: " + w.Header().Get("Allow") + ")"
		}
		writeJSONBody(w.ResponseWriter, code, errorBody{Error: msg, Code: codeForStatus(code)})
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.swallow {
		return len(b), nil
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController flush event streams.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) status() int {
	if w.code == 0 {
		return http.StatusOK
	}
	return w.code
}

func quote(s string) string {
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}
