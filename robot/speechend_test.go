package robot_test

import (
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/internal/orderlog"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/react"
	"github.com/nadine-robot/nadine/robot"
)

// TestFinalMarkerBeforeTheEmotion: the model writes the reply text first and
// its emotion after it (the ReAct answer's order); the scripted model stops
// after the emotion's key, before its value. The final speak marker must go out while it is stopped —
// the visitor and the TTS hear "nothing more" as soon as the text is complete
// — with the exchange already in the history (the turn is in history before
// its final marker); the emotion, the mood and the turn's end come once the
// model goes on, and the marker is not published twice.
func TestFinalMarkerBeforeTheEmotion(t *testing.T) {
	tests := []struct {
		name  string
		reply string // the reply text the model writes
		want  []string
	}{
		{"two sentences", "Geneva is lovely. The lake is right there.", []string{"Geneva is lovely.", "The lake is right there."}},
		{"one sentence", "Geneva is lovely", []string{"Geneva is lovely"}},
		{"three sentences, the budget cuts one", "Geneva is lovely. The lake is right there. Go and see it.", []string{"Geneva is lovely.", "The lake is right there."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := &orderlog.Log{}
			srv := llmtest.New(t)
			resume := make(chan struct{})
			var resumeOnce sync.Once
			goOn := func() { resumeOnce.Do(func() { close(resume) }) }
			defer goOn()
			text, _ := json.Marshal(tt.reply)
			srv.On(llmtest.MatchModel("react_agent")).
				Reply(`{"action": "Final Answer", "action_input": `+string(text)+`, "emotion": "sadness", "emotion_intensity": 6, "category": "other", "causing_person": "human"}`).
				Pause(string(text)+`, "emotion":`, resume) // the text is known complete once the next key comes
			agent, err := openai.New(openai.Config{Profile: "test", BaseURL: srv.URL(), Model: "react_agent"})
			if err != nil {
				t.Fatal(err)
			}
			st := robinStore(t, log)
			emb := lexical.New(0)
			eng, err := react.New(react.Options{Agent: agent, Memories: st, Knowledge: st, Embedder: emb})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { eng.Close() })
			broker, updates, shutdown := runRobot(t, eng, st, emb, "nadine-speech-end", log)
			defer func() {
				goOn()
				shutdown()
			}()
			peer := mqtttest.NewPeer(t, mqtttest.HostPort(broker.URL()), "nadine/agent/control/speak", "nadine/affect/state")
			c := &control{t: t, peer: peer}

			peer.Publish("nadine/stt/transcript", []byte(`{"text":"Tell me about Geneva.","final":true,"id":"t-1"}`))
			// The model is stopped before the emotion: the marker comes now,
			// or never (the failsafe fails the test).
			got := c.untilFinal()
			var said []string
			for _, s := range spoken(got) {
				said = append(said, s.Text)
			}
			if !slices.Equal(said, tt.want) {
				t.Errorf("said %q before the final marker, want %q", said, tt.want)
			}
			for _, r := range got {
				if r.topic == "nadine/affect/state" && strings.Contains(r.payload, "sadness") {
					t.Errorf("the emotion was published before the model wrote it: %s", r.payload)
				}
			}
			if n := log.Count("write:message"); n != 2 {
				t.Errorf("%d messages in the history at the final marker, want the turn's 2 (%s)", n, strings.Join(log.Lines(), " | "))
			}
		drain:
			for {
				select {
				case u := <-updates:
					if u.Kind == robot.UpdateTurn && u.TurnID == "t-1" {
						t.Fatalf("the turn ended before the model wrote its emotion: %+v", u.Reply)
					}
				default:
					break drain
				}
			}

			goOn()
			var reply *nadine.Reply
			timeout := time.After(mqtttest.Failsafe)
			for reply == nil {
				select {
				case u := <-updates:
					if u.Kind == robot.UpdateTurn && u.TurnID == "t-1" {
						reply = u.Reply
					}
				case <-timeout:
					t.Fatal("the turn never ended once the model went on")
				}
			}
			if reply.Emotion != nadine.Sadness || reply.EmotionIntensity != 6 || reply.Text != strings.Join(tt.want, " ") {
				t.Errorf("reply = %q, %s %d; want %q with the emotion written after it", reply.Text, reply.Emotion, reply.EmotionIntensity, strings.Join(tt.want, " "))
			}
			// The emotion reaches the face after the marker; no second marker.
			for {
				r := c.next()
				if r.topic == "nadine/agent/control/speak" {
					t.Fatalf("published after the final marker: %s", r.payload)
				}
				if strings.Contains(r.payload, "sadness") {
					break
				}
			}
			peer.Publish("nadine/stt/transcript", []byte(`{"text":"Thank you.","final":true,"id":"t-2"}`))
			goOn()
			next := c.untilFinal()
			for _, s := range spoken(next) {
				if s.TurnID != "t-2" {
					t.Errorf("after t-1's marker, a line of turn %s: %q", s.TurnID, s.Text)
				}
			}
			if finals := log.Count("speak:final t-1"); finals != 1 {
				t.Errorf("%d final markers for t-1, want 1", finals)
			}
		})
	}
}
