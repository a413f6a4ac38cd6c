package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/openai"
)

// TestFailuresAreOneAttempt: a server error, a rate limit, a dropped
// connection or a truncated body ends the call after one request, with
// the code the failover layer retries on (it owns the retries).
func TestFailuresAreOneAttempt(t *testing.T) {
	tests := []struct {
		name   string
		fault  func(*llmtest.Rule)
		stream bool
		code   string
	}{
		{"500", func(r *llmtest.Rule) { r.Fail(500) }, false, nadine.EUNAVAILABLE},
		{"502 stream", func(r *llmtest.Rule) { r.Fail(502) }, true, nadine.EUNAVAILABLE},
		{"503", func(r *llmtest.Rule) { r.Fail(503) }, false, nadine.EUNAVAILABLE},
		{"connection dropped", func(r *llmtest.Rule) { r.Disconnect() }, false, nadine.EUNAVAILABLE},
		{"connection dropped stream", func(r *llmtest.Rule) { r.Disconnect() }, true, nadine.EUNAVAILABLE},
		{"truncated body", func(r *llmtest.Rule) { r.Reply("cut short").AbortAfter(1) }, false, nadine.EUNAVAILABLE},
		{"429 without Retry-After", func(r *llmtest.Rule) { r.Fail(429) }, false, nadine.ERATELIMIT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t)
			tt.fault(srv.On(nil).Once())
			srv.Default().Reply("not asked")
			c := newClient(t, srv, nil)
			ctx, tr := traced()
			var err error
			if tt.stream {
				_, err = c.ChatStream(ctx, user("hi"), nil)
			} else {
				_, err = c.Chat(ctx, user("hi"))
			}
			wantCode(t, err, tt.code)
			if !strings.HasPrefix(err.Error(), "openai: profile small, model test-model: ") {
				t.Errorf("message: got %q, want the profile and model named", err)
			}
			if call := onlyCall(t, tr); call.Attempts != 1 || call.Error != err.Error() {
				t.Errorf("trace: attempts %d error %q, want 1 and %q", call.Attempts, call.Error, err)
			}
			if got := len(srv.ChatRequests()); got != 1 {
				t.Errorf("requests: got %d, want 1", got)
			}
			var ra interface{ RetryAfter() (time.Duration, bool) }
			if errors.As(err, &ra) {
				if d, ok := ra.RetryAfter(); ok {
					t.Errorf("Retry-After %v without the header", d)
				}
			}
		})
	}
}

// TestRetryAfter: a 429 or 503's Retry-After (seconds, a fraction, an HTTP
// date, or retry-after-ms) reaches the failover layer through the error,
// capped at 30 seconds.
func TestRetryAfter(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		header   string
		wantWait time.Duration
	}{
		{"429 seconds", 429, "1", time.Second},
		{"503 seconds", 503, "2", 2 * time.Second},
		{"429 fraction", 429, "0.25", 250 * time.Millisecond},
		{"429 capped", 429, "120", 30 * time.Second},
		{"429 http date capped", 429, "Wed, 01 Jan 2099 00:00:00 GMT", 30 * time.Second},
		{"429 http date in the past", 429, "Mon, 01 Jan 2001 00:00:00 GMT", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.On(nil).Once().Fail(tt.status).RetryAfterHeader(tt.header)
			c := newClient(t, srv, nil)
			_, err := c.Chat(context.Background(), user("hi"))
			var ra interface{ RetryAfter() (time.Duration, bool) }
			if !errors.As(err, &ra) {
				t.Fatalf("%v carries no Retry-After", err)
			}
			if d, ok := ra.RetryAfter(); !ok || d != tt.wantWait {
				t.Errorf("Retry-After: got %v, %v; want %v", d, ok, tt.wantWait)
			}
		})
	}
	t.Run("embeddings", func(t *testing.T) {
		srv := llmtest.New(t)
		srv.OnEmbeddings(nil).Fail(429).RetryAfter(3)
		_, err := newEmbedder(t, srv, nil).Embed(context.Background(), []string{"a"})
		var ra interface{ RetryAfter() (time.Duration, bool) }
		if !errors.As(err, &ra) {
			t.Fatalf("%v carries no Retry-After", err)
		}
		if d, ok := ra.RetryAfter(); !ok || d != 3*time.Second {
			t.Errorf("Retry-After: got %v, %v; want 3s", d, ok)
		}
	})
}

func TestNoRetryOnClientErrors(t *testing.T) {
	tests := []struct {
		status int
		want   string // in the message
	}{
		{400, "request rejected (HTTP 400)"},
		{404, "request rejected (HTTP 404): model not here"},
		{422, "request rejected (HTTP 422)"},
		{403, "check the API key"},
	}
	for _, tt := range tests {
		srv := llmtest.New(t)
		srv.Default().Fail(tt.status).Message("model not here")
		c := newClient(t, srv, nil)
		_, err := c.Chat(context.Background(), user("hi"))
		wantCode(t, err, nadine.EINVALID)
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%d: message %q, want it to contain %q", tt.status, err, tt.want)
		}
		if got := len(srv.ChatRequests()); got != 1 {
			t.Errorf("%d: %d requests, want 1", tt.status, got)
		}
	}
}

func TestUnmatchedRuleIsVisible(t *testing.T) {
	srv := llmtest.New(t)
	c := newClient(t, srv, nil)
	_, err := c.Chat(context.Background(), user("sing me a song"))
	wantCode(t, err, nadine.EINVALID)
	if !strings.Contains(err.Error(), "llmtest: no rule matched: sing me a song") {
		t.Errorf("message: got %q", err)
	}
}

func TestTimeout(t *testing.T) {
	for _, stream := range []bool{false, true} {
		srv := llmtest.New(t)
		srv.Default().Hang()
		c := newClient(t, srv, func(c *openai.Config) { c.Timeout = 200 * time.Millisecond })
		ctx, tr := traced()
		var err error
		if stream {
			_, err = c.ChatStream(ctx, user("hi"), nil)
		} else {
			_, err = c.Chat(ctx, user("hi"))
		}
		wantCode(t, err, nadine.EUNAVAILABLE)
		if got, want := err.Error(), "openai: profile small, model test-model: timed out after 200ms"; got != want {
			t.Errorf("stream %v: message %q, want %q", stream, got, want)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("stream %v: %v is not a deadline error", stream, err)
		}
		if call := onlyCall(t, tr); call.Attempts != 1 || call.Error != err.Error() {
			t.Errorf("stream %v: trace %+v", stream, call)
		}
	}
}

func TestStreamTimeoutMidway(t *testing.T) {
	srv := llmtest.New(t)
	srv.Default().Reply("one two three four five six").Delay(time.Hour)
	c := newClient(t, srv, func(c *openai.Config) { c.Timeout = 200 * time.Millisecond })
	var deltas []string
	_, err := c.ChatStream(context.Background(), user("hi"), func(d string) { deltas = append(deltas, d) })
	wantCode(t, err, nadine.EUNAVAILABLE)
	if !strings.Contains(err.Error(), "timed out after 200ms") || len(srv.ChatRequests()) != 1 {
		t.Errorf("got %v after %d requests", err, len(srv.ChatRequests()))
	}
}

func TestCallerCancel(t *testing.T) {
	srv := llmtest.New(t)
	srv.Default().Hang()
	c := newClient(t, srv, nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(srv.ChatRequests()) == 0 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	_, err := c.Chat(ctx, user("hi"))
	wantCode(t, err, nadine.EUNAVAILABLE)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("got %v, want a cancellation", err)
	}
}

func TestStreamNotRetriedAfterOutput(t *testing.T) {
	srv := llmtest.New(t)
	srv.On(nil).Once().Reply("one two three four").AbortAfter(2)
	srv.Default().Reply("should not be asked")
	c := newClient(t, srv, nil)
	ctx, tr := traced()
	var deltas []string
	_, err := c.ChatStream(ctx, user("hi"), func(d string) { deltas = append(deltas, d) })
	wantCode(t, err, nadine.EUNAVAILABLE)
	if got := strings.Join(deltas, ""); got != "one two " {
		t.Errorf("deltas: got %q, want %q", got, "one two ")
	}
	if got := len(srv.ChatRequests()); got != 1 {
		t.Errorf("got %d requests, want 1", got)
	}
	if call := onlyCall(t, tr); call.Attempts != 1 || !call.Stream || call.Error == "" {
		t.Errorf("trace: got %+v", call)
	}
}

func TestBadOutput(t *testing.T) {
	t.Run("garbage", func(t *testing.T) {
		for _, stream := range []bool{false, true} {
			srv := llmtest.New(t)
			srv.Default().Garbage()
			c := newClient(t, srv, nil)
			ctx, tr := traced()
			var err error
			if stream {
				_, err = c.ChatStream(ctx, user("hi"), nil)
			} else {
				_, err = c.Chat(ctx, user("hi"))
			}
			wantCode(t, err, nadine.EBADOUTPUT)
			if !strings.HasPrefix(err.Error(), "openai: profile small, model test-model: undecodable") {
				t.Errorf("stream %v: message %q", stream, err)
			}
			if call := onlyCall(t, tr); call.Attempts != 1 {
				t.Errorf("stream %v: attempts %d, want 1 (no retry)", stream, call.Attempts)
			}
		}
	})
	bodies := []struct {
		name, body, code string
	}{
		{"no choices", `{"id":"x","choices":[],"usage":{"prompt_tokens":1}}`, nadine.EBADOUTPUT},
		{"refusal", `{"choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I cannot help."},"finish_reason":"stop"}]}`, nadine.EBADOUTPUT},
		{"error in 200", `{"error":{"message":"backend crashed"}}`, nadine.EUNAVAILABLE},
	}
	for _, tt := range bodies {
		t.Run(tt.name, func(t *testing.T) {
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.Write([]byte(tt.body))
			}))
			defer hs.Close()
			c, err := openai.New(openai.Config{BaseURL: hs.URL + "/v1", Model: "m"})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Chat(context.Background(), user("hi"))
			wantCode(t, err, tt.code)
		})
	}
}

func TestStreamEvents(t *testing.T) {
	tests := []struct {
		name     string
		body     string
		want     string
		wantTool nadine.ToolCall
		code     string
	}{
		{
			name: "comments, CRLF and no space after data",
			body: ": keep-alive\r\n\r\ndata:{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi \"}}]}\r\n\r\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"there\"},\"finish_reason\":\"stop\"}]}\r\n\r\ndata: [DONE]\r\n\r\n",
			want: "Hi there",
		},
		{
			name: "no [DONE] after a finish reason",
			body: "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"ok\"},\"finish_reason\":\"stop\"}]}\n\n",
			want: "ok",
		},
		{
			name: "whole tool calls at index 0 (Ollama)",
			body: "data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"x\\\":1}\"}}]}}]}\n\n" +
				"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"b\",\"type\":\"function\",\"function\":{\"name\":\"g\",\"arguments\":\"{}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n",
			wantTool: nadine.ToolCall{ID: "b", Name: "g", Arguments: "{}"},
		},
		{
			name: "not an event stream",
			body: "<html><body>Bad gateway</body></html>",
			code: nadine.EBADOUTPUT,
		},
		{
			name: "error event",
			body: "data: {\"error\":{\"message\":\"model crashed\"}}\n\n",
			code: nadine.EUNAVAILABLE,
		},
		{
			name: "ends early",
			body: "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}\n\n",
			code: nadine.EUNAVAILABLE,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				w.Write([]byte(tt.body))
			}))
			defer hs.Close()
			c, err := openai.New(openai.Config{BaseURL: hs.URL + "/v1", Model: "m"})
			if err != nil {
				t.Fatal(err)
			}
			resp, err := c.ChatStream(context.Background(), user("hi"), nil)
			if tt.code != "" {
				wantCode(t, err, tt.code)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if resp.Content != tt.want {
				t.Errorf("content: got %q, want %q", resp.Content, tt.want)
			}
			if tt.wantTool.ID != "" && (len(resp.ToolCalls) != 2 || resp.ToolCalls[1] != tt.wantTool) {
				t.Errorf("tool calls: got %+v, want two, the second %+v", resp.ToolCalls, tt.wantTool)
			}
		})
	}
}

func TestConnectionRefused(t *testing.T) {
	hs := httptest.NewServer(http.NotFoundHandler())
	base := hs.URL + "/v1"
	hs.Close()
	c, err := openai.New(openai.Config{Profile: "small", BaseURL: base, Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, tr := traced()
	_, err = c.Chat(ctx, user("hi"))
	wantCode(t, err, nadine.EUNAVAILABLE)
	if !strings.Contains(err.Error(), "connection failed: ") || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("message: got %q, want a refused connection the failover layer can tell", err)
	}
	if got := onlyCall(t, tr).Attempts; got != 1 {
		t.Errorf("attempts %d, want 1", got)
	}
}

func TestAPIKeyNeverShown(t *testing.T) {
	const key = "sk-secret-0123456789abcdefXYZ"
	srv := llmtest.New(t, llmtest.WithAPIKey(key))
	// A server that echoes the key in its messages, to check scrubbing.
	srv.On(llmtest.MatchLastUser("boom")).Fail(500).Message("internal error while using key " + key)
	srv.On(llmtest.MatchLastUser("forbidden")).Fail(401).Message("key " + key + " is revoked")
	srv.Default().Reply("ok")

	var logs logBuffer
	good := newClient(t, srv, func(c *openai.Config) { c.APIKey = key; c.Logger = logs.logger() })
	wrong := newClient(t, srv, func(c *openai.Config) { c.APIKey = key + "-old"; c.Logger = logs.logger() })

	ctx, tr := traced()
	if _, err := good.Chat(ctx, user("hello")); err != nil {
		t.Fatalf("right key: %v", err)
	}
	tests := []struct {
		name   string
		client *openai.Client
		text   string
		code   string
		want   string
	}{
		{"401 wrong key", wrong, "hello", nadine.EINVALID, "check the API key"},
		{"401 echoing the key", good, "forbidden", nadine.EINVALID, "check the API key"},
		{"500 echoing the key", good, "boom", nadine.EUNAVAILABLE, "[redacted]"},
	}
	for _, tt := range tests {
		_, err := tt.client.Chat(ctx, user(tt.text))
		wantCode(t, err, tt.code)
		if !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: message %q, want it to contain %q", tt.name, err, tt.want)
		}
		if strings.Contains(err.Error(), key) || strings.Contains(err.Error(), "sk-") {
			t.Errorf("%s: message shows the key: %q", tt.name, err)
		}
	}
	trace, _ := json.Marshal(tr)
	for what, text := range map[string]string{"logs": logs.String(), "trace": string(trace)} {
		if strings.Contains(text, key) {
			t.Errorf("%s show the key:\n%s", what, text)
		}
	}
	if !strings.Contains(logs.String(), "chat failed") {
		t.Errorf("logs: want the failure of the 500 logged, got:\n%s", logs.String())
	}
}

func TestConfigValidation(t *testing.T) {
	tests := []struct {
		name  string
		cfg   openai.Config
		field string // named in the error; "" for a valid config
	}{
		{"valid", openai.Config{Model: "m"}, ""},
		{"valid local", openai.Config{Model: "m", BaseURL: "http://localhost:11434/v1/"}, ""},
		{"no model", openai.Config{}, "Model"},
		{"blank model", openai.Config{Model: "  "}, "Model"},
		{"unparseable base URL", openai.Config{Model: "m", BaseURL: "http://[::1"}, "BaseURL"},
		{"base URL without scheme", openai.Config{Model: "m", BaseURL: "localhost:8080"}, "BaseURL"},
		{"ftp base URL", openai.Config{Model: "m", BaseURL: "ftp://host/v1"}, "BaseURL"},
		{"negative timeout", openai.Config{Model: "m", Timeout: -time.Second}, "Timeout"},
		{"negative max tokens", openai.Config{Model: "m", MaxTokens: -1}, "MaxTokens"},
		{"temperature too high", openai.Config{Model: "m", Temperature: ptr(3.0)}, "Temperature"},
	}
	for _, tt := range tests {
		_, err := openai.New(tt.cfg)
		if tt.field == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		wantCode(t, err, nadine.EINVALID)
		if !strings.Contains(err.Error(), tt.field) || !strings.HasPrefix(err.Error(), "openai: ") {
			t.Errorf("%s: message %q, want it to name %s", tt.name, err, tt.field)
		}
	}
}

func TestInvalidRequests(t *testing.T) {
	tests := []struct {
		name string
		req  nadine.ChatRequest
	}{
		{"no messages", nadine.ChatRequest{}},
		{"unknown role", nadine.ChatRequest{Messages: []nadine.ChatMessage{{Role: "robot", Content: "x"}}}},
		{"image on assistant", nadine.ChatRequest{Messages: []nadine.ChatMessage{{Role: nadine.RoleAssistant, Images: []string{"data:image/png;base64,AA"}}}}},
		{"image file path", nadine.ChatRequest{Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Images: []string{"/tmp/capture.jpg"}}}}},
		{"schema missing", nadine.ChatRequest{Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Content: "x"}}, Format: nadine.ResponseFormat{Type: nadine.FormatJSONSchema}}},
		{"schema not JSON", nadine.ChatRequest{Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Content: "x"}}, Format: nadine.ResponseFormat{Type: nadine.FormatJSONSchema, Schema: json.RawMessage("{")}}},
		{"unknown format", nadine.ChatRequest{Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Content: "x"}}, Format: nadine.ResponseFormat{Type: "yaml"}}},
		{"tool without name", nadine.ChatRequest{Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Content: "x"}}, Tools: []nadine.ToolSpec{{}}}},
	}
	srv := llmtest.New(t)
	srv.Default().Reply("ok")
	c := newClient(t, srv, nil)
	for _, tt := range tests {
		ctx, tr := traced()
		_, err := c.Chat(ctx, tt.req)
		wantCode(t, err, nadine.EINVALID)
		if call := onlyCall(t, tr); call.Attempts != 0 || call.Error == "" {
			t.Errorf("%s: trace %+v, want the failure with no attempt", tt.name, call)
		}
	}
	if got := len(srv.Requests()); got != 0 {
		t.Errorf("invalid requests reached the server %d times", got)
	}
}

// TestFailureLogLevels: a call the caller cancelled (a discarded
// speculation, a cancelled early turn) is no fault of the model's and
// logs no warning; a failed call, or one past the caller's deadline, does.
func TestFailureLogLevels(t *testing.T) {
	tests := []struct {
		name     string
		fault    func(r *llmtest.Rule)
		cancel   bool // the caller cancels once the request is in, else a 50 ms deadline
		wantWarn bool
	}{
		{name: "cancelled by the caller", fault: func(r *llmtest.Rule) { r.Hang() }, cancel: true},
		{name: "past the caller's deadline", fault: func(r *llmtest.Rule) { r.Hang() }, wantWarn: true},
		{name: "refused by the server", fault: func(r *llmtest.Rule) { r.Fail(http.StatusBadRequest).Message("bad request") }, wantWarn: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t)
			tc.fault(srv.Default())
			logs := &logBuffer{}
			c := newClient(t, srv, func(c *openai.Config) { c.Logger = logs.logger() })
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			if tc.cancel {
				ctx, cancel = context.WithCancel(context.Background())
				defer cancel()
				go func() {
					for len(srv.ChatRequests()) == 0 {
						time.Sleep(time.Millisecond)
					}
					cancel()
				}()
			}
			if _, err := c.ChatStream(ctx, user("hi"), func(string) {}); err == nil {
				t.Fatal("the call succeeded")
			}
			text := logs.String()
			if !strings.Contains(text, `msg="openai: chat failed"`) {
				t.Fatalf("the failure is not logged at all:\n%s", text)
			}
			if got := strings.Contains(text, `level=WARN msg="openai: chat failed"`); got != tc.wantWarn {
				t.Errorf("warned %v, want %v:\n%s", got, tc.wantWarn, text)
			}
		})
	}
}
