package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
)

// DefaultBatchSize is how many texts one embedding request carries.
const DefaultBatchSize = 64

// EmbedderConfig configures an Embedder. Zero values are defaults.
type EmbedderConfig struct {
	// Profile names the configuration in traces, logs and errors.
	Profile string
	// BaseURL is the API root, including /v1 (default DefaultBaseURL).
	BaseURL string
	// APIKey is sent as a bearer token when not empty; it never appears in
	// logs, errors or traces.
	APIKey string
	// Model is the embedding model (required).
	Model string
	// Dimensions asks for shorter vectors when positive (sent as
	// "dimensions"; text-embedding-3 models support it).
	Dimensions int
	// BatchSize is how many texts go in one request (default 64).
	BatchSize int
	// Timeout bounds each Embed call, all batches included (default 60s).
	Timeout time.Duration
	// HTTPClient sends the requests (default: a client over
	// http.DefaultTransport).
	HTTPClient *http.Client
	// Logger receives failures (default: discarded).
	Logger *slog.Logger
}

// Embedder is a nadine.Embedder over an OpenAI-compatible /embeddings
// endpoint. It is safe for concurrent use.
type Embedder struct {
	core
	url       string
	dims      int
	batchSize int
}

var _ nadine.Embedder = (*Embedder)(nil)

// NewEmbedder validates cfg and returns an embedder. It makes no request.
func NewEmbedder(cfg EmbedderConfig) (*Embedder, error) {
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, nadine.Errorf(nadine.EINVALID, "openai: embedder config: Model is required")
	}
	base, _, err := parseBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	switch {
	case cfg.Dimensions < 0:
		return nil, nadine.Errorf(nadine.EINVALID, "openai: embedder config: Dimensions must not be negative (got %d)", cfg.Dimensions)
	case cfg.BatchSize < 0:
		return nil, nadine.Errorf(nadine.EINVALID, "openai: embedder config: BatchSize must not be negative (got %d)", cfg.BatchSize)
	case cfg.Timeout < 0:
		return nil, nadine.Errorf(nadine.EINVALID, "openai: embedder config: Timeout must not be negative (got %s)", cfg.Timeout)
	}
	e := &Embedder{
		core:      newCore(cfg.Profile, cfg.Model, cfg.APIKey, cfg.Timeout, cfg.HTTPClient, cfg.Logger),
		url:       base + "/embeddings",
		dims:      cfg.Dimensions,
		batchSize: cfg.BatchSize,
	}
	if e.batchSize == 0 {
		e.batchSize = DefaultBatchSize
	}
	return e, nil
}

// Name identifies the vector space: "openai:<model>", plus ":<dims>" when
// Dimensions is set.
func (e *Embedder) Name() string {
	if e.dims > 0 {
		return "openai:" + e.model + ":" + strconv.Itoa(e.dims)
	}
	return "openai:" + e.model
}

// Embed sends BatchSize texts per request; an empty text is EINVALID, since
// servers reject it.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	start := time.Now()
	out, attempts, tokens, err := e.run(ctx, texts)
	call := nadine.ModelCall{
		Role: "embeddings", Profile: e.profile, Model: e.model, Start: start,
		Latency: time.Since(start), PromptTokens: tokens, Attempts: attempts, Step: nadine.StepOf(ctx).ID,
	}
	if err != nil {
		call.Error, call.Code = err.Error(), callCode(ctx, err)
		e.log.Log(ctx, failureLevel(ctx), "openai: embed failed", "profile", e.profile, "model", e.model, "texts", len(texts),
			"attempts", attempts, "latency", call.Latency, "code", nadine.ErrorCode(err), "error", call.Error)
	} else {
		e.log.Debug("openai: embed", "profile", e.profile, "model", e.model, "texts", len(texts),
			"attempts", attempts, "latency", call.Latency, "tokens", tokens)
	}
	nadine.TraceFrom(ctx).AddModelCall(call)
	return out, err
}

// run embeds every batch, one request each; attempts is 0 when the texts
// were refused before any request, else 1 (a call, as the trace counts).
func (e *Embedder) run(ctx context.Context, texts []string) ([][]float32, int, int, error) {
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			return nil, 0, 0, nadine.Errorf(nadine.EINVALID, "%sembed: text %d is empty", e.prefix(), i)
		}
	}
	ctx, cancel := e.withTimeout(ctx)
	defer cancel()
	out := make([][]float32, 0, len(texts))
	tokens := 0
	for lo := 0; lo < len(texts); lo += e.batchSize {
		batch := texts[lo:min(lo+e.batchSize, len(texts))]
		vecs, used, err := e.batch(ctx, batch)
		tokens += used
		if err == nil && len(out) > 0 && len(vecs[0]) != len(out[0]) {
			err = &badOutputError{fmt.Sprintf("batch at text %d has %d dimensions, the first batch %d", lo, len(vecs[0]), len(out[0]))}
		}
		if err != nil {
			return nil, 1, tokens, e.fail(ctx, err, 1)
		}
		out = append(out, vecs...)
	}
	return out, 1, tokens, nil
}

// batch sends one request of texts.
func (e *Embedder) batch(ctx context.Context, texts []string) ([][]float32, int, error) {
	body, err := json.Marshal(embeddingRequest{Model: e.model, Input: texts, Dimensions: e.dims})
	if err != nil {
		return nil, 0, fmt.Errorf("openai: encode embedding request: %w", err)
	}
	hr, err := e.post(ctx, e.url, body, false)
	if err != nil {
		return nil, 0, err
	}
	defer hr.Body.Close()
	return e.read(hr, len(texts))
}

// read decodes an embedding answer for n texts and orders the vectors by
// their index field.
func (e *Embedder) read(hr *http.Response, n int) ([][]float32, int, error) {
	body, err := io.ReadAll(io.LimitReader(hr.Body, maxBody))
	if err != nil {
		return nil, 0, &connError{fmt.Errorf("read answer: %w", err)}
	}
	var r embeddingResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, 0, &badOutputError{e.scrub(fmt.Sprintf("undecodable embedding answer (HTTP %d, %s): %v; it starts %q",
			hr.StatusCode, hr.Header.Get("Content-Type"), err, snippet(body, 80)))}
	}
	if r.Error != nil && r.Error.Message != "" {
		return nil, 0, &serverError{nadine.Shorten(e.scrub(r.Error.Message), 300)}
	}
	if len(r.Data) != n {
		return nil, 0, &badOutputError{fmt.Sprintf("got %d embeddings for %d texts", len(r.Data), n)}
	}
	tokens := 0
	if r.Usage != nil {
		tokens = r.Usage.PromptTokens
	}
	out := make([][]float32, n)
	byIndex := true
	for _, d := range r.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			byIndex = false
			break
		}
		out[d.Index] = d.Embedding
	}
	if !byIndex {
		// Servers that leave every index at 0 list the vectors in order.
		for _, d := range r.Data {
			if d.Index != 0 {
				return nil, 0, &badOutputError{"embedding indexes are not a permutation of the inputs"}
			}
		}
		for i, d := range r.Data {
			out[i] = d.Embedding
		}
	}
	dims := len(out[0])
	for i, v := range out {
		switch {
		case len(v) == 0:
			return nil, 0, &badOutputError{fmt.Sprintf("embedding %d is empty", i)}
		case len(v) != dims:
			return nil, 0, &badOutputError{fmt.Sprintf("embedding %d has %d dimensions, embedding 0 has %d", i, len(v), dims)}
		case e.dims > 0 && len(v) != e.dims:
			return nil, 0, &badOutputError{fmt.Sprintf("embedding %d has %d dimensions, want %d", i, len(v), e.dims)}
		}
	}
	return out, tokens, nil
}
