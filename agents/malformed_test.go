package agents_test

import (
	"context"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/internal/llmtest"
)

// TestMalformedModelOutput feeds unusable answers to every node that
// expects JSON (or a label): each falls back to its default, the trace
// says what failed, and the turn still gets a reply.
func TestMalformedModelOutput(t *testing.T) {
	t.Run("intent, appraisal, orchestrator", func(t *testing.T) {
		h := newHarness(t)
		h.srv.On(llmtest.MatchModel(agents.RoleIntent)).Reply("Well, I would say it is probably something??")
		h.srv.On(llmtest.MatchModel(agents.RoleAppraisal)).Reply("!!! {feeling: ???")
		h.srv.On(llmtest.MatchModel(agents.RoleOrchestrator)).Reply(`{"plan": [{"agent": "search_agent", "message": `)
		h.start()
		reply, tr := h.turn("What is the capital of Peru?")
		if reply.Text == "" {
			t.Fatal("no reply")
		}
		checkVisited(t, tr, group, "orchestrator", "response_agent", "affective_update")
		if !hasNote(tr, "is not an intent") || !hasFailure(tr, "affective_appraisal") || !hasFailure(tr, "orchestrator") {
			t.Errorf("notes %q, failures %+v", tr.Notes, tr.Failures)
		}
		if reply.Emotion != nadine.Neutral {
			t.Errorf("emotion %s, want neutral", reply.Emotion)
		}
	})
	t.Run("bad labels and emotions", func(t *testing.T) {
		h := newHarness(t)
		h.srv.On(llmtest.MatchModel(agents.RoleIntent)).Reply("order_pizza")
		h.srv.On(llmtest.MatchModel(agents.RoleAppraisal)).Reply(`{"emotion":"purple","intensity":"very"}`)
		h.srv.On(llmtest.MatchModel(agents.RoleOrchestrator)).Reply(`{"plan":"search"}`)
		h.start()
		if reply, _ := h.turn("Hmm."); reply.Text == "" || reply.Emotion != nadine.Neutral {
			t.Errorf("reply %+v", reply)
		}
	})
	t.Run("garbage bodies", func(t *testing.T) {
		h := newHarness(t)
		for _, role := range []string{agents.RoleIntent, agents.RoleAppraisal, agents.RoleOrchestrator} {
			h.srv.On(llmtest.MatchModel(role)).Garbage()
		}
		h.start()
		reply, tr := h.turn("Tell me something nice.")
		if reply.Text == "" {
			t.Fatal("no reply")
		}
		for _, stage := range []string{"intent_classifier", "affective_appraisal", "orchestrator"} {
			if !hasFailure(tr, stage) {
				t.Errorf("no failure recorded for %s: %+v", stage, tr.Failures)
			}
		}
	})
	t.Run("extraction", func(t *testing.T) {
		h := newHarness(t)
		intentFor(h, "Zoe", "update_user_info")
		h.srv.On(llmtest.MatchModel(agents.RoleMemoryUpdate)).Reply(`user_name = Zoe`)
		h.start()
		reply, tr := h.turn("My name is Zoe.")
		if reply.Text == "" || !hasFailure(tr, "memory_update_agent") {
			t.Errorf("reply %q, failures %+v", reply.Text, tr.Failures)
		}
		if users, _ := h.store.Users(context.Background()); len(users) != 0 {
			t.Errorf("users %v stored from garbage", users)
		}
	})
	t.Run("search router", func(t *testing.T) {
		search := &fakeTool{name: "Google Search", out: "| Lima is the capital of Peru."}
		news := &fakeTool{name: "Google News", out: "| nothing"}
		h := newHarness(t, func(o *agents.Options) { o.Tools = []nadine.Tool{news, search} })
		planFor(h, "Peru", `{"plan":[{"agent":"search_agent","message":"capital of Peru"}]}`)
		h.srv.On(llmtest.MatchModel(agents.RoleSearchRouter)).Reply("I'd use google")
		h.srv.On(llmtest.MatchModel(agents.RoleSearchAnswer)).Reply("Lima is the capital of Peru.")
		h.start()
		reply, tr := h.turn("What is the capital of Peru?")
		if reply.Text == "" || !hasFailure(tr, "search_router") {
			t.Errorf("reply %q, failures %+v", reply.Text, tr.Failures)
		}
		if got := search.calls(); len(got) != 1 || got[0] != "capital of Peru" {
			t.Errorf("default search tool calls %q", got)
		}
		h.plannedRequest(agents.RoleResponse, "Lima is the capital") // the search result reached the response
	})
	t.Run("episode", func(t *testing.T) {
		h := newHarness(t)
		h.saveProfile(nadine.Profile{UserID: "alex-1", UserName: "Alex"})
		intentFor(h, "Bye", "end_conversation")
		h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleMemoryUpdate), llmtest.MatchSystem("episodic memory"))).
			Reply(`{"observation": "They talked"`)
		h.start().as("alex-1", "Alex")
		if reply, _ := h.turn("Bye!"); reply.Text == "" {
			t.Fatal("no reply")
		}
		ctx := context.Background()
		eps, _ := h.store.Memories(ctx, "alex-1", nadine.MemoryEpisode)
		convs, _ := h.store.Memories(ctx, "alex-1", nadine.MemoryConversation)
		if len(eps) != 0 || len(convs) != 1 {
			t.Errorf("%d episodes, %d conversations: want only the conversation saved", len(eps), len(convs))
		}
	})
}
