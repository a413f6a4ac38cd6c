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
	"github.com/nadine-robot/nadine/langid"
	"github.com/nadine-robot/nadine/mqtt"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/sqlite"
)

// TestEndOfInteractionOnTheBus: user/left with the person's id, another id
// or nothing, and the idle timeout, each end the interaction: the monitor
// is told why, speech-to-text gets the default language back, and the next
// person is a stranger.
func TestEndOfInteractionOnTheBus(t *testing.T) {
	ctx := context.Background()
	b := mqtttest.StartBroker(t, "127.0.0.1:0")
	addr := mqtttest.HostPort(b.URL())
	det, err := langid.New()
	if err != nil {
		t.Fatal(err)
	}
	st, m := offlineManager(t, func(o *dialogue.ManagerOptions, st *sqlite.Store) { o.Detector, o.Checkpoints = det, st })
	cctx, cancel := context.WithTimeout(ctx, mqtttest.Failsafe)
	defer cancel()
	bus, err := mqtt.Connect(cctx, mqtt.Options{URL: b.URL(), ClientID: "nadine-session"})
	if err != nil {
		t.Fatal(err)
	}
	const idle = 1500 * time.Millisecond
	rt, err := robot.New(robot.Options{Manager: m, Body: bus, Names: st, SpeakTimeout: time.Minute, IdleTimeout: idle})
	if err != nil {
		t.Fatal(err)
	}
	updates, unsubscribe := rt.Subscribe(256)
	defer unsubscribe()
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- rt.Run(runCtx, bus.Inbound()) }()
	defer func() {
		stop()
		<-done
		_ = bus.Close(context.Background())
	}()
	mqtttest.Eventually(t, "nadine connected", bus.Connected)
	peer := mqtttest.NewPeer(t, addr)
	ctl := &control{t: t, peer: mqtttest.NewPeer(t, addr, "nadine/agent/control/speak", "nadine/stt/language")}
	// sttLanguage reads messages until stt/language says want.
	sttLanguage := func(want nadine.Language) {
		t.Helper()
		for {
			r := ctl.next()
			if r.topic != "nadine/stt/language" {
				continue
			}
			var l struct {
				Language string `json:"language"`
			}
			_ = json.Unmarshal([]byte(r.payload), &l)
			if l.Language == string(want) {
				return
			}
		}
	}
	// ended waits for the runtime to report an end of interaction.
	ended := func() dialogue.Ending {
		t.Helper()
		timeout := time.After(mqtttest.Failsafe)
		for {
			select {
			case u := <-updates:
				if u.Kind == robot.UpdateEnded {
					return *u.Ending
				}
			case <-timeout:
				t.Fatal("no end of interaction")
			}
		}
	}
	sttLanguage(nadine.English)

	visits := []struct {
		id, name string
		leave    []byte // the user/left payload; nil: the idle timeout
		reason   string
	}{
		{"maria-1", "Maria", []byte(`{"user_id":"maria-1"}`), "left"},
		{"kenji-2", "Kenji", []byte(``), "left"},
		{"lea-3", "Léa", []byte(`{"user_id":"face-99"}`), "left"},
		{"omar-4", "Omar", nil, "idle"},
	}
	for i, v := range visits {
		peer.Publish("nadine/graph/user_detected", []byte(`{"user_name":"`+v.name+`","user_id":"`+v.id+`","confidence":0.9}`))
		mqtttest.Eventually(t, v.name+" in the session", func() bool { return rt.Session().User.ID == v.id })
		peer.Publish("nadine/stt/transcript", []byte(`{"text":"Bonjour Nadine, comment allez-vous ?","final":true,"id":"t-`+v.id+`"}`))
		sttLanguage(nadine.French) // the session follows the visitor
		sp := spoken(ctl.untilFinal())
		if len(sp) == 0 || sp[0].Locale != "fr-FR" {
			t.Errorf("visit %d: speech %+v, want French", i, sp)
		}
		if v.leave != nil {
			peer.Publish("nadine/user/left", v.leave)
		}
		e := ended()
		if e.User.ID != v.id || e.Reason != v.reason || e.Turns != 1 || !e.LanguageChanged {
			t.Errorf("visit %d: ending %+v", i, e)
		}
		sttLanguage(nadine.English)
		if s := rt.Session(); s.User.ID != nadine.UnknownUser || s.Language != nadine.English || s.Turns != 0 {
			t.Errorf("visit %d: session after the end %+v", i, s)
		}
		if mems, _ := st.Memories(ctx, v.id); len(mems) != 1 || !strings.Contains(mems[0].Text, "Bonjour") {
			t.Errorf("visit %d: %s's conversation not stored: %+v", i, v.name, mems)
		}
	}
	// The monitor's page load shows the turns and the ends, oldest first.
	recent := rt.Recent()
	if len(recent) != 2*len(visits) || recent[0].Kind != robot.UpdateTurn || recent[1].Kind != robot.UpdateEnded {
		t.Errorf("recent updates: %d, first %+v", len(recent), recent[0])
	}
	// An erased person's turns leave the monitor.
	if err := rt.EraseUser(ctx, "maria-1"); err != nil {
		t.Fatal(err)
	}
	for _, u := range rt.Recent() {
		if (u.Reply != nil && u.Reply.UserID == "maria-1") || (u.Ending != nil && u.Ending.User.ID == "maria-1") {
			t.Errorf("Maria's update kept after the erase: %+v", u)
		}
	}
}
