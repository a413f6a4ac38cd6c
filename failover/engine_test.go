package failover_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/failover"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/react"
	"github.com/nadine-robot/nadine/sqlite"
)

// roleClients gives each role its own profile and openai client whose
// model is the role's name, against srv, and returns the pool's model of
// each role.
func roleClients(t *testing.T, srv *llmtest.Server, p *failover.Pool, timeouts map[string]failover.Timeouts, roles ...string) func(string) nadine.ChatModel {
	t.Helper()
	models := map[string]nadine.ChatModel{}
	for _, r := range roles {
		c, err := openai.New(openai.Config{Profile: r, BaseURL: srv.URL(), Model: r})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Add(failover.Profile{Name: r, Chat: c, Retries: 1}); err != nil {
			t.Fatal(err)
		}
		models[r] = p.Chat(r, timeouts[r], r)
	}
	return func(role string) nadine.ChatModel { return models[role] }
}

// TestHangingClassifierDoesNotHoldTheTurn: the intent classifier's server
// never answers. Its attempt is cut at the role's attempt timeout, the
// intent falls back to its default, and the turn goes on to the response
// model's reply, whose call starts after the cut; without the cut the
// classifier would hold the turn until the test's context ends.
func TestHangingClassifierDoesNotHoldTheTurn(t *testing.T) {
	srv := llmtest.New(t)
	srv.On(llmtest.MatchModel(agents.RoleIntent)).Hang()
	srv.On(llmtest.MatchModel(agents.RoleAppraisal)).Reply("joy 4")
	srv.On(llmtest.MatchModel(agents.RoleOrchestrator)).Reply(`{"plan":[]}`)
	srv.On(llmtest.MatchModel(agents.RoleResponse)).Reply("Geneva is lovely in spring. The lake is wonderful.")
	p := newPool(t, failover.Options{})
	const cut = 150 * time.Millisecond
	models := roleClients(t, srv, p, map[string]failover.Timeouts{
		agents.RoleIntent:   {Attempt: cut},
		agents.RoleResponse: {Attempt: time.Minute, FirstToken: time.Minute},
	}, agents.RoleIntent, agents.RoleAppraisal, agents.RoleOrchestrator, agents.RoleResponse)
	eng, err := agents.New(agents.Options{Models: models})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tr := nadine.NewTrace("t1", "Tell me about Geneva.", time.Now())
	ctx = nadine.WithTrace(ctx, tr)
	r, err := eng.Respond(ctx, nadine.Request{Turn: nadine.Turn{Text: "Tell me about Geneva.", Language: nadine.English, UserID: nadine.UnknownUser}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Text != "Geneva is lovely in spring. The lake is wonderful." {
		t.Errorf("reply = %q, want the response model's", r.Text)
	}
	d := tr.Snapshot()
	var intent, response *nadine.ModelCall
	for i, c := range d.ModelCalls {
		switch c.Role {
		case agents.RoleIntent:
			intent = &d.ModelCalls[i]
		case agents.RoleResponse:
			response = &d.ModelCalls[i]
		}
	}
	if intent == nil || !strings.Contains(intent.Error, "attempt cut at its 150ms attempt timeout") {
		t.Fatalf("intent call = %+v, want it cut at its attempt timeout", intent)
	}
	if !hasStep(tr, agents.RoleIntent, "profile intent_classifier, attempt 1 cut at its 150ms attempt timeout; not retried there") {
		t.Errorf("failover steps = %q", steps(tr, agents.RoleIntent))
	}
	failed := false
	for _, f := range d.Failures {
		failed = failed || (f.Stage == "intent_classifier" && f.Code == nadine.EUNAVAILABLE)
	}
	if !failed {
		t.Errorf("failures = %+v, want the intent classifier's", d.Failures)
	}
	if response == nil || response.Error != "" {
		t.Fatalf("response call = %+v", response)
	}
	// The turn went on past the cut: the response was asked once the
	// classifier's attempt had ended (the graph waits for its parallel
	// group).
	if response.Start.Before(intent.Start.Add(intent.Latency)) {
		t.Errorf("the response call started at %v, before the classifier's attempt ended at %v",
			response.Start, intent.Start.Add(intent.Latency))
	}
	if got := len(srv.ChatRequests()); got != 4 {
		t.Errorf("chat requests = %d, want 4 (the cut classifier not retried)", got)
	}
}

// TestTraceRecordsEveryAttemptAndSkip: through the real client, each
// attempt is a model call in the trace, retries and skips are failover
// steps, and once the profile's circuit is open no request reaches the
// server until a probe answers.
func TestTraceRecordsEveryAttemptAndSkip(t *testing.T) {
	srv := llmtest.New(t)
	srv.On(llmtest.MatchModel("response")).Once().Fail(500)
	srv.On(llmtest.MatchModel("response")).Reply("Hello Robin.")
	p := newPool(t, failover.Options{Breaker: failover.BreakerConfig{Failures: 1, Cooldown: time.Hour}})
	m := roleClients(t, srv, p, nil, "response")("response")

	ctx, tr := traced()
	resp, err := m.ChatStream(ctx, nadine.ChatRequest{Role: "response", Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Content: "Hi"}}}, nil)
	if err != nil || resp.Content != "Hello Robin." {
		t.Fatalf("%q, %v", resp.Content, err)
	}
	calls := tr.Snapshot().ModelCalls
	if len(calls) != 2 || !strings.Contains(calls[0].Error, "HTTP 500") || calls[1].Error != "" || calls[0].Attempts != 1 {
		t.Errorf("model calls = %+v, want a failed attempt then one that answered", calls)
	}
	if !hasStep(tr, "response", "profile response, attempt 1 failed (unavailable); retrying in") ||
		!hasStep(tr, "response", "answered on attempt 2") {
		t.Errorf("steps = %q", steps(tr, "response"))
	}

	// Another profile's server fails for good: one failed call (its two
	// attempts) opens the circuit, and the next call is a skip that sends
	// nothing.
	srv.On(llmtest.MatchModel("appraisal")).Fail(503)
	down := roleClients(t, srv, p, nil, "appraisal")("appraisal")
	req := nadine.ChatRequest{Role: "appraisal", Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Content: "Hi"}}}
	ctx, tr = traced()
	if _, err := down.Chat(ctx, req); nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
		t.Fatalf("err = %v", err)
	}
	if n := len(tr.Snapshot().ModelCalls); n != 2 || len(srv.ChatRequests()) != 4 {
		t.Errorf("%d model calls, %d requests; want 2 attempts (4 requests in all)", n, len(srv.ChatRequests()))
	}
	ctx, tr = traced()
	if _, err := down.Chat(ctx, req); nadine.ErrorCode(err) != nadine.EUNAVAILABLE || !strings.Contains(err.Error(), "skipped") {
		t.Fatalf("err = %v, want a skip", err)
	}
	if n := len(tr.Snapshot().ModelCalls); n != 0 || len(srv.ChatRequests()) != 4 || !hasStep(tr, "appraisal", "profile appraisal skipped: circuit open") {
		t.Errorf("%d model calls, %d requests, steps %q; want a skip and no request", n, len(srv.ChatRequests()), steps(tr, "appraisal"))
	}
}

// TestHangingReplyIsNeverSilent: the whole path of a turn whose ReAct agent
// never answers. The dialogue manager says a filler line when the turn has
// been silent for FirstSpeech; the agent's attempt is cut at its
// first-token deadline and retried once within the budget; then the
// offline engine answers, told why.
func TestHangingReplyIsNeverSilent(t *testing.T) {
	srv := llmtest.New(t)
	srv.On(llmtest.MatchModel("react_agent")).Hang()
	p := newPool(t, failover.Options{})
	models := roleClients(t, srv, p, map[string]failover.Timeouts{
		"react_agent": {Attempt: time.Minute, FirstToken: 100 * time.Millisecond},
	}, "react_agent")
	eng, err := react.New(react.Options{Agent: models("react_agent")})
	if err != nil {
		t.Fatal(err)
	}
	var reasons []string
	off := offline.New(offline.Options{})
	told := engineFunc(func(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
		reasons = append(reasons, req.FallbackReason)
		return off.Respond(ctx, req)
	})
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "n.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	fillers := 0
	m, err := dialogue.NewManager(dialogue.ManagerOptions{
		Engines: []nadine.Engine{eng, told}, History: dialogue.NewHistory(st, lexical.New(0), dialogue.HistoryOptions{}),
		TurnTimeout: 10 * time.Second, FirstSpeech: 20 * time.Millisecond,
		Filler: func(lang nadine.Language) (string, nadine.Language) {
			fillers++
			return "Hmm, let me see.", lang
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var events []nadine.Event
	r, err := m.Stream(context.Background(), nadine.Turn{Text: "Hello, what time is it?"}, func(e nadine.Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	})
	if err != nil {
		t.Fatal(err)
	}
	d := r.Trace.Snapshot()
	if d.Engine != "offline" || !r.Fallback || len(reasons) != 1 || reasons[0] != nadine.EUNAVAILABLE {
		t.Errorf("answered by %s (fallback %v), told %q; want offline told %q", d.Engine, r.Fallback, reasons, nadine.EUNAVAILABLE)
	}
	var speech []nadine.Event
	for _, e := range events {
		if e.Kind == nadine.EventSpeech {
			speech = append(speech, e)
		}
	}
	if fillers != 1 || len(speech) < 2 || !speech[0].Filler || speech[1].Filler {
		t.Errorf("fillers %d, speech %+v; want the filler first, then the offline reply", fillers, speech)
	}
	if !hasStep(r.Trace, "react_agent", "attempt 1 cut at its 100ms first-token deadline; retrying") ||
		!hasStep(r.Trace, "react_agent", "attempt 2 cut at its 100ms first-token deadline; not retried: 1 retries allowed") {
		t.Errorf("failover steps = %q", steps(r.Trace, "react_agent"))
	}
}

// engineFunc is an engine made of a function.
type engineFunc func(context.Context, nadine.Request) (nadine.Reply, error)

func (f engineFunc) Name() string { return "offline" }
func (f engineFunc) Respond(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
	return f(ctx, req)
}
