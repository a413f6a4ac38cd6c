package main

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/internal/mqtttest"
)

// preemptModel scripts the roles of both engines: the reply says which
// question it answers (sailing or the weather), so the test tells an early
// turn's answer from the final's.
func preemptModel(t *testing.T) *llmtest.Server {
	srv := llmtest.New(t)
	answer := func(r llmtest.Request) string {
		if strings.Contains(strings.ToLower(r.LastUser()), "weather like") {
			return "It is sunny in Geneva today."
		}
		return "I love sailing on the lake. Do you sail too?"
	}
	srv.On(llmtest.MatchModel("intent_classifier")).Reply("continue_conversation")
	srv.On(llmtest.MatchModel("appraisal")).Reply("joy 3")
	srv.On(llmtest.MatchModel("orchestrator")).Reply(`{"plan": []}`)
	srv.On(llmtest.MatchModel("context_summary")).Reply("A visitor chats with Nadine.")
	srv.On(llmtest.MatchModel("memory_update")).Reply(`{"user_name":"","hobbies":[],"interests":[]}`)
	srv.On(llmtest.MatchModel("contextualizer")).ReplyFunc(func(r llmtest.Request) string { return r.LastUser() })
	srv.On(llmtest.MatchModel("response")).ReplyFunc(answer)
	srv.On(llmtest.MatchModel("react_agent")).ReplyFunc(func(r llmtest.Request) string {
		// The way models write it: a fence, the fields after the reply.
		b, _ := json.Marshal(map[string]any{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 3,
			"action_input": answer(r), "category": "question", "causing_person": "human"})
		return "```json\n" + string(b) + "\n```"
	})
	return srv
}

// asked counts the chat requests of a role whose user message holds text
// (case and punctuation included).
func asked(srv *llmtest.Server, role, text string) int {
	n := 0
	for _, r := range srv.ChatRequests() {
		if r.Model == role && strings.Contains(r.LastUser(), text) {
			n++
		}
	}
	return n
}

// TestServePreemptive runs preemptive turns through `nadine serve` with
// its default configuration (turns.preemptive on), with both model
// engines: a stable interim transcript starts the turn (the model is asked
// before the final transcript is published) while nothing is spoken or
// counted in the session; the final with the same words (other case and
// punctuation) adopts it: one answer, under the final's id, and no model
// is asked with the final's own text. A final with other words cancels the early turn: the final
// is answered, never the interim's question.
func TestServePreemptive(t *testing.T) {
	for _, tt := range []struct{ engine, role string }{{"graph", "response"}, {"react", "react_agent"}} {
		t.Run(tt.engine, func(t *testing.T) {
			srv := preemptModel(t)
			p := startServe(t, map[string]string{"NADINE_CONFIG": exhibitionConfig(t, tt.engine, srv.URL()),
				"NADINE_SESSION_IDLE_TIMEOUT": "0"})
			defer func() {
				if t.Failed() {
					t.Log(p.stderr.String())
				}
			}()
			addr := mqtttest.HostPort(p.mqttURL)
			robot := &robotSide{finals: map[string]bool{}}
			robot.collect(mqtttest.NewPeer(t, addr, "nadine/agent/control/speak"), mqtttest.NewPeer(t, addr, "nadine/stt/language"))
			stt := mqtttest.NewPeer(t, addr)
			turns := func() int {
				resp, err := http.Get(p.monitor + "/api/session")
				if err != nil {
					t.Fatal(err)
				}
				defer resp.Body.Close()
				var s struct {
					Turns int `json:"turns"`
				}
				if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
					t.Fatal(err)
				}
				return s.Turns
			}
			spoken := func() []spokenMsg {
				robot.mu.Lock()
				defer robot.mu.Unlock()
				return append([]spokenMsg(nil), robot.speak...)
			}

			// Adopted: the interim's early turn answers the final.
			stt.Publish("nadine/stt/transcript", []byte(`{"text":"what do you like to do","language":"en","final":false,"stable":true}`))
			mqtttest.Eventually(t, "the early turn to ask the model", func() bool { return asked(srv, tt.role, "what do you like to do") > 0 })
			if s := spoken(); len(s) != 0 || turns() != 0 {
				t.Fatalf("before the final transcript: spoken %+v, session turns %d; want nothing", s, turns())
			}
			stt.Publish("nadine/stt/transcript", []byte(`{"text":"What do you like to do?","language":"en","final":true,"id":"final-1"}`))
			mqtttest.Eventually(t, "the reply to the final transcript", func() bool { return robot.final("final-1") })
			said := robot.sentences("final-1")
			if len(said) == 0 || !strings.Contains(said[0].Text, "sailing") {
				t.Errorf("the adopted reply: %+v", said)
			}
			if n := asked(srv, tt.role, "What do you like to do?"); n != 0 {
				t.Errorf("%s asked %d times with the final's text; want 0 (the early turn adopted)", tt.role, n)
			}
			for _, s := range spoken() {
				if s.TurnID != "final-1" {
					t.Errorf("a speak message of turn %q; want only final-1's", s.TurnID)
				}
			}
			mqtttest.Eventually(t, "the session to count one turn", func() bool { return turns() == 1 })

			// Cancelled: the final says something else.
			before := len(spoken())
			stt.Publish("nadine/stt/transcript", []byte(`{"text":"do you sail on the lake","language":"en","final":false,"stable":true}`))
			mqtttest.Eventually(t, "the second early turn to ask the model", func() bool { return asked(srv, tt.role, "do you sail on the lake") > 0 })
			if s := spoken(); len(s) != before {
				t.Fatalf("before the second final transcript: spoken %+v", s[before:])
			}
			stt.Publish("nadine/stt/transcript", []byte(`{"text":"What is the weather like?","language":"en","final":true,"id":"final-2"}`))
			mqtttest.Eventually(t, "the reply to the other final transcript", func() bool { return robot.final("final-2") })
			said = robot.sentences("final-2")
			if len(said) == 0 || !strings.Contains(said[0].Text, "sunny") {
				t.Errorf("the final's reply: %+v; want the weather answer", said)
			}
			for _, s := range spoken()[before:] {
				if s.TurnID != "final-2" || strings.Contains(s.Text, "sailing") {
					t.Errorf("spoken %+v: the cancelled early turn's answer or another turn's", s)
				}
			}
			mqtttest.Eventually(t, "the session to count two turns", func() bool { return turns() == 2 })
			if err := p.stop(); err != nil {
				t.Errorf("serve: %v", err)
			}
		})
	}
}
