package openai_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/openai"
)

func ptr[T any](v T) *T { return &v }

func TestChat(t *testing.T) {
	tests := []struct {
		name            string
		cfg             func(*openai.Config)
		req             nadine.ChatRequest
		wantTemperature *float64
		wantMaxTokens   int
	}{
		{
			name: "plain",
			req:  user("Hello Nadine"),
		},
		{
			name:            "temperature zero is sent",
			cfg:             func(c *openai.Config) { c.Temperature = ptr(0.0) },
			req:             user("Hello Nadine"),
			wantTemperature: ptr(0.0),
		},
		{
			name:            "profile limits",
			cfg:             func(c *openai.Config) { c.Temperature = ptr(0.7); c.MaxTokens = 200 },
			req:             user("Hello Nadine"),
			wantTemperature: ptr(0.7),
			wantMaxTokens:   200,
		},
		{
			name: "request limit overrides",
			cfg:  func(c *openai.Config) { c.MaxTokens = 200 },
			req: nadine.ChatRequest{Role: "tester", MaxTokens: 50, Messages: []nadine.ChatMessage{
				{Role: nadine.RoleSystem, Content: "You are Nadine."},
				{Role: nadine.RoleUser, Content: "Hi", Name: "Alex"},
				{Role: nadine.RoleAssistant, Content: "Hello Alex."},
				{Role: nadine.RoleUser, Content: "Hello Nadine"},
			}},
			wantMaxTokens: 50,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.On(llmtest.MatchLastUser("hello nadine")).Reply("Hello! How are you today?")
			c := newClient(t, srv, tt.cfg)
			ctx, tr := traced()
			got, err := c.Chat(ctx, tt.req)
			if err != nil {
				t.Fatalf("Chat: %v", err)
			}
			want := nadine.ChatResponse{Content: "Hello! How are you today?", Model: "test-model",
				PromptTokens: promptWords(tt.req), CompletionTokens: 5, FinishReason: "stop"}
			if got.Content != want.Content || got.Model != want.Model || got.PromptTokens != want.PromptTokens ||
				got.CompletionTokens != want.CompletionTokens || got.FinishReason != want.FinishReason || len(got.ToolCalls) != 0 {
				t.Errorf("got %+v, want %+v", got, want)
			}

			r, _ := srv.LastChat()
			if r.Model != "test-model" || r.Stream || r.HasStop {
				t.Errorf("wire: model %q stream %v stop %v", r.Model, r.Stream, r.HasStop)
			}
			if len(r.Messages) != len(tt.req.Messages) {
				t.Fatalf("wire: %d messages, want %d", len(r.Messages), len(tt.req.Messages))
			}
			for i, m := range tt.req.Messages {
				if r.Messages[i].Role != string(m.Role) || r.Messages[i].Content != m.Content || r.Messages[i].Name != m.Name {
					t.Errorf("wire message %d: got %+v, want %+v", i, r.Messages[i], m)
				}
			}
			switch {
			case tt.wantTemperature == nil && r.Temperature != nil:
				t.Errorf("wire temperature: got %v, want none", *r.Temperature)
			case tt.wantTemperature != nil && (r.Temperature == nil || *r.Temperature != *tt.wantTemperature):
				t.Errorf("wire temperature: got %v, want %v", r.Temperature, *tt.wantTemperature)
			}
			if r.MaxTokens != tt.wantMaxTokens || r.MaxCompletionTokens != 0 {
				t.Errorf("wire limits: max_tokens %d max_completion_tokens %d, want %d and 0", r.MaxTokens, r.MaxCompletionTokens, tt.wantMaxTokens)
			}
			if tt.wantMaxTokens == 0 && r.HasField("max_tokens") {
				t.Error("wire: max_tokens sent without a limit")
			}

			call := onlyCall(t, tr)
			if call.Role != "tester" || call.Profile != "small" || call.Model != "test-model" || call.Attempts != 1 ||
				call.Stream || call.Error != "" || call.PromptTokens != want.PromptTokens || call.CompletionTokens != 5 ||
				call.Start.IsZero() || call.Latency <= 0 {
				t.Errorf("trace: got %+v", call)
			}
		})
	}
}

func promptWords(req nadine.ChatRequest) int {
	n := 0
	for _, m := range req.Messages {
		n += len(strings.Fields(m.Content))
	}
	return n
}

func TestChatStream(t *testing.T) {
	const text = "Bonjour! It is a lovely day in Singapore, and I am glad to see you."
	srv := llmtest.New(t)
	srv.Default().Reply(text)
	c := newClient(t, srv, nil)
	ctx, tr := traced()
	var deltas []string
	got, err := c.ChatStream(ctx, user("hi"), func(d string) { deltas = append(deltas, d) })
	if err != nil {
		t.Fatalf("ChatStream: %v", err)
	}
	if len(deltas) < 5 {
		t.Errorf("got %d deltas, want one per word", len(deltas))
	}
	if joined := strings.Join(deltas, ""); joined != text {
		t.Errorf("deltas joined: got %q, want %q", joined, text)
	}
	if got.Content != text || got.FinishReason != "stop" || got.Model != "test-model" {
		t.Errorf("response: got %+v", got)
	}
	if want := len(strings.Fields(text)); got.CompletionTokens != want || got.PromptTokens != 1 {
		t.Errorf("usage: got %d/%d, want 1/%d", got.PromptTokens, got.CompletionTokens, want)
	}
	r, _ := srv.LastChat()
	if !r.Stream || !r.IncludeUsage || r.HasStop {
		t.Errorf("wire: stream %v include_usage %v stop %v", r.Stream, r.IncludeUsage, r.HasStop)
	}
	call := onlyCall(t, tr)
	if !call.Stream || call.Attempts != 1 || call.CompletionTokens != got.CompletionTokens {
		t.Errorf("trace: got %+v", call)
	}
}

func TestChatStreamPlainJSONAnswer(t *testing.T) {
	// A server that ignores "stream" and answers with one JSON document.
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"whole answer"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2}}`))
	}))
	defer hs.Close()
	c, err := openai.New(openai.Config{BaseURL: hs.URL + "/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	var deltas []string
	got, err := c.ChatStream(context.Background(), user("hi"), func(d string) { deltas = append(deltas, d) })
	if err != nil {
		t.Fatal(err)
	}
	if got.Content != "whole answer" || len(deltas) != 1 || deltas[0] != "whole answer" || got.CompletionTokens != 2 {
		t.Errorf("got %+v and deltas %q", got, deltas)
	}
}

func TestToolCallRoundTrip(t *testing.T) {
	weatherParams := json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)
	tools := []nadine.ToolSpec{
		{Name: "Weather App", Description: "Current weather of a city", Parameters: weatherParams},
		{Name: "get_time", Description: "Current time"},
	}
	for _, stream := range []bool{false, true} {
		name := "chat"
		if stream {
			name = "stream"
		}
		t.Run(name, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.On(llmtest.MatchToolResult("sunny")).Reply("It is sunny in Paris.")
			srv.On(llmtest.MatchLastUser("weather")).ReplyToolCall("Weather_App", `{"city":"Paris"}`).ReplyToolCall("get_time", `{}`)
			c := newClient(t, srv, nil)
			call := c.Chat
			if stream {
				call = func(ctx context.Context, req nadine.ChatRequest) (nadine.ChatResponse, error) {
					return c.ChatStream(ctx, req, nil)
				}
			}
			req := nadine.ChatRequest{Role: "react_agent", Tools: tools, Messages: []nadine.ChatMessage{
				{Role: nadine.RoleUser, Content: "What is the weather in Paris?"},
			}}
			first, err := call(context.Background(), req)
			if err != nil {
				t.Fatalf("first call: %v", err)
			}
			if len(first.ToolCalls) != 2 || first.FinishReason != "tool_calls" {
				t.Fatalf("first call: got %+v, want two tool calls", first)
			}
			tc := first.ToolCalls[0]
			if tc.ID == "" || tc.Name != "Weather App" || tc.Arguments != `{"city":"Paris"}` {
				t.Errorf("tool call 0: got %+v, want Weather App(city Paris) under the caller's name", tc)
			}
			if got := first.ToolCalls[1]; got.Name != "get_time" || got.Arguments != `{}` || got.ID == tc.ID {
				t.Errorf("tool call 1: got %+v", got)
			}
			r, _ := srv.LastChat()
			if len(r.Tools) != 2 || r.Tools[0] != "Weather_App" || r.Tools[1] != "get_time" {
				t.Errorf("wire tools: got %v", r.Tools)
			}
			var body struct {
				Tools []struct {
					Type     string `json:"type"`
					Function struct {
						Description string          `json:"description"`
						Parameters  json.RawMessage `json:"parameters"`
					} `json:"function"`
				} `json:"tools"`
			}
			if err := json.Unmarshal(r.Body, &body); err != nil {
				t.Fatal(err)
			}
			if body.Tools[0].Type != "function" || body.Tools[0].Function.Description != "Current weather of a city" ||
				string(body.Tools[0].Function.Parameters) != string(weatherParams) || len(body.Tools[1].Function.Parameters) == 0 {
				t.Errorf("wire tool definitions: got %+v", body.Tools)
			}

			req.Messages = append(req.Messages,
				nadine.ChatMessage{Role: nadine.RoleAssistant, ToolCalls: first.ToolCalls},
				nadine.ChatMessage{Role: nadine.RoleTool, ToolCallID: first.ToolCalls[0].ID, Content: "sunny, 24C"},
				nadine.ChatMessage{Role: nadine.RoleTool, ToolCallID: first.ToolCalls[1].ID, Content: "sunny afternoon, 15:00"},
			)
			second, err := call(context.Background(), req)
			if err != nil {
				t.Fatalf("second call: %v", err)
			}
			if second.Content != "It is sunny in Paris." || len(second.ToolCalls) != 0 {
				t.Errorf("second call: got %+v", second)
			}
			r, _ = srv.LastChat()
			a := r.Messages[1]
			if a.Role != "assistant" || len(a.ToolCalls) != 2 || a.ToolCalls[0].ID != tc.ID || a.ToolCalls[0].Name != "Weather_App" || a.ToolCalls[0].Arguments != tc.Arguments {
				t.Errorf("wire assistant message: got %+v", a)
			}
			if m := r.Messages[2]; m.Role != "tool" || m.ToolCallID != tc.ID || m.Content != "sunny, 24C" {
				t.Errorf("wire tool message: got %+v", m)
			}
		})
	}
}

func TestResponseFormat(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"answer":{"type":"string"},"emotion":{"type":"string"}},"required":["answer","emotion"],"additionalProperties":false}`)
	tests := []struct {
		name       string
		format     nadine.ResponseFormat
		wantType   string
		wantName   string
		wantStrict bool
		wantSchema string
	}{
		{"text", nadine.ResponseFormat{}, "", "", false, ""},
		{"json object", nadine.ResponseFormat{Type: nadine.FormatJSONObject}, "json_object", "", false, ""},
		{"json schema", nadine.ResponseFormat{Type: nadine.FormatJSONSchema, Name: "final_answer", Schema: schema, Strict: true}, "json_schema", "final_answer", true, string(schema)},
		{"json schema default name", nadine.ResponseFormat{Type: nadine.FormatJSONSchema, Schema: schema}, "json_schema", "response", false, string(schema)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t)
			srv.Default().ReplyJSON(map[string]string{"answer": "Hello", "emotion": "joy"})
			c := newClient(t, srv, nil)
			req := user("hi")
			req.Format = tt.format
			got, err := c.Chat(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			var v struct{ Answer, Emotion string }
			if err := json.Unmarshal([]byte(got.Content), &v); err != nil || v.Answer != "Hello" || v.Emotion != "joy" {
				t.Errorf("content: got %q (%v)", got.Content, err)
			}
			r, _ := srv.LastChat()
			if r.ResponseFormat != tt.wantType || r.SchemaName != tt.wantName || r.Strict != tt.wantStrict || string(r.Schema) != tt.wantSchema {
				t.Errorf("wire response_format: got %q %q %v %s", r.ResponseFormat, r.SchemaName, r.Strict, r.Schema)
			}
		})
	}
}

func TestImages(t *testing.T) {
	srv := llmtest.New(t)
	srv.Default().Reply("A robot.")
	c := newClient(t, srv, nil)
	const img = "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ=="
	req := nadine.ChatRequest{Role: "vision_agent", Messages: []nadine.ChatMessage{
		{Role: nadine.RoleSystem, Content: "Describe images."},
		{Role: nadine.RoleUser, Content: "What do you see?", Images: []string{img, "https://example.com/b.png"}},
	}}
	if _, err := c.Chat(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	r, _ := srv.LastChat()
	m := r.Messages[1]
	if m.Content != "What do you see?" || len(m.Images) != 2 || m.Images[0] != img || m.Images[1] != "https://example.com/b.png" {
		t.Errorf("wire user message: got %+v", m)
	}
	if !strings.Contains(string(r.Body), `"type":"image_url"`) || !strings.Contains(string(r.Body), `"type":"text"`) {
		t.Errorf("wire body has no multi-part content: %s", r.Body)
	}
	if r.Messages[0].Content != "Describe images." || len(r.Messages[0].Images) != 0 {
		t.Errorf("wire system message: got %+v", r.Messages[0])
	}
}

func TestNamesSanitized(t *testing.T) {
	srv := llmtest.New(t)
	srv.Default().Reply("ok")
	c := newClient(t, srv, nil)
	req := nadine.ChatRequest{Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Name: "Jean Dupont", Content: "hi"}}}
	if _, err := c.Chat(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	r, _ := srv.LastChat()
	if got, want := r.Messages[0].Name, "Jean_Dupont"; got != want {
		t.Errorf("wire name: got %q, want %q", got, want)
	}
}

func TestNoStopEverSent(t *testing.T) {
	srv := llmtest.New(t)
	srv.On(llmtest.MatchLastUser("tool")).ReplyToolCall("f", `{}`)
	srv.Default().Reply("fine, thanks")
	c := newClient(t, srv, func(c *openai.Config) { c.MaxTokens = 10; c.Temperature = ptr(0.2) })
	reqs := []nadine.ChatRequest{
		user("plain"),
		{Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Content: "tool"}}, Tools: []nadine.ToolSpec{{Name: "f"}}},
		{Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Content: "json"}}, Format: nadine.ResponseFormat{Type: nadine.FormatJSONObject}},
	}
	for _, req := range reqs {
		if _, err := c.Chat(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		if _, err := c.ChatStream(context.Background(), req, nil); err != nil {
			t.Fatal(err)
		}
	}
	rs := srv.Requests()
	if len(rs) != 2*len(reqs) {
		t.Fatalf("got %d requests, want %d", len(rs), 2*len(reqs))
	}
	for i, r := range rs {
		if r.HasStop || strings.Contains(string(r.Body), `"stop"`) {
			t.Errorf("request %d sent a stop field: %s", i, r.Body)
		}
	}
}

func TestMaxTokensField(t *testing.T) {
	t.Run("api.openai.com gets max_completion_tokens", func(t *testing.T) {
		srv := llmtest.New(t)
		srv.Default().Reply("ok")
		c := newClient(t, srv, func(c *openai.Config) {
			c.BaseURL, c.HTTPClient, c.MaxTokens = openai.DefaultBaseURL, redirect(srv.URL()), 100
		})
		if _, err := c.Chat(context.Background(), user("hi")); err != nil {
			t.Fatal(err)
		}
		r, _ := srv.LastChat()
		if r.MaxCompletionTokens != 100 || r.HasField("max_tokens") {
			t.Errorf("wire: max_completion_tokens %d, fields %v", r.MaxCompletionTokens, r.Fields)
		}
	})
	tests := []struct {
		name   string
		reject string
		base   func(srv *llmtest.Server) (string, *http.Client)
		want   string // the field that works
	}{
		{"server rejects max_tokens", "max_tokens", func(srv *llmtest.Server) (string, *http.Client) { return srv.URL(), nil }, "max_completion_tokens"},
		{"server rejects max_completion_tokens", "max_completion_tokens",
			func(srv *llmtest.Server) (string, *http.Client) { return openai.DefaultBaseURL, redirect(srv.URL()) }, "max_tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.RejectFields(tt.reject))
			srv.Default().Reply("ok")
			base, hc := tt.base(srv)
			c := newClient(t, srv, func(c *openai.Config) { c.BaseURL, c.HTTPClient, c.MaxTokens = base, hc, 100 })
			ctx, tr := traced()
			if _, err := c.Chat(ctx, user("hi")); err != nil {
				t.Fatalf("first call: %v", err)
			}
			if got := onlyCall(t, tr).Attempts; got != 2 {
				t.Errorf("attempts: got %d, want 2", got)
			}
			if _, err := c.Chat(context.Background(), user("again")); err != nil {
				t.Fatalf("second call: %v", err)
			}
			rs := srv.ChatRequests()
			if len(rs) != 3 {
				t.Fatalf("got %d requests, want 3 (rejected, switched, remembered)", len(rs))
			}
			for i, r := range rs[1:] {
				if !r.HasField(tt.want) || r.HasField(tt.reject) {
					t.Errorf("request %d: fields %v, want %s only", i+1, r.Fields, tt.want)
				}
			}
		})
	}
}

func TestStreamOptionsRejected(t *testing.T) {
	srv := llmtest.New(t, llmtest.RejectFields("stream_options"))
	srv.Default().Reply("one two three")
	c := newClient(t, srv, nil)
	for i := range 2 {
		var got strings.Builder
		resp, err := c.ChatStream(context.Background(), user("hi"), func(d string) { got.WriteString(d) })
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if got.String() != "one two three" || resp.Content != "one two three" {
			t.Errorf("call %d: got %q / %q", i, got.String(), resp.Content)
		}
	}
	rs := srv.ChatRequests()
	if len(rs) != 3 || !rs[0].HasField("stream_options") || rs[1].HasField("stream_options") || rs[2].HasField("stream_options") {
		t.Errorf("requests: got %d, stream_options per request: %v", len(rs), func() []bool {
			var b []bool
			for _, r := range rs {
				b = append(b, r.HasField("stream_options"))
			}
			return b
		}())
	}
}

func TestConcurrentCalls(t *testing.T) {
	srv := llmtest.New(t)
	srv.Default().ReplyFunc(func(r llmtest.Request) string { return "echo: " + r.LastUser() })
	c := newClient(t, srv, nil)
	ctx, tr := traced()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			msg := strings.Repeat("x", i+1)
			var resp nadine.ChatResponse
			var err error
			if i%2 == 0 {
				resp, err = c.Chat(ctx, user(msg))
			} else {
				resp, err = c.ChatStream(ctx, user(msg), nil)
			}
			if err == nil && resp.Content != "echo: "+msg {
				err = &nadine.Error{Code: "test", Message: "got " + resp.Content}
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if got := len(tr.Snapshot().ModelCalls); got != 16 {
		t.Errorf("trace: got %d calls, want 16", got)
	}
}

func TestAccessors(t *testing.T) {
	c, err := openai.New(openai.Config{Profile: "large", Model: "gpt-x"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Model() != "gpt-x" || c.Profile() != "large" {
		t.Errorf("got %q %q", c.Model(), c.Profile())
	}
}
