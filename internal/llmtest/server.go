package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine/internal/loopback"
)

// created is the fixed "created" timestamp of every answer, so answers are
// deterministic.
const created = 1700000000

// DefaultDimensions is the length of embedding vectors unless WithDimensions
// or the request's "dimensions" says otherwise.
const DefaultDimensions = 64

// Server is a scripted OpenAI-compatible server. Create it with New.
type Server struct {
	srv       *loopback.Server
	listener  *switchListener // lets Down and Up stop and restart listening
	closing   chan struct{}
	closeOnce sync.Once

	// Options, fixed after New.
	apiKey         string
	dims           int
	latency, delay time.Duration
	embedLatency   time.Duration
	hasEmbedLat    bool
	tokenRate      float64
	models         []string
	reject         map[string]bool
	formatRefusal  string // RejectFormat
	toolsRefusal   string // RejectTools
	reverseEmbed   bool

	mu       sync.Mutex
	rules    []*Rule
	def      *Rule
	requests []Request
	seq      int
	faults   faults // the fault plan (InjectFaults)
}

// Option configures a Server.
type Option func(*Server)

// WithAPIKey makes the server demand "Authorization: Bearer <key>"; other
// requests get 401 in OpenAI's error format.
func WithAPIKey(key string) Option { return func(s *Server) { s.apiKey = key } }

// WithDimensions sets the default length of embedding vectors (64).
func WithDimensions(n int) Option { return func(s *Server) { s.dims = n } }

// WithLatency waits d before the first byte of every answer.
func WithLatency(d time.Duration) Option { return func(s *Server) { s.latency = d } }

// WithDelay waits d between streamed chunks.
func WithDelay(d time.Duration) Option { return func(s *Server) { s.delay = d } }

// WithTokenRate generates perSecond tokens a second (see Tokens), streamed
// one per chunk, like a real model; it replaces WithDelay for chat.
func WithTokenRate(perSecond float64) Option { return func(s *Server) { s.tokenRate = perSecond } }

// WithEmbeddingLatency replaces WithLatency for embeddings, which usually
// answer sooner than a chat model's first token.
func WithEmbeddingLatency(d time.Duration) Option {
	return func(s *Server) { s.embedLatency, s.hasEmbedLat = d, true }
}

// WithModels sets the model ids GET /v1/models lists.
func WithModels(ids ...string) Option { return func(s *Server) { s.models = ids } }

// RejectFields answers 400 "Unrecognized request argument" to bodies with
// these top-level fields, like strict servers.
func RejectFields(fields ...string) Option {
	return func(s *Server) {
		for _, f := range fields {
			s.reject[f] = true
		}
	}
}

// EmbeddingsOutOfOrder makes the server list embeddings in reverse order
// (each with its correct "index"), to check that clients use the index.
func EmbeddingsOutOfOrder() Option { return func(s *Server) { s.reverseEmbed = true } }

// TB is what New needs of a test (testing.TB has it); the package does not
// import testing, so that nadine bench can link it.
type TB interface {
	Helper()
	Cleanup(func())
}

// New starts a server; it is closed when the test ends.
func New(t TB, opts ...Option) *Server {
	t.Helper()
	s := Start(opts...)
	t.Cleanup(s.Close)
	return s
}

// Start starts a server outside a test (nadine bench); the caller closes it.
func Start(opts ...Option) *Server {
	s := &Server{
		closing: make(chan struct{}),
		dims:    DefaultDimensions,
		models:  []string{"llmtest-chat", "llmtest-embed"},
		reject:  map[string]bool{},
	}
	for _, o := range opts {
		o(s)
	}
	if s.dims <= 0 {
		s.dims = DefaultDimensions
	}
	srv, err := loopback.New(http.HandlerFunc(s.serveHTTP))
	if err != nil {
		panic(fmt.Sprintf("llmtest: %v", err)) // as httptest does: no loopback port, no server
	}
	s.srv = srv
	s.listener = newSwitchListener(s.srv.Listener)
	s.srv.Listener = s.listener
	s.srv.Start()
	return s
}

// Close releases hanging requests and shuts the server down. It is called
// automatically when the test ends.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.closing)
		s.srv.Close()
	})
}

// URL returns the base URL of the API, ending in /v1.
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// On adds a rule for chat requests m matches (nil: all). Matchers run under
// the server's lock: they must not call the Server's methods.
func (s *Server) On(m Matcher) *Rule {
	return s.AddRule(Rule{Match: m})
}

// OnEmbeddings adds a rule for embedding requests (use it with faults).
func (s *Server) OnEmbeddings(m Matcher) *Rule {
	return s.AddRule(Rule{Match: m, Embeddings: true})
}

// AddRule adds a copy of r after the existing rules and returns it.
func (s *Server) AddRule(r Rule) *Rule {
	r.srv, r.hits = s, 0
	p := &r
	s.mu.Lock()
	s.rules = append(s.rules, p)
	s.mu.Unlock()
	return p
}

// Default is the rule for chat requests no other rule matched; without it
// they get HTTP 400, so a missing rule fails the test.
func (s *Server) Default() *Rule {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.def == nil {
		s.def = &Rule{srv: s}
	}
	return s.def
}

// Requests returns every chat and embedding request received, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ChatRequests returns the chat requests received, in order.
func (s *Server) ChatRequests() []Request { return s.filter(PathChat) }

// EmbeddingRequests returns the embedding requests received, in order.
func (s *Server) EmbeddingRequests() []Request { return s.filter(PathEmbeddings) }

// LastChat returns the last chat request received and whether there was one.
func (s *Server) LastChat() (Request, bool) {
	rs := s.ChatRequests()
	if len(rs) == 0 {
		return Request{}, false
	}
	return rs[len(rs)-1], true
}

func (s *Server) filter(path string) []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Request
	for _, r := range s.requests {
		if r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// answer is a snapshot of a rule, taken under the lock.
type answer struct {
	content          string
	toolCalls        []ToolCall
	fault            Fault
	hasFault         bool
	finish           string
	prompt, complete int
	latency, delay   time.Duration
	pauseAfter       string
	resume           <-chan struct{}
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == PathModels && r.Method == http.MethodGet:
		if !s.authorized(r) {
			s.unauthorized(w, r)
			return
		}
		s.serveModels(w)
		return
	case (r.URL.Path == PathChat || r.URL.Path == PathEmbeddings) && r.Method == http.MethodPost:
	default:
		writeError(w, http.StatusNotFound, fmt.Sprintf("llmtest: no route for %s %s", r.Method, r.URL.Path), "invalid_request_error", "", "")
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	req, decErr := decodeRequest(r.URL.Path, body)
	req.Authorized = s.authorized(r)
	s.mu.Lock()
	s.seq++
	seq := s.seq
	s.requests = append(s.requests, req)
	s.mu.Unlock()

	if !req.Authorized {
		s.unauthorized(w, r)
		return
	}
	if decErr != nil {
		writeError(w, http.StatusBadRequest, "llmtest: cannot decode request body: "+decErr.Error(), "invalid_request_error", "", "")
		return
	}
	for _, f := range req.Fields {
		if s.reject[f] {
			writeError(w, http.StatusBadRequest, "Unrecognized request argument supplied: "+f, "invalid_request_error", f, "unsupported_parameter")
			return
		}
	}
	if req.Model == "" {
		writeError(w, http.StatusBadRequest, "you must provide a model parameter", "invalid_request_error", "model", "")
		return
	}
	if req.IsChat() && s.refuseStructured(w, req) {
		return
	}

	kind, junk := s.draw(req)
	switch kind {
	case FaultError500:
		writeError(w, http.StatusInternalServerError, serverErrorMessage, "server_error", "", "")
		return
	case FaultHang:
		s.serveFault(w, r, req, answer{fault: Fault{Hang: true}}, seq)
		return
	case FaultReset:
		resetConn(w)
		return
	}
	a, ok := s.pick(req)
	if ok && !a.hasFault {
		switch kind {
		case FaultJunk:
			a.content, a.toolCalls = junk, nil
		case FaultCut:
			a.fault, a.hasFault = Fault{AbortAfter: max(1, len(Tokens(a.content))/2)}, true
		}
	}
	if req.IsEmbeddings() {
		if ok && a.hasFault {
			s.serveFault(w, r, req, a, seq)
			return
		}
		s.serveEmbeddings(w, r, req, a)
		return
	}
	if !ok {
		writeError(w, http.StatusBadRequest, "llmtest: no rule matched: "+req.LastUser(), "invalid_request_error", "", "")
		return
	}
	for i := range a.toolCalls {
		if a.toolCalls[i].ID == "" {
			a.toolCalls[i].ID = fmt.Sprintf("call_%d_%d", seq, i)
		}
	}
	if a.prompt == 0 && a.complete == 0 {
		a.prompt = promptWords(req)
		a.complete = countWords(a.content)
		for _, tc := range a.toolCalls {
			a.complete += 1 + countWords(tc.Arguments)
		}
	}
	if a.finish == "" {
		a.finish = "stop"
		if len(a.toolCalls) > 0 {
			a.finish = "tool_calls"
		}
	}
	if !s.wait(r, a.latency) {
		return
	}
	if a.hasFault {
		s.serveFault(w, r, req, a, seq)
		return
	}
	if req.Stream {
		s.serveStream(w, r, req, a, seq, -1)
		return
	}
	if s.tokenRate > 0 {
		n := len(Tokens(a.content))
		for _, tc := range a.toolCalls {
			n += len(Tokens(tc.Name)) + len(Tokens(tc.Arguments))
		}
		if !s.wait(r, time.Duration(float64(n)/s.tokenRate*float64(time.Second))) {
			return
		}
	}
	writeJSON(w, http.StatusOK, completion(req, a, seq))
}

// pick finds the answer to req and consumes one use of its rule.
func (s *Server) pick(req Request) (answer, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var rule *Rule
	for _, r := range s.rules {
		if r.Embeddings != req.IsEmbeddings() || (r.Times > 0 && r.hits >= r.Times) {
			continue
		}
		if r.Match == nil || r.Match(req) {
			rule = r
			break
		}
	}
	if rule == nil && !req.IsEmbeddings() && s.def != nil && (s.def.Times == 0 || s.def.hits < s.def.Times) {
		rule = s.def
	}
	if rule == nil {
		return answer{latency: s.latency, delay: s.delay}, false
	}
	rule.hits++
	a := answer{
		content:   rule.Content,
		toolCalls: append([]ToolCall(nil), rule.ToolCalls...),
		finish:    rule.FinishReason,
		prompt:    rule.PromptTokens,
		complete:  rule.CompletionTokens,
		latency:   s.latency,
		delay:     s.delay,
	}
	if rule.ContentFunc != nil {
		a.content = rule.ContentFunc(req)
	}
	if rule.Fault != nil {
		a.fault, a.hasFault = *rule.Fault, true
	}
	if rule.FirstByteLatency > 0 {
		a.latency = rule.FirstByteLatency
	}
	if rule.ChunkDelay > 0 {
		a.delay = rule.ChunkDelay
	}
	a.pauseAfter, a.resume = rule.PauseAfter, rule.Resume
	return a, true
}

func (s *Server) authorized(r *http.Request) bool {
	return s.apiKey == "" || r.Header.Get("Authorization") == "Bearer "+s.apiKey
}

// unauthorized answers 401 as OpenAI does, showing only the ends of the key
// that was presented.
func (s *Server) unauthorized(w http.ResponseWriter, r *http.Request) {
	key := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	msg := "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
	if key != "" {
		msg = "Incorrect API key provided: " + maskKey(key) + ". You can find your API key at https://platform.openai.com/account/api-keys."
	}
	writeError(w, http.StatusUnauthorized, msg, "invalid_request_error", "", "invalid_api_key")
}

func maskKey(k string) string {
	if len(k) <= 8 {
		return "****"
	}
	return k[:3] + "*****" + k[len(k)-4:]
}

// wait sleeps d unless the request or the server ends first; it reports
// whether to go on.
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-s.closing:
	}
	return false
}

func (s *Server) serveFault(w http.ResponseWriter, r *http.Request, req Request, a answer, seq int) {
	f := a.fault
	switch {
	case f.Hang:
		select {
		case <-r.Context().Done():
		case <-s.closing:
		}
	case f.Reset:
		resetConn(w)
	case f.Disconnect:
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler)
	case f.Garbage:
		if req.Stream {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			io.WriteString(w, "data: {this is not json\n\n")
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, "<html><body>502 upstream garbage</body></html>")
	case f.AbortAfter > 0:
		if req.Stream {
			s.serveStream(w, r, req, a, seq, f.AbortAfter)
			return
		}
		b, _ := json.Marshal(completion(req, a, seq))
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(b)))
		w.WriteHeader(http.StatusOK)
		w.Write(b[:len(b)/2])
		if fl, ok := w.(http.Flusher); ok {
			fl.Flush()
		}
		panic(http.ErrAbortHandler)
	default:
		status := f.Status
		if status == 0 {
			status = http.StatusInternalServerError
		}
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		msg, typ, code := f.Message, "server_error", ""
		switch {
		case status == http.StatusTooManyRequests:
			typ, code = "requests", "rate_limit_exceeded"
			if msg == "" {
				msg = "Rate limit reached for requests. Please try again later."
			}
		case status == http.StatusUnauthorized:
			typ, code = "invalid_request_error", "invalid_api_key"
			if msg == "" {
				msg = "Incorrect API key provided."
			}
		case status >= 400 && status < 500:
			typ = "invalid_request_error"
		}
		if msg == "" {
			msg = fmt.Sprintf("llmtest: scripted failure %d %s", status, http.StatusText(status))
		}
		writeError(w, status, msg, typ, "", code)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// writeError writes OpenAI's error format.
func writeError(w http.ResponseWriter, status int, msg, typ, param, code string) {
	e := map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}
	if param != "" {
		e["param"] = param
	}
	if code != "" {
		e["code"] = code
	}
	writeJSON(w, status, map[string]any{"error": e})
}

type wireToolCall struct {
	Index    *int   `json:"index,omitempty"`
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens,omitempty"`
	TotalTokens      int `json:"total_tokens"`
}

func completion(req Request, a answer, seq int) map[string]any {
	msg := map[string]any{"role": "assistant", "content": a.content, "refusal": nil}
	if len(a.toolCalls) > 0 {
		if a.content == "" {
			msg["content"] = nil
		}
		var tcs []wireToolCall
		for _, tc := range a.toolCalls {
			w := wireToolCall{ID: tc.ID, Type: "function"}
			w.Function.Name, w.Function.Arguments = tc.Name, tc.Arguments
			tcs = append(tcs, w)
		}
		msg["tool_calls"] = tcs
	}
	return map[string]any{
		"id":      fmt.Sprintf("chatcmpl-llmtest-%d", seq),
		"object":  "chat.completion",
		"created": created,
		"model":   req.Model,
		"choices": []any{map[string]any{
			"index": 0, "message": msg, "logprobs": nil, "finish_reason": a.finish,
		}},
		"usage": usage{a.prompt, a.complete, a.prompt + a.complete},
	}
}

// serveStream writes the answer as server-sent events, in OpenAI's chunk
// order; abortAfter >= 0 breaks the connection after that many pieces.
func (s *Server) serveStream(w http.ResponseWriter, r *http.Request, req Request, a answer, seq, abortAfter int) {
	fl, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	id := fmt.Sprintf("chatcmpl-llmtest-%d", seq)
	first := true
	pieces, argPieces, delay := splitChunks, splitArgs, a.delay
	if s.tokenRate > 0 {
		pieces, argPieces = Tokens, Tokens
		delay = time.Duration(float64(time.Second) / s.tokenRate)
	}
	send := func(choices []any, u *usage) bool {
		if !first && !s.wait(r, delay) {
			return false
		}
		first = false
		chunk := map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created,
			"model": req.Model, "choices": choices,
		}
		if req.IncludeUsage {
			chunk["usage"] = u
		}
		b, _ := json.Marshal(chunk)
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false
		}
		if fl != nil {
			fl.Flush()
		}
		return true
	}
	delta := func(d map[string]any, finish any) []any {
		return []any{map[string]any{"index": 0, "delta": d, "logprobs": nil, "finish_reason": finish}}
	}
	if !send(delta(map[string]any{"role": "assistant", "content": ""}, nil), nil) {
		return
	}
	var sent strings.Builder
	paused := a.pauseAfter == ""
	for i, piece := range pieces(a.content) {
		if abortAfter >= 0 && i >= abortAfter {
			panic(http.ErrAbortHandler)
		}
		if !send(delta(map[string]any{"content": piece}, nil), nil) {
			return
		}
		if sent.WriteString(piece); !paused && strings.Contains(sent.String(), a.pauseAfter) {
			paused = true
			select {
			case <-a.resume:
			case <-r.Context().Done():
				return
			case <-s.closing:
				return
			}
		}
	}
	if abortAfter >= 0 {
		panic(http.ErrAbortHandler)
	}
	for i, tc := range a.toolCalls {
		idx := i
		head := wireToolCall{Index: &idx, ID: tc.ID, Type: "function"}
		head.Function.Name = tc.Name
		if !send(delta(map[string]any{"tool_calls": []wireToolCall{head}}, nil), nil) {
			return
		}
		for _, piece := range argPieces(tc.Arguments) {
			part := wireToolCall{Index: &idx}
			part.Function.Arguments = piece
			if !send(delta(map[string]any{"tool_calls": []wireToolCall{part}}, nil), nil) {
				return
			}
		}
	}
	if !send(delta(map[string]any{}, a.finish), nil) {
		return
	}
	if req.IncludeUsage {
		if !send([]any{}, &usage{a.prompt, a.complete, a.prompt + a.complete}) {
			return
		}
	}
	io.WriteString(w, "data: [DONE]\n\n")
	if fl != nil {
		fl.Flush()
	}
}

// splitChunks cuts text into word-sized pieces (at most 12 runes without
// white space) whose concatenation is text.
func splitChunks(text string) []string {
	var out []string
	start, runes, inSpace := 0, 0, false
	for i, r := range text {
		space := unicode.IsSpace(r)
		if (inSpace && !space) || (!space && runes >= 12) {
			out = append(out, text[start:i])
			start, runes = i, 0
		}
		inSpace = space
		runes++
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

// Tokens cuts text into pieces close to OpenAI's tokens on English (about 4
// bytes); their concatenation is text.
func Tokens(text string) []string {
	var out []string
	for len(text) > 0 {
		// One piece: leading white space, then the word.
		i := 0
		for i < len(text) {
			r, size := utf8.DecodeRuneInString(text[i:])
			if !unicode.IsSpace(r) {
				break
			}
			i += size
		}
		for i < len(text) {
			r, size := utf8.DecodeRuneInString(text[i:])
			if unicode.IsSpace(r) {
				break
			}
			i += size
		}
		piece := text[:i]
		text = text[i:]
		if len(piece) <= 7 {
			out = append(out, piece)
			continue
		}
		for len(piece) > 0 {
			n := 0
			for n < len(piece) {
				_, size := utf8.DecodeRuneInString(piece[n:])
				if n > 0 && n+size > 4 {
					break
				}
				n += size
			}
			out = append(out, piece[:n])
			piece = piece[n:]
		}
	}
	return out
}

// splitArgs cuts JSON arguments into up to three pieces, as providers
// stream them.
func splitArgs(args string) []string {
	if len(args) < 6 {
		return []string{args}
	}
	a, b := len(args)/3, 2*len(args)/3
	return []string{args[:a], args[a:b], args[b:]}
}

func countWords(s string) int { return len(strings.Fields(s)) }

func promptWords(req Request) int {
	n := 0
	for _, m := range req.Messages {
		n += countWords(m.Content) + len(m.Images)
	}
	return n
}

func (s *Server) serveModels(w http.ResponseWriter) {
	var data []any
	for _, m := range s.models {
		data = append(data, map[string]any{"id": m, "object": "model", "created": created, "owned_by": "llmtest"})
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

func (s *Server) serveEmbeddings(w http.ResponseWriter, r *http.Request, req Request, a answer) {
	if len(req.Input) == 0 {
		writeError(w, http.StatusBadRequest, "'input' is required", "invalid_request_error", "input", "")
		return
	}
	for i, in := range req.Input {
		if in == "" {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("'$.input[%d]' is invalid: empty string", i), "invalid_request_error", "input", "")
			return
		}
	}
	lat := a.latency
	if s.hasEmbedLat {
		lat = s.embedLatency
	}
	if !s.wait(r, lat) {
		return
	}
	dims := s.dims
	if req.Dimensions > 0 {
		dims = req.Dimensions
	}
	type item struct {
		Object    string    `json:"object"`
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	}
	data := make([]item, len(req.Input))
	words := 0
	for i, in := range req.Input {
		data[i] = item{"embedding", i, Vector(in, dims)}
		words += countWords(in)
	}
	if s.reverseEmbed {
		for i, j := 0, len(data)-1; i < j; i, j = i+1, j-1 {
			data[i], data[j] = data[j], data[i]
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"object": "list", "data": data, "model": req.Model,
		"usage": usage{PromptTokens: words, TotalTokens: words},
	})
}
