package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/web"
)

func TestHealth(t *testing.T) {
	f := newFixture(t, fixtureOptions{token: "s3cret-token-for-tests"})
	// Liveness needs no token and says nothing else.
	req := f.request("GET", "/api/health", "")
	req.Header.Del("Authorization")
	got, body := f.send(req)
	if got != http.StatusOK || strings.TrimSpace(string(body)) != `{"status":"ok"}` {
		t.Errorf("health = %d %s", got, body)
	}
}

func TestReady(t *testing.T) {
	f := newFixture(t, fixtureOptions{bus: true})
	mqtttest.Eventually(t, "bus connected", f.bus.Connected)
	var r web.ReadyResponse
	f.call("GET", "/api/ready", "", http.StatusOK, &r)
	if !r.Ready || r.Checks["store"] != "ok" || r.Checks["mqtt"] != "ok" {
		t.Errorf("ready = %+v", r)
	}

	failing := newFixture(t, fixtureOptions{checks: []web.Check{{Name: "mqtt", Check: func(context.Context) error {
		return nadine.Errorf(nadine.EUNAVAILABLE, "not connected to the MQTT broker")
	}}}})
	failing.call("GET", "/api/ready", "", http.StatusServiceUnavailable, &r)
	if r.Ready || r.Checks["store"] != "ok" || r.Checks["mqtt"] != "not connected to the MQTT broker" {
		t.Errorf("ready with the bus down = %+v", r)
	}
}

func TestInfo(t *testing.T) {
	info := web.Info{Version: "1.2.3", Engine: "react", Embedder: "lexical-v1-512", Fallback: []string{"small"},
		Models: []web.ModelInfo{{Profile: "default", Model: "gpt-5.4-mini", Host: "api.openai.com", Roles: []string{"react_agent"}, Ready: true}}}
	f := newFixture(t, fixtureOptions{info: info, token: "tok-0123456789abcdef"})
	var got web.InfoResponse
	f.call("GET", "/api/info", "", http.StatusOK, &got)
	if got.Version != "1.2.3" || got.Engine != "react" || len(got.Models) != 1 || got.Models[0].Host != "api.openai.com" || !got.TokenRequired {
		t.Errorf("info = %+v", got)
	}
	if len(got.Languages) != 4 || got.Languages[1].Code != nadine.French || got.Languages[1].Locale != "fr-FR" {
		t.Errorf("languages = %+v", got.Languages)
	}
}

// turnResponse decodes a TurnResponse with its trace.
type turnResponse struct {
	TurnID string       `json:"turn_id"`
	Input  string       `json:"input"`
	Reply  nadine.Reply `json:"reply"`
}

func TestTurn(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	var r turnResponse
	f.call("POST", "/api/turns", `{"text":"Hello, my name is Alex","user_name":"Alex","user_emotion":"Happy"}`, http.StatusOK, &r)
	if !strings.Contains(r.Reply.Text, "Alex") || r.Reply.Emotion != nadine.Joy || len(r.Reply.Gestures) == 0 || r.Reply.Gestures[0] != nadine.Wave {
		t.Errorf("reply = %+v", r.Reply)
	}
	if r.Input != "Hello, my name is Alex" || r.TurnID == "" || r.Reply.Trace == nil || r.Reply.Trace.ID != r.TurnID {
		t.Errorf("turn = %+v", r)
	}
	if tr := r.Reply.Trace.Snapshot(); tr.Engine != "offline" || len(tr.Steps) == 0 {
		t.Errorf("trace = %+v", tr)
	}
	// The name became a user, and the session follows the turn.
	var users []nadine.UserRef
	f.call("GET", "/api/users", "", http.StatusOK, &users)
	if len(users) != 1 || users[0].Name != "Alex" || !strings.HasPrefix(users[0].ID, "alex-") {
		t.Fatalf("users = %+v", users)
	}
	alex := users[0].ID
	var s dialogue.SessionState
	f.call("GET", "/api/session", "", http.StatusOK, &s)
	if s.User.ID != alex || s.UserEmotion != "happy" || s.Language != nadine.English {
		t.Errorf("session = %+v", s)
	}

	// The same name in another case is the same person; an id works too.
	f.call("POST", "/api/turns", `{"text":"What time is it?","user_name":"ALEX"}`, http.StatusOK, &r)
	if r.Reply.UserID != alex || !strings.Contains(r.Reply.Text, "It is") {
		t.Errorf("by name: reply = %+v", r.Reply)
	}
	f.call("POST", "/api/turns", fmt.Sprintf(`{"text":"Do you remember me?","user_id":%q}`, alex), http.StatusOK, &r)
	if r.Reply.UserID != alex || !strings.Contains(r.Reply.Text, "Alex") {
		t.Errorf("by id: reply = %+v", r.Reply)
	}
	f.call("GET", "/api/users", "", http.StatusOK, &users)
	if len(users) != 1 {
		t.Errorf("users after three turns = %+v", users)
	}

	// A turn in another language switches the session, and the trace holds
	// English translations for the monitor.
	f.call("POST", "/api/turns", `{"text":"Bonjour","language":"French","turn_id":"my-turn_1"}`, http.StatusOK, &r)
	tr := r.Reply.Trace.Snapshot()
	if r.TurnID != "my-turn_1" || r.Reply.Language != nadine.French || !strings.Contains(r.Reply.Text, "Bonjour") ||
		tr.InputEnglish != "Hello" || tr.ReplyEnglish == "" {
		t.Errorf("French turn = %+v, trace translations %q / %q", r, tr.InputEnglish, tr.ReplyEnglish)
	}
}

func TestTurnBadRequests(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	big := `{"text":"` + strings.Repeat("a", 70<<10) + `"}`
	tests := []struct {
		name, contentType, body, want string
	}{
		{"syntax", "application/json", `{"text": "hi",}`, "invalid JSON at byte 15"},
		{"truncated", "application/json", `{"text": "hi"`, "unexpected end of input"},
		{"unknown field", "application/json", `{"text":"hi","txt":"x"}`, `unknown field "txt"`},
		{"wrong type", "application/json", `{"text":42}`, `field "text": want a string, got number`},
		{"not an object", "application/json", `["hi"]`, "must be a JSON object"},
		{"two values", "application/json", `{"text":"hi"} {"text":"again"}`, "more than one value"},
		{"empty body", "application/json", ``, "empty body"},
		{"empty text", "application/json", `{"text":"   "}`, "text is empty"},
		{"no content type", "", `{"text":"hi"}`, "missing Content-Type"},
		{"form", "application/x-www-form-urlencoded", `text=hi`, "Content-Type must be application/json"},
		{"text/plain", "text/plain", `{"text":"hi"}`, "Content-Type must be application/json"},
		{"too big", "application/json", big, "request body too large (limit 65536 bytes)"},
		{"language", "application/json", `{"text":"hi","language":"Klingon"}`, "unsupported language"},
		{"emotion", "application/json", `{"text":"hi","user_emotion":"<b>happy</b>"}`, "user_emotion"},
		{"long name", "application/json", `{"text":"hi","user_name":"` + strings.Repeat("x", 81) + `"}`, "user_name is too long"},
		{"turn id", "application/json", `{"text":"hi","turn_id":"a b"}`, "turn_id"},
		{"control characters", "application/json", `{"text":"\u0000\u0001"}`, "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := f.request("POST", "/api/turns", tt.body)
			if tt.body == "" {
				req = f.request("POST", "/api/turns", "")
				req.Header.Set("Content-Type", "application/json")
			}
			if tt.contentType == "" {
				req.Header.Del("Content-Type")
			} else {
				req.Header.Set("Content-Type", tt.contentType)
			}
			got, b := f.send(req)
			e := decode[errorBody](t, string(b))
			if got != http.StatusBadRequest || e.Code != nadine.EINVALID || !strings.Contains(e.Error, tt.want) {
				t.Errorf("status %d, error %+v; want 400 invalid containing %q", got, e, tt.want)
			}
		})
	}
	// Nothing was answered nor created.
	var users []nadine.UserRef
	f.call("GET", "/api/users", "", http.StatusOK, &users)
	if len(users) != 0 {
		t.Errorf("users = %+v", users)
	}
}

func TestTurnStream(t *testing.T) {
	for _, how := range []string{"query", "accept"} {
		t.Run(how, func(t *testing.T) {
			f := newFixture(t, fixtureOptions{})
			path := "/api/turns?stream=1"
			req := f.request("POST", path, `{"text":"Hello, my name is Alex","user_name":"Alex"}`)
			if how == "accept" {
				req = f.request("POST", "/api/turns", `{"text":"Hello, my name is Alex","user_name":"Alex"}`)
				req.Header.Set("Accept", "text/event-stream")
			}
			ch, cancel := f.openStream(req)
			defer cancel()
			var events []sseEvent
			for {
				ev, ok := next(t, ch)
				if !ok {
					break
				}
				events = append(events, ev)
			}
			if len(events) < 3 {
				t.Fatalf("events = %+v", events)
			}
			first := decode[map[string]string](t, events[0].Data)
			if events[0].Name != "turn" || first["turn_id"] == "" || first["input"] != "Hello, my name is Alex" {
				t.Errorf("first event = %+v", events[0])
			}
			last := events[len(events)-1]
			if last.Name != "reply" {
				t.Fatalf("last event = %+v", last)
			}
			reply := decode[turnResponse](t, last.Data)
			if reply.TurnID != first["turn_id"] || !strings.Contains(reply.Reply.Text, "Alex") || reply.Reply.Trace == nil {
				t.Errorf("reply = %+v", reply)
			}
			// In between: the turn's events in order, speech before done.
			var kinds []string
			var spoken []string
			for _, ev := range events[1 : len(events)-1] {
				if ev.Name != "event" {
					t.Errorf("unexpected event %q", ev.Name)
					continue
				}
				e := decode[nadine.Event](t, ev.Data)
				kinds = append(kinds, string(e.Kind))
				if e.Kind == nadine.EventSpeech {
					spoken = append(spoken, e.Text)
				}
			}
			if kinds[len(kinds)-1] != string(nadine.EventDone) || len(spoken) == 0 || strings.Join(spoken, " ") != reply.Reply.Text {
				t.Errorf("event kinds %v, spoken %q, reply %q", kinds, spoken, reply.Reply.Text)
			}
			if !contains(kinds, string(nadine.EventGesture)) || !contains(kinds, string(nadine.EventAffect)) {
				t.Errorf("event kinds %v lack a gesture or the affect", kinds)
			}
		})
	}
}

func TestTurnStreamBadRequest(t *testing.T) {
	// A refused turn is a plain JSON error, not a stream.
	f := newFixture(t, fixtureOptions{})
	got, b := f.send(f.request("POST", "/api/turns?stream=1", `{"text":""}`))
	if e := decode[errorBody](t, string(b)); got != http.StatusBadRequest || !strings.Contains(e.Error, "text is empty") {
		t.Errorf("status %d: %s", got, b)
	}
}

func TestTurnWhileShuttingDown(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	f.stop()
	got, b := f.send(f.request("POST", "/api/turns", `{"text":"Hello"}`))
	if e := decode[errorBody](t, string(b)); got != http.StatusServiceUnavailable || e.Code != nadine.EUNAVAILABLE {
		t.Errorf("status %d: %s", got, b)
	}
	got, b = f.send(f.request("POST", "/api/session/end", `{}`))
	if got != http.StatusServiceUnavailable {
		t.Errorf("session end: status %d: %s", got, b)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestLanguage(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	var l web.LanguageResponse
	f.call("GET", "/api/language", "", http.StatusOK, &l)
	if l.Code != nadine.English || l.Name != "English" || len(l.Languages) != 4 {
		t.Errorf("language = %+v", l)
	}
	for _, tt := range []struct {
		in   string
		want nadine.Language
	}{{"fr", nadine.French}, {"Deutsch", nadine.German}, {"zh-CN", nadine.Chinese}} {
		f.call("PUT", "/api/language", fmt.Sprintf(`{"language":%q}`, tt.in), http.StatusOK, &l)
		if l.Code != tt.want {
			t.Errorf("PUT %q = %+v", tt.in, l)
		}
		f.call("GET", "/api/language", "", http.StatusOK, &l)
		if l.Code != tt.want || f.rt.Session().Language != tt.want {
			t.Errorf("after PUT %q: GET = %+v, session %q", tt.in, l, f.rt.Session().Language)
		}
	}
	for _, body := range []string{`{"language":"Klingon"}`, `{"language":""}`, `{"lang":"fr"}`, `"fr"`} {
		got, b := f.send(f.request("PUT", "/api/language", body))
		if got != http.StatusBadRequest {
			t.Errorf("PUT %s: status %d: %s", body, got, b)
		}
	}
	if got := f.rt.Session().Language; got != nadine.Chinese {
		t.Errorf("a refused PUT changed the language to %q", got)
	}
}

func TestSessionEnd(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	var r turnResponse
	f.call("POST", "/api/turns", `{"text":"Hello, my name is Alex","user_name":"Alex"}`, http.StatusOK, &r)
	var s dialogue.SessionState
	f.call("GET", "/api/session", "", http.StatusOK, &s)
	if s.ConversationID == "" || s.User.Name != "Alex" {
		t.Fatalf("session = %+v", s)
	}
	// An empty body or an empty object both work; either must say JSON.
	f.call("POST", "/api/session/end", `{}`, http.StatusAccepted, nil)
	req := f.request("POST", "/api/session/end", "")
	req.Header.Set("Content-Type", "application/json")
	if got, b := f.send(req); got != http.StatusAccepted {
		t.Errorf("empty body: status %d: %s", got, b)
	}
	req = f.request("POST", "/api/session/end", "")
	if got, _ := f.send(req); got != http.StatusBadRequest {
		t.Errorf("no content type: status %d, want 400", got)
	}
	eventually(t, "the conversation to end", func() bool { return f.rt.Session().ConversationID == "" })
	// The conversation became Alex's memory.
	eventually(t, "the conversation stored as memory", func() bool {
		m, err := f.store.Memories(context.Background(), r.Reply.UserID)
		return err == nil && len(m) > 0
	})
}

func TestUsers(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	var r turnResponse
	f.call("POST", "/api/turns", `{"text":"Hello, my name is Alex","user_name":"Alex"}`, http.StatusOK, &r)
	f.call("POST", "/api/session/end", `{}`, http.StatusAccepted, nil)
	alex := r.Reply.UserID
	f.call("POST", "/api/turns", `{"text":"Hello, my name is Marie","user_name":"Marie"}`, http.StatusOK, &r)
	marie := r.Reply.UserID
	eventually(t, "Alex's memory", func() bool {
		m, err := f.store.Memories(context.Background(), alex)
		return err == nil && len(m) > 0
	})

	var users []nadine.UserRef
	f.call("GET", "/api/users", "", http.StatusOK, &users)
	if len(users) != 2 {
		t.Fatalf("users = %+v", users)
	}
	var u web.UserResponse
	f.call("GET", "/api/users/"+alex, "", http.StatusOK, &u)
	if u.User.ID != alex || u.User.Name != "Alex" || u.Profile == nil || u.Profile.UserName != "Alex" || len(u.Memories) == 0 ||
		!strings.Contains(u.Memories[0].Text, "Alex") {
		t.Errorf("user = %+v", u)
	}

	// Deleting memories keeps the profile.
	var d web.DeleteResponse
	f.call("DELETE", "/api/users/"+alex+"/memories", "", http.StatusOK, &d)
	if d.UserID != alex || d.Deleted != "memories" {
		t.Errorf("delete = %+v", d)
	}
	f.call("GET", "/api/users/"+alex, "", http.StatusOK, &u)
	if len(u.Memories) != 0 || u.Profile == nil {
		t.Errorf("after deleting memories: %+v", u)
	}

	// Forgetting erases the user; the other user is untouched.
	f.call("DELETE", "/api/users/"+alex, "", http.StatusOK, &d)
	if d.Deleted != "user" {
		t.Errorf("forget = %+v", d)
	}
	f.call("GET", "/api/users", "", http.StatusOK, &users)
	if len(users) != 1 || users[0].ID != marie {
		t.Errorf("users after forgetting Alex = %+v", users)
	}
	if _, err := f.store.Profile(context.Background(), alex); nadine.ErrorCode(err) != nadine.ENOTFOUND {
		t.Errorf("Alex's profile after forget: %v", err)
	}
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/users/" + alex}, {"DELETE", "/api/users/" + alex}, {"DELETE", "/api/users/" + alex + "/memories"},
		{"GET", "/api/users/nobody"},
	} {
		got, b := f.send(f.request(c.method, c.path, ""))
		if e := decode[errorBody](t, string(b)); got != http.StatusNotFound || e.Code != nadine.ENOTFOUND {
			t.Errorf("%s %s: status %d: %s", c.method, c.path, got, b)
		}
	}
}

func TestEvents(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	ch, cancel := f.openStream(f.request("GET", "/api/events", ""))
	defer cancel()
	// The stream starts with the current session.
	first, _ := next(t, ch)
	if u := decode[robot.Update](t, first.Data); first.Name != "session" || u.Kind != robot.UpdateSession || u.Session == nil {
		t.Fatalf("first update = %+v", first)
	}
	// A turn submitted by another request shows up: its events, then the
	// finished turn with its trace, then the session.
	var r turnResponse
	f.call("POST", "/api/turns", `{"text":"Hello, my name is Alex","user_name":"Alex","user_emotion":"happy"}`, http.StatusOK, &r)
	events := until(t, ch, func(ev sseEvent) bool { return ev.Name == "turn" })
	var speech int
	for _, ev := range events[:len(events)-1] {
		u := decode[robot.Update](t, ev.Data)
		if ev.Name == "event" && u.TurnID == r.TurnID && u.Event.Kind == nadine.EventSpeech {
			speech++
		}
	}
	turn := decode[robot.Update](t, events[len(events)-1].Data)
	if speech == 0 || turn.TurnID != r.TurnID || turn.Input != "Hello, my name is Alex" || turn.Reply == nil ||
		turn.Reply.Text != r.Reply.Text || turn.Reply.Trace == nil {
		t.Errorf("speech events %d, turn update %+v", speech, turn)
	}
	sess := until(t, ch, func(ev sseEvent) bool { return ev.Name == "session" })
	s := decode[robot.Update](t, sess[len(sess)-1].Data).Session
	if s == nil || s.User.Name != "Alex" || s.UserEmotion != "happy" {
		t.Errorf("session after the turn = %+v", s)
	}
	// A language change is a session update.
	f.call("PUT", "/api/language", `{"language":"de"}`, http.StatusOK, nil)
	sess = until(t, ch, func(ev sseEvent) bool { return ev.Name == "session" })
	if s := decode[robot.Update](t, sess[len(sess)-1].Data).Session; s.Language != nadine.German {
		t.Errorf("session after PUT language = %+v", s)
	}
	// Heartbeats keep the connection alive.
	timeout := failsafeTimer(t)
	for {
		select {
		case ev := <-ch:
			if ev.Name == ":comment" {
				return
			}
		case <-timeout:
			t.Fatal("no heartbeat")
		}
	}
}

// TestEventsFromMQTT is the monitor's purpose: a transcript published on the
// robot bus by speech-to-text shows up on the event stream.
func TestEventsFromMQTT(t *testing.T) {
	f := newFixture(t, fixtureOptions{bus: true})
	mqtttest.Eventually(t, "bus connected", f.bus.Connected)
	ch, cancel := f.openStream(f.request("GET", "/api/events", ""))
	defer cancel()
	next(t, ch) // the session

	perception := mqtttest.NewPeer(t, mqtttest.HostPort(f.broker.URL()))
	perception.Publish("nadine/graph/user_detected", []byte(`{"user_name":"Alex","user_id":"alex-1","confidence":0.93}`))
	perception.Publish("nadine/user/emotion", []byte(`happy`))
	perception.Publish("nadine/stt/transcript", []byte(`{"text":"What time is it?","final":true,"id":"stt-42"}`))

	events := until(t, ch, func(ev sseEvent) bool { return ev.Name == "turn" })
	turn := decode[robot.Update](t, events[len(events)-1].Data)
	if turn.TurnID != "stt-42" || turn.Input != "What time is it?" || turn.Reply == nil || !strings.Contains(turn.Reply.Text, "It is") ||
		turn.Reply.UserID != "alex-1" {
		t.Errorf("turn from the bus = %+v", turn)
	}
	var sawUser bool
	for _, ev := range events {
		if u := decode[robot.Update](t, ev.Data); u.Kind == robot.UpdateSession && u.Session.User.ID == "alex-1" {
			sawUser = true
		}
	}
	if !sawUser {
		t.Error("no session update showed Alex in front of the robot")
	}
}

func TestEventsEndWhenServerCloses(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	ch, cancel := f.openStream(f.request("GET", "/api/events", ""))
	defer cancel()
	next(t, ch)
	ctx, stop := context.WithTimeout(context.Background(), failsafe)
	defer stop()
	if err := f.srv.Close(ctx); err != nil {
		t.Fatalf("close: %v", err)
	}
	for {
		if _, ok := next(t, ch); !ok {
			break
		}
	}
	if _, err := http.Get(f.url + "/api/health"); err == nil {
		t.Error("the server still answers after Close")
	}
}

func TestEventsEndWhenRuntimeStops(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	ch, cancel := f.openStream(f.request("GET", "/api/events", ""))
	defer cancel()
	next(t, ch)
	f.stop()
	for {
		if _, ok := next(t, ch); !ok {
			break
		}
	}
}

func failsafeTimer(t *testing.T) <-chan struct{} {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), failsafe)
	t.Cleanup(cancel)
	return ctx.Done()
}

func TestToken(t *testing.T) {
	const token = "correct-horse-battery-staple-42"
	// Every endpoint with every wrong token: more failures than the rate
	// limit allows one client (TestTokenFailuresAreRateLimited tests it).
	f := newFixture(t, fixtureOptions{token: token, maxTokenFailures: 1000})
	endpoints := []struct{ method, path, body string }{
		{"GET", "/api/ready", ""},
		{"GET", "/api/info", ""},
		{"POST", "/api/turns", `{"text":"Hello"}`},
		{"POST", "/api/turns?stream=1", `{"text":"Hello"}`},
		{"GET", "/api/session", ""},
		{"POST", "/api/session/end", `{}`},
		{"GET", "/api/language", ""},
		{"PUT", "/api/language", `{"language":"fr"}`},
		{"GET", "/api/users", ""},
		{"GET", "/api/users/alex", ""},
		{"DELETE", "/api/users/alex/memories", ""},
		{"DELETE", "/api/users/alex", ""},
		{"GET", "/api/events", ""},
		{"GET", "/api/nonexistent", ""},
	}
	for _, auth := range []struct{ name, header, want string }{
		{"missing", "", "missing token"},
		{"wrong", "Bearer not-the-token", "invalid token"},
		{"prefix of the token", "Bearer " + token[:10], "invalid token"},
		{"basic", "Basic " + token, "invalid token"},
	} {
		for _, e := range endpoints {
			t.Run(auth.name+" "+e.method+" "+e.path, func(t *testing.T) {
				req := f.request(e.method, e.path, e.body)
				req.Header.Del("Authorization")
				if auth.header != "" {
					req.Header.Set("Authorization", auth.header)
				}
				got, b := f.send(req)
				body := decode[errorBody](t, string(b))
				if got != http.StatusUnauthorized || body.Code != "unauthorized" || !strings.Contains(body.Error, auth.want) {
					t.Errorf("status %d %+v, want 401 %q", got, body, auth.want)
				}
			})
		}
	}
	if got := f.rt.Session().Language; got != nadine.English {
		t.Errorf("an unauthorized PUT changed the language to %q", got)
	}
	// With the token (in any case of "Bearer"), everything works.
	var s dialogue.SessionState
	f.call("GET", "/api/session", "", http.StatusOK, &s)
	req := f.request("GET", "/api/session", "")
	req.Header.Set("Authorization", "bearer "+token)
	if got, b := f.send(req); got != http.StatusOK {
		t.Errorf("lowercase scheme: status %d: %s", got, b)
	}
	var r turnResponse
	f.call("POST", "/api/turns", `{"text":"Hello"}`, http.StatusOK, &r)
	if r.Reply.Text == "" {
		t.Error("no reply with the token")
	}
	// The page itself needs no token (it asks for it).
	res, err := http.Get(f.url + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("GET / = %d", res.StatusCode)
	}
}

func TestCrossOrigin(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	tests := []struct {
		name          string
		method, path  string
		body          string
		origin, fetch string
		want          int
	}{
		{"cross-site POST", "POST", "/api/turns", `{"text":"Hello"}`, "http://evil.example", "cross-site", http.StatusForbidden},
		{"cross-site POST, Origin only", "POST", "/api/turns", `{"text":"Hello"}`, "http://evil.example", "", http.StatusForbidden},
		{"same-site other port", "PUT", "/api/language", `{"language":"fr"}`, "http://127.0.0.1:1", "same-site", http.StatusForbidden},
		{"cross-site DELETE", "DELETE", "/api/users/alex", "", "http://evil.example", "cross-site", http.StatusForbidden},
		{"cross-site end", "POST", "/api/session/end", `{}`, "null", "cross-site", http.StatusForbidden},
		{"same origin POST", "POST", "/api/turns", `{"text":"Hello"}`, f.url, "same-origin", http.StatusOK},
		{"no browser headers (scripts)", "PUT", "/api/language", `{"language":"de"}`, "", "", http.StatusOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := f.request(tt.method, tt.path, tt.body)
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			if tt.fetch != "" {
				req.Header.Set("Sec-Fetch-Site", tt.fetch)
			}
			got, b := f.send(req)
			if got != tt.want {
				t.Errorf("status %d, want %d: %s", got, tt.want, b)
			}
			if tt.want == http.StatusForbidden {
				if e := decode[errorBody](t, string(b)); e.Code != "forbidden" || !strings.Contains(e.Error, "cross-origin") {
					t.Errorf("error = %+v", e)
				}
			}
		})
	}
	// Only the allowed requests had an effect.
	if got := f.rt.Session().Language; got != nadine.German {
		t.Errorf("language = %q, want de (the cross-site PUT must not apply)", got)
	}
}

func TestHostHeader(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	_, port, _ := strings.Cut(strings.TrimPrefix(f.url, "http://"), ":")
	for _, tt := range []struct {
		host string
		want int
	}{
		{"evil.example:" + port, http.StatusForbidden}, // DNS rebinding
		{"evil.example", http.StatusForbidden},
		{"192.168.1.20:" + port, http.StatusForbidden},
		{"localhost:" + port, http.StatusOK},
		{"LOCALHOST", http.StatusOK},
		{"127.0.0.1:" + port, http.StatusOK},
		{"[::1]:" + port, http.StatusOK},
	} {
		for _, path := range []string{"/", "/api/session"} {
			req := f.request("GET", path, "")
			req.Host = tt.host
			if got, b := f.send(req); got != tt.want {
				t.Errorf("Host %q %s: status %d, want %d: %s", tt.host, path, got, tt.want, b)
			}
		}
	}
}

func TestAllowedHosts(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	srv, err := web.New(web.Options{Addr: "127.0.0.1:0", Runtime: f.rt, Store: f.store, AllowedHosts: []string{"nadine.lab"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		host string
		want int
	}{{"nadine.lab:8080", http.StatusOK}, {"other.lab", http.StatusForbidden}} {
		req, _ := http.NewRequest("GET", "http://"+tt.host+"/api/health", nil)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if w.Code != tt.want {
			t.Errorf("Host %q: status %d, want %d", tt.host, w.Code, tt.want)
		}
	}
}

func TestBindAddress(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	tests := []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:0", "", true},
		{"localhost:0", "", true},
		{"[::1]:0", "", true},
		{"", "", true}, // the default, 127.0.0.1:8080
		{"0.0.0.0:8080", "", false},
		{":8080", "", false},
		{"192.168.1.20:8080", "", false},
		{"robot.lab:8080", "", false},
		{"0.0.0.0:8080", "a-long-enough-token", true},
		{"not an address", "", false},
	}
	for _, tt := range tests {
		_, err := web.New(web.Options{Addr: tt.addr, Token: tt.token, Runtime: f.rt, Store: f.store})
		if (err == nil) != tt.ok {
			t.Errorf("New(%q, token %v) error = %v, want ok %v", tt.addr, tt.token != "", err, tt.ok)
			continue
		}
		if err != nil && nadine.ErrorCode(err) != nadine.EINVALID {
			t.Errorf("New(%q): code %q, want invalid", tt.addr, nadine.ErrorCode(err))
		}
		if err != nil && tt.addr != "not an address" && !strings.Contains(err.Error(), "not a loopback address and no token is set") {
			t.Errorf("New(%q): error %q does not say why", tt.addr, err)
		}
	}
	// Start refuses in the same way, before listening.
	if _, err := web.Start(context.Background(), web.Options{Addr: "0.0.0.0:0", Runtime: f.rt, Store: f.store}); err == nil {
		t.Error("Start on 0.0.0.0 without a token succeeded")
	}
	// Bound to every interface with a token, the server serves and needs it.
	srv, err := web.Start(context.Background(), web.Options{Addr: "0.0.0.0:0", Token: "tok-tok-tok-tok", Runtime: f.rt, Store: f.store})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close(context.Background())
	if !strings.HasPrefix(srv.URL(), "http://127.0.0.1:") {
		t.Errorf("URL = %q", srv.URL())
	}
	res, err := http.Get(srv.URL() + "/api/session")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized {
		t.Errorf("no token on 0.0.0.0: status %d", res.StatusCode)
	}
}

func TestRequiredOptions(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	if _, err := web.New(web.Options{Store: f.store}); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("no runtime: %v", err)
	}
	if _, err := web.New(web.Options{Runtime: f.rt}); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("no store: %v", err)
	}
}

func TestRouting(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	for _, tt := range []struct {
		method, path string
		want         int
		msg          string
	}{
		{"GET", "/api/nope", http.StatusNotFound, "no such endpoint: GET /api/nope"},
		{"PATCH", "/api/turns", http.StatusMethodNotAllowed, "method PATCH not allowed on /api/turns"},
		{"DELETE", "/api/session", http.StatusMethodNotAllowed, "not allowed"},
		{"POST", "/api/users", http.StatusMethodNotAllowed, "not allowed"},
	} {
		got, b := f.send(f.request(tt.method, tt.path, ""))
		e := decode[errorBody](t, string(b))
		if got != tt.want || !strings.Contains(e.Error, tt.msg) {
			t.Errorf("%s %s: status %d %+v, want %d %q", tt.method, tt.path, got, e, tt.want, tt.msg)
		}
	}
}

func TestPageAndHeaders(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	for _, tt := range []struct{ path, contentType, contains string }{
		{"/", "text/html", "Nadine"},
		{"/assets/app.js", "text/javascript", "readSSE"},
		{"/assets/style.css", "text/css", ".timeline"},
		{"/assets/favicon.svg", "image/svg+xml", "<svg"},
		{"/api/health", "application/json", "ok"},
	} {
		res, err := http.Get(f.url + tt.path)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		page := string(body)
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), tt.contentType) || !strings.Contains(page, tt.contains) {
			t.Errorf("GET %s: %d %q", tt.path, res.StatusCode, res.Header.Get("Content-Type"))
		}
		for _, h := range []struct{ name, want string }{
			{"Content-Security-Policy", "default-src 'self'; script-src 'self'"},
			{"X-Content-Type-Options", "nosniff"},
			{"Referrer-Policy", "no-referrer"},
			{"X-Frame-Options", "DENY"},
		} {
			if got := res.Header.Get(h.name); !strings.HasPrefix(got, h.want) {
				t.Errorf("GET %s: %s = %q, want %q", tt.path, h.name, got, h.want)
			}
		}
		if tt.path == "/" {
			// No inline script: every script tag loads a file.
			if n, m := strings.Count(page, "<script"), strings.Count(page, "<script src="); n != m || n == 0 {
				t.Errorf("the page has %d script tags, %d with src", n, m)
			}
			if strings.Contains(page, "http://") || strings.Contains(page, "https://") {
				t.Error("the page refers to another site")
			}
		}
	}
}
