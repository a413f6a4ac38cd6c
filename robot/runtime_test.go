package robot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
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

// frenchTranslator is a translator that knows one sentence: the time told
// ("It is 4:44 PM." → "Il est 4:44 PM."); its translation passes the speech
// gate as a model's would.
type frenchTranslator struct {
	mu    sync.Mutex
	calls []string
}

func (f *frenchTranslator) Translate(_ context.Context, text string, from, to nadine.Language) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, fmt.Sprintf("%s>%s:%s", from, to, text))
	if rest, ok := strings.CutPrefix(text, "It is "); ok && to == nadine.French {
		return "Il est " + rest, nil
	}
	return "EN: " + text, nil
}

// nadineSide is nadine as `serve` wires it: bus, manager with the offline
// engine, SQLite, the runtime.
type nadineSide struct {
	store *sqlite.Store
	bus   *mqtt.Bus
	rt    *robot.Runtime
	tr    *frenchTranslator
	stop  func()
}

func startNadine(t *testing.T, url string) *nadineSide {
	t.Helper()
	ctx := context.Background()
	det, err := langid.New()
	if err != nil {
		t.Fatal(err)
	}
	tr := &frenchTranslator{}
	st, m := offlineManager(t, func(o *dialogue.ManagerOptions, _ *sqlite.Store) {
		o.Detector, o.Translator, o.Follow = det, tr, dialogue.FollowSession
	})
	cctx, cancel := context.WithTimeout(ctx, mqtttest.Failsafe)
	defer cancel()
	bus, err := mqtt.Connect(cctx, mqtt.Options{URL: url, ClientID: "nadine-test", ReconnectMin: 10 * time.Millisecond, ReconnectMax: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := robot.New(robot.Options{Manager: m, Body: bus, Names: st, SpeakTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stopRun := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- rt.Run(runCtx, bus.Inbound()) }()
	n := &nadineSide{store: st, bus: bus, rt: rt, tr: tr}
	var once sync.Once
	n.stop = func() {
		once.Do(func() {
			stopRun()
			if err := <-done; err != nil {
				t.Errorf("Run: %v", err)
			}
			cctx, cancel := context.WithTimeout(context.Background(), mqtttest.Failsafe)
			defer cancel()
			_ = bus.Close(cctx)
		})
	}
	t.Cleanup(n.stop)
	return n
}

// control collects what the control layer receives, in order.
type control struct {
	t    *testing.T
	peer *mqtttest.Peer
}

type received struct {
	topic   string
	payload string
}

func (c *control) next() received {
	c.t.Helper()
	m := c.peer.Next()
	return received{m.Topic, string(m.Payload)}
}

// until collects messages up to and including the final speech of a turn.
func (c *control) untilFinal() []received {
	c.t.Helper()
	var out []received
	for {
		r := c.next()
		out = append(out, r)
		if r.topic == "nadine/agent/control/speak" {
			var s struct {
				Final bool `json:"final"`
			}
			_ = json.Unmarshal([]byte(r.payload), &s)
			if s.Final {
				return out
			}
		}
	}
}

type speech struct {
	Text   string `json:"text"`
	Locale string `json:"locale"`
	Final  bool   `json:"final"`
	TurnID string `json:"turn_id"`
}

func spoken(rs []received) []speech {
	var out []speech
	for _, r := range rs {
		if r.topic == "nadine/agent/control/speak" {
			var s speech
			_ = json.Unmarshal([]byte(r.payload), &s)
			if !s.Final {
				out = append(out, s)
			}
		}
	}
	return out
}

func topics(rs []received) []string {
	var out []string
	for _, r := range rs {
		if r.topic == "nadine/agent/control/speak/text" {
			continue
		}
		if len(out) > 0 && out[len(out)-1] == r.topic {
			continue
		}
		out = append(out, r.topic)
	}
	return out
}

func conversation(t *testing.T, url string) {
	addr := mqtttest.HostPort(url)
	n := startNadine(t, url)
	perception := mqtttest.NewPeer(t, addr)
	stt := mqtttest.NewPeer(t, addr)
	ctl := &control{t: t, peer: mqtttest.NewPeer(t, addr, "nadine/agent/control/#", "nadine/affect/state", "nadine/face_recognition/user_info", "nadine/stt/language")}
	mqtttest.Eventually(t, "nadine connected", n.bus.Connected)
	// Speech-to-text is told the session language from the start
	// (retained).
	if r := ctl.next(); r.topic != "nadine/stt/language" || !strings.Contains(r.payload, `"en"`) {
		t.Errorf("first message %+v, want the session language on stt/language", r)
	}

	// Face recognition knows Alex; Alex says hello.
	perception.Publish("nadine/graph/user_detected", []byte(`{"user_name":"Alex","user_id":"alex-1","confidence":0.93}`))
	perception.Publish("nadine/user/emotion", []byte(`Happy`))
	mqtttest.Eventually(t, "the session to adopt Alex", func() bool { return n.rt.Session().User.ID == "alex-1" })
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"Hello Nadine","language":"en","final":true,"id":"stt-1"}`))
	turn := ctl.untilFinal()
	// The session language is retained state: a second copy published at
	// start may reach a subscriber after the retained one.
	for len(turn) > 0 && turn[0].topic == "nadine/stt/language" && strings.Contains(turn[0].payload, `"en"`) {
		turn = turn[1:]
	}
	if got, want := strings.Join(topics(turn), " → "), "nadine/agent/control/animation → nadine/agent/control/speak → nadine/affect/state → nadine/agent/control/speak"; got != want {
		t.Errorf("published in order:\n %s\nwant\n %s", got, want)
	}
	if turn[0].payload != "wave" {
		t.Errorf("animation = %q, want wave", turn[0].payload)
	}
	sp := spoken(turn)
	if len(sp) == 0 || !strings.Contains(sp[0].Text, "Alex") || sp[0].Locale != "en-US" || sp[0].TurnID != "stt-1" {
		t.Errorf("speech = %+v", sp)
	}
	var affect struct {
		Label     string  `json:"label"`
		Intensity float64 `json:"intensity"`
	}
	for _, r := range turn {
		if r.topic == "nadine/affect/state" {
			_ = json.Unmarshal([]byte(r.payload), &affect)
		}
	}
	if affect.Label != "joy" || affect.Intensity <= 0 {
		t.Errorf("affect = %+v", affect)
	}

	// Speaking suspends listening: a transcript heard while TTS speaks is
	// Nadine hearing herself.
	// TTS and STT are different clients, and MQTT orders nothing across
	// clients: each step waits until nadine has seen the one before.
	updates, unsubscribe := n.rt.Subscribe(64)
	defer unsubscribe()
	ctlFeedback := mqtttest.NewPeer(t, addr)
	ctlFeedback.Publish("nadine/agent/feedback/start_speak", nil)
	mqtttest.Eventually(t, "listening to be suspended", func() bool { return !n.rt.Listening() })
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"Hello Nadine, how are you","id":"echo-1"}`))
	for u := range updates {
		if u.Kind == robot.UpdateDropped && u.TurnID == "echo-1" && u.Reason == robot.ReasonSpeaking {
			break
		}
	}
	ctlFeedback.Publish("nadine/agent/feedback/end_speak", nil)
	mqtttest.Eventually(t, "listening to resume", n.rt.Listening)

	// The session switches to French; with language.follow: session, an
	// English answer is translated before it is spoken.
	perception.Publish("nadine/agent/control/language", []byte(`{"language":"fr"}`))
	r := ctl.next()
	for r.topic == "nadine/agent/control/language" { // the command itself
		r = ctl.next()
	}
	if r.topic != "nadine/stt/language" || !strings.Contains(r.payload, `"fr"`) {
		t.Errorf("speech-to-text not told the language: %+v", r)
	}
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"What time is it?","id":"stt-2"}`))
	turn = ctl.untilFinal()
	sp = spoken(turn)
	if len(sp) != 1 || !strings.HasPrefix(sp[0].Text, "Il est") || sp[0].Locale != "fr-FR" || sp[0].TurnID != "stt-2" {
		t.Errorf("speech in the wrong language was not translated: %+v (the echo must not be answered)", sp)
	}

	stt.Publish("nadine/stt/transcript", []byte(`{"text":"I love skiing","id":"stt-3"}`))
	ctl.untilFinal()

	// Alex leaves: the conversation becomes one long-term memory.
	perception.Publish("nadine/user/left", []byte(`{"user_id":"alex-1"}`))
	mqtttest.Eventually(t, "the conversation to be stored", func() bool {
		mems, err := n.store.Memories(context.Background(), "alex-1")
		return err == nil && len(mems) > 0
	})
	if mems, _ := n.store.Memories(context.Background(), "alex-1"); len(mems) != 1 ||
		!strings.Contains(mems[0].Text, "Alex: Hello Nadine") || !strings.Contains(mems[0].Text, "Alex: I love skiing") {
		t.Fatalf("memories = %+v", mems)
	}
	mems, _ := n.store.Memories(context.Background(), "alex-1")
	if strings.Contains(mems[0].Text, "how are you") {
		t.Errorf("the echo heard while speaking reached memory:\n%s", mems[0].Text)
	}
}

// TestConversationOnEmbeddedBroker drives a whole conversation through the
// embedded broker: fake perception, speech-to-text and control clients.
func TestConversationOnEmbeddedBroker(t *testing.T) {
	b := mqtttest.StartBroker(t, "127.0.0.1:0")
	conversation(t, b.URL())
}

// TestConversationOnMosquitto is the same conversation on Mosquitto (CI
// installs Debian's package; skipped when absent).
func TestConversationOnMosquitto(t *testing.T) {
	m := mqtttest.StartMosquitto(t)
	conversation(t, m.URL())
}

// TestMalformedInputIsIgnored sends garbage on every input topic; later
// turns are still answered.
func TestMalformedInputIsIgnored(t *testing.T) {
	b := mqtttest.StartBroker(t, "127.0.0.1:0")
	addr := mqtttest.HostPort(b.URL())
	n := startNadine(t, b.URL())
	peer := mqtttest.NewPeer(t, addr)
	ctl := &control{t: t, peer: mqtttest.NewPeer(t, addr, "nadine/agent/control/speak")}
	mqtttest.Eventually(t, "nadine connected", n.bus.Connected)
	bad := [][]byte{[]byte(`{"text": `), []byte("\xff\xfe\x00"), []byte(`{"text": 42}`), []byte(`{"user_id": ["x"]}`), []byte(strings.Repeat("a", 100_000)), []byte(`{"language":"tlh"}`)}
	for _, topic := range mqtt.InboundTopics() {
		for _, p := range bad {
			peer.Publish(topic, p)
		}
	}
	peer.Publish("nadine/stt/transcript", []byte(`{"text":"What time is it?","id":"after-garbage"}`))
	sp := spoken(ctl.untilFinal())
	if len(sp) != 1 || sp[0].TurnID != "after-garbage" || !strings.Contains(sp[0].Text, "It is") {
		t.Errorf("turn after garbage = %+v", sp)
	}
}

// TestBrokerRestartLosesNoTranscript restarts the broker between two
// transcripts: the second is answered exactly once, and a redelivery with
// the same id is not answered again.
func TestBrokerRestartLosesNoTranscript(t *testing.T) {
	b := mqtttest.StartBroker(t, "127.0.0.1:0")
	addr := mqtttest.HostPort(b.URL())
	n := startNadine(t, b.URL())
	mqtttest.Eventually(t, "nadine connected", n.bus.Connected)
	answered := func(ctl *control, id string) int {
		count := 0
		for _, s := range spoken(ctl.untilFinal()) {
			if s.TurnID == id {
				count++
			}
		}
		return count
	}
	stt := mqtttest.NewPeer(t, addr)
	ctl := &control{t: t, peer: mqtttest.NewPeer(t, addr, "nadine/agent/control/speak")}
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"Hello","id":"before"}`))
	if answered(ctl, "before") == 0 {
		t.Fatal("first transcript not answered")
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	mqtttest.Eventually(t, "nadine to notice", func() bool { return !n.bus.Connected() })
	mqtttest.StartBroker(t, addr)
	mqtttest.Eventually(t, "nadine to reconnect and resubscribe", n.bus.Connected)
	stt = mqtttest.NewPeer(t, addr)
	ctl = &control{t: t, peer: mqtttest.NewPeer(t, addr, "nadine/agent/control/speak")}
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"What time is it?","id":"after"}`))
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"What time is it?","id":"after"}`))
	stt.Publish("nadine/stt/transcript", []byte(`{"text":"Goodbye","id":"last"}`))
	var ids []string
	for len(ids) < 2 {
		turn := ctl.untilFinal()
		var last speech
		_ = json.Unmarshal([]byte(turn[len(turn)-1].payload), &last)
		ids = append(ids, last.TurnID)
	}
	if strings.Join(ids, ",") != "after,last" {
		t.Errorf("answered turns = %v, want after (once) then last", ids)
	}
}

// TestShutdownFinishesTheTurnInFlight stops the runtime while a turn runs.
func TestShutdownFinishesTheTurnInFlight(t *testing.T) {
	b := mqtttest.StartBroker(t, "127.0.0.1:0")
	n := startNadine(t, b.URL())
	ctl := &control{t: t, peer: mqtttest.NewPeer(t, mqtttest.HostPort(b.URL()), "nadine/agent/control/speak")}
	mqtttest.Eventually(t, "nadine connected", n.bus.Connected)
	res := make(chan error, 1)
	go func() {
		_, err := n.rt.Submit(context.Background(), nadine.Turn{Text: "Hello"}, nil)
		res <- err
	}()
	if sp := spoken(ctl.untilFinal()); len(sp) == 0 {
		t.Fatal("no speech")
	}
	if err := <-res; err != nil {
		t.Fatalf("Submit: %v", err)
	}
	n.stop()
	if _, err := n.rt.Submit(context.Background(), nadine.Turn{Text: "Hello again"}, nil); nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
		t.Errorf("Submit after shutdown: %v, want unavailable", err)
	}
}
