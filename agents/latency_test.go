package agents_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/internal/llmtest"
)

// TestCriticalPath counts, from the trace's model-call times, the model
// calls a plain continue_conversation turn waits on in sequence before its
// reply: 1 with the parallel wiring and the speculative response (started
// beside the group, kept because the plan is empty), 2 without the
// speculation (the group, then the response), 5 with the sequential
// sequential wiring (intent, appraisal, contextualizer, orchestrator,
// response).
func TestCriticalPath(t *testing.T) {
	noSpeculation := func(o *agents.Options) { o.Speculate = false }
	tests := []struct {
		name   string
		edit   func(*agents.Options)
		gated  int
		want   int
		visits []string
		roles  []string
	}{
		{
			name: "parallel", gated: 4, want: 1,
			visits: []string{group, "orchestrator", "response_agent", "affective_update"},
			// The context summary was computed in the background after the
			// previous turn: it is not among the turn's calls. The
			// response was asked once: the speculation was kept.
			roles: []string{"appraisal", "intent_classifier", "orchestrator", "response"},
		},
		{
			name: "parallel without speculation", edit: noSpeculation, gated: 3, want: 2,
			visits: []string{group, "orchestrator", "response_agent", "affective_update"},
			roles:  []string{"appraisal", "intent_classifier", "orchestrator", "response"},
		},
		{
			name: "seed", edit: agents.WithSeedWiring, want: 5,
			visits: []string{"intention_classifier", "memory_retrieve_agent", "affective_appraisal", "orchestrator", "response_agent", "affective_update"},
			roles:  []string{"appraisal", "context_summary", "intent_classifier", "orchestrator", "response"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var edits []func(*agents.Options)
			if tt.edit != nil {
				edits = append(edits, tt.edit)
			}
			h := newHarness(t, edits...)
			h.saveProfile(h.profileOf("alex-1", "Alex"))
			h.start().as("alex-1", "Alex")
			h.turn("I visited the Jet d'Eau this morning.")
			if tt.gated > 0 {
				// The parallel calls wait for each other, so that they
				// overlap in time whatever the scheduler does.
				h.gate.arm(tt.gated)
			}
			_, tr := h.turn("It was really impressive, it is so tall.")
			checkVisited(t, tr, tt.visits...)
			if got := callRoles(tr); !slices.Equal(got, tt.roles) {
				t.Errorf("model calls %q, want %q", got, tt.roles)
			}
			if tr.CriticalPath != tt.want {
				t.Errorf("critical path %d, want %d", tr.CriticalPath, tt.want)
			}
			if sp := tr.Speculations; tt.want == 1 && (len(sp) != 1 || !sp[0].Kept || sp[0].Kind != nadine.SpeculateResponse) {
				t.Errorf("speculations %+v, want the response kept", sp)
			}
			t.Logf("%s wiring: critical path of a plain continue_conversation turn = %d model calls", tt.name, tr.CriticalPath)
		})
	}
}

// TestCriticalPathByRoute measures the other routes of the parallel
// wiring, for the record (each with a speculative response started beside
// the group, then discarded: the four calls are held until all arrive).
func TestCriticalPathByRoute(t *testing.T) {
	tests := []struct {
		name, text string
		gated      int
		script     func(h *harness)
		want       int
	}{
		{"update_user_info", "I work at CERN.", 4, func(h *harness) {
			intentFor(h, "CERN", "update_user_info")
			h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleMemoryUpdate), llmtest.MatchLastUser("CERN"))).
				Reply(`{"user_name":"","current_company":"CERN","current_position":"","location":"","hobbies":[],"interests":[]}`)
		}, 3}, // group → extraction → response (the fact changes the response's inputs)
		{"update_user_info, nothing to remember", "I work at CERN.", 4, func(h *harness) {
			intentFor(h, "CERN", "update_user_info")
		}, 2}, // group → extraction, beside the response started with the group and kept
		{"search, one tool", "Who is the president of Switzerland?", 4, func(h *harness) {
			planFor(h, "president", `{"plan":[{"agent":"search_agent","message":"president of Switzerland"}]}`)
		}, 2}, // group (with the plan) → search → response
		{"search, three tools, the plan names one", "Who is the president of Switzerland?", 4, func(h *harness) {
			h.opts.Tools = append(h.opts.Tools, &fakeTool{name: "Google News"}, &fakeTool{name: "Weather App"})
			planFor(h, "president", `{"plan":[{"agent":"search_agent","message":"president of Switzerland","tool":"Google Search"}]}`)
		}, 2}, // group → search → response
		{"search, three tools, the router chooses", "Who is the president of Switzerland?", 4, func(h *harness) {
			h.opts.Tools = append(h.opts.Tools, &fakeTool{name: "Google News"}, &fakeTool{name: "Weather App"})
			planFor(h, "president", `{"plan":[{"agent":"search_agent","message":"president of Switzerland"}]}`)
			h.srv.On(llmtest.MatchModel(agents.RoleSearchRouter)).Reply(`{"tool":"Google Search","query":"president of Switzerland"}`)
		}, 3}, // group → router → search → response
		{"search, three tools, the search_answer summary", "Who is the president of Switzerland?", 4, func(h *harness) {
			h.opts.Tools = append(h.opts.Tools, &fakeTool{name: "Google News"}, &fakeTool{name: "Weather App"})
			h.opts.SearchSummary = true
			planFor(h, "president", `{"plan":[{"agent":"search_agent","message":"president of Switzerland"}]}`)
			h.srv.On(llmtest.MatchModel(agents.RoleSearchRouter)).Reply(`{"tool":"Google Search","query":"president of Switzerland"}`)
			h.srv.On(llmtest.MatchModel(agents.RoleSearchAnswer)).Reply("Karin Keller-Sutter.")
		}, 4}, // group → router → search answer → response
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, func(o *agents.Options) {
				o.Tools = []nadine.Tool{&fakeTool{name: "Google Search", out: "| Karin Keller-Sutter"}}
			})
			h.saveProfile(h.profileOf("alex-1", "Alex"))
			tt.script(h)
			h.start().as("alex-1", "Alex")
			h.gate.arm(tt.gated)
			_, tr := h.turn(tt.text)
			if tr.CriticalPath != tt.want {
				t.Errorf("critical path %d, want %d (calls %q)", tr.CriticalPath, tt.want, callRoles(tr))
			}
			t.Logf("%s: critical path %d", tt.name, tr.CriticalPath)
		})
	}
}

// heldModel holds the calls of a chat model (in arrival order, one
// channel each) until their channel is closed or their context ends.
type heldModel struct {
	nadine.ChatModel
	mu    sync.Mutex
	calls int
	holds []chan struct{}
}

func (m *heldModel) hold(ctx context.Context) {
	m.mu.Lock()
	i := m.calls
	m.calls++
	m.mu.Unlock()
	if i < len(m.holds) {
		select {
		case <-m.holds[i]:
		case <-ctx.Done():
		}
	}
}

func (m *heldModel) Chat(ctx context.Context, req nadine.ChatRequest) (nadine.ChatResponse, error) {
	m.hold(ctx)
	return m.ChatModel.Chat(ctx, req)
}

func (m *heldModel) ChatStream(ctx context.Context, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
	m.hold(ctx)
	return m.ChatModel.ChatStream(ctx, req, onDelta)
}

// hookModel runs before ahead of each call of a chat model.
type hookModel struct {
	nadine.ChatModel
	before func(req nadine.ChatRequest)
}

func (m hookModel) Chat(ctx context.Context, req nadine.ChatRequest) (nadine.ChatResponse, error) {
	m.before(req)
	return m.ChatModel.Chat(ctx, req)
}

func (m hookModel) ChatStream(ctx context.Context, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
	m.before(req)
	return m.ChatModel.ChatStream(ctx, req, onDelta)
}

// TestSummaryWaitBounded: when the person speaks again before the context
// summary the previous turn started in the background is ready, the turn
// does not wait for it beyond Options.SummaryWait: the orchestrator reads
// the last known summary and the last exchange, and the summary it could
// not wait for, once done, becomes the last known one.
func TestSummaryWaitBounded(t *testing.T) {
	first, second, planned := make(chan struct{}), make(chan struct{}), make(chan struct{})
	summary := &heldModel{holds: []chan struct{}{first, second}}
	h := newHarness(t)
	models := h.opts.Models
	h.opts.Models = func(role string) nadine.ChatModel {
		switch role {
		case agents.RoleContextSummary:
			summary.ChatModel = models(role)
			return summary
		case agents.RoleOrchestrator:
			return hookModel{models(role), func(req nadine.ChatRequest) {
				if strings.Contains(req.Messages[len(req.Messages)-1].Content, "LATEST MESSAGE: It was really impressive") {
					close(planned)
				}
			}}
		case agents.RoleResponse:
			// The first summary is released while the second turn
			// answers, once its plan is made, and done by the end of that
			// turn (it is then the engine's only background work).
			return hookModel{models(role), func(req nadine.ChatRequest) {
				if strings.Contains(req.Messages[len(req.Messages)-1].Content, "so tall") {
					<-planned
					close(first)
					h.eng.Wait()
				}
			}}
		}
		return models(role)
	}
	h.srv.On(llmtest.MatchModel(agents.RoleContextSummary)).Once().Reply("Alex visited the Jet d'Eau.")
	h.srv.On(llmtest.MatchModel(agents.RoleContextSummary)).Reply("Alex and Nadine talk about the Jet d'Eau's height.")
	h.saveProfile(h.profileOf("alex-1", "Alex"))
	h.async = true
	h.start().as("alex-1", "Alex")
	releaseSecond := sync.OnceFunc(func() { close(second) })
	t.Cleanup(releaseSecond) // before the engine's Close, which waits for it

	h.turn("I visited the Jet d'Eau this morning.")
	_, tr := h.turn("It was really impressive, it is so tall.")
	if !hasNote(tr, "not ready within") {
		t.Errorf("second turn notes %q, want the summary not waited for", tr.Notes)
	}
	orch := h.lastRequest(agents.RoleOrchestrator).LastUser()
	if !strings.Contains(orch, "Alex: I visited the Jet d'Eau this morning.") {
		t.Errorf("the orchestrator's input without the summary:\n%s\nwant the last exchange", orch)
	}
	if slices.Contains(callRoles(tr), agents.RoleContextSummary) {
		t.Errorf("the second turn summarized inline: %q", callRoles(tr))
	}

	// Third turn: its own summary (started after the second) is held too;
	// the first one, done meanwhile, is the last known summary.
	h.turn("How high is it exactly?")
	orch = h.lastRequest(agents.RoleOrchestrator).LastUser()
	if !strings.Contains(orch, "Alex visited the Jet d'Eau.") || !strings.Contains(orch, "Most recently") {
		t.Errorf("third turn's orchestrator input:\n%s\nwant the first summary and the last exchange", orch)
	}
	releaseSecond()
	h.eng.Wait()
}
