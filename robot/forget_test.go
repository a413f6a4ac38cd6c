package robot_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/mqtt"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/sqlite"
)

// TestFaceNameAndSpokenForgetOverTheBus runs a person's visit over a real
// broker, as serve wires it (the offline engine, SQLite, the runtime, the
// erase path with the session and the runtime): face recognition names a
// person it never named before, and they are listed under that name at
// once (not their face id); they ask aloud to be forgotten and say yes;
// face recognition is told to forget the face, the monitor's recent turns
// lose them, and a late user_detected or face_stored of the face brings
// back neither the person nor the name.
func TestFaceNameAndSpokenForgetOverTheBus(t *testing.T) {
	b := mqtttest.StartBroker(t, "127.0.0.1:0")
	addr := mqtttest.HostPort(b.URL())
	ctx := context.Background()
	f := &nadine.Forgetter{}
	st, m := offlineManager(t, func(o *dialogue.ManagerOptions, st *sqlite.Store) { o.Forget = f.ForgetID })
	cctx, cancel := context.WithTimeout(ctx, mqtttest.Failsafe)
	defer cancel()
	bus, err := mqtt.Connect(cctx, mqtt.Options{URL: b.URL(), ClientID: "nadine-forget"})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := robot.New(robot.Options{Manager: m, Body: bus, Names: st, SpeakTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	f.Store, f.Also = st, []nadine.UserEraser{m, rt}
	runOnBus(t, rt, bus)
	perception := mqtttest.NewPeer(t, addr)
	face := mqtttest.NewPeer(t, addr, "nadine/face_recognition/user_info")
	ctl := &control{t: t, peer: mqtttest.NewPeer(t, addr, "nadine/agent/control/speak")}
	mqtttest.Eventually(t, "nadine connected", bus.Connected)
	named := func(id string) string {
		people, err := nadine.People(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range people {
			if p.ID == id {
				return p.Name
			}
		}
		return ""
	}

	perception.Publish("nadine/graph/user_detected", []byte(`{"user_name":"Zoe","user_id":"face-9","confidence":0.91}`))
	mqtttest.Eventually(t, "face-9 listed as Zoe", func() bool { return named("face-9") == "Zoe" })
	say := func(id, text string) string {
		perception.Publish("nadine/stt/transcript", []byte(`{"text":"`+text+`","language":"en","final":true,"id":"`+id+`"}`))
		var out []string
		for _, s := range spoken(ctl.untilFinal()) {
			out = append(out, s.Text)
		}
		return strings.Join(out, " ")
	}
	if got := say("t1", "Do you remember me?"); !strings.Contains(got, "Zoe") {
		t.Errorf("Nadine does not know Zoe by name: %q", got)
	}
	if got := say("t2", "Please forget me."); !strings.HasPrefix(got, "Zoe, do you want me to forget") {
		t.Fatalf("asked %q", got)
	}
	if got := say("t3", "yes"); !strings.HasPrefix(got, "I have forgotten everything") {
		t.Fatalf("after yes: %q", got)
	}
	var forget struct {
		ID     string `json:"user_id"`
		Name   string `json:"user_name"`
		Forget bool   `json:"forget"`
	}
	for forget.ID != "face-9" || !forget.Forget {
		_ = json.Unmarshal(face.Next().Payload, &forget)
	}
	if forget.Name != "" {
		t.Errorf("the forget names the person: %+v", forget)
	}
	for _, u := range rt.Recent() {
		if u.Reply != nil && u.Reply.UserID == "face-9" {
			t.Errorf("the monitor's recent turns keep the erased person's: %q", u.Input)
		}
	}

	perception.Publish("nadine/graph/user_detected", []byte(`{"user_name":"Zoe","user_id":"face-9","confidence":0.91}`))
	perception.Publish("nadine/graph/face_stored", []byte(`{"user_name":"Zoe","user_id":"face-9","status":"stored"}`))
	say("t4", "Hello!") // one queue: the sighting was handled before this turn
	if s := rt.Session(); s.User.ID != nadine.UnknownUser || named("face-9") != "" {
		t.Errorf("a late sighting brought the person back: session %+v, named %q", s.User, named("face-9"))
	}
}
