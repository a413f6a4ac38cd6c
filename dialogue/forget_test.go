package dialogue_test

import (
	"context"
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestEraseUserForgetsTheSession: once forgotten, the person in front of
// the robot is a stranger again and their conversation is not continued
// under the erased id; another person's session is untouched.
func TestEraseUserForgetsTheSession(t *testing.T) {
	eng := &scriptedEngine{name: "react", reply: nadine.Reply{Text: "Nice to see you."}}
	m, st := newManager(t, eng)
	ctx := context.Background()
	f := &nadine.Forgetter{Store: st, Also: []nadine.UserEraser{m}}

	if _, err := m.SetUser(ctx, nadine.UserRef{ID: "robin-1", Name: "Robin"}); err != nil {
		t.Fatal(err)
	}
	if _, err := m.ProcessInput(ctx, nadine.Turn{Text: "My PIN is 4242"}); err != nil {
		t.Fatal(err)
	}
	conv := m.Session().ConversationID
	if err := f.ForgetID(ctx, "sam-1"); err != nil {
		t.Fatal(err)
	}
	if s := m.Session(); s.User.ID != "robin-1" || s.ConversationID != conv {
		t.Fatalf("forgetting someone else changed the session: %+v", s)
	}
	if err := f.ForgetID(ctx, "robin-1"); err != nil {
		t.Fatal(err)
	}
	if s := m.Session(); s.User.ID != nadine.UnknownUser || s.User.Name != "" {
		t.Errorf("session after forgetting the person in front = %+v, want the unknown user", s.User)
	}
	if _, err := m.ProcessInput(ctx, nadine.Turn{Text: "Hello again"}); err != nil {
		t.Fatal(err)
	}
	if msgs, err := st.RecentMessages(ctx, "robin-1", conv, 0); err != nil || len(msgs) != 0 {
		t.Errorf("messages under the forgotten id = %v, %v; want none", msgs, err)
	}
	if last := eng.reqs[len(eng.reqs)-1]; last.Turn.UserID != nadine.UnknownUser || len(last.History) != 0 {
		t.Errorf("the next turn was %s's with %d messages of history", last.Turn.UserID, len(last.History))
	}
}
