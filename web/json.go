package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
)

// errorBody is every error response: a message naming the problem and a
// code (the nadine error codes, plus "unauthorized" and "forbidden").
type errorBody struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

// statusFor maps a nadine error code to an HTTP status.
func statusFor(code string) int {
	switch code {
	case nadine.EINVALID:
		return http.StatusBadRequest
	case nadine.ENOTFOUND:
		return http.StatusNotFound
	case nadine.EUNAVAILABLE:
		return http.StatusServiceUnavailable
	case nadine.ERATELIMIT:
		return http.StatusTooManyRequests
	}
	return http.StatusInternalServerError
}

// codeForStatus is the error code of a status set without a nadine error.
func codeForStatus(status int) string {
	switch status {
	case http.StatusBadRequest, http.StatusMethodNotAllowed:
		return nadine.EINVALID
	case http.StatusUnauthorized:
		return "unauthorized"
	case http.StatusForbidden:
		return "forbidden"
	case http.StatusNotFound:
		return nadine.ENOTFOUND
	case http.StatusServiceUnavailable:
		return nadine.EUNAVAILABLE
	case http.StatusTooManyRequests:
		return nadine.ERATELIMIT
	}
	return nadine.EINTERNAL
}

// errorResponse turns an error into a status and a body. Internal failures
// are logged and answered without their details.
func (s *Server) errorResponse(err error) (int, errorBody) {
	switch {
	case errors.Is(err, context.Canceled):
		return http.StatusServiceUnavailable, errorBody{Error: "request canceled", Code: nadine.EUNAVAILABLE}
	case errors.Is(err, context.DeadlineExceeded):
		return http.StatusServiceUnavailable, errorBody{Error: "timed out", Code: nadine.EUNAVAILABLE}
	}
	code := nadine.ErrorCode(err)
	if code == nadine.EINTERNAL {
		s.log.Error("web: internal error", "err", err)
		return http.StatusInternalServerError, errorBody{Error: "internal error (see the server log)", Code: code}
	}
	return statusFor(code), errorBody{Error: err.Error(), Code: code}
}

func (s *Server) writeError(w http.ResponseWriter, err error) {
	status, body := s.errorResponse(err)
	writeJSONBody(w, status, body)
}

func writeErrorStatus(w http.ResponseWriter, status int, code, msg string) {
	writeJSONBody(w, status, errorBody{Error: msg, Code: code})
}

func invalid(format string, args ...any) error {
	return nadine.Errorf(nadine.EINVALID, format, args...)
}

func writeJSON(w http.ResponseWriter, v any) { writeJSONBody(w, http.StatusOK, v) }

func writeJSONBody(w http.ResponseWriter, status int, v any) {
	b, err := marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b, _ = marshal(errorBody{Error: "encode response: " + err.Error(), Code: nadine.EINTERNAL})
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// marshal encodes v on one line, leaving <, > and & as they are (responses
// are JSON with nosniff, never HTML).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// decodeJSON requires a JSON content type, the size cap, one value and no
// unknown field, each an EINVALID naming the problem.
func (s *Server) decodeJSON(w http.ResponseWriter, r *http.Request, dst any, allowEmpty bool) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return invalid("missing Content-Type: send application/json")
	}
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		return invalid("Content-Type must be application/json, not %s", quote(ct))
	}
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(30 * time.Second))
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes))
	_ = rc.SetReadDeadline(time.Time{})
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return invalid("request body too large (limit %d bytes)", tooBig.Limit)
		}
		return invalid("read request body: %v", err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		if allowEmpty {
			return nil
		}
		return invalid("empty body: send a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return jsonError(err)
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return invalid("invalid JSON: more than one value in the body")
	}
	return nil
}

// jsonError names what is wrong with a body.
func jsonError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return invalid("invalid JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(syn.Error(), "json: "))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return invalid("invalid JSON: unexpected end of input")
	case errors.As(err, &typ):
		if typ.Field == "" {
			return invalid("the body must be a JSON object, not %s", typ.Value)
		}
		return invalid("field %q: want %s, got %s", typ.Field, jsonType(typ.Type.Kind().String()), typ.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return invalid("unknown field %s", strings.TrimPrefix(err.Error(), "json: unknown field "))
	}
	return invalid("invalid JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
}

func jsonType(kind string) string {
	switch kind {
	case "string":
		return "a string"
	case "struct", "map":
		return "an object"
	case "slice", "array":
		return "an array"
	case "bool":
		return "a boolean"
	}
	return fmt.Sprintf("a %s", kind)
}
