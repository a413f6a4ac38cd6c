package llmtest_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/internal/llmtest"
)

// post sends body as JSON to the server's path and returns the status, the
// body and the headers.
func post(t *testing.T, ctx context.Context, url string, body any, key string) (int, []byte, http.Header) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("post %s: %v", url, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read %s: %v", url, err)
	}
	return resp.StatusCode, out, resp.Header
}

func chat(user string) map[string]any {
	return map[string]any{
		"model":    "m1",
		"messages": []any{map[string]any{"role": "user", "content": user}},
	}
}

type completion struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Role      string  `json:"role"`
			Content   *string `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Type     string `json:"type"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
}

type apiError struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

func decode[T any](t *testing.T, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decode %q: %v", b, err)
	}
	return v
}

func TestChatReply(t *testing.T) {
	srv := llmtest.New(t)
	srv.On(llmtest.MatchLastUser("WEATHER")).Reply("It is sunny today.")
	srv.Default().Reply("default answer")

	tests := []struct {
		user, want string
	}{
		{"what is the weather?", "It is sunny today."},
		{"hello", "default answer"},
	}
	for _, tt := range tests {
		status, body, _ := post(t, context.Background(), srv.URL()+"/chat/completions", chat(tt.user), "")
		if status != http.StatusOK {
			t.Fatalf("%q: status %d: %s", tt.user, status, body)
		}
		c := decode[completion](t, body)
		if len(c.Choices) != 1 || c.Choices[0].Message.Content == nil {
			t.Fatalf("%q: got %s", tt.user, body)
		}
		if got := *c.Choices[0].Message.Content; got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.user, got, tt.want)
		}
		if got, want := c.Choices[0].FinishReason, "stop"; got != want {
			t.Errorf("finish_reason: got %q, want %q", got, want)
		}
		if got, want := c.Model, "m1"; got != want {
			t.Errorf("model: got %q, want %q", got, want)
		}
		if got, want := c.Usage.PromptTokens, len(strings.Fields(tt.user)); got != want {
			t.Errorf("prompt tokens: got %d, want %d", got, want)
		}
		if got, want := c.Usage.CompletionTokens, len(strings.Fields(tt.want)); got != want {
			t.Errorf("completion tokens: got %d, want %d", got, want)
		}
	}
}

func TestRequestDecoding(t *testing.T) {
	srv := llmtest.New(t)
	srv.Default().Reply("ok")
	body := map[string]any{
		"model": "vision-1",
		"messages": []any{
			map[string]any{"role": "system", "content": "You are Nadine."},
			map[string]any{"role": "user", "name": "Alex", "content": []any{
				map[string]any{"type": "text", "text": "what is this?"},
				map[string]any{"type": "image_url", "image_url": map[string]any{"url": "data:image/png;base64,AAAA"}},
			}},
			map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{
				"id": "c1", "type": "function", "function": map[string]any{"name": "look", "arguments": `{"x":1}`},
			}}},
			map[string]any{"role": "tool", "tool_call_id": "c1", "content": "a cat"},
		},
		"response_format": map[string]any{"type": "json_schema", "json_schema": map[string]any{
			"name": "answer", "strict": true, "schema": map[string]any{"type": "object"},
		}},
		"tools":       []any{map[string]any{"type": "function", "function": map[string]any{"name": "look"}}},
		"temperature": 0,
		"max_tokens":  50,
		"stop":        []string{"\n"},
	}
	if status, b, _ := post(t, context.Background(), srv.URL()+"/chat/completions", body, ""); status != 200 {
		t.Fatalf("status %d: %s", status, b)
	}
	r, ok := srv.LastChat()
	if !ok {
		t.Fatal("no chat request recorded")
	}
	if got, want := r.Model, "vision-1"; got != want {
		t.Errorf("model: got %q, want %q", got, want)
	}
	if got, want := len(r.Messages), 4; got != want {
		t.Fatalf("messages: got %d, want %d", got, want)
	}
	u := r.Messages[1]
	if u.Content != "what is this?" || u.Name != "Alex" || len(u.Images) != 1 || u.Images[0] != "data:image/png;base64,AAAA" {
		t.Errorf("user message: got %+v", u)
	}
	if got := r.Messages[2].ToolCalls; len(got) != 1 || got[0] != (llmtest.ToolCall{ID: "c1", Name: "look", Arguments: `{"x":1}`}) {
		t.Errorf("assistant tool calls: got %+v", got)
	}
	if got := r.Messages[3]; got.ToolCallID != "c1" || got.Content != "a cat" {
		t.Errorf("tool message: got %+v", got)
	}
	if r.ResponseFormat != "json_schema" || r.SchemaName != "answer" || !r.Strict || string(r.Schema) != `{"type":"object"}` {
		t.Errorf("response format: got %q %q %v %s", r.ResponseFormat, r.SchemaName, r.Strict, r.Schema)
	}
	if !r.HasTool("look") || r.MaxTokens != 50 || !r.HasStop {
		t.Errorf("tools/max_tokens/stop: got %v %d %v", r.Tools, r.MaxTokens, r.HasStop)
	}
	if r.Temperature == nil || *r.Temperature != 0 {
		t.Errorf("temperature: got %v, want 0", r.Temperature)
	}
	if got, want := r.System(), "You are Nadine."; got != want {
		t.Errorf("system: got %q, want %q", got, want)
	}
	if got, want := r.LastUser(), "what is this?"; got != want {
		t.Errorf("last user: got %q, want %q", got, want)
	}
	if !json.Valid(r.Body) || !r.HasField("stop") || r.HasField("stream") {
		t.Errorf("body/fields: got %v", r.Fields)
	}
}

func TestNoRuleMatched(t *testing.T) {
	srv := llmtest.New(t)
	srv.On(llmtest.MatchLastUser("weather")).Reply("sunny")
	status, body, _ := post(t, context.Background(), srv.URL()+"/chat/completions", chat("sing a song"), "")
	if status != http.StatusBadRequest {
		t.Fatalf("status: got %d, want 400", status)
	}
	if got, want := decode[apiError](t, body).Error.Message, "llmtest: no rule matched: sing a song"; got != want {
		t.Errorf("message: got %q, want %q", got, want)
	}
}

func TestRuleTimesAndOrder(t *testing.T) {
	srv := llmtest.New(t)
	first := srv.On(llmtest.MatchAny("hi")).Once().Reply("first")
	srv.On(llmtest.MatchAny("hi")).Limit(2).Reply("second")
	srv.Default().Reply("default")
	var got []string
	for range 4 {
		_, body, _ := post(t, context.Background(), srv.URL()+"/chat/completions", chat("hi"), "")
		got = append(got, *decode[completion](t, body).Choices[0].Message.Content)
	}
	if want := []string{"first", "second", "second", "default"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("answers: got %v, want %v", got, want)
	}
	if got, want := first.Hits(), 1; got != want {
		t.Errorf("hits: got %d, want %d", got, want)
	}
}

func TestMatchers(t *testing.T) {
	r := llmtest.Request{
		Path:  llmtest.PathChat,
		Model: "small",
		Messages: []llmtest.Message{
			{Role: "system", Content: "You classify intents."},
			{Role: "user", Content: "Tell me the Weather"},
			{Role: "assistant", ToolCalls: []llmtest.ToolCall{{ID: "1", Name: "weather"}}},
			{Role: "tool", Content: "Sunny, 20C"},
		},
		Tools:          []string{"weather"},
		ResponseFormat: "json_object",
	}
	tests := []struct {
		name string
		m    llmtest.Matcher
		want bool
	}{
		{"last user", llmtest.MatchLastUser("weather"), true},
		{"last user miss", llmtest.MatchLastUser("song"), false},
		{"system", llmtest.MatchSystem("CLASSIFY"), true},
		{"system miss", llmtest.MatchSystem("weather"), false},
		{"any", llmtest.MatchAny("sunny"), true},
		{"model", llmtest.MatchModel("small"), true},
		{"model miss", llmtest.MatchModel("large"), false},
		{"tool result", llmtest.MatchToolResult("sunny"), true},
		{"tool", llmtest.MatchTool("weather"), true},
		{"format", llmtest.MatchFormat("json_object"), true},
		{"stream", llmtest.MatchStream(true), false},
		{"all", llmtest.MatchAll(llmtest.MatchModel("small"), llmtest.MatchSystem("intent")), true},
		{"all miss", llmtest.MatchAll(llmtest.MatchModel("small"), llmtest.MatchSystem("nope")), false},
	}
	for _, tt := range tests {
		if got := tt.m(r); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

// streamChunk is one decoded SSE event of a chat stream.
type streamChunk struct {
	Choices []struct {
		Delta struct {
			Role      string `json:"role"`
			Content   string `json:"content"`
			ToolCalls []struct {
				Index    int    `json:"index"`
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// readStream parses an SSE body into chunks and reports whether [DONE]
// ended it.
func readStream(t *testing.T, body []byte) ([]streamChunk, bool) {
	t.Helper()
	var chunks []streamChunk
	done := false
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			continue
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok {
			t.Fatalf("unexpected line %q", line)
		}
		if data == "[DONE]" {
			done = true
			continue
		}
		chunks = append(chunks, decode[streamChunk](t, []byte(data)))
	}
	return chunks, done
}

func TestStream(t *testing.T) {
	srv := llmtest.New(t, llmtest.WithDelay(time.Millisecond))
	const text = "Hello there, my friend. Nice to see you again!"
	srv.Default().Reply(text)
	tests := []struct {
		name         string
		includeUsage bool
	}{
		{"without usage", false},
		{"with usage", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := chat("hi")
			body["stream"] = true
			if tt.includeUsage {
				body["stream_options"] = map[string]any{"include_usage": true}
			}
			status, b, h := post(t, context.Background(), srv.URL()+"/chat/completions", body, "")
			if status != 200 || !strings.HasPrefix(h.Get("Content-Type"), "text/event-stream") {
				t.Fatalf("status %d, content type %q", status, h.Get("Content-Type"))
			}
			chunks, done := readStream(t, b)
			if !done {
				t.Error("stream did not end with [DONE]")
			}
			var got strings.Builder
			pieces, finish := 0, ""
			var usage int
			for _, c := range chunks {
				for _, ch := range c.Choices {
					if ch.Delta.Content != "" {
						pieces++
						got.WriteString(ch.Delta.Content)
					}
					if ch.FinishReason != nil {
						finish = *ch.FinishReason
					}
				}
				if c.Usage != nil {
					usage = c.Usage.CompletionTokens
				}
			}
			if got.String() != text {
				t.Errorf("content: got %q, want %q", got.String(), text)
			}
			if pieces < 5 {
				t.Errorf("content came in %d pieces, want one per word", pieces)
			}
			if finish != "stop" {
				t.Errorf("finish reason: got %q, want stop", finish)
			}
			want := 0
			if tt.includeUsage {
				want = len(strings.Fields(text))
			}
			if usage != want {
				t.Errorf("usage completion tokens: got %d, want %d", usage, want)
			}
		})
	}
}

func TestToolCallReply(t *testing.T) {
	srv := llmtest.New(t)
	srv.Default().ReplyToolCall("get_weather", `{"city":"Paris"}`).ReplyToolCall("get_time", `{"tz":"Europe/Paris"}`)
	want := [][2]string{{"get_weather", `{"city":"Paris"}`}, {"get_time", `{"tz":"Europe/Paris"}`}}

	t.Run("json", func(t *testing.T) {
		_, b, _ := post(t, context.Background(), srv.URL()+"/chat/completions", chat("weather?"), "")
		c := decode[completion](t, b)
		m := c.Choices[0].Message
		if m.Content != nil {
			t.Errorf("content: got %q, want null", *m.Content)
		}
		if got, want := c.Choices[0].FinishReason, "tool_calls"; got != want {
			t.Errorf("finish: got %q, want %q", got, want)
		}
		if len(m.ToolCalls) != len(want) {
			t.Fatalf("tool calls: got %d, want %d", len(m.ToolCalls), len(want))
		}
		for i, tc := range m.ToolCalls {
			if tc.ID == "" || tc.Type != "function" || tc.Function.Name != want[i][0] || tc.Function.Arguments != want[i][1] {
				t.Errorf("tool call %d: got %+v", i, tc)
			}
		}
	})
	t.Run("stream", func(t *testing.T) {
		body := chat("weather?")
		body["stream"] = true
		_, b, _ := post(t, context.Background(), srv.URL()+"/chat/completions", body, "")
		chunks, _ := readStream(t, b)
		names := map[int]string{}
		args := map[int]string{}
		fragments := 0
		for _, c := range chunks {
			for _, ch := range c.Choices {
				for _, tc := range ch.Delta.ToolCalls {
					names[tc.Index] += tc.Function.Name
					args[tc.Index] += tc.Function.Arguments
					fragments++
				}
			}
		}
		for i, w := range want {
			if names[i] != w[0] || args[i] != w[1] {
				t.Errorf("tool call %d: got %s(%s), want %s(%s)", i, names[i], args[i], w[0], w[1])
			}
		}
		if fragments <= len(want) {
			t.Errorf("tool calls came in %d fragments, want arguments split", fragments)
		}
	})
}

func TestFaults(t *testing.T) {
	srv := llmtest.New(t)
	srv.On(llmtest.MatchLastUser("rate")).Fail(429).RetryAfter(2)
	srv.On(llmtest.MatchLastUser("down")).Fail(503).Message("overloaded")
	srv.On(llmtest.MatchLastUser("garbage")).Garbage()
	tests := []struct {
		user       string
		status     int
		retryAfter string
		message    string
		code       string
	}{
		{"rate", 429, "2", "Rate limit reached for requests. Please try again later.", "rate_limit_exceeded"},
		{"down", 503, "", "overloaded", ""},
	}
	for _, tt := range tests {
		status, b, h := post(t, context.Background(), srv.URL()+"/chat/completions", chat(tt.user), "")
		if status != tt.status || h.Get("Retry-After") != tt.retryAfter {
			t.Errorf("%s: got status %d retry-after %q, want %d %q", tt.user, status, h.Get("Retry-After"), tt.status, tt.retryAfter)
		}
		e := decode[apiError](t, b)
		if e.Error.Message != tt.message {
			t.Errorf("%s: message %q, want %q", tt.user, e.Error.Message, tt.message)
		}
		if tt.code != "" && (e.Error.Code == nil || *e.Error.Code != tt.code) {
			t.Errorf("%s: code %v, want %q", tt.user, e.Error.Code, tt.code)
		}
	}
	status, b, _ := post(t, context.Background(), srv.URL()+"/chat/completions", chat("garbage"), "")
	if status != 200 || json.Valid(b) {
		t.Errorf("garbage: got %d %q, want 200 and a body that is not JSON", status, b)
	}
}

func TestHangEndsWithClient(t *testing.T) {
	srv := llmtest.New(t)
	srv.Default().Hang()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	b, _ := json.Marshal(chat("hi"))
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL()+"/chat/completions", bytes.NewReader(b))
	_, err := http.DefaultClient.Do(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want a deadline error", err)
	}
}

func TestDisconnectAndAbort(t *testing.T) {
	srv := llmtest.New(t)
	srv.On(llmtest.MatchLastUser("drop")).Disconnect()
	srv.On(llmtest.MatchLastUser("abort")).Reply("one two three four five").AbortAfter(2)

	b, _ := json.Marshal(chat("drop"))
	resp, err := http.Post(srv.URL()+"/chat/completions", "application/json", bytes.NewReader(b))
	if err == nil {
		resp.Body.Close()
		t.Errorf("disconnect: got status %d, want a connection error", resp.StatusCode)
	}

	body := chat("abort")
	body["stream"] = true
	b, _ = json.Marshal(body)
	resp, err = http.Post(srv.URL()+"/chat/completions", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatalf("abort: %v", err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err == nil {
		t.Errorf("abort: read the whole body %q, want a broken stream", got)
	}
	if !strings.Contains(string(got), `"one "`) || strings.Contains(string(got), "[DONE]") {
		t.Errorf("abort: got %q, want the first pieces and no [DONE]", got)
	}
}

func TestAPIKey(t *testing.T) {
	const key = "sk-test-0123456789abcdef"
	srv := llmtest.New(t, llmtest.WithAPIKey(key))
	srv.Default().Reply("ok")
	tests := []struct {
		name, key string
		want      int
	}{
		{"right key", key, 200},
		{"wrong key", "sk-wrong-9876543210", 401},
		{"no key", "", 401},
	}
	for _, tt := range tests {
		status, b, _ := post(t, context.Background(), srv.URL()+"/chat/completions", chat("hi"), tt.key)
		if status != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, status, tt.want)
		}
		if status == 401 {
			e := decode[apiError](t, b)
			if e.Error.Code == nil || *e.Error.Code != "invalid_api_key" || (tt.key != "" && strings.Contains(e.Error.Message, tt.key)) {
				t.Errorf("%s: error %+v", tt.name, e.Error)
			}
		}
	}
	rs := srv.Requests()
	if len(rs) != 3 || !rs[0].Authorized || rs[1].Authorized || rs[2].Authorized {
		t.Errorf("requests: got %+v", rs)
	}
}

func TestRejectFields(t *testing.T) {
	srv := llmtest.New(t, llmtest.RejectFields("stream_options"))
	srv.Default().Reply("ok")
	body := chat("hi")
	body["stream_options"] = map[string]any{"include_usage": true}
	status, b, _ := post(t, context.Background(), srv.URL()+"/chat/completions", body, "")
	e := decode[apiError](t, b)
	if status != 400 || e.Error.Param == nil || *e.Error.Param != "stream_options" {
		t.Errorf("got %d %s, want 400 naming stream_options", status, b)
	}
	if status, _, _ := post(t, context.Background(), srv.URL()+"/chat/completions", chat("hi"), ""); status != 200 {
		t.Errorf("without the field: status %d, want 200", status)
	}
}

type embeddingResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
	Usage struct {
		PromptTokens int `json:"prompt_tokens"`
	} `json:"usage"`
}

func TestEmbeddings(t *testing.T) {
	texts := []string{"the cat sat on the mat", "a cat on a mat", "quantum chromodynamics", "你好世界"}
	tests := []struct {
		name  string
		opts  []llmtest.Option
		dims  int // request dimensions
		wantN int
	}{
		{"default", nil, 0, llmtest.DefaultDimensions},
		{"server dims", []llmtest.Option{llmtest.WithDimensions(32)}, 0, 32},
		{"request dims", nil, 16, 16},
		{"out of order", []llmtest.Option{llmtest.EmbeddingsOutOfOrder()}, 0, llmtest.DefaultDimensions},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, tt.opts...)
			body := map[string]any{"model": "emb", "input": texts}
			if tt.dims > 0 {
				body["dimensions"] = tt.dims
			}
			status, b, _ := post(t, context.Background(), srv.URL()+"/embeddings", body, "")
			if status != 200 {
				t.Fatalf("status %d: %s", status, b)
			}
			resp := decode[embeddingResponse](t, b)
			if len(resp.Data) != len(texts) {
				t.Fatalf("got %d vectors, want %d", len(resp.Data), len(texts))
			}
			vecs := make([][]float32, len(texts))
			for _, d := range resp.Data {
				vecs[d.Index] = d.Embedding
			}
			for i, v := range vecs {
				if len(v) != tt.wantN {
					t.Fatalf("vector %d: length %d, want %d", i, len(v), tt.wantN)
				}
				if got := norm(v); math.Abs(got-1) > 1e-5 {
					t.Errorf("vector %d: norm %v, want 1", i, got)
				}
				if want := llmtest.Vector(texts[i], tt.wantN); fmt.Sprint(v) != fmt.Sprint(want) {
					t.Errorf("vector %d differs from Vector(%q)", i, texts[i])
				}
			}
			if resp.Usage.PromptTokens == 0 {
				t.Error("usage: got 0 prompt tokens")
			}
			if tt.name == "out of order" && resp.Data[0].Index != len(texts)-1 {
				t.Errorf("first index: got %d, want %d", resp.Data[0].Index, len(texts)-1)
			}
		})
	}
}

func TestVectorSimilarity(t *testing.T) {
	a := llmtest.Vector("the cat sat on the mat", 256)
	b := llmtest.Vector("The cat sat on the mat!", 256)
	c := llmtest.Vector("the cat lay on a mat", 256)
	d := llmtest.Vector("quantum chromodynamics lecture", 256)
	if got := dot(a, b); math.Abs(got-1) > 1e-6 {
		t.Errorf("same words: similarity %v, want 1", got)
	}
	if dot(a, c) <= dot(a, d) {
		t.Errorf("shared words should be closer: %v <= %v", dot(a, c), dot(a, d))
	}
	if e := llmtest.Vector("", 8); math.Abs(norm(e)-1) > 1e-6 {
		t.Errorf("empty text: norm %v, want 1", norm(e))
	}
}

func TestModels(t *testing.T) {
	srv := llmtest.New(t, llmtest.WithModels("a", "b"))
	resp, err := http.Get(srv.URL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	got := decode[struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}](t, b)
	if len(got.Data) != 2 || got.Data[0].ID != "a" || got.Data[1].ID != "b" {
		t.Errorf("models: got %s", b)
	}
}

func TestConcurrentRequests(t *testing.T) {
	srv := llmtest.New(t)
	srv.On(llmtest.MatchLastUser("even")).Reply("even")
	srv.Default().ReplyFunc(func(r llmtest.Request) string { return "echo " + r.LastUser() })
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			user := fmt.Sprintf("odd %d", i)
			want := "echo " + user
			if i%2 == 0 {
				user, want = "even", "even"
			}
			b, _ := json.Marshal(chat(user))
			resp, err := http.Post(srv.URL()+"/chat/completions", "application/json", bytes.NewReader(b))
			if err != nil {
				errs <- err.Error()
				return
			}
			defer resp.Body.Close()
			var c completion
			if err := json.NewDecoder(resp.Body).Decode(&c); err != nil || len(c.Choices) == 0 || c.Choices[0].Message.Content == nil {
				errs <- fmt.Sprintf("request %d: bad answer (%v)", i, err)
				return
			}
			if got := *c.Choices[0].Message.Content; got != want {
				errs <- fmt.Sprintf("request %d: got %q, want %q", i, got, want)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if got := len(srv.ChatRequests()); got != n {
		t.Errorf("recorded %d requests, want %d", got, n)
	}
}

func norm(v []float32) float64 { return math.Sqrt(dot(v, v)) }

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestLatency(t *testing.T) {
	tests := []struct {
		name string
		opts []llmtest.Option
		rule func(*llmtest.Rule)
	}{
		{"server option", []llmtest.Option{llmtest.WithLatency(time.Hour)}, func(r *llmtest.Rule) {}},
		{"rule", nil, func(r *llmtest.Rule) { r.Latency(time.Hour) }},
	}
	for _, tt := range tests {
		srv := llmtest.New(t, tt.opts...)
		tt.rule(srv.Default().Reply("late"))
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		b, _ := json.Marshal(chat("hi"))
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL()+"/chat/completions", bytes.NewReader(b))
		_, err := http.DefaultClient.Do(req)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: got %v, want the answer held back past the deadline", tt.name, err)
		}
	}
}

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"Hi", []string{"Hi"}},
		{"Geneva is a lovely city by the lake.", []string{"Geneva", " is", " a", " lovely", " city", " by", " the", " lake."}},
		{"an international lab", []string{"an", " int", "erna", "tion", "al", " lab"}},
		{"  two  spaces", []string{"  two", "  sp", "aces"}},
		{`{"plan":[]}`, []string{`{"pl`, `an":`, `[]}`}},
		{"日本語", []string{"日", "本", "語"}},
	}
	for _, tt := range tests {
		got := llmtest.Tokens(tt.in)
		if strings.Join(got, "") != tt.in {
			t.Errorf("Tokens(%q) = %q: does not join back", tt.in, got)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestTokenRate checks that a token rate streams one token per chunk and
// that a plain answer takes at least the time its tokens need (a lower
// bound, which a slow machine cannot break).
func TestTokenRate(t *testing.T) {
	const text = "Geneva is a lovely city by the lake, with the Alps on the horizon."
	const rate = 1000.0 // tokens a second
	srv := llmtest.New(t, llmtest.WithTokenRate(rate))
	srv.Default().Reply(text)
	tokens := len(llmtest.Tokens(text))

	start := time.Now()
	status, _, _ := post(t, context.Background(), srv.URL()+"/chat/completions", chat("hi"), "")
	if status != 200 {
		t.Fatalf("status %d", status)
	}
	if got, min := time.Since(start), time.Duration(float64(tokens)/rate*float64(time.Second)); got < min {
		t.Errorf("plain answer took %v, want at least %v for %d tokens", got, min, tokens)
	}

	body := chat("hi")
	body["stream"] = true
	_, b, _ := post(t, context.Background(), srv.URL()+"/chat/completions", body, "")
	chunks, _ := readStream(t, b)
	var pieces []string
	for _, c := range chunks {
		for _, ch := range c.Choices {
			if ch.Delta.Content != "" {
				pieces = append(pieces, ch.Delta.Content)
			}
		}
	}
	if !reflect.DeepEqual(pieces, llmtest.Tokens(text)) {
		t.Errorf("streamed pieces %q, want one token per chunk %q", pieces, llmtest.Tokens(text))
	}
}
