package openai_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/openai"
)

func newEmbedder(t *testing.T, srv *llmtest.Server, edit func(*openai.EmbedderConfig)) *openai.Embedder {
	t.Helper()
	cfg := openai.EmbedderConfig{Profile: "embed", BaseURL: srv.URL(), Model: "emb-1"}
	if edit != nil {
		edit(&cfg)
	}
	e, err := openai.NewEmbedder(cfg)
	if err != nil {
		t.Fatalf("NewEmbedder: %v", err)
	}
	return e
}

func TestEmbedBatches(t *testing.T) {
	tests := []struct {
		name        string
		n, batch    int
		dims        int
		wantBatches int
		wantName    string
	}{
		{"one batch", 5, 0, 0, 1, "openai:emb-1"},
		{"batches of 3", 7, 3, 0, 3, "openai:emb-1"},
		{"exact batches with dimensions", 6, 2, 16, 3, "openai:emb-1:16"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.EmbeddingsOutOfOrder())
			e := newEmbedder(t, srv, func(c *openai.EmbedderConfig) { c.BatchSize, c.Dimensions = tt.batch, tt.dims })
			if got := e.Name(); got != tt.wantName {
				t.Errorf("Name: got %q, want %q", got, tt.wantName)
			}
			texts := make([]string, tt.n)
			for i := range texts {
				texts[i] = fmt.Sprintf("memory number %d about topic %c", i, 'a'+i)
			}
			ctx, tr := traced()
			got, err := e.Embed(ctx, texts)
			if err != nil {
				t.Fatalf("Embed: %v", err)
			}
			dims := tt.dims
			if dims == 0 {
				dims = llmtest.DefaultDimensions
			}
			if len(got) != len(texts) {
				t.Fatalf("got %d vectors, want %d", len(got), len(texts))
			}
			for i, v := range got {
				if want := llmtest.Vector(texts[i], dims); fmt.Sprint(v) != fmt.Sprint(want) {
					t.Errorf("vector %d is not the vector of text %d", i, i)
				}
			}
			reqs := srv.EmbeddingRequests()
			if len(reqs) != tt.wantBatches {
				t.Fatalf("got %d requests, want %d", len(reqs), tt.wantBatches)
			}
			var sent []string
			for _, r := range reqs {
				sent = append(sent, r.Input...)
				if r.Model != "emb-1" || r.Dimensions != tt.dims || (tt.dims == 0 && r.HasField("dimensions")) {
					t.Errorf("wire: model %q dimensions %d fields %v", r.Model, r.Dimensions, r.Fields)
				}
			}
			if strings.Join(sent, "|") != strings.Join(texts, "|") {
				t.Errorf("inputs sent: got %q", sent)
			}
			call := onlyCall(t, tr)
			if call.Role != "embeddings" || call.Profile != "embed" || call.Model != "emb-1" || call.Attempts != 1 ||
				call.PromptTokens != 6*tt.n || call.Error != "" {
				t.Errorf("trace: got %+v", call)
			}
		})
	}
}

func TestEmbedEmpty(t *testing.T) {
	srv := llmtest.New(t)
	e := newEmbedder(t, srv, nil)
	ctx, tr := traced()
	got, err := e.Embed(ctx, nil)
	if got != nil || err != nil {
		t.Errorf("got %v, %v; want nil, nil", got, err)
	}
	if len(srv.Requests()) != 0 || len(tr.Snapshot().ModelCalls) != 0 {
		t.Error("an empty input made a request or a trace entry")
	}
	_, err = e.Embed(ctx, []string{"fine", " "})
	wantCode(t, err, nadine.EINVALID)
	if len(srv.Requests()) != 0 {
		t.Error("an empty text reached the server")
	}
}

func TestEmbedErrors(t *testing.T) {
	tests := []struct {
		name         string
		opts         []llmtest.Option
		fault        func(*llmtest.Rule)
		key          string
		wantCode     string
		wantAttempts int
	}{
		{"success", nil, nil, "", "", 1},
		{"500", nil, func(r *llmtest.Rule) { r.Once().Fail(500) }, "", nadine.EUNAVAILABLE, 1},
		{"429", nil, func(r *llmtest.Rule) { r.Once().Fail(429).RetryAfter(3) }, "", nadine.ERATELIMIT, 1},
		{"503 always", nil, func(r *llmtest.Rule) { r.Fail(503) }, "", nadine.EUNAVAILABLE, 1},
		{"garbage", nil, func(r *llmtest.Rule) { r.Garbage() }, "", nadine.EBADOUTPUT, 1},
		{"401", []llmtest.Option{llmtest.WithAPIKey("sk-embed-key-123456")}, nil, "sk-other-key-987654", nadine.EINVALID, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, tt.opts...)
			if tt.fault != nil {
				tt.fault(srv.OnEmbeddings(nil))
			}
			e := newEmbedder(t, srv, func(c *openai.EmbedderConfig) { c.APIKey = tt.key })
			ctx, tr := traced()
			got, err := e.Embed(ctx, []string{"a", "b"})
			call := onlyCall(t, tr)
			if call.Attempts != tt.wantAttempts {
				t.Errorf("attempts: got %d, want %d", call.Attempts, tt.wantAttempts)
			}
			if tt.wantCode == "" {
				if err != nil || len(got) != 2 {
					t.Fatalf("got %d vectors, %v; want 2", len(got), err)
				}
				return
			}
			wantCode(t, err, tt.wantCode)
			if len(srv.Requests()) != 1 {
				t.Errorf("%d requests, want 1: retries are the failover layer's", len(srv.Requests()))
			}
			if !strings.HasPrefix(err.Error(), "openai: profile embed, model emb-1: ") || (tt.key != "" && strings.Contains(err.Error(), tt.key)) {
				t.Errorf("message: %q", err)
			}
			if call.Error != err.Error() {
				t.Errorf("trace error: got %q, want %q", call.Error, err)
			}
		})
	}
}

func TestEmbedOne(t *testing.T) {
	srv := llmtest.New(t)
	e := newEmbedder(t, srv, nil)
	v, err := nadine.EmbedOne(context.Background(), e, "hello world")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(v) != fmt.Sprint(llmtest.Vector("hello world", llmtest.DefaultDimensions)) {
		t.Error("EmbedOne returned another vector")
	}
}

func TestEmbedderConfigValidation(t *testing.T) {
	tests := []struct {
		name  string
		cfg   openai.EmbedderConfig
		field string
	}{
		{"no model", openai.EmbedderConfig{}, "Model"},
		{"bad URL", openai.EmbedderConfig{Model: "m", BaseURL: "::"}, "BaseURL"},
		{"negative dims", openai.EmbedderConfig{Model: "m", Dimensions: -1}, "Dimensions"},
		{"negative batch", openai.EmbedderConfig{Model: "m", BatchSize: -1}, "BatchSize"},
	}
	for _, tt := range tests {
		_, err := openai.NewEmbedder(tt.cfg)
		wantCode(t, err, nadine.EINVALID)
		if !strings.Contains(err.Error(), tt.field) {
			t.Errorf("%s: message %q, want it to name %s", tt.name, err, tt.field)
		}
	}
}
