package robot_test

import (
	"context"
	"encoding/json"
	"fmt"
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

// echoEngine streams "You said: <text>." and signals each answer; a turn
// asking for a wave gets its gesture after the reply, as ReAct does with a
// category read after the text.
type echoEngine struct{ answered chan string }

func (e echoEngine) Name() string { return "echo" }
func (e echoEngine) Respond(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
	text := "You said: " + strings.TrimRight(req.Turn.Text, ".?!") + "."
	req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: text, Language: req.Turn.Language})
	if strings.Contains(req.Turn.Text, "wave") {
		req.RunAfterReply(ctx, func(context.Context) {
			req.Emit(nadine.Event{Kind: nadine.EventGesture, Gesture: nadine.Wave})
		})
	}
	e.answered <- req.Turn.Text
	return nadine.Reply{Text: text, Language: req.Turn.Language, Emotion: nadine.Joy}, nil
}

// bodyLog is the bus, logging what it published, in order.
type bodyLog struct {
	*mqtt.Bus
	mu  sync.Mutex
	log []string
}

func (b *bodyLog) add(s string) {
	b.mu.Lock()
	b.log = append(b.log, s)
	b.mu.Unlock()
}

func (b *bodyLog) Speak(ctx context.Context, s nadine.Speech) error {
	if s.Final {
		b.add("final:" + s.TurnID)
	} else {
		b.add("speak:" + s.Text)
	}
	return b.Bus.Speak(ctx, s)
}

func (b *bodyLog) Animate(ctx context.Context, g nadine.Gesture) error {
	b.add("animate:" + string(g))
	return b.Bus.Animate(ctx, g)
}

func (b *bodyLog) published() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.log)
}

// preemptRig is a robot on the embedded broker with early turns on, and
// speech-to-text as a peer.
type preemptRig struct {
	rt      *robot.Runtime
	body    *bodyLog
	stt     *mqtttest.Peer
	st      *sqlite.Store
	answers chan string
	updates <-chan robot.Update
}

func newPreemptRig(t *testing.T, after time.Duration, edits ...func(*robot.Options)) *preemptRig {
	t.Helper()
	return newPreemptRigWith(t, after, nil, edits...)
}

// newPreemptRigWith is newPreemptRig with edit applied to the manager's
// options (nil: none) and edits to the runtime's.
func newPreemptRigWith(t *testing.T, after time.Duration, edit func(*dialogue.ManagerOptions), edits ...func(*robot.Options)) *preemptRig {
	t.Helper()
	broker := mqtttest.StartBroker(t, "127.0.0.1:0")
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "n.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	answers := make(chan string, 8)
	opts := dialogue.ManagerOptions{
		Engines: []nadine.Engine{echoEngine{answers}}, History: dialogue.NewHistory(st, lexical.New(0), dialogue.HistoryOptions{}),
		Profiles: st, Checkpoints: st,
	}
	if edit != nil {
		edit(&opts)
	}
	m, err := dialogue.NewManager(opts)
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithTimeout(ctx, mqtttest.Failsafe)
	defer cancel()
	bus, err := mqtt.Connect(cctx, mqtt.Options{URL: broker.URL(), ClientID: "nadine-preempt", ReconnectMin: 10 * time.Millisecond, ReconnectMax: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	body := &bodyLog{Bus: bus}
	ropts := robot.Options{Manager: m, Body: body, Names: st, SpeakTimeout: time.Minute, Preempt: true, PreemptAfter: after}
	for _, e := range edits {
		e(&ropts)
	}
	rt, err := robot.New(ropts)
	if err != nil {
		t.Fatal(err)
	}
	updates, unsubscribe := rt.Subscribe(256)
	runOnBus(t, rt, bus)
	t.Cleanup(unsubscribe) // before the runtime stops
	r := &preemptRig{rt: rt, body: body, stt: mqtttest.NewPeer(t, mqtttest.HostPort(broker.URL())), st: st, answers: answers, updates: updates}
	// A known person, whose history is stored.
	r.stt.Publish("nadine/graph/user_detected", []byte(`{"user_name":"Alex","user_id":"alex-1"}`))
	mqtttest.Eventually(t, "the person in the session", func() bool { return rt.Session().User.ID == "alex-1" })
	return r
}

// say publishes a transcript as speech-to-text does.
func (r *preemptRig) say(t *testing.T, payload map[string]any) {
	t.Helper()
	b, err := json.Marshal(payload)
	if err != nil {
		t.Fatal(err)
	}
	r.stt.Publish("nadine/stt/transcript", b)
}

// turn waits for the finished turn of a final transcript's id.
func (r *preemptRig) turn(t *testing.T, id string) nadine.Reply {
	t.Helper()
	deadline := time.After(mqtttest.Failsafe)
	for {
		select {
		case u := <-r.updates:
			if u.Kind == robot.UpdateTurn && u.TurnID == id && u.Reply != nil {
				return *u.Reply
			}
		case <-deadline:
			t.Fatalf("no finished turn %s", id)
		}
	}
}

// answer waits for the engine's next answer (what it was asked), failing
// the test after the failsafe: an early turn that never started must not
// hang the test binary.
func (r *preemptRig) answer(t *testing.T, what string) string {
	t.Helper()
	select {
	case got := <-r.answers:
		return got
	case <-time.After(mqtttest.Failsafe):
		t.Fatalf("the engine was not asked: %s", what)
		return ""
	}
}

// stored returns the exchanges in the history.
func (r *preemptRig) stored(t *testing.T) []string {
	t.Helper()
	s := r.rt.Session()
	if s.ConversationID == "" {
		return nil
	}
	ms, err := r.st.RecentMessages(context.Background(), "alex-1", s.ConversationID, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range ms {
		out = append(out, m.Content)
	}
	return out
}

// TestEarlyTurnOnTheBus: a stable interim transcript starts an early turn
// that says nothing until the final transcript, with the same words,
// arrives; then its sentences go out at once, the engine having answered
// only once, and the trace shows the early turn kept. A gesture the engine
// gives after the reply goes out after the end-of-turn marker.
func TestEarlyTurnOnTheBus(t *testing.T) {
	r := newPreemptRig(t, time.Minute)
	r.say(t, map[string]any{"text": "can you wave at me", "final": false, "stable": true, "id": "utt-1"})
	if got := r.answer(t, "the early turn"); got != "can you wave at me" {
		t.Fatalf("the early turn answered %q", got)
	}
	if got := r.body.published(); len(got) != 0 {
		t.Fatalf("published %q before the final transcript", got)
	}
	r.say(t, map[string]any{"text": "Can you wave at me?", "final": true, "id": "utt-1-final"})
	reply := r.turn(t, "utt-1-final")
	want := []string{"speak:You said: can you wave at me.", "final:utt-1-final", "animate:wave"}
	mqtttest.Eventually(t, "the late gesture", func() bool { return len(r.body.published()) >= len(want) })
	if got := r.body.published(); !slices.Equal(got, want) {
		t.Errorf("published %q, want %q", got, want)
	}
	select {
	case extra := <-r.answers:
		t.Errorf("the engine answered again: %q", extra)
	default:
	}
	d := reply.Trace.Snapshot()
	if len(d.Speculations) != 1 || d.Speculations[0].Kind != nadine.SpeculateTurn || !d.Speculations[0].Kept || d.ID != "utt-1-final" {
		t.Errorf("trace %s, speculations %+v; want the early turn kept", d.ID, d.Speculations)
	}
	if !slices.Contains(reply.Gestures, nadine.Wave) {
		t.Errorf("reply gestures %v, want the late wave", reply.Gestures)
	}
}

// TestEarlyTurnReplacedOnTheBus: interim transcripts that are not marked
// stable start an early turn once their words stayed the same for
// PreemptAfter; a final transcript with other words cancels it, and only
// the final's answer is spoken and stored, its trace saying what the
// cancelled early turn was.
func TestEarlyTurnReplacedOnTheBus(t *testing.T) {
	r := newPreemptRig(t, 30*time.Millisecond)
	r.say(t, map[string]any{"text": "tell me about the", "final": false})
	r.say(t, map[string]any{"text": "tell me about the lake", "final": false})
	if got := r.answer(t, "the early turn"); got != "tell me about the lake" {
		t.Fatalf("the early turn answered %q, want the words that stayed", got)
	}
	if got := r.body.published(); len(got) != 0 || len(r.stored(t)) != 0 {
		t.Fatalf("published %q, stored %q before the final transcript", got, r.stored(t))
	}
	r.say(t, map[string]any{"text": "Tell me about the lake Leman.", "final": true, "id": "utt-2"})
	reply := r.turn(t, "utt-2")
	if got := r.answer(t, "the final's turn"); got != "Tell me about the lake Leman." {
		t.Fatalf("the final's turn answered %q", got)
	}
	if got, want := r.body.published(), []string{"speak:You said: Tell me about the lake Leman.", "final:utt-2"}; !slices.Equal(got, want) {
		t.Errorf("published %q, want %q", got, want)
	}
	if got := r.stored(t); len(got) != 2 || got[0] != "Tell me about the lake Leman." {
		t.Errorf("history %q, want the final's exchange only", got)
	}
	d := reply.Trace.Snapshot()
	if len(d.Speculations) != 1 || d.Speculations[0].Kept || !strings.Contains(d.Speculations[0].Reason, "differs") {
		t.Errorf("speculations %+v, want the cancelled early turn", d.Speculations)
	}
}

// TestEarlyTurnAttemptsBounded: an utterance whose words keep changing
// starts at most PreemptAttempts early turns.
func TestEarlyTurnAttemptsBounded(t *testing.T) {
	r := newPreemptRig(t, time.Minute)
	words := []string{"what", "what is", "what is the", "what is the time", "what is the time now"}
	for i, w := range words {
		r.say(t, map[string]any{"text": w, "final": false, "stable": true})
		if i < robot.DefaultPreemptAttempts {
			r.answer(t, fmt.Sprintf("the early turn on %q", w))
		}
	}
	r.say(t, map[string]any{"text": "What is the time now?", "final": true, "id": "utt-3"})
	reply := r.turn(t, "utt-3")
	r.answer(t, "the final's own turn") // the last interims started none
	d := reply.Trace.Snapshot()
	if n := len(d.Speculations); n != robot.DefaultPreemptAttempts {
		t.Errorf("%d early turns recorded (%+v), want %d", n, d.Speculations, robot.DefaultPreemptAttempts)
	}
	for _, sp := range d.Speculations {
		if sp.Kept {
			t.Errorf("speculation %+v kept", sp)
		}
	}
	if got := r.body.published(); !slices.Equal(got, []string{"speak:You said: What is the time now.", "final:utt-3"}) {
		t.Errorf("published %q", got)
	}
}

// hangingEngine is a model engine whose model says nothing until a filler
// line was said (filled is closed), then answers; asked is closed when it
// is asked (one turn).
type hangingEngine struct{ asked, filled chan struct{} }

func (e hangingEngine) Name() string { return "hanging" }
func (e hangingEngine) Respond(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
	close(e.asked)
	select {
	case <-e.filled:
	case <-ctx.Done():
		return nadine.Reply{}, nadine.Errorf(nadine.EUNAVAILABLE, "no filler came")
	}
	req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: "Here I am.", Language: req.Turn.Language})
	return nadine.Reply{Text: "Here I am.", Language: req.Turn.Language}, nil
}

// TestAdoptedEarlyTurnFillsItsSilenceOnTheBus: an early turn whose model
// hangs publishes nothing before its final transcript, not even a filler;
// once the final adopts it, a filler line goes out on the speak topic
// (limits.first_speech after the final), then the reply and the marker.
func TestAdoptedEarlyTurnFillsItsSilenceOnTheBus(t *testing.T) {
	const firstSpeech = 20 * time.Millisecond
	eng := hangingEngine{asked: make(chan struct{}), filled: make(chan struct{})}
	var once sync.Once
	r := newPreemptRigWith(t, time.Minute, func(o *dialogue.ManagerOptions) {
		o.Engines, o.FirstSpeech = []nadine.Engine{eng}, firstSpeech
		o.Filler = func(lang nadine.Language) (string, nadine.Language) {
			once.Do(func() { close(eng.filled) })
			return "Hmm, let me see.", lang
		}
	})
	r.say(t, map[string]any{"text": "where are you", "final": false, "stable": true, "id": "utt-1"})
	<-eng.asked
	time.Sleep(5 * firstSpeech) // a filler said now would come before the final
	if got := r.body.published(); len(got) != 0 {
		t.Fatalf("published %q before the final transcript", got)
	}
	r.say(t, map[string]any{"text": "Where are you?", "final": true, "id": "utt-1-final"})
	reply := r.turn(t, "utt-1-final")
	if reply.Text != "Here I am." {
		t.Fatalf("reply %q, want the model's", reply.Text)
	}
	want := []string{"speak:Hmm, let me see.", "speak:Here I am.", "final:utt-1-final"}
	if got := r.body.published(); !slices.Equal(got, want) {
		t.Errorf("published %q, want %q", got, want)
	}
}

// TestInterimWordsWarmTheTurn: the words of an interim transcript are told
// to Options.WarmWords (which embeds them ahead of the turn) once they held for
// half of PreemptAfter, or at once when marked stable, and the same words
// only once.
func TestInterimWordsWarmTheTurn(t *testing.T) {
	var mu sync.Mutex
	var warmed []string
	r := newPreemptRig(t, 40*time.Millisecond, func(o *robot.Options) {
		o.WarmWords = func(text string) {
			mu.Lock()
			warmed = append(warmed, text)
			mu.Unlock()
		}
	})
	got := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(warmed)
	}
	r.say(t, map[string]any{"text": "tell me about the lake", "final": false})
	r.say(t, map[string]any{"text": "Tell me about the lake", "final": false})
	mqtttest.Eventually(t, "the held words warmed", func() bool { return len(got()) == 1 })
	r.answer(t, "the early turn")
	r.say(t, map[string]any{"text": "Tell me about the lake.", "final": true, "id": "utt-3"})
	r.turn(t, "utt-3")
	r.say(t, map[string]any{"text": "and the mountains", "final": false, "stable": true})
	// (Its early turn may not start: the adopted turn may still be
	// completing, and the manager starts no early turn beside another.)
	mqtttest.Eventually(t, "the stable words warmed", func() bool { return len(got()) == 2 })
	if w := got(); !slices.Equal(w, []string{"tell me about the lake", "and the mountains"}) {
		t.Errorf("warmed %q, want each utterance's words once", w)
	}
}
