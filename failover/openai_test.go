package failover_test

import (
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/failover"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/openai"
)

// TestOpenAIFailuresAreRetried: what the openai client fails with once (a
// server error, a rate limit, a dropped connection, a truncated body) is
// retried on the same profile over the real wire, and the second attempt
// answers; a server's Retry-After replaces the backoff.
func TestOpenAIFailuresAreRetried(t *testing.T) {
	tests := []struct {
		name     string
		fault    func(*llmtest.Rule)
		stream   bool
		wantWait string // in the trace's retry step
	}{
		{name: "500", fault: func(r *llmtest.Rule) { r.Fail(500) }},
		{name: "502 stream", fault: func(r *llmtest.Rule) { r.Fail(502) }, stream: true},
		{name: "connection dropped", fault: func(r *llmtest.Rule) { r.Disconnect() }},
		{name: "connection dropped stream", fault: func(r *llmtest.Rule) { r.Disconnect() }, stream: true},
		{name: "truncated body", fault: func(r *llmtest.Rule) { r.Reply("cut short").AbortAfter(1) }},
		{name: "429 without Retry-After", fault: func(r *llmtest.Rule) { r.Fail(429) }, wantWait: "retrying in 1ms"},
		{name: "429 with Retry-After", fault: func(r *llmtest.Rule) { r.Fail(429).RetryAfterHeader("0.02") }, wantWait: "retrying in 20ms"},
		{name: "503 with Retry-After", fault: func(r *llmtest.Rule) { r.Fail(503).RetryAfterHeader("0.03") }, wantWait: "retrying in 30ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t)
			tt.fault(srv.On(nil).Once())
			srv.Default().Reply("recovered")
			c, err := openai.New(openai.Config{Profile: "small", BaseURL: srv.URL(), Model: "m"})
			if err != nil {
				t.Fatal(err)
			}
			p := newPool(t, failover.Options{}, failover.Profile{Name: "small", Chat: c, Retries: 1})
			m := p.Chat("response", failover.Timeouts{Attempt: 10 * time.Second}, "small")
			ctx, tr := traced()
			var resp nadine.ChatResponse
			if tt.stream {
				resp, err = m.ChatStream(ctx, nadine.ChatRequest{Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Content: "hi"}}}, nil)
			} else {
				resp, err = m.Chat(ctx, nadine.ChatRequest{Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Content: "hi"}}})
			}
			if err != nil || resp.Content != "recovered" {
				t.Fatalf("got %q, %v; want the second attempt's answer", resp.Content, err)
			}
			if got := len(srv.ChatRequests()); got != 2 {
				t.Errorf("requests: got %d, want 2", got)
			}
			if !hasStep(tr, "response", "answered on attempt 2") {
				t.Errorf("steps %q, want the second attempt's answer", steps(tr, "response"))
			}
			if tt.wantWait != "" && !hasStep(tr, "response", tt.wantWait) {
				t.Errorf("steps %q, want %q", steps(tr, "response"), tt.wantWait)
			}
			if s := p.Breaker("small").Status(); s.State != failover.Closed || s.Failures != 0 {
				t.Errorf("breaker %+v, want closed with no failure", s)
			}
		})
	}
}

// TestOpenAIEmbeddingRetried: an embedding request the server fails once
// is retried on the same profile.
func TestOpenAIEmbeddingRetried(t *testing.T) {
	srv := llmtest.New(t)
	srv.OnEmbeddings(nil).Once().Fail(500)
	e, err := openai.NewEmbedder(openai.EmbedderConfig{Profile: "embed", BaseURL: srv.URL(), Model: "emb-1"})
	if err != nil {
		t.Fatal(err)
	}
	p := newPool(t, failover.Options{}, failover.Profile{Name: "embed", Embedder: e, Retries: 1})
	ctx, tr := traced()
	vecs, err := p.Embedder("embeddings", failover.Timeouts{Attempt: 10 * time.Second}, "embed").Embed(ctx, []string{"a", "b"})
	if err != nil || len(vecs) != 2 {
		t.Fatalf("got %d vectors, %v; want 2", len(vecs), err)
	}
	if got := len(srv.EmbeddingRequests()); got != 2 {
		t.Errorf("requests: got %d, want 2", got)
	}
	if !hasStep(tr, "embeddings", "answered on attempt 2") {
		t.Errorf("steps %q", steps(tr, "embeddings"))
	}
}
