package web_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/mqtt"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/sqlite"
	"github.com/nadine-robot/nadine/web"
)

// failsafe bounds every wait so that a broken build fails instead of
// hanging; no test asserts how long anything takes.
const failsafe = 20 * time.Second

// englishTranslator stands in for the translation service: it knows the
// French lines of these tests and marks anything else.
type englishTranslator struct{}

var english = map[string]string{
	"Bonjour":                                     "Hello",
	"Bonjour ! Je suis ravie de vous voir.":       "Hello! I am delighted to see you.",
	"Bonjour, quel plaisir de vous voir !":        "Hello, what a pleasure to see you!",
	"Bonjour Alex, je suis ravie de vous voir !":  "Hello Alex, I am delighted to see you!",
	"Bonjour Alex ! Quel plaisir de vous voir.":   "Hello Alex! What a pleasure to see you.",
	"Bonjour Alex, c'est un plaisir de vous voir": "Hello Alex, it is a pleasure to see you",
	// The offline engine's other French greetings.
	"Bonjour et bienvenue ! Je suis contente que vous soyez là.":    "Hello and welcome! I am glad you are here.",
	"Bonjour ! Quel plaisir de faire votre connaissance.":           "Hello! What a pleasure to meet you.",
	"Bonjour ! J'espère que vous passez une bonne journée.":         "Hello! I hope you are having a good day.",
	"Bonjour, comme c'est agréable d'avoir de la visite !":          "Hello, how nice to have a visitor!",
	"Bonjour Alex, bienvenue ! Je suis contente que vous soyez là.": "Hello Alex, welcome! I am glad you are here.",
	"Bonjour Alex, c'est un plaisir de vous revoir.":                "Hello Alex, it is a pleasure to see you again.",
	"Bonjour Alex ! J'espère que vous passez une bonne journée.":    "Hello Alex! I hope you are having a good day.",
}

func (englishTranslator) Translate(_ context.Context, text string, from, to nadine.Language) (string, error) {
	if to != nadine.English {
		return text, nil
	}
	if en, ok := english[text]; ok {
		return en, nil
	}
	return "[in English] " + text, nil
}

// logBuffer collects the server's logs, to check that no secret is logged.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

type fixtureOptions struct {
	token  string
	bus    bool        // run over a real MQTT bus on an embedded broker
	checks []web.Check // extra readiness checks
	info   web.Info
	// limits (web.Options' defaults when zero)
	maxStreams, maxTokenFailures int
	now                          func() time.Time
	stats                        web.StatsFunc // the Today view's figures
	metrics                      http.Handler  // GET /metrics
}

// fixture is `nadine serve` as the command wires it, offline: a SQLite
// store in a temporary directory, the dialogue manager with the offline
// engine, the robot runtime (optionally on a real MQTT bus), and the web
// server on a free loopback port.
type fixture struct {
	t      *testing.T
	url    string
	token  string
	store  *sqlite.Store
	rt     *robot.Runtime
	srv    *web.Server
	bus    *mqtt.Bus
	broker *mqtt.Broker
	logs   *logBuffer
	stop   func() // stops the runtime (idempotent)
}

func newFixture(t *testing.T, o fixtureOptions) *fixture {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "nadine.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m, err := dialogue.NewManager(dialogue.ManagerOptions{
		Engines:    []nadine.Engine{offline.New(offline.Options{Store: st})},
		History:    dialogue.NewHistory(st, lexical.New(0), dialogue.HistoryOptions{}),
		Profiles:   st,
		Translator: englishTranslator{},
	})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, token: o.token, store: st, logs: &logBuffer{}}
	log := slog.New(slog.NewTextHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))

	ropts := robot.Options{Manager: m, Names: st, Logger: log}
	var in <-chan nadine.Inbound
	checks := o.checks
	if o.bus {
		f.broker = mqtttest.StartBroker(t, "127.0.0.1:0")
		cctx, cancel := context.WithTimeout(ctx, failsafe)
		defer cancel()
		bus, err := mqtt.Connect(cctx, mqtt.Options{URL: f.broker.URL(), ClientID: "nadine-web-test",
			ReconnectMin: 10 * time.Millisecond, ReconnectMax: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cctx, cancel := context.WithTimeout(context.Background(), failsafe)
			defer cancel()
			_ = bus.Close(cctx)
		})
		f.bus, in, ropts.Body = bus, bus.Inbound(), bus
		ropts.Interruptions = robot.Interruptions{Mode: robot.InterruptWords} // as serve's default
		checks = append(checks, web.Check{Name: "mqtt", Check: func(context.Context) error {
			if !bus.Connected() {
				return nadine.Errorf(nadine.EUNAVAILABLE, "not connected")
			}
			return nil
		}})
	}
	rt, err := robot.New(ropts)
	if err != nil {
		t.Fatal(err)
	}
	f.rt = rt
	runCtx, stopRun := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- rt.Run(runCtx, in) }()
	var once sync.Once
	f.stop = func() {
		once.Do(func() {
			stopRun()
			if err := <-done; err != nil {
				t.Errorf("runtime: %v", err)
			}
		})
	}
	t.Cleanup(f.stop)

	srv, err := web.Start(ctx, web.Options{
		Addr: "127.0.0.1:0", Token: o.token, Runtime: rt, Store: st, Info: o.info, Checks: checks,
		Heartbeat: 50 * time.Millisecond, Logger: log,
		MaxStreams: o.maxStreams, MaxTokenFailures: o.maxTokenFailures, Now: o.now,
		Stats: o.stats, Metrics: o.metrics,
	})
	if err != nil {
		t.Fatal(err)
	}
	f.srv, f.url = srv, srv.URL()
	t.Cleanup(func() {
		cctx, cancel := context.WithTimeout(context.Background(), failsafe)
		defer cancel()
		if err := srv.Close(cctx); err != nil {
			t.Errorf("close: %v", err)
		}
		if o.token != "" && strings.Contains(f.logs.String(), o.token) {
			t.Errorf("the token appears in the server's logs")
		}
	})
	return f
}

// request builds a request to the fixture's server: the token when one is
// set, JSON content type when there is a body.
func (f *fixture) request(method, path, body string) *http.Request {
	f.t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, f.url+path, r)
	if err != nil {
		f.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if f.token != "" {
		req.Header.Set("Authorization", "Bearer "+f.token)
	}
	return req
}

// send sends a request and returns the status and the body.
func (f *fixture) send(req *http.Request) (int, []byte) {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(req.Context(), failsafe)
	defer cancel()
	res, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	if f.token != "" && bytes.Contains(b, []byte(f.token)) {
		f.t.Errorf("%s %s: the response holds the token", req.Method, req.URL.Path)
	}
	return res.StatusCode, b
}

// call sends a request and decodes a JSON answer into out (when not nil),
// failing the test when the status is not want.
func (f *fixture) call(method, path, body string, want int, out any) []byte {
	f.t.Helper()
	got, b := f.send(f.request(method, path, body))
	if got != want {
		f.t.Fatalf("%s %s: status %d, want %d: %s", method, path, got, want, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			f.t.Fatalf("%s %s: %v: %s", method, path, err, b)
		}
	}
	return b
}

// errorBody is the API's error.
type errorBody struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

// sseEvent is one Server-Sent Event.
type sseEvent struct {
	Name string
	Data string
}

// openStream sends a request whose answer is an event stream and returns
// its events, in order, until the stream ends (the channel is then closed).
func (f *fixture) openStream(req *http.Request) (<-chan sseEvent, func()) {
	f.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	res, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		cancel()
		f.t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		cancel()
		f.t.Fatalf("%s %s: status %d: %s", req.Method, req.URL.Path, res.StatusCode, b)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		f.t.Errorf("Content-Type %q, want text/event-stream", ct)
	}
	ch := make(chan sseEvent, 1024)
	go func() {
		defer close(ch)
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.Data != "" {
					ch <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "event: "):
				ev.Name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.Data += strings.TrimPrefix(line, "data: ")
			case strings.HasPrefix(line, ":"):
				ch <- sseEvent{Name: ":comment"}
			}
		}
	}()
	return ch, cancel
}

// next returns the next event of a stream, skipping comments.
func next(t *testing.T, ch <-chan sseEvent) (sseEvent, bool) {
	t.Helper()
	timeout := time.After(failsafe)
	for {
		select {
		case ev, ok := <-ch:
			if !ok {
				return sseEvent{}, false
			}
			if ev.Name == ":comment" {
				continue
			}
			return ev, true
		case <-timeout:
			t.Fatal("no event on the stream")
		}
	}
}

// until returns the events of a stream up to and including the first for
// which stop is true.
func until(t *testing.T, ch <-chan sseEvent, stop func(sseEvent) bool) []sseEvent {
	t.Helper()
	var out []sseEvent
	for {
		ev, ok := next(t, ch)
		if !ok {
			t.Fatalf("stream ended after %d events", len(out))
		}
		out = append(out, ev)
		if stop(ev) {
			return out
		}
	}
}

func decode[T any](t *testing.T, data string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
	return v
}

// eventually polls cond until it holds, or fails after failsafe.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(failsafe)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
