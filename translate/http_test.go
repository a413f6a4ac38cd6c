package translate_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/translate"
)

const secretKey = "sk-libre-SECRET-1234"

// libreServer is a fake LibreTranslate: it records each request's decoded
// body and answers with status and body.
type libreServer struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []map[string]any
	status int
	answer string
}

func newLibreServer(t *testing.T, status int, answer string) *libreServer {
	t.Helper()
	s := &libreServer{status: status, answer: answer}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/translate" {
			http.Error(w, `{"error":"Not Found"}`, http.StatusNotFound)
			return
		}
		if ct := r.Header.Get("Content-Type"); ct != "application/json" {
			http.Error(w, `{"error":"bad content type `+ct+`"}`, http.StatusBadRequest)
			return
		}
		raw, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(raw, &body); err != nil {
			http.Error(w, `{"error":"Invalid request: bad JSON"}`, http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.bodies = append(s.bodies, body)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(s.status)
		io.WriteString(w, s.answer)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *libreServer) received() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]any(nil), s.bodies...)
}

func TestHTTPTranslate(t *testing.T) {
	srv := newLibreServer(t, http.StatusOK, `{"translatedText":"It is 12 degrees in Geneva."}`)
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	h := &translate.HTTP{BaseURL: srv.URL + "/", APIKey: secretKey, Now: func() time.Time { return start }}
	trace := nadine.NewTrace("t1", "", start)
	ctx := nadine.WithTrace(context.Background(), trace)

	got, err := h.Translate(ctx, "Il fait 12 degrés à Genève.", nadine.French, nadine.English)
	if err != nil {
		t.Fatal(err)
	}
	if want := "It is 12 degrees in Geneva."; got != want {
		t.Errorf("Translate = %q, want %q", got, want)
	}
	bodies := srv.received()
	if len(bodies) != 1 {
		t.Fatalf("%d requests, want 1", len(bodies))
	}
	wantBody := map[string]any{"q": "Il fait 12 degrés à Genève.", "source": "fr", "target": "en", "format": "text", "api_key": secretKey}
	if !equalJSON(bodies[0], wantBody) {
		t.Errorf("body = %v, want %v", bodies[0], wantBody)
	}

	calls := trace.Snapshot().ToolCalls
	if len(calls) != 1 {
		t.Fatalf("trace has %d tool calls, want 1", len(calls))
	}
	c := calls[0]
	if c.Tool != "translate" || c.Output != "It is 12 degrees in Geneva." || c.Error != "" || !c.Start.Equal(start) {
		t.Errorf("trace tool call = %+v", c)
	}
	if !strings.Contains(c.Input, `"source":"fr"`) || !strings.Contains(c.Input, "Genève") {
		t.Errorf("trace input = %q, want the request", c.Input)
	}
	if strings.Contains(c.Input, secretKey) || strings.Contains(c.Input, "api_key") {
		t.Errorf("trace input %q contains the API key", c.Input)
	}
}

func TestHTTPTranslateAutoSourceNoKey(t *testing.T) {
	srv := newLibreServer(t, http.StatusOK, `{"detectedLanguage":{"confidence":90,"language":"fr"},"translatedText":"Hallo!"}`)
	h := &translate.HTTP{BaseURL: srv.URL, Codes: map[nadine.Language]string{nadine.Chinese: "zh-Hans"}}
	got, err := h.Translate(context.Background(), "Bonjour !", "", nadine.German)
	if err != nil || got != "Hallo!" {
		t.Fatalf("Translate = %q, %v; want Hallo!", got, err)
	}
	if _, err := h.Translate(context.Background(), "Bonjour !", nadine.French, nadine.Chinese); err != nil {
		t.Fatal(err)
	}
	bodies := srv.received()
	if len(bodies) != 2 {
		t.Fatalf("%d requests, want 2", len(bodies))
	}
	if want := (map[string]any{"q": "Bonjour !", "source": "auto", "target": "de", "format": "text"}); !equalJSON(bodies[0], want) {
		t.Errorf("body = %v, want %v (no api_key without a key)", bodies[0], want)
	}
	if got := bodies[1]["target"]; got != "zh-Hans" {
		t.Errorf("target = %v, want the overridden code zh-Hans", got)
	}
}

func TestHTTPTranslateErrors(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		answer   string
		wantCode string
		wantMsg  string // substring of the error
	}{
		{"bad request", 400, `{"error":"fr is not supported"}`, nadine.EINVALID, "fr is not supported"},
		{"forbidden key", 403, `{"error":"Invalid API key ` + secretKey + `"}`, nadine.EINVALID, "HTTP 403"},
		{"rate limited", 429, `{"error":"Slowdown: 10 per 1 minute"}`, nadine.ERATELIMIT, "Slowdown"},
		{"server error", 500, `{"error":"translation failed"}`, nadine.EUNAVAILABLE, "translation failed"},
		{"bad gateway, no JSON", 502, `<html>Bad Gateway</html>`, nadine.EUNAVAILABLE, "Bad Gateway"},
		{"garbage", 200, `not json`, nadine.EBADOUTPUT, "decode"},
		{"no translatedText", 200, `{}`, nadine.EBADOUTPUT, "translatedText"},
		{"empty translatedText", 200, `{"translatedText":"  "}`, nadine.EBADOUTPUT, "translatedText"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newLibreServer(t, tt.status, tt.answer)
			h := &translate.HTTP{BaseURL: srv.URL, APIKey: secretKey}
			trace := nadine.NewTrace("t", "", time.Now())
			ctx := nadine.WithTrace(context.Background(), trace)
			got, err := h.Translate(ctx, "Bonjour", nadine.French, nadine.English)
			if err == nil {
				t.Fatalf("Translate = %q, nil; want an error", got)
			}
			if code := nadine.ErrorCode(err); code != tt.wantCode {
				t.Errorf("error %q has code %q, want %q", err, code, tt.wantCode)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q does not mention %q", err, tt.wantMsg)
			}
			if strings.Contains(err.Error(), secretKey) {
				t.Errorf("error %q contains the API key", err)
			}
			calls := trace.Snapshot().ToolCalls
			if len(calls) != 1 || calls[0].Error == "" || strings.Contains(calls[0].Error, secretKey) {
				t.Errorf("trace tool calls = %+v, want one failed call without the key", calls)
			}
		})
	}
}

func TestHTTPTranslateUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there any more
	h := &translate.HTTP{BaseURL: url, APIKey: secretKey}
	_, err := h.Translate(context.Background(), "Bonjour", nadine.French, nadine.English)
	if code := nadine.ErrorCode(err); code != nadine.EUNAVAILABLE {
		t.Errorf("error %v has code %q, want %q", err, code, nadine.EUNAVAILABLE)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	live := newLibreServer(t, 200, `{"translatedText":"Hello"}`)
	h.BaseURL = live.URL
	_, err = h.Translate(ctx, "Bonjour", nadine.French, nadine.English)
	if code := nadine.ErrorCode(err); code != nadine.EUNAVAILABLE || !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: error %v (code %q), want %q wrapping context.Canceled", err, code, nadine.EUNAVAILABLE)
	}
}

func TestHTTPTranslateNoCall(t *testing.T) {
	srv := newLibreServer(t, 200, `{"translatedText":"x"}`)
	tests := []struct {
		name     string
		h        *translate.HTTP
		text     string
		from, to nadine.Language
		want     string
		wantCode string
	}{
		{"no URL", &translate.HTTP{}, "Bonjour", nadine.French, nadine.English, "", nadine.EINVALID},
		{"bad target", &translate.HTTP{BaseURL: srv.URL}, "Bonjour", nadine.French, "it", "", nadine.EINVALID},
		{"same language", &translate.HTTP{BaseURL: srv.URL}, "Bonjour", nadine.French, nadine.French, "Bonjour", ""},
		{"empty text", &translate.HTTP{BaseURL: srv.URL}, " ", "", nadine.French, " ", ""},
	}
	for _, tt := range tests {
		got, err := tt.h.Translate(context.Background(), tt.text, tt.from, tt.to)
		if got != tt.want || nadine.ErrorCode(err) != tt.wantCode {
			t.Errorf("%s: Translate = %q, %v; want %q with code %q", tt.name, got, err, tt.want, tt.wantCode)
		}
	}
	if n := len(srv.received()); n != 0 {
		t.Errorf("%d requests, want 0", n)
	}
}

// equalJSON compares decoded JSON objects with string values.
func equalJSON(got, want map[string]any) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}
