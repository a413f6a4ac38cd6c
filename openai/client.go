package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nadine-robot/nadine"
)

// DefaultBaseURL is OpenAI's API.
const DefaultBaseURL = "https://api.openai.com/v1"

// Config configures a Client: one model profile. Zero values are defaults.
type Config struct {
	// Profile names the configuration in traces, logs and errors ("small").
	Profile string
	// BaseURL is the API root, including /v1 (default DefaultBaseURL;
	// Ollama: "http://localhost:11434/v1").
	BaseURL string
	// APIKey is sent as a bearer token when not empty. It never appears in
	// logs, errors or traces.
	APIKey string
	// Model is the model name (required).
	Model string
	// Temperature is sent when not nil (0 included); nil leaves the
	// server's default.
	Temperature *float64
	// Timeout bounds each call (default 60s), on top of
	// the caller's context.
	Timeout time.Duration
	// MaxTokens limits the answer's length when positive; a request's own
	// MaxTokens overrides it.
	MaxTokens int
	// HTTPClient sends the requests (default: a client over
	// http.DefaultTransport, without its own timeout).
	HTTPClient *http.Client
	// Logger receives failures (default: discarded).
	Logger *slog.Logger
	// Structured is how the server constrains answers ("" auto); a field the
	// server refuses is dropped at once and never sent again.
	Structured nadine.StructuredMode
}

// Client is a nadine.ChatModel over an OpenAI-compatible server. It is safe
// for concurrent use.
type Client struct {
	core
	temperature *float64
	maxTokens   int
	chatURL     string
	// maxCompletion says the token limit goes in max_completion_tokens
	// rather than max_tokens; noStreamOptions that the server rejected
	// stream_options. Both are learned from the server's answers.
	maxCompletion   atomic.Bool
	noStreamOptions atomic.Bool
	// structured is the configured mode, resolved; noFormat and noTools
	// that the server refused response_format or tools (structured.go).
	structured        nadine.StructuredMode
	noFormat, noTools atomic.Bool
}

var _ nadine.ChatModel = (*Client)(nil)

// New validates cfg and returns a client. It makes no request.
func New(cfg Config) (*Client, error) {
	if strings.TrimSpace(cfg.Model) == "" {
		return nil, nadine.Errorf(nadine.EINVALID, "openai: config: Model is required")
	}
	base, host, err := parseBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.Timeout < 0 {
		return nil, nadine.Errorf(nadine.EINVALID, "openai: config: Timeout must not be negative (got %s)", cfg.Timeout)
	}
	if cfg.MaxTokens < 0 {
		return nil, nadine.Errorf(nadine.EINVALID, "openai: config: MaxTokens must not be negative (got %d)", cfg.MaxTokens)
	}
	if t := cfg.Temperature; t != nil && (*t < 0 || *t > 2) {
		return nil, nadine.Errorf(nadine.EINVALID, "openai: config: Temperature must be between 0 and 2 (got %g)", *t)
	}
	mode, err := nadine.ParseStructuredMode(string(cfg.Structured))
	if err != nil {
		return nil, nadine.Errorf(nadine.EINVALID, "openai: config: Structured: %v", err)
	}
	c := &Client{
		core:        newCore(cfg.Profile, cfg.Model, cfg.APIKey, cfg.Timeout, cfg.HTTPClient, cfg.Logger),
		temperature: cfg.Temperature,
		maxTokens:   cfg.MaxTokens,
		chatURL:     base + "/chat/completions",
		structured:  resolveStructured(mode, host),
	}
	if t := cfg.Temperature; t != nil {
		v := *t
		c.temperature = &v
	}
	c.maxCompletion.Store(host == "api.openai.com")
	return c, nil
}

// parseBaseURL validates a base URL and returns it without a trailing
// slash, and its host.
func parseBaseURL(s string) (string, string, error) {
	if s == "" {
		s = DefaultBaseURL
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", "", nadine.Errorf(nadine.EINVALID, "openai: config: BaseURL is not a URL: %v", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", "", nadine.Errorf(nadine.EINVALID, "openai: config: BaseURL %q must be an http or https URL with a host", u.Redacted())
	}
	return strings.TrimRight(s, "/"), u.Hostname(), nil
}

// Model returns the configured model name.
func (c *Client) Model() string { return c.model }

// Profile returns the configured profile name.
func (c *Client) Profile() string { return c.profile }

// Chat sends the request and returns the whole answer.
func (c *Client) Chat(ctx context.Context, req nadine.ChatRequest) (nadine.ChatResponse, error) {
	return c.chat(ctx, req, false, nil)
}

// ChatStream calls onDelta with each piece as it arrives; a server that
// answers with plain JSON gets one onDelta with the whole content.
func (c *Client) ChatStream(ctx context.Context, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
	if onDelta == nil {
		onDelta = func(string) {}
	}
	return c.chat(ctx, req, true, onDelta)
}

func (c *Client) chat(ctx context.Context, req nadine.ChatRequest, stream bool, onDelta func(string)) (nadine.ChatResponse, error) {
	start := time.Now()
	var first time.Duration // when the first piece of a streamed answer reached the caller
	if onDelta != nil {
		inner := onDelta
		onDelta = func(s string) {
			if first == 0 && s != "" {
				first = max(time.Since(start), 1)
			}
			inner(s)
		}
	}
	resp, attempts, err := c.run(ctx, req, stream, onDelta)
	call := nadine.ModelCall{
		Role:             req.Role,
		Profile:          c.profile,
		Model:            c.model,
		Start:            start,
		Latency:          time.Since(start),
		PromptTokens:     resp.PromptTokens,
		CompletionTokens: resp.CompletionTokens,
		Attempts:         attempts,
		Stream:           stream,
		FirstToken:       first,
		Step:             nadine.StepOf(ctx).ID,
	}
	if err != nil {
		call.Error, call.Code = err.Error(), callCode(ctx, err)
		c.log.Log(ctx, failureLevel(ctx), "openai: chat failed", "profile", c.profile, "model", c.model, "role", req.Role,
			"stream", stream, "attempts", attempts, "latency", call.Latency, "code", nadine.ErrorCode(err), "error", call.Error)
	} else {
		c.log.Debug("openai: chat", "profile", c.profile, "model", c.model, "role", req.Role, "stream", stream,
			"attempts", attempts, "latency", call.Latency, "prompt_tokens", resp.PromptTokens, "completion_tokens", resp.CompletionTokens)
	}
	nadine.TraceFrom(ctx).AddModelCall(call)
	return resp, err
}

// callCode counts a call the caller gave up (a discarded speculation, a
// shutdown) as canceled, not as the model's fault.
func callCode(ctx context.Context, err error) string {
	if errors.Is(ctx.Err(), context.Canceled) {
		return nadine.CallCanceled
	}
	return nadine.ErrorCode(err)
}

// failureLevel logs a call the caller cancelled at debug, being no fault of
// the model's; a passed deadline is still a warning.
func failureLevel(ctx context.Context) slog.Level {
	if errors.Is(ctx.Err(), context.Canceled) {
		return slog.LevelDebug
	}
	return slog.LevelWarn
}

// run builds the request and makes the attempts.
func (c *Client) run(ctx context.Context, req nadine.ChatRequest, stream bool, onDelta func(string)) (nadine.ChatResponse, int, error) {
	sendFormat, sendTools := c.sends()
	w, names, err := c.build(req, sendFormat, sendTools)
	if err != nil {
		return nadine.ChatResponse{}, 0, err
	}
	w.Stream = stream
	limit := c.maxTokens
	if req.MaxTokens > 0 {
		limit = req.MaxTokens
	}
	maxCompletion := c.maxCompletion.Load()
	streamOptions := stream && !c.noStreamOptions.Load()
	adaptedLimit := false

	ctx, cancel := c.withTimeout(ctx)
	defer cancel()
	var resp nadine.ChatResponse
	attempt := func(ctx context.Context) (bool, error) {
		w.MaxTokens, w.MaxCompletionTokens, w.StreamOptions = 0, 0, nil
		switch {
		case limit > 0 && maxCompletion:
			w.MaxCompletionTokens = limit
		case limit > 0:
			w.MaxTokens = limit
		}
		if streamOptions {
			w.StreamOptions = &wireStreamOptions{IncludeUsage: true}
		}
		body, err := json.Marshal(w)
		if err != nil {
			return false, fmt.Errorf("encode request: %w", err)
		}
		hr, err := c.post(ctx, c.chatURL, body, stream)
		if err != nil {
			return false, err
		}
		defer hr.Body.Close()
		if stream && isEventStream(hr) {
			r, delivered, err := c.readStream(hr.Body, names, onDelta)
			resp = r
			return delivered, err
		}
		r, err := c.readCompletion(hr, names)
		if err != nil {
			return false, err
		}
		if stream && r.Content != "" {
			onDelta(r.Content)
		}
		resp = r
		return false, nil
	}
	// adapt switches the token-limit field, or drops stream_options, when
	// the server says it does not know the one sent.
	adapt := func(err error) bool {
		se, ok := err.(*statusError)
		if !ok {
			return false
		}
		if c.refused(ctx, se, &sendFormat, &sendTools, req) {
			rebuilt, n, err := c.build(req, sendFormat, sendTools)
			if err != nil {
				return false
			}
			rebuilt.Stream = stream
			w, names = rebuilt, n
			return true
		}
		sent := "max_tokens"
		if maxCompletion {
			sent = "max_completion_tokens"
		}
		switch {
		case limit > 0 && !adaptedLimit && se.rejects(sent):
			adaptedLimit = true
			maxCompletion = !maxCompletion
			c.maxCompletion.Store(maxCompletion)
			c.log.Info("openai: server rejected "+sent+"; switching field", "profile", c.profile, "model", c.model)
			return true
		case streamOptions && se.rejects("stream_options"):
			streamOptions = false
			c.noStreamOptions.Store(true)
			c.log.Info("openai: server rejected stream_options; streaming without usage request", "profile", c.profile, "model", c.model)
			return true
		}
		return false
	}
	attempts, err := exchange(ctx, attempt, adapt)
	if err != nil {
		return nadine.ChatResponse{}, attempts, c.fail(ctx, err, attempts)
	}
	if resp.Model == "" {
		resp.Model = c.model
	}
	return resp, attempts, nil
}

// isEventStream reports whether a streaming request got events rather
// than a plain JSON answer (from a server that ignores "stream").
func isEventStream(r *http.Response) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt != "application/json"
}

// build makes the wire request, except the per-attempt token limit and
// stream fields; names maps wire function names back to the caller's.
func (c *Client) build(req nadine.ChatRequest, sendFormat, sendTools bool) (*chatRequest, map[string]string, error) {
	if len(req.Messages) == 0 {
		return nil, nil, nadine.Errorf(nadine.EINVALID, "%sno messages", c.prefix())
	}
	if !sendTools || len(req.Tools) == 0 {
		// Tool messages go with tools only (some servers refuse them
		// alone): without, the calls are kept as text.
		req.Tools = nil
		req.Messages = textToolMessages(req.Messages)
	}
	w := &chatRequest{Model: c.model, Temperature: c.temperature, Messages: make([]wireMessage, len(req.Messages))}

	var names, toWire map[string]string // wire → caller, caller → wire
	if len(req.Tools) > 0 {
		w.Tools = make([]wireTool, len(req.Tools))
		used := make(map[string]bool, len(req.Tools))
		for i, t := range req.Tools {
			if t.Name == "" {
				return nil, nil, nadine.Errorf(nadine.EINVALID, "%stool %d has no name", c.prefix(), i)
			}
			name := wireName(t.Name)
			for n := 2; used[name]; n++ {
				name = fmt.Sprintf("%s_%d", wireName(t.Name), n)
			}
			used[name] = true
			if name != t.Name {
				if names == nil {
					names, toWire = map[string]string{}, map[string]string{}
				}
				names[name], toWire[t.Name] = t.Name, name
			}
			params := t.Parameters
			if len(params) == 0 {
				params = emptyParameters
			}
			w.Tools[i] = wireTool{Type: "function", Function: wireFunction{Name: name, Description: t.Description, Parameters: params}}
		}
	}

	for i, m := range req.Messages {
		switch m.Role {
		case nadine.RoleSystem, nadine.RoleUser, nadine.RoleAssistant, nadine.RoleTool:
		default:
			return nil, nil, nadine.Errorf(nadine.EINVALID, "%smessage %d has unknown role %q", c.prefix(), i, m.Role)
		}
		wm := wireMessage{Role: string(m.Role), Content: m.Content, ToolCallID: m.ToolCallID}
		if m.Name != "" && m.Role != nadine.RoleTool {
			wm.Name = wireName(m.Name)
		}
		if len(m.Images) > 0 {
			if m.Role != nadine.RoleUser {
				return nil, nil, nadine.Errorf(nadine.EINVALID, "%smessage %d: images are allowed on user messages only", c.prefix(), i)
			}
			parts := make([]wirePart, 0, len(m.Images)+1)
			if m.Content != "" {
				parts = append(parts, wirePart{Type: "text", Text: m.Content})
			}
			for j, img := range m.Images {
				if !strings.HasPrefix(img, "data:") && !strings.HasPrefix(img, "https://") && !strings.HasPrefix(img, "http://") {
					return nil, nil, nadine.Errorf(nadine.EINVALID, "%smessage %d: image %d is neither a URL nor a data URL (read the file and pass a data URL)", c.prefix(), i, j)
				}
				parts = append(parts, wirePart{Type: "image_url", ImageURL: &wireImageURL{URL: img}})
			}
			wm.Content = parts
		}
		if len(m.ToolCalls) > 0 {
			wm.ToolCalls = make([]wireToolCall, len(m.ToolCalls))
			for j, tc := range m.ToolCalls {
				name, ok := toWire[tc.Name]
				if !ok {
					name = wireName(tc.Name)
				}
				args := tc.Arguments
				if args == "" {
					args = "{}"
				}
				wm.ToolCalls[j] = wireToolCall{ID: tc.ID, Type: "function", Function: wireFunctionCall{Name: name, Arguments: args}}
			}
		}
		w.Messages[i] = wm
	}

	switch req.Format.Type {
	case nadine.FormatText:
	case nadine.FormatJSONObject, nadine.FormatJSONSchema:
		if !sendFormat {
			break
		}
		if req.Format.Type == nadine.FormatJSONSchema {
			if len(req.Format.Schema) == 0 {
				return nil, nil, nadine.Errorf(nadine.EINVALID, "%sformat json_schema needs a schema", c.prefix())
			}
			if !json.Valid(req.Format.Schema) {
				return nil, nil, nadine.Errorf(nadine.EINVALID, "%sformat json_schema: the schema is not valid JSON", c.prefix())
			}
			name := "response"
			if req.Format.Name != "" {
				name = wireName(req.Format.Name)
			}
			w.ResponseFormat = &wireResponseFormat{Type: "json_schema", JSONSchema: &wireJSONSchema{Name: name, Schema: req.Format.Schema, Strict: req.Format.Strict}}
			break
		}
		w.ResponseFormat = &wireResponseFormat{Type: "json_object"}
	default:
		return nil, nil, nadine.Errorf(nadine.EINVALID, "%sunknown response format %q", c.prefix(), req.Format.Type)
	}
	return w, names, nil
}

// readCompletion reads a non-streaming answer.
func (c *Client) readCompletion(hr *http.Response, names map[string]string) (nadine.ChatResponse, error) {
	body, err := io.ReadAll(io.LimitReader(hr.Body, maxBody))
	if err != nil {
		return nadine.ChatResponse{}, &connError{fmt.Errorf("read answer: %w", err)}
	}
	var r chatResponse
	if err := json.Unmarshal(body, &r); err != nil {
		return nadine.ChatResponse{}, &badOutputError{c.scrub(fmt.Sprintf("undecodable answer (HTTP %d, %s): %v; it starts %q",
			hr.StatusCode, hr.Header.Get("Content-Type"), err, snippet(body, 80)))}
	}
	if r.Error != nil && r.Error.Message != "" {
		return nadine.ChatResponse{}, &serverError{nadine.Shorten(c.scrub(r.Error.Message), 300)}
	}
	if len(r.Choices) == 0 {
		return nadine.ChatResponse{}, &badOutputError{"the answer has no choices"}
	}
	ch := r.Choices[0]
	if ch.Message.Content == "" && ch.Message.Refusal != "" && len(ch.Message.ToolCalls) == 0 {
		return nadine.ChatResponse{}, &badOutputError{fmt.Sprintf("the model refused: %q", nadine.Shorten(c.scrub(ch.Message.Refusal), 300))}
	}
	resp := nadine.ChatResponse{Content: string(ch.Message.Content), Model: r.Model}
	if ch.FinishReason != nil {
		resp.FinishReason = *ch.FinishReason
	}
	if r.Usage != nil {
		resp.PromptTokens, resp.CompletionTokens = r.Usage.PromptTokens, r.Usage.CompletionTokens
	}
	if len(ch.Message.ToolCalls) > 0 {
		resp.ToolCalls = make([]nadine.ToolCall, len(ch.Message.ToolCalls))
		for i, tc := range ch.Message.ToolCalls {
			resp.ToolCalls[i] = nadine.ToolCall{ID: tc.ID, Name: callerName(names, tc.Function.Name), Arguments: tc.Function.Arguments}
		}
	}
	return resp, nil
}

// callerName maps a wire function name back to the caller's.
func callerName(names map[string]string, wire string) string {
	if n, ok := names[wire]; ok {
		return n
	}
	return wire
}
