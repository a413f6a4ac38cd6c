package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/sqlite"
	"github.com/nadine-robot/nadine/web"
)

// fuzzServer is the web API over a real runtime, dialogue manager (offline
// engine) and SQLite store, served in process.
func fuzzServer(f *testing.F) http.Handler {
	f.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(f.TempDir(), "nadine.db"), sqlite.Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	m, err := dialogue.NewManager(dialogue.ManagerOptions{
		Engines: []nadine.Engine{offline.New(offline.Options{Store: st})},
		History: dialogue.NewHistory(st, lexical.New(0), dialogue.HistoryOptions{}), Profiles: st,
	})
	if err != nil {
		f.Fatal(err)
	}
	rt, err := robot.New(robot.Options{Manager: m, Names: st})
	if err != nil {
		f.Fatal(err)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- rt.Run(runCtx, nil) }()
	f.Cleanup(func() { stop(); <-done })
	srv, err := web.New(web.Options{Addr: "127.0.0.1:0", Runtime: rt, Store: st})
	if err != nil {
		f.Fatal(err)
	}
	if w := post(srv, http.MethodPost, "/api/turns", `{"text": "Hello Nadine!"}`); w.Code != http.StatusOK {
		f.Fatalf("a plain turn: %d %s", w.Code, w.Body.String())
	}
	return srv
}

// post sends a JSON body to the API as the monitor page does.
func post(srv http.Handler, method, path, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.Host = "127.0.0.1:8080"
	req.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, req)
	return w
}

// FuzzAPIBodies posts the JSON bodies of the web API as scripts and
// browsers send them (and get them wrong) to every endpoint that takes
// one: nothing panics, a bad body is a 4xx with a JSON error, never a 5xx.
func FuzzAPIBodies(f *testing.F) {
	for _, s := range []struct {
		endpoint uint8
		body     string
	}{
		{0, `{"text": "Hello Nadine!"}`},
		{0, `{"text": "Bonjour", "user_name": "Alex", "user_emotion": "happy", "language": "fr-CH", "turn_id": "t-1"}`},
		{0, `{"text": "Hi", "user_id": "alex-1"}`},
		{0, `{"text": ""}`},
		{0, `{"text": 5}`},
		{0, `{"text": "Hi", "unknown": true}`},
		{0, `{"text": "Hi"} {"text": "again"}`},
		{0, `[1, 2]`},
		{1, `{"language": "de"}`},
		{1, `{"language": "klingon"}`},
		{1, `{"language": ""}`},
		{2, ``},
		{2, `{}`},
	} {
		f.Add(s.endpoint, s.body)
	}
	srv := fuzzServer(f)
	endpoints := []struct{ method, path string }{
		{http.MethodPost, "/api/turns"}, {http.MethodPut, "/api/language"}, {http.MethodPost, "/api/session/end"},
	}
	f.Fuzz(func(t *testing.T, e uint8, body string) {
		ep := endpoints[int(e)%len(endpoints)]
		w := post(srv, ep.method, ep.path, body)
		if w.Code >= 500 {
			t.Fatalf("%s %s %q: %d %s", ep.method, ep.path, body, w.Code, w.Body.String())
		}
		if !json.Valid(w.Body.Bytes()) {
			t.Fatalf("%s %s %q: %d, body is not JSON: %q", ep.method, ep.path, body, w.Code, w.Body.String())
		}
	})
}
