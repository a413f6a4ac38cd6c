package dialogue_test

import (
	"context"
	"errors"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
)

// TestStreamAbandonsACancelledSilentTurn: a turn cancelled before it said
// anything is abandoned (no apology said, nothing in the history, the
// error says so); one cancelled after its first sentence ends as before,
// committed.
func TestStreamAbandonsACancelledSilentTurn(t *testing.T) {
	for _, tt := range []struct {
		name       string
		speakFirst bool
		abandoned  bool
	}{
		{"silent", false, true},
		{"spoke", true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			eng := engineFunc(func(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
				if tt.speakFirst {
					req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: "Let me think about Geneva."})
				}
				cancel() // a newer transcript came
				<-ctx.Done()
				return nadine.Reply{}, ctx.Err()
			})
			m, st := newManager(t, eng)
			var r recorder
			_, err := m.Stream(ctx, nadine.Turn{Text: "Tell me about Geneva", UserID: "alex-1", UserName: "Alex"}, r.emit)
			if got := errors.Is(err, dialogue.ErrAbandoned); got != tt.abandoned {
				t.Fatalf("err %v: abandoned %v, want %v", err, got, tt.abandoned)
			}
			var said []string
			done := false
			for _, e := range r.ev {
				switch e.Kind {
				case nadine.EventSpeech:
					said = append(said, e.Text)
				case nadine.EventDone:
					done = true
				}
			}
			if tt.abandoned && (len(said) != 0 || done) {
				t.Errorf("abandoned turn said %q, done event %v", said, done)
			}
			if !tt.abandoned && (len(said) == 0 || !done) {
				t.Errorf("turn that spoke: said %q, done event %v; want it committed and done", said, done)
			}
			msgs, err := st.RecentMessages(context.Background(), "alex-1", m.Session().ConversationID, 0)
			if err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int{true: 0, false: 2}[tt.abandoned]; len(msgs) != want {
				t.Errorf("%d messages in the history, want %d", len(msgs), want)
			}
		})
	}
}
