package agents_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/internal/llmtest"
)

// newConfirmHarness knows Alice and Elise; an unknown person says "my name
// is Alise", which resembles both (0.8, between the thresholds). edit
// adjusts the options.
func newConfirmHarness(t *testing.T, edit ...func(*agents.Options)) *harness {
	h := newHarness(t, edit...)
	h.saveProfile(nadine.Profile{UserID: "alice-1", UserName: "Alice", CurrentCompany: "UNIGE"})
	h.saveProfile(nadine.Profile{UserID: "elise-1", UserName: "Elise", Location: "Lausanne"})
	intentFor(h, "Hello, my name is Alise", "first_greeting")
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleMemoryUpdate), llmtest.MatchLastUser("Alise"))).
		Reply(`{"user_name":"Alise","current_company":"","current_position":"","location":"","hobbies":["piano"],"interests":[]}`)
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleResponse), llmtest.MatchLastUser("Name: Alice"))).
		Reply("Welcome back, Alice!")
	return h.start()
}

// ask runs the turn that asks the question and checks it.
func (h *harness) ask() {
	h.t.Helper()
	reply, tr := h.turn("Hello, my name is Alise, and I play the piano.")
	checkVisited(h.t, tr, group, "memory_update_agent", "response_agent", "affective_update", "name_confirmation(interrupted)")
	if reply.Text != "Is your name Alice?" || h.spoken() != "Is your name Alice?" {
		h.t.Fatalf("reply %q, spoken %q", reply.Text, h.spoken())
	}
	if n := len(h.requests(agents.RoleResponse)); n != 0 {
		h.t.Errorf("%d response requests: the question needs no model", n)
	}
	if len(h.eventsOf(nadine.EventUser)) != 0 {
		h.t.Error("identity published before it is settled")
	}
	if !h.pending() {
		h.t.Errorf("no checkpoint of the interrupted run in the session: %s", h.session.Engine)
	}
}

func TestNameConfirmationYes(t *testing.T) {
	h := newConfirmHarness(t)
	h.ask()
	reply, tr := h.turn("Yes, that's me!")
	checkVisited(t, tr, "name_confirmation", group, "orchestrator", "response_agent", "affective_update")
	if reply.UserID != "alice-1" || reply.Text != "Welcome back, Alice!" {
		t.Errorf("reply %+v", reply)
	}
	if evs := h.eventsOf(nadine.EventUser); len(evs) != 1 || *evs[0].User != (nadine.UserRef{ID: "alice-1", Name: "Alice"}) {
		t.Errorf("user events %v: want the existing id for face recognition", evs)
	}
	p := h.profile("alice-1")
	if p.CurrentCompany != "UNIGE" || len(p.Hobbies) != 1 || p.Hobbies[0] != "piano" {
		t.Errorf("Alice's profile %+v: want her stored profile plus the facts of the introduction", p)
	}
	packet := h.lastRequest(agents.RoleResponse).LastUser()
	if !strings.Contains(packet, "works at UNIGE") || !strings.Contains(packet, "confirmed that they are Alice") {
		t.Errorf("packet %q", packet)
	}
	if h.pending() {
		t.Errorf("checkpoint after the resolution: %s", h.session.Engine)
	}
	// The next turn is an ordinary one.
	_, tr = h.turn("How are you?")
	checkVisited(t, tr, group, "orchestrator", "response_agent", "affective_update")
}

func TestNameConfirmationAnswers(t *testing.T) {
	tests := []struct {
		name     string
		answers  []string
		asked    []string // the questions after each answer but the last
		wantID   string
		wantName string
	}{
		{"oui", []string{"oui"}, nil, "alice-1", "Alice"},
		{"no then yes", []string{"No.", "Yes"}, []string{"Is your name Elise?"}, "elise-1", "Elise"},
		{"another name", []string{"No, my name is Alise Martin"}, nil, "alise-martin-new", "Alise Martin"},
		{"no and no", []string{"no", "not at all"}, []string{"Is your name Elise?"}, "alise-new", "Alise"},
		{"the other's name", []string{"No, I'm Elise"}, nil, "elise-1", "Elise"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newConfirmHarness(t)
			h.ask()
			var reply nadine.Reply
			for i, a := range tt.answers {
				var tr nadine.TraceData
				reply, tr = h.turn(a)
				if i < len(tt.answers)-1 {
					checkVisited(t, tr, "name_confirmation", "response_agent", "affective_update", "name_confirmation(interrupted)")
					if reply.Text != tt.asked[i] {
						t.Errorf("after %q: %q, want %q", a, reply.Text, tt.asked[i])
					}
					continue
				}
				checkVisited(t, tr, "name_confirmation", group, "orchestrator", "response_agent", "affective_update")
			}
			if reply.UserID != tt.wantID {
				t.Errorf("user %q, want %q", reply.UserID, tt.wantID)
			}
			evs := h.eventsOf(nadine.EventUser)
			if len(evs) != 1 || *evs[0].User != (nadine.UserRef{ID: tt.wantID, Name: tt.wantName}) {
				t.Errorf("user events %v", evs)
			}
			if p := h.profile(tt.wantID); p.UserName != tt.wantName {
				t.Errorf("profile %+v", p)
			}
			if p := h.profile("alice-1"); p.UserName != "Alice" || len(p.Hobbies) != 0 && tt.wantID != "alice-1" {
				t.Errorf("Alice's profile changed: %+v", p)
			}
		})
	}
}

func TestNameConfirmationSurvivesRestart(t *testing.T) {
	h := newConfirmHarness(t)
	h.ask()
	h.restart() // a new Engine over the same database file; the session is the manager's
	reply, tr := h.turn("Yes")
	if !hasNote(tr, "resuming the run interrupted at name_confirmation") {
		t.Errorf("notes %q", tr.Notes)
	}
	checkVisited(t, tr, "name_confirmation", group, "orchestrator", "response_agent", "affective_update")
	if reply.UserID != "alice-1" || reply.Text != "Welcome back, Alice!" {
		t.Errorf("reply %+v", reply)
	}
}

func TestNameConfirmationAbandoned(t *testing.T) {
	h := newConfirmHarness(t)
	h.ask()
	h.conv = "conv-2" // another conversation
	reply, tr := h.turn("What time is it?")
	if !hasNote(tr, "name question abandoned") {
		t.Errorf("notes %q", tr.Notes)
	}
	checkVisited(t, tr, group, "orchestrator", "response_agent", "affective_update")
	if reply.UserID != nadine.UnknownUser {
		t.Errorf("reply user %q", reply.UserID)
	}
	if h.pending() {
		t.Errorf("checkpoint kept: %s", h.session.Engine)
	}
}

// TestNameConfirmationWithoutCheckpoint: when the checkpoint is lost, the
// pending confirmation in the state forces update_user_info, and the
// question is asked again.
func TestNameConfirmationWithoutCheckpoint(t *testing.T) {
	h := newConfirmHarness(t)
	h.ask()
	h.dropPending()
	reply, tr := h.turn("Yes")
	checkVisited(t, tr, group, "memory_update_agent", "response_agent", "affective_update", "name_confirmation(interrupted)")
	if reply.Text != "Is your name Alice?" || !hasNote(tr, "a name confirmation is pending") {
		t.Errorf("reply %q, notes %q", reply.Text, tr.Notes)
	}
	if reply, _ = h.turn("Yes"); reply.UserID != "alice-1" {
		t.Errorf("user %q after confirming", reply.UserID)
	}
}

// pending reports whether the session holds the checkpoint of a run a
// name question interrupted.
func (h *harness) pending() bool {
	var p struct {
		Pending json.RawMessage `json:"pending"`
	}
	return len(h.session.Engine) > 0 && json.Unmarshal(h.session.Engine, &p) == nil && len(p.Pending) > 0
}

// dropPending loses the checkpoint of the interrupted run and keeps the
// rest of the engine's session state.
func (h *harness) dropPending() {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(h.session.Engine, &p); err != nil {
		h.t.Fatal(err)
	}
	delete(p, "pending")
	b, err := json.Marshal(p)
	if err != nil {
		h.t.Fatal(err)
	}
	h.session.Engine = b
}
