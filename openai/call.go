package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/redact"
)

// Defaults and limits. Retries belong to the caller (the failover layer),
// which reads a server's Retry-After from the errors.
const (
	defaultTimeout = 60 * time.Second
	maxRetryAfter  = 30 * time.Second // cap on a server's Retry-After
	maxBody        = 64 << 20         // largest answer read
)

// errTimeout is the cause of the per-call timeout's context.
var errTimeout = errors.New("openai: call timed out")

// core is what a Client and an Embedder share: one server, one model and
// the error rules.
type core struct {
	profile string
	model   string
	apiKey  string
	timeout time.Duration
	httpc   *http.Client
	log     *slog.Logger
}

func newCore(profile, model, apiKey string, timeout time.Duration, httpc *http.Client, log *slog.Logger) core {
	if timeout <= 0 {
		timeout = defaultTimeout
	}
	if httpc == nil {
		httpc = &http.Client{}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return core{profile, model, apiKey, timeout, httpc, log}
}

// withTimeout applies the per-call timeout on top of the caller's context.
func (c *core) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, c.timeout, errTimeout)
}

// statusError is a non-2xx answer.
type statusError struct {
	status     int
	message    string // the server's message, scrubbed and shortened
	param      string
	code       string
	raw        string // the start of the body, lowercased, for field checks
	retryAfter time.Duration
	hasRetry   bool
}

// RetryAfter is the server's Retry-After, capped at maxRetryAfter; the
// failover layer finds it through an interface, without importing openai.
func (e *statusError) RetryAfter() (time.Duration, bool) {
	return min(e.retryAfter, maxRetryAfter), e.hasRetry
}

func (e *statusError) Error() string {
	if e.message == "" {
		return fmt.Sprintf("HTTP %d", e.status)
	}
	return fmt.Sprintf("HTTP %d: %s", e.status, e.message)
}

// rejects reports whether the server refused an unsupported request field,
// in OpenAI's or pydantic's ("Extra inputs are not permitted") words.
func (e *statusError) rejects(field string) bool {
	if e.status != http.StatusBadRequest && e.status != http.StatusUnprocessableEntity {
		return false
	}
	if e.param == field {
		return true
	}
	if !strings.Contains(e.raw, field) {
		return false
	}
	for _, w := range []string{"unsupported", "unrecognized", "unknown", "not supported", "not permitted", "not allowed", "extra"} {
		if strings.Contains(e.raw, w) {
			return true
		}
	}
	return false
}

// connError is a failure to get an answer: dial, reset, EOF, or a body
// that broke off.
type connError struct{ err error }

func (e *connError) Error() string { return e.err.Error() }
func (e *connError) Unwrap() error { return e.err }

// serverError is an error the server reported inside a 200 answer or a stream.
type serverError struct{ msg string }

func (e *serverError) Error() string { return e.msg }

// badOutputError is an answer that cannot be used.
type badOutputError struct{ msg string }

func (e *badOutputError) Error() string { return e.msg }

// post sends one request. A non-2xx answer is read, closed and returned as
// a *statusError; a transport failure as a *connError.
func (c *core) post(ctx context.Context, url string, body []byte, stream bool) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("new request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if stream {
		req.Header.Set("Accept", "text/event-stream")
	} else {
		req.Header.Set("Accept", "application/json")
	}
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.httpc.Do(req)
	if err != nil {
		return nil, &connError{err}
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return resp, nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	return nil, c.statusErr(resp, b)
}

// statusErr decodes an error answer: OpenAI's {"error": {...}}, a plain
// {"error": "..."}, vLLM's {"message": ...}, or any text.
func (c *core) statusErr(resp *http.Response, body []byte) *statusError {
	e := &statusError{status: resp.StatusCode, raw: strings.ToLower(c.scrub(snippet(body, 2048)))}
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &v) == nil {
		var we wireError
		switch {
		case len(v.Error) > 0 && v.Error[0] == '{' && json.Unmarshal(v.Error, &we) == nil:
			e.message, e.param, e.code = we.Message, rawString(we.Param), rawString(we.Code)
		case len(v.Error) > 0 && v.Error[0] == '"':
			e.message = rawString(v.Error)
		default:
			e.message = v.Message
		}
	}
	if e.message == "" {
		e.message = snippet(body, 200)
	}
	e.message = nadine.Shorten(c.scrub(e.message), 300)
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		e.retryAfter, e.hasRetry = retryAfter(resp.Header, time.Now())
	}
	return e
}

// retryAfter reads retry-after-ms (OpenAI, Azure) or Retry-After (seconds
// or an HTTP date).
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := h.Get("Retry-After-Ms"); v != "" {
		if ms, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// attemptFunc makes one exchange. delivered reports that output reached the
// caller (a streamed delta).
type attemptFunc func(ctx context.Context) (delivered bool, err error)

// exchange runs attempt again at once only when adapt dropped a refused
// field; any other failure is the caller's to retry.
func exchange(ctx context.Context, attempt attemptFunc, adapt func(error) bool) (int, error) {
	for attempts := 1; ; attempts++ {
		delivered, err := attempt(ctx)
		if err == nil || ctx.Err() != nil || delivered || adapt == nil || !adapt(err) {
			return attempts, err
		}
	}
}

// prefix starts every error message: "openai: profile small, model m: ".
func (c *core) prefix() string {
	if c.profile == "" {
		return "openai: model " + c.model + ": "
	}
	return "openai: profile " + c.profile + ", model " + c.model + ": "
}

// fail turns the last error of a call into a coded nadine error.
func (c *core) fail(ctx context.Context, err error, attempts int) error {
	if err == nil {
		return nil
	}
	var ne *nadine.Error
	if errors.As(err, &ne) {
		return err
	}
	after := ""
	if attempts > 1 {
		after = fmt.Sprintf(" after %d attempts", attempts)
	}
	p := c.prefix()
	if ctx.Err() != nil {
		switch {
		case context.Cause(ctx) == errTimeout:
			return &nadine.Error{Code: nadine.EUNAVAILABLE, Message: p + "timed out after " + c.timeout.String() + after, Err: context.DeadlineExceeded}
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			return &nadine.Error{Code: nadine.EUNAVAILABLE, Message: p + "timed out (caller's deadline)" + after + causeText(ctx), Err: ctx.Err()}
		default:
			return &nadine.Error{Code: nadine.EUNAVAILABLE, Message: p + "canceled" + after + causeText(ctx), Err: ctx.Err()}
		}
	}
	var se *statusError
	var ce *connError
	var be *badOutputError
	var sv *serverError
	switch {
	case errors.As(err, &se):
		code := nadine.HTTPStatusCode(se.status)
		switch {
		case code == nadine.ERATELIMIT:
			return c.errorf(code, err, "rate limited (HTTP %d)%s: %s", se.status, after, se.message)
		case se.status >= 500:
			return c.errorf(code, err, "server error (HTTP %d)%s: %s", se.status, after, se.message)
		case se.status == http.StatusUnauthorized || se.status == http.StatusForbidden:
			return c.errorf(code, err, "the server refused the credentials (HTTP %d): check the API key configured for this profile: %s", se.status, se.message)
		case se.status >= 400:
			return c.errorf(code, err, "request rejected (HTTP %d): %s", se.status, se.message)
		default:
			return c.errorf(code, err, "unexpected answer (HTTP %d): %s", se.status, se.message)
		}
	case errors.As(err, &ce):
		return c.errorf(nadine.EUNAVAILABLE, err, "connection failed%s: %v", after, ce.err)
	case errors.As(err, &sv):
		return c.errorf(nadine.EUNAVAILABLE, err, "the server reported an error: %s", sv.msg)
	case errors.As(err, &be):
		return c.errorf(nadine.EBADOUTPUT, err, "%s", be.msg)
	}
	return c.errorf(nadine.EINTERNAL, err, "%v", err)
}

// causeText is the cause the caller ended ctx with, so the trace's model
// call says why it was cut.
func causeText(ctx context.Context) string {
	c := context.Cause(ctx)
	if c == nil || c == ctx.Err() {
		return ""
	}
	return ": " + c.Error()
}

// errorf builds a coded error whose message has the prefix and no API key.
func (c *core) errorf(code string, cause error, format string, args ...any) *nadine.Error {
	return &nadine.Error{Code: code, Message: c.scrub(c.prefix() + fmt.Sprintf(format, args...)), Err: cause}
}

// scrub removes the API key, and anything that looks like one, from text
// that came from a server or a transport error (redact.Secrets).
func (c *core) scrub(s string) string { return redact.Secrets(s, c.apiKey) }

// snippet returns the start of b as printable text.
func snippet(b []byte, n int) string {
	s := strings.TrimSpace(string(b))
	s = nadine.Shorten(s, n)
	return strings.Map(func(r rune) rune {
		if r == utf8.RuneError || (r < 0x20 && r != ' ') {
			return ' '
		}
		return r
	}, s)
}
