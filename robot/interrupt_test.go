package robot_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/internal/mqtttest"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/mqtt"
	"github.com/nadine-robot/nadine/robot"
	"github.com/nadine-robot/nadine/sqlite"
)

// The two sentences Nadine says when asked about herself.
const (
	aboutFirst  = "I am Nadine, a social robot built in Singapore."
	aboutSecond = "I have worked at MIRALab in Geneva since my first days, talking with visitors from all over the world."
)

// talkingEngine says aboutFirst and aboutSecond to "tell me about you",
// "Fine." to anything else, and records the history each turn was given.
// With hold, it waits after its first sentence until its turn is
// cancelled.
type talkingEngine struct {
	hold bool

	mu        sync.Mutex
	histories [][]nadine.Message
}

func (e *talkingEngine) Name() string { return "talking" }

func (e *talkingEngine) Respond(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
	e.mu.Lock()
	e.histories = append(e.histories, slices.Clone(req.History))
	e.mu.Unlock()
	if !strings.HasPrefix(strings.ToLower(req.Turn.Text), "tell me about you") {
		req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: "Fine.", Language: nadine.English})
		return nadine.Reply{Text: "Fine.", Language: nadine.English, Emotion: nadine.Neutral}, nil
	}
	req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: aboutFirst, Language: nadine.English})
	if e.hold {
		<-ctx.Done()
		return nadine.Reply{}, ctx.Err()
	}
	req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: aboutSecond, Language: nadine.English})
	return nadine.Reply{Text: aboutFirst + " " + aboutSecond, Language: nadine.English, Emotion: nadine.Joy}, nil
}

// lastHistory is the history the engine's last turn was given.
func (e *talkingEngine) lastHistory() []nadine.Message {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.histories) == 0 {
		return nil
	}
	return e.histories[len(e.histories)-1]
}

// interruptRig is nadine on the embedded broker with interruptions on, a
// speech-to-text peer and a text-to-speech peer that reports what it said
// when the test says so.
type interruptRig struct {
	t       *testing.T
	eng     *talkingEngine
	rt      *robot.Runtime
	stt     *mqtttest.Peer
	tts     *mqtttest.Peer
	updates <-chan robot.Update
}

func newInterruptRig(t *testing.T, eng *talkingEngine, mode robot.Interruptions) *interruptRig {
	t.Helper()
	broker := mqtttest.StartBroker(t, "127.0.0.1:0")
	addr := mqtttest.HostPort(broker.URL())
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "n.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m, err := dialogue.NewManager(dialogue.ManagerOptions{Engines: []nadine.Engine{eng},
		History: dialogue.NewHistory(st, lexical.New(0), dialogue.HistoryOptions{}), Profiles: st})
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithTimeout(ctx, mqtttest.Failsafe)
	defer cancel()
	bus, err := mqtt.Connect(cctx, mqtt.Options{URL: broker.URL(), ClientID: "nadine-interrupt", ReconnectMin: 10 * time.Millisecond, ReconnectMax: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	rt, err := robot.New(robot.Options{Manager: m, Body: bus, Names: st, SpeakTimeout: time.Minute, Interruptions: mode})
	if err != nil {
		t.Fatal(err)
	}
	updates, unsubscribe := rt.Subscribe(0)
	runOnBus(t, rt, bus)
	t.Cleanup(unsubscribe) // before the runtime stops
	r := &interruptRig{t: t, eng: eng, rt: rt, updates: updates,
		stt: mqtttest.NewPeer(t, addr), tts: mqtttest.NewPeer(t, addr, "nadine/agent/control/speak", "nadine/agent/control/stop")}
	mqtttest.Eventually(t, "nadine connected", bus.Connected)
	// A named person, so that the history is stored.
	r.stt.Publish("nadine/graph/user_detected", []byte(`{"user_name":"Ada","user_id":"ada"}`))
	return r
}

// ttsMsg is what text-to-speech receives: a sentence or a stop.
type ttsMsg struct {
	Stop   bool
	Text   string `json:"text"`
	Seq    int    `json:"seq"`
	Final  bool   `json:"final"`
	TurnID string `json:"turn_id"`
	Reason string `json:"reason"`
}

func (r *interruptRig) next() ttsMsg {
	r.t.Helper()
	m := r.tts.Next()
	var out ttsMsg
	if err := json.Unmarshal(m.Payload, &out); err != nil {
		r.t.Fatalf("%s: %q: %v", m.Topic, m.Payload, err)
	}
	out.Stop = strings.HasSuffix(m.Topic, "/stop")
	return out
}

// say publishes a transcript; final false makes it an interim one.
func (r *interruptRig) say(text string, final bool) {
	b, _ := json.Marshal(map[string]any{"text": text, "language": "en", "final": final})
	r.stt.Publish("nadine/stt/transcript", b)
}

// report tells nadine text-to-speech said a sentence (words >= 0: cut after
// that many words).
func (r *interruptRig) report(turnID string, seq, words int) {
	p := map[string]any{"turn_id": turnID, "seq": seq}
	if words >= 0 {
		p["cut"], p["words"] = true, words
	}
	b, _ := json.Marshal(p)
	r.stt.Publish("nadine/agent/feedback/spoken", b)
}

// waitUpdate waits for an update of kind whose reason is reason.
func (r *interruptRig) waitUpdate(kind robot.UpdateKind, reason string) robot.Update {
	r.t.Helper()
	deadline := time.After(mqtttest.Failsafe)
	for {
		select {
		case u := <-r.updates:
			if u.Kind == kind && (reason == "" || u.Reason == reason) {
				return u
			}
		case <-deadline:
			r.t.Fatalf("no %s update (%s)", kind, reason)
		}
	}
}

// TestInterruptionStopsAndKeepsWhatWasSaid: while Nadine says her second
// sentence, the person says "wait what was your name": control gets a stop
// for the turn, the final transcript is answered, and the next turn's
// history holds the first sentence and the words of the second said
// before the cut, marked interrupted.
func TestInterruptionStopsAndKeepsWhatWasSaid(t *testing.T) {
	r := newInterruptRig(t, &talkingEngine{}, robot.Interruptions{Mode: robot.InterruptWords})
	r.say("tell me about you", true)
	first := r.next()
	second := r.next()
	if first.Text != aboutFirst || second.Text != aboutSecond {
		t.Fatalf("spoken %q, %q", first.Text, second.Text)
	}
	if end := r.next(); !end.Final {
		t.Fatalf("want the end marker, got %+v", end)
	}
	r.report(first.TurnID, first.Seq, -1)
	// A backchannel and her own voice heard back stop nothing.
	r.say("uh-huh", true)
	r.waitUpdate(robot.UpdateDropped, robot.ReasonBackchannel)
	r.say("worked at miralab in geneva since", false)
	r.say("since my first days talking with visitors", true)
	r.waitUpdate(robot.UpdateDropped, robot.ReasonEcho)

	r.say("wait what was your name", false)
	stop := r.next()
	if !stop.Stop || stop.TurnID != first.TurnID || stop.Reason != "interrupted" {
		t.Fatalf("want a stop of turn %s, got %+v", first.TurnID, stop)
	}
	r.report(first.TurnID, second.Seq, 4)
	r.say("wait what was your name", true)
	if got := r.next(); got.Text != "Fine." {
		t.Fatalf("the interruption's turn said %+v", got)
	}
	h := r.eng.lastHistory()
	if len(h) < 2 {
		t.Fatalf("history %+v", h)
	}
	want := aboutFirst + " I have worked at… " + dialogue.InterruptedMark
	if got := h[len(h)-1]; got.Role != nadine.RoleAssistant || got.Content != want {
		t.Errorf("the next prompt's history ends with %q, want %q", got.Content, want)
	}
}

// TestSoundsAreNeitherTurnsNorInterruptions: speech-to-text's annotations of
// sounds ("[MUSIC PLAYING]", "(upbeat music)") heard while Nadine speaks stop
// nothing, and heard alone start no turn: each is dropped as noise.
func TestSoundsAreNeitherTurnsNorInterruptions(t *testing.T) {
	r := newInterruptRig(t, &talkingEngine{}, robot.Interruptions{Mode: robot.InterruptWords})
	r.say("tell me about you", true)
	first, second := r.next(), r.next()
	if end := r.next(); !end.Final {
		t.Fatalf("want the end marker, got %+v", end)
	}
	r.report(first.TurnID, first.Seq, -1)
	r.say("[MUSIC PLAYING]", false)
	r.say("[MUSIC PLAYING]", true)
	if u := r.waitUpdate(robot.UpdateDropped, robot.ReasonNoise); u.Input != "[MUSIC PLAYING]" {
		t.Errorf("dropped %+v", u)
	}
	r.report(first.TurnID, second.Seq, -1)
	r.say("(upbeat music)", true)
	r.waitUpdate(robot.UpdateDropped, robot.ReasonNoise)
	// The next words are the next turn: turns run in order, so a turn the
	// sounds had started would have reached the engine before it.
	r.say("tell me about you", true)
	for m := r.next(); m.Text != aboutFirst; m = r.next() {
		if m.Stop && m.TurnID != first.TurnID {
			t.Fatalf("a stop of another turn: %+v", m)
		}
	}
	r.eng.mu.Lock()
	defer r.eng.mu.Unlock()
	if n := len(r.eng.histories); n != 2 {
		t.Errorf("the engine answered %d turns, want 2: the sounds started turns", n)
	}
}

// TestInterruptionCancelsTheTurnInFlight: a turn still generating when the
// person talks over its first sentence is cancelled; what was published
// before the stop is its reply in the history (text-to-speech reports
// nothing).
func TestInterruptionCancelsTheTurnInFlight(t *testing.T) {
	eng := &talkingEngine{hold: true}
	r := newInterruptRig(t, eng, robot.Interruptions{Mode: robot.InterruptWords})
	r.say("tell me about you", true)
	first := r.next()
	r.stt.Publish("nadine/agent/feedback/start_speak", nil)
	r.say("no stop I have a question", false)
	if stop := r.next(); !stop.Stop || stop.TurnID != first.TurnID {
		t.Fatalf("want a stop, got %+v", stop)
	}
	// The cancelled turn ends (its end marker is withheld) and the next
	// one is answered.
	r.stt.Publish("nadine/agent/feedback/end_speak", nil)
	r.say("no stop I have a question", true)
	for {
		m := r.next()
		if m.Text == "Fine." {
			break
		}
		if m.Text == aboutSecond {
			t.Fatal("the cancelled turn went on")
		}
	}
	h := r.eng.lastHistory()
	if got, want := h[len(h)-1].Content, aboutFirst+" "+dialogue.InterruptedMark; got != want {
		t.Errorf("history ends with %q, want %q", got, want)
	}
}

// TestInterruptionsOff: with interruptions off, a question heard while
// Nadine speaks (start_speak … end_speak) is dropped as her own voice and
// nothing stops.
func TestInterruptionsOff(t *testing.T) {
	r := newInterruptRig(t, &talkingEngine{}, robot.Interruptions{Mode: robot.InterruptOff})
	r.say("tell me about you", true)
	r.next()
	r.stt.Publish("nadine/agent/feedback/start_speak", nil)
	r.next()
	r.next()
	r.say("wait what was your name", true)
	r.waitUpdate(robot.UpdateDropped, robot.ReasonSpeaking)
	r.stt.Publish("nadine/agent/feedback/end_speak", nil)
	r.say("hello again", true)
	if m := r.next(); m.Stop || m.Text != "Fine." {
		t.Fatalf("got %+v, want the next turn and no stop", m)
	}
}

// TestFalseInterruptionResumes: in mode speech, voice activity stops
// Nadine; when no words follow she says again, once, what she had not
// said (the cut sentence whole), with new seqs, and ends the turn.
func TestFalseInterruptionResumes(t *testing.T) {
	r := newInterruptRig(t, &talkingEngine{}, robot.Interruptions{Mode: robot.InterruptSpeech,
		MinDuration: 20 * time.Millisecond, FalseTimeout: 150 * time.Millisecond})
	r.say("tell me about you", true)
	first, second, end := r.next(), r.next(), r.next()
	r.report(first.TurnID, first.Seq, -1)
	r.stt.Publish("nadine/stt/speech_started", []byte(`{}`))
	stop := r.next()
	if !stop.Stop || stop.Reason != "speech" {
		t.Fatalf("want a stop by voice, got %+v", stop)
	}
	r.report(first.TurnID, second.Seq, 2)
	again := r.next()
	if again.Text != aboutSecond || again.Seq <= end.Seq || again.TurnID != first.TurnID {
		t.Fatalf("resumed %+v, want the second sentence again with a new seq", again)
	}
	if m := r.next(); !m.Final || m.Seq <= again.Seq {
		t.Fatalf("want a new end marker, got %+v", m)
	}
	r.waitUpdate(robot.UpdateInterrupted, robot.ReasonResumed)
	// Resumed once: the history keeps the whole reply.
	r.report(first.TurnID, again.Seq, -1)
	r.say("hello", true)
	if m := r.next(); m.Text != "Fine." {
		t.Fatalf("got %+v", m)
	}
	h := r.eng.lastHistory()
	if got := h[len(h)-1].Content; got != aboutFirst+" "+aboutSecond {
		t.Errorf("history ends with %q, want the whole reply", got)
	}
}
