package agents_test

import (
	"context"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/internal/llmtest"
)

// textSince returns everything the chat requests from the from-th on
// carried.
func (h *harness) textSince(from int) string {
	var b strings.Builder
	for _, r := range h.srv.ChatRequests()[from:] {
		for _, m := range r.Messages {
			b.WriteString(m.Content + "\n")
		}
	}
	return b.String()
}

// TestEngineKeepsNoCopy: the engine's state between turns lives in the
// session it is given, and only there. After the person is erased (their
// profile from the store, their session reset by the dialogue manager),
// nothing of them reaches a prompt — neither on the same engine nor after
// a restart — and Nadine's mood, which the session keeps across
// interactions, survives.
func TestEngineKeepsNoCopy(t *testing.T) {
	secrets := []string{"Zora", "Quantix", "Carouge", "Kyoto", "wonderful"}
	for _, restart := range []bool{false, true} {
		t.Run(map[bool]string{false: "same engine", true: "restart"}[restart], func(t *testing.T) {
			h := newHarness(t)
			h.saveProfile(nadine.Profile{UserID: "zora-1", UserName: "Zora", CurrentCompany: "Quantix", Location: "Carouge"})
			intentFor(h, "Hello", "first_greeting")
			h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleAppraisal), llmtest.MatchLastUser("wonderful"))).
				Reply(`{"emotion":"joy","intensity":0.9}`)
			h.srv.On(llmtest.MatchModel(agents.RoleContextSummary)).Reply("Zora told Nadine about her trip to Kyoto.")
			h.start().as("zora-1", "Zora")
			ctx := context.Background()

			if reply, _ := h.turn("Hello Nadine, you are wonderful!"); reply.Category != nadine.CategoryGreeting {
				t.Fatalf("first greeting %+v", reply)
			}
			h.turn("I am going to Kyoto next month.")
			h.turn("It will be my first time there.")
			if packet := h.lastRequest(agents.RoleResponse).LastUser(); !strings.Contains(packet, "works at Quantix") {
				t.Fatalf("the profile did not reach the packet: %q", packet)
			}
			if h.session.Greeted != "zora-1" || !strings.Contains(string(h.session.Engine), "Kyoto") {
				t.Errorf("session after the turns: greeted %q, engine %s", h.session.Greeted, h.session.Engine)
			}
			before := h.eng.AffectState(h.session)

			if err := h.store.ForgetUser(ctx, "zora-1"); err != nil {
				t.Fatal(err)
			}
			h.endInteraction() // the dialogue manager resets the erased person's session
			if restart {
				h.restart()
			}
			// Face recognition still knows the face.
			h.as("zora-1", "")
			from := len(h.srv.ChatRequests())
			reply, _ := h.turn("Hello!")
			if reply.Category != nadine.CategoryGreeting {
				t.Errorf("reply %+v: the greeting bookkeeping was not reset", reply)
			}
			all := h.textSince(from)
			for _, s := range secrets {
				if strings.Contains(all, s) {
					t.Errorf("%q reached a prompt after the erase:\n%s", s, all)
				}
				if strings.Contains(string(h.session.Engine), s) {
					t.Errorf("the new session state holds %q: %s", s, h.session.Engine)
				}
			}
			after := h.eng.AffectState(h.session)
			if after.Pleasure < before.Pleasure-0.2 || after.Pleasure <= 0 {
				t.Errorf("mood after the erase %+v fell back from %+v", after, before)
			}
		})
	}
}

// TestFaceOnlyUserKeepsState: a user known only by their face (an id, no
// profile) keeps the greeting bookkeeping across turns and restarts: it is
// in the session.
func TestFaceOnlyUserKeepsState(t *testing.T) {
	h := newHarness(t)
	intentFor(h, "Hello", "first_greeting")
	h.start().as("face-7", "")
	if reply, _ := h.turn("Hello Nadine!"); reply.Category != nadine.CategoryGreeting {
		t.Fatalf("first greeting %+v", reply)
	}
	for _, restart := range []bool{false, true} {
		if restart {
			h.restart()
		}
		reply, tr := h.turn("Hello again!")
		if reply.Category == nadine.CategoryGreeting || !hasNote(tr, "already greeted") {
			t.Errorf("restart %v: greeted again: %+v, notes %q", restart, reply, tr.Notes)
		}
		if hasNote(tr, "new conversation state") {
			t.Errorf("restart %v: state reset: %q", restart, tr.Notes)
		}
	}
	if _, err := h.store.Profile(context.Background(), "face-7"); nadine.ErrorCode(err) != nadine.ENOTFOUND {
		t.Errorf("profile of a face: %v", err)
	}
	if h.session.Greeted != "face-7" {
		t.Errorf("session greeted %q", h.session.Greeted)
	}
}

// TestNameQuestionToKnownID: a name question asked to a person perception
// knows by id is kept in the session: it survives a restart, and is gone
// with the session when the person is erased.
func TestNameQuestionToKnownID(t *testing.T) {
	for _, forget := range []bool{false, true} {
		name := map[bool]string{false: "restart", true: "forgotten"}[forget]
		t.Run(name, func(t *testing.T) {
			h := newConfirmHarness(t).as("face-9", "")
			reply, _ := h.turn("Hello, my name is Alise.")
			if reply.Text != "Is your name Alice?" {
				t.Fatalf("reply %q", reply.Text)
			}
			if !h.pending() || !strings.Contains(string(h.session.Engine), "Alise") {
				t.Errorf("session %s: want the pending question", h.session.Engine)
			}
			if forget {
				if err := h.store.ForgetUser(context.Background(), "face-9"); err != nil {
					t.Fatal(err)
				}
				h.endInteraction()
				h.as("face-9", "")
			} else {
				h.restart()
			}
			reply, tr := h.turn("Yes")
			if forget {
				if hasNote(tr, "resuming") || reply.UserID != "face-9" || len(h.eventsOf(nadine.EventUser)) != 0 ||
					strings.Contains(reply.Text, "Alice") {
					t.Errorf("the forgotten question resurfaced: %+v, notes %q", reply, tr.Notes)
				}
				return
			}
			if !hasNote(tr, "resuming the run interrupted at name_confirmation") || reply.UserID != "alice-1" {
				t.Errorf("reply %+v, notes %q", reply, tr.Notes)
			}
			if h.pending() {
				t.Errorf("checkpoint kept after the answer: %s", h.session.Engine)
			}
		})
	}
}

// TestForgetMeIntent: the intent classifier's forget_me (its label or a
// synonym) emits a forget request and ends the run with no reply of the
// graph's own: no response is asked for, nothing is spoken (the dialogue
// manager asks for confirmation). Both wirings.
func TestForgetMeIntent(t *testing.T) {
	for _, wiring := range []struct {
		name string
		edit []func(*agents.Options)
	}{{"parallel", nil}, {"seed", []func(*agents.Options){agents.WithSeedWiring}}} {
		for _, label := range []string{"forget_me", "Intent: Forget Me", `{"intent": "delete my data"}`} {
			t.Run(wiring.name+"/"+label, func(t *testing.T) {
				h := newHarness(t, wiring.edit...)
				intentFor(h, "Vergessen Sie mich", label)
				h.start().as("zora-1", "Zora")
				h.lang = nadine.German
				responses := len(h.requests(agents.RoleResponse))
				reply, tr := h.turn("Vergessen Sie mich bitte")
				if got := h.eventsOf(nadine.EventForgetRequest); len(got) != 1 {
					t.Errorf("forget requests %d, want 1 (events %+v)", len(got), h.emitted())
				}
				if reply.Text != "" || h.spoken() != "" {
					t.Errorf("the graph said %q / %q; the manager answers", reply.Text, h.spoken())
				}
				// The parallel wiring may start a speculative response
				// beside the group; it is discarded unheard.
				if n := len(h.requests(agents.RoleResponse)) - responses; n != 0 && wiring.name == "seed" {
					t.Errorf("%d response calls for a forget request", n)
				}
				for _, s := range tr.Steps {
					if s.Name == agents.NodeResponse || s.Name == agents.NodeMemoryUpdate {
						t.Errorf("the run went on to %s", s.Name)
					}
				}
			})
		}
	}
}
