package openai_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/openai"
)

// newClient returns a client for srv in tools mode (every field of a
// request goes over the wire); edit adjusts the config.
func newClient(t testing.TB, srv *llmtest.Server, edit func(*openai.Config)) *openai.Client {
	t.Helper()
	cfg := openai.Config{Profile: "small", BaseURL: srv.URL(), Model: "test-model", Structured: nadine.StructuredTools}
	if edit != nil {
		edit(&cfg)
	}
	c, err := openai.New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

// traced returns a context with a fresh trace.
func traced() (context.Context, *nadine.Trace) {
	tr := nadine.NewTrace("t1", "input", time.Now())
	return nadine.WithTrace(context.Background(), tr), tr
}

// onlyCall returns the trace's single model call.
func onlyCall(t *testing.T, tr *nadine.Trace) nadine.ModelCall {
	t.Helper()
	calls := tr.Snapshot().ModelCalls
	if len(calls) != 1 {
		t.Fatalf("trace has %d model calls, want 1: %+v", len(calls), calls)
	}
	return calls[0]
}

func user(text string) nadine.ChatRequest {
	return nadine.ChatRequest{Role: "tester", Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Content: text}}}
}

// wantCode fails the test unless err carries code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want code %s", code)
	}
	if got := nadine.ErrorCode(err); got != code {
		t.Fatalf("got code %s (%v), want %s", got, err, code)
	}
}

// logBuffer is a slog handler's output, safe for concurrent writes.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// redirect returns an HTTP client that sends every request to target,
// whatever its URL says (to act as api.openai.com).
func redirect(target string) *http.Client {
	u, _ := url.Parse(target)
	return &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.URL.Scheme, r.URL.Host = u.Scheme, u.Host
		r.Host = u.Host
		return http.DefaultTransport.RoundTrip(r)
	})}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
