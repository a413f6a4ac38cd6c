package agents_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/sqlite"
)

// checkpoint returns the checkpoint under key, failing without one.
func (h *harness) checkpoint(key string) string {
	h.t.Helper()
	data, err := h.store.LoadCheckpoint(context.Background(), key)
	if err != nil {
		h.t.Fatalf("checkpoint %s: %v", key, err)
	}
	return string(data)
}

// noCheckpoint fails when a checkpoint is stored under key.
func (h *harness) noCheckpoint(key string) {
	h.t.Helper()
	if data, err := h.store.LoadCheckpoint(context.Background(), key); nadine.ErrorCode(err) != nadine.ENOTFOUND {
		h.t.Errorf("checkpoint %s = %.80q, %v; want none", key, data, err)
	}
}

// forgetElsewhere forgets a user through another store over the same
// database file, as `nadine memory forget` does from another process.
func (h *harness) forgetElsewhere(id string) {
	h.t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(h.dir, "nadine.db"), sqlite.Options{Now: func() time.Time { return h.now }})
	if err != nil {
		h.t.Fatal(err)
	}
	defer st.Close()
	if err := st.ForgetUser(ctx, id); err != nil {
		h.t.Fatal(err)
	}
}

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

// robotAffect decodes the affect of the robot-level state.
func robotAffect(t *testing.T, data string) affect.State {
	t.Helper()
	var v struct {
		Affect affect.State `json:"affect"`
	}
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		t.Fatalf("robot state %q: %v", data, err)
	}
	return v.Affect
}

// TestForgetUser: after ForgetUser (in this process, in another one while
// the engine runs, or before a restart) nothing of the person reaches a
// prompt, their conversation state starts afresh, and Nadine's mood
// survives.
func TestForgetUser(t *testing.T) {
	secrets := []string{"Zora", "Quantix", "Carouge", "Kyoto", "wonderful"}
	for _, mode := range []string{"same process", "another process", "restart"} {
		t.Run(mode, func(t *testing.T) {
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
			if packet := h.lastRequest(agents.RoleResponse).LastUser(); !strings.Contains(packet, "works at Quantix") {
				t.Fatalf("the profile did not reach the packet: %q", packet)
			}
			person := h.checkpoint(agents.PersonStateKey("zora-1"))
			for _, s := range []string{"Quantix", "Kyoto", `"greeted_user_id":"zora-1"`} {
				if !strings.Contains(person, s) {
					t.Errorf("person state lacks %q: %s", s, person)
				}
			}
			robot := h.checkpoint(agents.StateKey)
			for _, s := range append(secrets, "zora") {
				if strings.Contains(robot, s) {
					t.Errorf("robot state holds %q: %s", s, robot)
				}
			}
			before := robotAffect(t, robot)
			baseline := affect.DefaultMood(before.Personality)
			if before.Turns != 2 || before.Mood == baseline {
				t.Fatalf("affect before %+v: want 2 turns and a mood moved by joy", before)
			}

			switch mode {
			case "same process":
				if err := h.store.ForgetUser(ctx, "zora-1"); err != nil {
					t.Fatal(err)
				}
			case "another process":
				h.forgetElsewhere("zora-1")
			case "restart":
				h.forgetElsewhere("zora-1")
				h.restart()
			}
			h.noCheckpoint(agents.PersonStateKey("zora-1"))
			// The dialogue manager's window comes from the store, which
			// forgot it; face recognition still knows the face.
			h.history = nil
			h.as("zora-1", "")
			from := len(h.srv.ChatRequests())
			reply, tr := h.turn("Hello!")
			if reply.Category != nadine.CategoryGreeting {
				t.Errorf("reply %+v: the greeting bookkeeping was not reset", reply)
			}
			if got, want := hasNote(tr, "the user was forgotten"), mode != "restart"; got != want {
				t.Errorf("forgotten noted %v, want %v: %q", got, want, tr.Notes)
			}
			all := h.textSince(from)
			for _, s := range secrets {
				if strings.Contains(all, s) {
					t.Errorf("%q reached a prompt after ForgetUser:\n%s", s, all)
				}
			}
			person = h.checkpoint(agents.PersonStateKey("zora-1"))
			if !strings.Contains(person, `"content":"Hello!"`) {
				t.Errorf("person state not recreated with the new turn: %s", person)
			}
			for _, s := range secrets {
				if strings.Contains(person, s) {
					t.Errorf("recreated person state holds %q: %s", s, person)
				}
			}
			after := robotAffect(t, h.checkpoint(agents.StateKey))
			// A reset affect would have counted 1 turn, at the baseline.
			if after.Turns != 3 || after.Mood == baseline {
				t.Errorf("affect after %+v: want the mood of before, 3 turns", after)
			}
		})
	}
}

// TestForgetDuringTurn: a user forgotten while their turn runs (the forget
// button pressed as they talk) is not saved again at the end of the turn.
func TestForgetDuringTurn(t *testing.T) {
	h := newHarness(t)
	h.saveProfile(nadine.Profile{UserID: "zora-1", UserName: "Zora", CurrentCompany: "Quantix"})
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleResponse), llmtest.MatchLastUser("forget me"))).
		ReplyFunc(func(llmtest.Request) string {
			if err := h.store.ForgetUser(context.Background(), "zora-1"); err != nil {
				t.Error(err)
			}
			return "Of course, I will forget you."
		})
	h.start().as("zora-1", "Zora")
	h.turn("I work at Quantix.")
	reply, tr := h.turn("Please forget me.")
	if reply.Text != "Of course, I will forget you." || !hasNote(tr, "forgotten during the turn") {
		t.Errorf("reply %q, notes %q", reply.Text, tr.Notes)
	}
	if len(tr.Failures) != 0 {
		t.Errorf("failures %+v", tr.Failures)
	}
	h.noCheckpoint(agents.PersonStateKey("zora-1"))
	if a := robotAffect(t, h.checkpoint(agents.StateKey)); a.Turns != 2 {
		t.Errorf("robot state not saved: %+v", a)
	}

	h.history = nil
	h.as("zora-1", "")
	from := len(h.srv.ChatRequests())
	h.turn("Hello again.")
	if all := h.textSince(from); strings.Contains(all, "Quantix") || strings.Contains(all, "Zora") {
		t.Errorf("the forgotten user reached a prompt:\n%s", all)
	}
	if person := h.checkpoint(agents.PersonStateKey("zora-1")); strings.Contains(person, "Quantix") {
		t.Errorf("person state %s", person)
	}
}

// TestFaceOnlyUserKeepsState: a user known only by their face (an id, no
// profile) is not taken for a forgotten one: the greeting bookkeeping
// stays, across turns and restarts.
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
		if hasNote(tr, "forgotten") || hasNote(tr, "new conversation state") {
			t.Errorf("restart %v: state reset: %q", restart, tr.Notes)
		}
	}
	if _, err := h.store.Profile(context.Background(), "face-7"); nadine.ErrorCode(err) != nadine.ENOTFOUND {
		t.Errorf("profile of a face: %v", err)
	}
	if person := h.checkpoint(agents.PersonStateKey("face-7")); !strings.Contains(person, `"greeted_user_id":"face-7"`) {
		t.Errorf("person state %s", person)
	}
}

// TestNameQuestionToKnownID: a name question asked to a person perception
// knows by id is checkpointed under their own key: it survives a restart,
// and ForgetUser erases it with the rest of them.
func TestNameQuestionToKnownID(t *testing.T) {
	for _, forget := range []bool{false, true} {
		name := "restart"
		if forget {
			name = "forgotten"
		}
		t.Run(name, func(t *testing.T) {
			h := newConfirmHarness(t).as("face-9", "")
			reply, _ := h.turn("Hello, my name is Alise.")
			if reply.Text != "Is your name Alice?" {
				t.Fatalf("reply %q", reply.Text)
			}
			if cp := h.checkpoint(agents.PendingKey("face-9")); !strings.Contains(cp, "Alise") {
				t.Errorf("pending checkpoint %s", cp)
			}
			h.noCheckpoint(agents.CheckpointKey)
			if forget {
				if err := h.store.ForgetUser(context.Background(), "face-9"); err != nil {
					t.Fatal(err)
				}
				h.noCheckpoint(agents.PendingKey("face-9"))
				h.history = nil // the dialogue manager's window is in the store
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
			h.noCheckpoint(agents.PendingKey("face-9"))
			// face-9 was Alice: the face's conversation state is superseded.
			h.noCheckpoint(agents.PersonStateKey("face-9"))
			h.checkpoint(agents.PersonStateKey("alice-1"))
		})
	}
}

// failingCheckpoints fails the saves of name-question checkpoints, fail
// times.
type failingCheckpoints struct {
	nadine.Store
	mu   sync.Mutex
	fail int
}

func (f *failingCheckpoints) SaveCheckpoint(ctx context.Context, key string, data []byte) error {
	if key == agents.CheckpointKey || strings.HasSuffix(key, "/graph/pending") {
		f.mu.Lock()
		fail := f.fail > 0
		f.fail--
		f.mu.Unlock()
		if fail {
			return nadine.Errorf(nadine.EUNAVAILABLE, "test: disk full")
		}
	}
	return f.Store.SaveCheckpoint(ctx, key, data)
}

// TestNameQuestionNotCheckpointed: when the checkpoint of a spoken
// question cannot be saved, the turn still returns its reply (an error would
// make the fallback engine speak again), and the next turn asks again.
func TestNameQuestionNotCheckpointed(t *testing.T) {
	h := newConfirmHarness(t, func(o *agents.Options) { o.Store = &failingCheckpoints{Store: o.Store, fail: 1} })
	reply, tr, err := h.try("Hello, my name is Alise.")
	if err != nil {
		t.Fatalf("error after the question was spoken: %v", err)
	}
	if reply.Text != "Is your name Alice?" || h.spoken() != "Is your name Alice?" {
		t.Errorf("reply %q, spoken %q", reply.Text, h.spoken())
	}
	if !hasFailure(tr, "checkpoint") || !hasNote(tr, "name question not checkpointed") {
		t.Errorf("failures %+v, notes %q", tr.Failures, tr.Notes)
	}
	h.noCheckpoint(agents.CheckpointKey)
	if reply, _ = h.turn("Yes"); reply.Text != "Is your name Alice?" {
		t.Errorf("after an unsaved question: %q, want it asked again", reply.Text)
	}
	if reply, _ = h.turn("Yes"); reply.UserID != "alice-1" {
		t.Errorf("user %q after confirming", reply.UserID)
	}
}

// TestOldRobotStateScrubbed: a state saved under StateKey by an earlier
// version, with a person's data in it, is rewritten with the affect and
// language only.
func TestOldRobotStateScrubbed(t *testing.T) {
	h := newHarness(t)
	a := affect.New(affect.NadinePersonality(), h.now)
	a.Turns = 7
	old, err := json.Marshal(agents.State{
		Messages: []nadine.Message{{Role: nadine.RoleUser, Content: "I work at EPFL"}},
		UserInfo: agents.UserInfo{ID: "zora-1", Name: "Zora"}, Affect: a, Language: nadine.French,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.store.SaveCheckpoint(context.Background(), agents.StateKey, old); err != nil {
		t.Fatal(err)
	}
	h.start()
	h.eng.AffectState(context.Background())
	robot := h.checkpoint(agents.StateKey)
	if strings.Contains(robot, "EPFL") || strings.Contains(robot, "alex") || !strings.Contains(robot, `"language":"fr"`) {
		t.Errorf("robot state %s", robot)
	}
	if got := robotAffect(t, robot); got.Turns != 7 {
		t.Errorf("affect %+v", got)
	}
}
