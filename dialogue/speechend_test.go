package dialogue_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestSpeechEndThenFailure: an engine whose reply's speech ended and which
// then fails (the model broke off while writing the emotion) is not followed
// by the next engine: nothing may be said after the final marker, and the
// reply, the history and the done event hold what was said.
func TestSpeechEndThenFailure(t *testing.T) {
	said := []string{"Geneva is lovely.", "The lake is right there."}
	broken := engineFunc(func(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
		for _, s := range said {
			req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: s})
		}
		req.Emit(nadine.Event{Kind: nadine.EventSpeechEnd})
		return nadine.Reply{}, nadine.Errorf(nadine.EUNAVAILABLE, "openai: stream broken: %w", errors.New("connection reset"))
	})
	next := &scriptedEngine{name: "next", reply: nadine.Reply{Text: "Sorry, something went wrong."}}
	m, st := newManager(t, broken, next)
	var r recorder
	reply, err := m.Stream(context.Background(), nadine.Turn{Text: "Tell me about Geneva", UserID: "alex-1", UserName: "Alex"}, r.emit)
	if err != nil {
		t.Fatal(err)
	}
	if len(next.reqs) != 0 {
		t.Error("the next engine was asked after the speech ended")
	}
	var out []string
	for _, e := range r.ev {
		switch e.Kind {
		case nadine.EventSpeech:
			out = append(out, "say:"+e.Text)
		case nadine.EventSpeechEnd, nadine.EventDone:
			out = append(out, string(e.Kind))
		}
	}
	if want := []string{"say:" + said[0], "say:" + said[1], "speech_end", "done"}; !slices.Equal(out, want) {
		t.Errorf("out %q, want %q", out, want)
	}
	if reply.Text != said[0]+" "+said[1] || reply.Fallback {
		t.Errorf("reply %+v, want what was said", reply)
	}
	msgs, err := st.RecentMessages(context.Background(), "alex-1", m.Session().ConversationID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || msgs[1].Content != reply.Text {
		t.Errorf("history %+v, want the input and what was said", msgs)
	}
}
