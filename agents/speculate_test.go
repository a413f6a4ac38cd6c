package agents_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/internal/llmtest"
)

// Scripted answers of the response model: the speculative one (no tool
// results in the packet) and the one after the search.
const (
	speculativeReply = "I am not sure who that is, sorry."
	searchedReply    = "Karin Keller-Sutter is the president this year."
	frenchReply      = "Avec plaisir, parlons français."
)

// streamedFirst wraps the response model: done is closed once its first
// call (the speculative response) has returned, its whole answer streamed.
type streamedFirst struct {
	nadine.ChatModel
	once sync.Once
	done chan struct{}
}

func (m *streamedFirst) ChatStream(ctx context.Context, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
	defer m.once.Do(func() { close(m.done) })
	return m.ChatModel.ChatStream(ctx, req, onDelta)
}

// speculationHarness is a harness whose orchestrator answers only once the
// speculative response has written its whole reply: the held sentences
// exist before the plan is known, whatever the scheduler does.
func speculationHarness(t *testing.T) *harness {
	h := newHarness(t, func(o *agents.Options) {
		o.Tools = []nadine.Tool{&fakeTool{name: "Google Search", out: "| Karin Keller-Sutter, President of the Swiss Confederation"}}
	})
	response := &streamedFirst{done: make(chan struct{})}
	models := h.opts.Models
	h.opts.Models = func(role string) nadine.ChatModel {
		switch role {
		case agents.RoleResponse:
			response.ChatModel = models(role)
			return response
		case agents.RoleOrchestrator:
			return hookModel{models(role), func(nadine.ChatRequest) { <-response.done }}
		}
		return models(role)
	}
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleResponse), llmtest.MatchLastUser("SEARCH RESULTS:"))).Reply(searchedReply)
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleResponse), llmtest.MatchSystem("Reply in French"))).Reply(frenchReply)
	h.srv.On(llmtest.MatchModel(agents.RoleResponse)).Reply(speculativeReply)
	return h
}

// TestSpeculativeResponseNeverSpokenWithPlan: the response started beside
// the orchestrator had written its whole reply when the plan came back
// with a search; none of it is said, the reply is the one written from the
// search results, and the trace records the discarded speculation with
// what it cost.
func TestSpeculativeResponseNeverSpokenWithPlan(t *testing.T) {
	h := speculationHarness(t)
	planFor(h, "president", `{"plan":[{"agent":"search_agent","message":"president of Switzerland","tool":"Google Search"}]}`)
	h.saveProfile(h.profileOf("alex-1", "Alex"))
	h.start().as("alex-1", "Alex")
	reply, tr := h.turn("Who is the president of Switzerland?")

	if got := h.spoken(); got != searchedReply || reply.Text != searchedReply {
		t.Errorf("spoken %q, reply %q; want only %q", got, reply.Text, searchedReply)
	}
	for _, ev := range h.emitted() {
		if strings.Contains(ev.Text, "not sure") {
			t.Errorf("an event of the discarded speculation went out: %+v", ev)
		}
	}
	if n := len(h.requests(agents.RoleResponse)); n != 2 {
		t.Errorf("the response model was asked %d times, want 2 (the speculation, then the answer)", n)
	}
	sp := tr.Speculations
	if len(sp) != 1 || sp[0].Kind != nadine.SpeculateResponse || sp[0].Kept || !strings.Contains(sp[0].Reason, "search_agent") {
		t.Fatalf("speculations %+v, want one discarded response, for the search", sp)
	}
	if sp[0].PromptTokens < 100 || sp[0].CompletionTokens < 5 {
		t.Errorf("discarded speculation cost %d prompt and %d completion tokens, want its prompt and its reply counted",
			sp[0].PromptTokens, sp[0].CompletionTokens)
	}
	if !hasNote(tr, "speculative response discarded") {
		t.Errorf("notes %q", tr.Notes)
	}
}

// TestSpeculativeResponseKept: with an empty plan, the held reply is said
// once, as the turn's reply, from the one response call.
func TestSpeculativeResponseKept(t *testing.T) {
	h := speculationHarness(t)
	h.saveProfile(h.profileOf("alex-1", "Alex"))
	h.start().as("alex-1", "Alex")
	reply, tr := h.turn("I love the lake in summer.")
	if got := h.spoken(); got != speculativeReply || reply.Text != speculativeReply {
		t.Errorf("spoken %q, reply %q; want %q once", got, reply.Text, speculativeReply)
	}
	if n := len(h.requests(agents.RoleResponse)); n != 1 {
		t.Errorf("the response model was asked %d times, want 1", n)
	}
	if sp := tr.Speculations; len(sp) != 1 || !sp[0].Kept || sp[0].PromptTokens != 0 {
		t.Errorf("speculations %+v, want the response kept at no extra cost", sp)
	}
}

// TestSpeculativeResponseDiscarded covers the other ways a turn's response
// differs from the speculation's: a greeting in a longer message (the
// greeting flag and the wave), a new name (the profile extraction's note),
// another language, and an appraisal that changes Nadine's emotion. In
// each the speculative reply is never said.
func TestSpeculativeResponseDiscarded(t *testing.T) {
	tests := []struct {
		name, text, reason string
		script             func(h *harness)
	}{
		{"greeting", "Good morning Nadine, what a lovely day it is today", "intent first_greeting", func(h *harness) {
			intentFor(h, "lovely day", "first_greeting")
		}},
		{"facts to remember", "I work at CERN as a physicist.", "inputs differ", func(h *harness) {
			intentFor(h, "CERN", "update_user_info")
			h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleMemoryUpdate), llmtest.MatchLastUser("CERN"))).
				Reply(`{"user_name":"","current_company":"CERN","current_position":"physicist","location":"","hobbies":[],"interests":[]}`)
		}},
		{"language", "Could we speak French together please?", "inputs differ", func(h *harness) {
			intentFor(h, "French", "language_change")
		}},
		{"feelings", "You are the rudest robot I have ever met.", "feelings", func(h *harness) {
			h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleAppraisal), llmtest.MatchLastUser("rudest"))).Reply("anger 8")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := speculationHarness(t)
			tt.script(h)
			h.saveProfile(h.profileOf("alex-1", "Alex"))
			h.start().as("alex-1", "Alex")
			_, tr := h.turn(tt.text)
			sp := tr.Speculations
			if len(sp) != 1 || sp[0].Kept || !strings.Contains(sp[0].Reason, tt.reason) {
				t.Fatalf("speculations %+v, want one discarded (%s)", sp, tt.reason)
			}
			if n := len(h.requests(agents.RoleResponse)); n != 2 {
				t.Errorf("the response model was asked %d times, want 2", n)
			}
			// The speculation wrote its whole reply before the verdict.
			// The turn's own reply is the same scripted line (in French
			// after the language change): one copy, from the second call.
			want := speculativeReply
			if tt.name == "language" {
				want = frenchReply
			}
			if got := h.spoken(); got != want {
				t.Errorf("spoken %q, want %q once", got, want)
			}
		})
	}
}
