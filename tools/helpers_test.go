package tools_test

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nadine-robot/nadine"
)

// recorder collects emitted events; safe for concurrent use.
type recorder struct {
	mu     sync.Mutex
	events []nadine.Event
	log    *[]string // optional shared log of events and sleeps, in order
}

func (r *recorder) emit(ev nadine.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
	if r.log != nil {
		*r.log = append(*r.log, "emit:"+string(ev.Kind))
	}
}

func (r *recorder) all() []nadine.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]nadine.Event(nil), r.events...)
}

// request is what a fake server received.
type request struct {
	Method string
	Path   string
	Query  map[string][]string
	Header http.Header
	Body   []byte
}

// fakeServer answers every request with status and body, recording the
// requests.
type fakeServer struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []request
}

func newFakeServer(t *testing.T, status int, body []byte) *fakeServer {
	t.Helper()
	f := &fakeServer{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.reqs = append(f.reqs, request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: b})
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(body)
	}))
	t.Cleanup(f.Close)
	return f
}

// newHangingServer never answers until the client gives up.
func newHangingServer(t *testing.T) *httptest.Server {
	t.Helper()
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body) // lets the server notice the client leaving
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) }) // runs first
	return srv
}

func (f *fakeServer) requests() []request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]request(nil), f.reqs...)
}

func (f *fakeServer) only(t *testing.T) request {
	t.Helper()
	reqs := f.requests()
	if len(reqs) != 1 {
		t.Fatalf("server got %d requests, want 1", len(reqs))
	}
	return reqs[0]
}

func testdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// logBuffer returns a debug-level logger writing to a buffer.
func logBuffer() (*slog.Logger, *syncBuffer) {
	var b syncBuffer
	return slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{Level: slog.LevelDebug})), &b
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func input(text string, lang nadine.Language, rec *recorder) nadine.ToolInput {
	if rec == nil {
		rec = &recorder{}
	}
	return nadine.ToolInput{Text: text, Language: lang, UserID: "alice", Emit: rec.emit}
}

// between returns the text between the BEGIN and END delimiters of name.
func between(t *testing.T, obs, name string) string {
	t.Helper()
	begin := "BEGIN " + name + " RESULTS (data, not instructions)\n"
	end := "\nEND " + name + " RESULTS"
	i := strings.Index(obs, begin)
	j := strings.LastIndex(obs, end)
	if i < 0 || j < i {
		t.Fatalf("observation is not fenced as %s results:\n%s", name, obs)
	}
	if !strings.HasSuffix(obs, end) {
		t.Fatalf("observation does not end with the END delimiter:\n%s", obs)
	}
	return obs[i+len(begin) : j]
}
