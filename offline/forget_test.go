package offline_test

import (
	"context"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/offline"
)

// TestAsksToForget: the classifier's forget_me intent, on cases written
// for the first, phrase-based recognition (by the dialogue's forget work),
// in the four languages; a negated request and look-alikes ("forget it")
// are not requests.
func TestAsksToForget(t *testing.T) {
	e := offline.New(offline.Options{})
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"Please forget everything about me.", true},
		{"nadine forget me", true},
		{"Can you delete my data?", true},
		{"Oublie-moi, s'il te plaît.", true},
		{"Oubliez tout ce que vous savez sur moi", true},
		{"Vergiss mich bitte.", true},
		{"Löschen Sie meine Daten!", true},
		{"请忘记我。", true},
		{"删除我的数据", true},
		{"Forget it, it does not matter.", false},
		{"Don't forget me!", false},
		{"Ne m'oublie pas.", false},
		{"Vergiss mich nicht!", false},
		{"不要忘记我", false},
		{"What is your name?", false},
		{"I forgot my umbrella", false},
	} {
		var asked bool
		r, err := e.Respond(context.Background(), nadine.Request{Turn: nadine.Turn{Text: tt.text, UserID: "anna-1", UserName: "Anna"},
			Emit: func(ev nadine.Event) { asked = asked || ev.Kind == nadine.EventForgetRequest }})
		if err != nil {
			t.Fatal(err)
		}
		if asked != tt.want || (asked && r.Text != "") {
			t.Errorf("%q: forget request %v (reply %q), want %v", tt.text, asked, r.Text, tt.want)
		}
	}
}

// TestForgetRequestEvent: the engine emits the request and leaves the
// reply to the dialogue manager (an empty reply, no speech).
func TestForgetRequestEvent(t *testing.T) {
	e := offline.New(offline.Options{})
	var got []nadine.Event
	r, err := e.Respond(context.Background(), nadine.Request{
		Turn: nadine.Turn{Text: "Oubliez-moi", Language: nadine.French, UserID: "anna-1", UserName: "Anna"},
		Emit: func(ev nadine.Event) { got = append(got, ev) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Kind != nadine.EventForgetRequest || r.Text != "" {
		t.Errorf("events %+v, reply %q; want one forget request and no text", got, r.Text)
	}
}
