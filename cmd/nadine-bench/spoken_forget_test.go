package main

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/tools"
)

// scriptSpokenForget makes the models hear "forget me": the ReAct agent
// calls Forget me (and answers its observation), the graph's classifier
// says forget_me. Registered before scriptCanary's rules, which answer
// the rest.
func scriptSpokenForget(srv *llmtest.Server) {
	const request = "forget everything about me"
	final := `{"action": "Final Answer", "emotion": "neutral", "emotion_intensity": 0, "action_input": "OK.", "category": "other", "causing_person": "human"}`
	srv.On(llmtest.MatchAll(llmtest.MatchModel("react_agent"), llmtest.MatchLastUser("Nothing is erased yet"))).Reply(final)
	srv.On(llmtest.MatchAll(llmtest.MatchModel("react_agent"), llmtest.MatchLastUser(request))).
		Reply(`{"action": "` + tools.NameForget + `", "action_input": ""}`)
	srv.On(llmtest.MatchAll(llmtest.MatchModel("intent_classifier"), llmtest.MatchLastUser(request))).Reply("forget_me")
}

// TestCanarySpokenForget is the spoken forget through the real binary, for
// each engine: face recognition names a person it never named before
// (user_detected with user_name and user_id), who is listed under that
// name at once, and whom an API turn naming them finds; they tell a secret over MQTT, ask to be forgotten, are
// asked to confirm and say yes. Then face recognition is told to forget
// the face (face_recognition/user_info with forget: true), the person is
// unknown to the API, a late sighting of the face does not bring them
// back, and the secret is in no file of the data directory and not in the
// log, while serve runs and after it stopped.
func TestCanarySpokenForget(t *testing.T) {
	if testing.Short() {
		t.Skip("starts nadine serve as a child process")
	}
	t.Parallel() // its own children, ports and data directory; it checks no timing
	for _, engine := range []string{"offline", "react", "graph"} {
		t.Run(engine, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.WithAPIKey("k"))
			scriptSpokenForget(srv)
			scriptCanary(srv)
			c := startChildServe(t, engine, srv.URL())
			face := mqtttest.NewPeer(t, c.mqtt, "nadine/face_recognition/user_info")
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			peer, err := dialPeer(ctx, c.mqtt)
			if err != nil {
				t.Fatal(err)
			}
			defer peer.close()
			turn := func(id, text string) string {
				t.Helper()
				w, err := peer.say(ctx, "nadine", id, text)
				if err != nil {
					t.Fatal(err)
				}
				if err := peer.wait(ctx, w, time.Minute); err != nil {
					t.Fatalf("%v\n%s", err, c.logs.String())
				}
				return strings.Join(peer.result(w).texts, " ")
			}
			sighting := map[string]any{"user_name": "Robin", "user_id": "face-77", "confidence": 0.9}
			if err := peer.publish(ctx, "nadine/graph/user_detected", sighting); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(mqtttest.Failsafe); ; time.Sleep(20 * time.Millisecond) {
				_, users := c.api(t, "GET", "/api/users", "")
				if strings.Contains(users, `{"user_id":"face-77","user_name":"Robin"}`) {
					break
				}
				if time.Now().After(deadline) {
					_, s := c.api(t, "GET", "/api/session", "")
					t.Fatalf("face-77 is not listed as Robin: %s (session %s)\n%s", users, s, c.logs.String())
				}
			}

			// A turn through the API that names Robin is Robin's, not a
			// second person's.
			status, body := c.api(t, "POST", "/api/turns", `{"text":"Hello, it is me again","user_name":"Robin"}`)
			if status != http.StatusOK || !strings.Contains(body, `"user_id":"face-77"`) {
				t.Fatalf("POST /api/turns naming Robin: %d %s", status, body)
			}
			if _, users := c.api(t, "GET", "/api/users", ""); strings.Count(users, "Robin") != 1 {
				t.Errorf("Robin is listed %d times: %s", strings.Count(users, "Robin"), users)
			}
			turn("secret-1", "Please remember my PIN, it is "+canary+".")
			if asked := turn("forget-1", "Please forget everything about me."); !strings.Contains(asked, "Robin, do you want me to forget everything I know about you?") {
				t.Fatalf("asked %q", asked)
			}
			if files := filesWith(t, c.dir); len(files) == 0 {
				t.Fatal("the secret is in no file before the yes: the canary proves nothing")
			}
			if done := turn("forget-2", "Yes, please."); !strings.HasPrefix(done, "I have forgotten everything I knew about you.") {
				t.Fatalf("after the yes: %q", done)
			}
			for told := false; !told; {
				var m struct {
					ID     string `json:"user_id"`
					Name   string `json:"user_name"`
					Forget bool   `json:"forget"`
				}
				msg := face.Next()
				told = json.Unmarshal(msg.Payload, &m) == nil && m.Forget && m.ID == "face-77" && m.Name == ""
			}

			// A late sighting of the face, then a turn: the sighting was
			// handled before the turn (one queue).
			if err := peer.publish(ctx, "nadine/graph/user_detected", sighting); err != nil {
				t.Fatal(err)
			}
			turn("after-1", "Hello there.")
			if _, users := c.api(t, "GET", "/api/users", ""); strings.Contains(users, "face-77") || strings.Contains(users, "Robin") {
				t.Errorf("the person is listed again after the erase: %s", users)
			}
			if _, s := c.api(t, "GET", "/api/session", ""); !strings.Contains(s, `"user_id":"unknown"`) {
				t.Errorf("the session after the erase: %s", s)
			}
			if files := filesWithSoon(t, c.dir); len(files) > 0 {
				t.Errorf("while serve runs, the secret is still in %v", files)
			}
			c.stopTerm(t)
			if files := filesWith(t, c.dir); len(files) > 0 {
				t.Errorf("after serve stopped, the secret is still in %v", files)
			}
			logs := c.logs.String()
			if n := strings.Count(logs, canary); n > 0 {
				t.Errorf("the log holds the secret %d times:\n%s", n, logs)
			}
			if !strings.Contains(logs, "person forgotten at their request") {
				t.Errorf("the log lacks the erasure:\n%s", logs)
			}
		})
	}
}
