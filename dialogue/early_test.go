package dialogue_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/sqlite"
)

// stateEngine answers "I heard: <text>." as it streams, changes its state
// in the session (EventSession) and queues work for after the reply, as
// the model engines do; answered receives each turn's text once Respond
// returns.
type stateEngine struct {
	answered chan string
	mu       sync.Mutex
	later    []string // the deferred work that ran, by turn text
}

func (e *stateEngine) Name() string { return "state" }

func (e *stateEngine) Respond(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
	text := "I heard: " + strings.TrimRight(req.Turn.Text, ".?!") + "."
	req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: text, Language: req.Turn.Language})
	state, _ := json.Marshal(map[string]string{"last": req.Turn.Text})
	req.Emit(nadine.Event{Kind: nadine.EventSession, Session: &nadine.SessionUpdate{Engine: state}})
	in := req.Turn.Text
	req.RunAfterReply(ctx, func(context.Context) {
		e.mu.Lock()
		e.later = append(e.later, in)
		e.mu.Unlock()
	})
	if e.answered != nil {
		e.answered <- req.Turn.Text
	}
	return nadine.Reply{Text: text, Language: req.Turn.Language, Emotion: nadine.Joy, EmotionIntensity: 4}, nil
}

func (e *stateEngine) ran() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.later)
}

// earlyRig is a manager with that engine, a SQLite history and the session
// persisted, talking with a known person.
type earlyRig struct {
	m   *dialogue.Manager
	st  *sqlite.Store
	eng *stateEngine
}

func newEarlyRig(t *testing.T, wait time.Duration) *earlyRig {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "n.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	eng := &stateEngine{answered: make(chan string, 4)}
	m, err := dialogue.NewManager(dialogue.ManagerOptions{
		Engines: []nadine.Engine{eng}, History: dialogue.NewHistory(st, &historyEmbedder{}, dialogue.HistoryOptions{}),
		Profiles: st, Checkpoints: st, EarlyWait: wait,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.SetUser(context.Background(), nadine.UserRef{ID: "alex-1", Name: "Alex"}); err != nil {
		t.Fatal(err)
	}
	return &earlyRig{m: m, st: st, eng: eng}
}

// stored returns what the store holds of the interaction: the messages of
// the session's conversation and the person's persisted session.
func (r *earlyRig) stored(t *testing.T) (msgs []string, engineState string, turns int) {
	t.Helper()
	ctx := context.Background()
	s := r.m.Session()
	if s.ConversationID != "" {
		ms, err := r.st.RecentMessages(ctx, "alex-1", s.ConversationID, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			msgs = append(msgs, m.Content)
		}
	}
	if b, err := r.st.LoadCheckpoint(ctx, dialogue.PersonSessionKey("alex-1", "nadine")); err == nil {
		var p struct {
			Engine json.RawMessage `json:"engine"`
			Turns  int             `json:"turns"`
		}
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
		engineState, turns = string(p.Engine), p.Turns
	}
	return msgs, engineState, turns
}

// nothingFrom fails unless the store and the session show no trace of an
// early turn (before its final transcript, or once cancelled).
func (r *earlyRig) nothingFrom(t *testing.T, what string) {
	t.Helper()
	msgs, state, turns := r.stored(t)
	if len(msgs) != 0 || strings.Contains(state, "last") || turns != 0 || r.m.Session().Turns != 0 {
		t.Errorf("%s: history %q, engine state %s, turns %d (session %d); want nothing", what, msgs, state, turns, r.m.Session().Turns)
	}
	if got := r.eng.ran(); len(got) != 0 {
		t.Errorf("%s: deferred work ran for %q", what, got)
	}
}

// TestEarlyTurnAdopted: an early turn on an interim transcript answers, but
// speaks, applies and stores nothing until the final transcript (the same
// words with the final's capitals and punctuation) adopts it; then its
// held events go out in order, the exchange is in the history before the
// done event, the engine's state is in the session and its deferred work
// runs, and the trace takes the final's id with the speculation kept.
func TestEarlyTurnAdopted(t *testing.T) {
	r := newEarlyRig(t, time.Minute)
	ctx := context.Background()
	e := r.m.Preempt(ctx, nadine.Turn{ID: "interim-1", Text: "whats the weather like in geneva"})
	if e == nil {
		t.Fatal("Preempt = nil on an idle manager")
	}
	if got := <-r.eng.answered; got != "whats the weather like in geneva" {
		t.Fatalf("the early turn answered %q", got)
	}
	r.nothingFrom(t, "before the final transcript")

	rec := &recorder{}
	var historyAtDone []string
	emit := func(ev nadine.Event) {
		if ev.Kind == nadine.EventDone {
			historyAtDone, _, _ = r.stored(t)
		}
		rec.emit(ev)
	}
	// Speech-to-text names the language of the final only: the one the
	// early turn answered in.
	reply, ok := e.Adopt(ctx, nadine.Turn{ID: "final-1", Text: "What's the weather like in Geneva?", Language: nadine.English}, emit)
	if !ok {
		t.Fatal("Adopt = false on the same words")
	}
	if reply.Text != "I heard: whats the weather like in geneva." || reply.Trace == nil {
		t.Fatalf("reply %+v", reply)
	}
	if got := rec.kinds(); !slices.Equal(got, []nadine.EventKind{nadine.EventSpeech, nadine.EventAffect, nadine.EventDone}) {
		t.Errorf("events %v, want the held speech, the affect, then done", got)
	}
	if len(historyAtDone) != 2 {
		t.Errorf("history at the done event %q, want the exchange", historyAtDone)
	}
	msgs, state, turns := r.stored(t)
	if len(msgs) != 2 || !strings.Contains(state, "whats the weather") || turns != 1 {
		t.Errorf("after adoption: history %q, engine state %s, turns %d", msgs, state, turns)
	}
	if got := r.eng.ran(); !slices.Equal(got, []string{"whats the weather like in geneva"}) {
		t.Errorf("deferred work ran for %q", got)
	}
	d := reply.Trace.Snapshot()
	if d.ID != "final-1" || len(d.Speculations) != 1 || d.Speculations[0].Kind != nadine.SpeculateTurn || !d.Speculations[0].Kept {
		t.Errorf("trace id %q, speculations %+v; want final-1 and the early turn kept", d.ID, d.Speculations)
	}
	// The manager is free again.
	if _, err := r.m.Stream(ctx, nadine.Turn{Text: "Thank you."}, nil); err != nil {
		t.Fatal(err)
	}
}

// TestEarlyTurnCancelled: an early turn is cancelled, and leaves nothing
// spoken or stored, when the final transcript says something else, when
// another turn or change of the session comes first, and when no final
// transcript comes at all.
func TestEarlyTurnCancelled(t *testing.T) {
	tests := []struct {
		name, reason string
		wait         time.Duration
		then         func(t *testing.T, r *earlyRig, e *dialogue.EarlyTurn)
	}{
		{"another final", "differs", time.Minute, func(t *testing.T, r *earlyRig, e *dialogue.EarlyTurn) {
			rec := &recorder{}
			if _, ok := e.Adopt(context.Background(), nadine.Turn{Text: "Tell me about the mountains."}, rec.emit); ok {
				t.Fatal("Adopt = true on other words")
			}
			if len(rec.ev) != 0 {
				t.Errorf("the cancelled turn emitted %v", rec.kinds())
			}
		}},
		{"the final in another language", "another language", time.Minute, func(t *testing.T, r *earlyRig, e *dialogue.EarlyTurn) {
			if _, ok := e.Adopt(context.Background(), nadine.Turn{Text: "Tell me about the lake.", Language: nadine.French}, nil); ok {
				t.Fatal("Adopt = true on a final that speech-to-text heard in French")
			}
		}},
		{"another use of the manager", "another turn", time.Minute, func(t *testing.T, r *earlyRig, e *dialogue.EarlyTurn) {
			if _, err := r.m.SetUser(context.Background(), nadine.UserRef{ID: "alex-1", Name: "Alex"}); err != nil {
				t.Fatal(err)
			}
		}},
		{"no final", "no final transcript", 20 * time.Millisecond, func(t *testing.T, r *earlyRig, e *dialogue.EarlyTurn) {
			for range 500 {
				if _, ok := e.Discarded(); ok {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newEarlyRig(t, tt.wait)
			ctx := context.Background()
			e := r.m.Preempt(ctx, nadine.Turn{Text: "tell me about the lake"})
			if e == nil {
				t.Fatal("Preempt = nil")
			}
			<-r.eng.answered
			tt.then(t, r, e)
			sp, ok := e.Discarded()
			if !ok || sp.Kept || !strings.Contains(sp.Reason, tt.reason) {
				t.Fatalf("Discarded = %+v, %v; want cancelled (%s)", sp, ok, tt.reason)
			}
			r.nothingFrom(t, "cancelled")
			if _, ok := e.Adopt(ctx, nadine.Turn{Text: "tell me about the lake"}, nil); ok {
				t.Error("a cancelled early turn was adopted")
			}
			// The final runs as a turn of its own, and only it is stored.
			reply, err := r.m.Stream(ctx, nadine.Turn{Text: "Tell me about the mountains."}, nil)
			if err != nil {
				t.Fatal(err)
			}
			<-r.eng.answered
			msgs, _, turns := r.stored(t)
			if reply.Text != "I heard: Tell me about the mountains." || len(msgs) != 2 || msgs[0] != "Tell me about the mountains." || turns != 1 {
				t.Errorf("reply %q, history %q, turns %d; want only the final's exchange", reply.Text, msgs, turns)
			}
			if got := r.eng.ran(); !slices.Equal(got, []string{"Tell me about the mountains."}) {
				t.Errorf("deferred work ran for %q, want the final's only", got)
			}
		})
	}
}

// TestPreemptRefused: no early turn while a turn runs, for a turn that
// names its person, or on an empty text.
func TestPreemptRefused(t *testing.T) {
	r := newEarlyRig(t, time.Minute)
	ctx := context.Background()
	if e := r.m.Preempt(ctx, nadine.Turn{Text: "hello", UserID: "bob-2"}); e != nil {
		t.Error("an early turn that names its person")
	}
	if e := r.m.Preempt(ctx, nadine.Turn{Text: "  "}); e != nil {
		t.Error("an early turn on no text")
	}
	first := r.m.Preempt(ctx, nadine.Turn{Text: "tell me about the lake"})
	if first == nil {
		t.Fatal("Preempt = nil")
	}
	<-r.eng.answered
	if e := r.m.Preempt(ctx, nadine.Turn{Text: "tell me about the lake please"}); e != nil {
		t.Error("a second early turn beside the first")
	}
	first.Cancel()
	if e := r.m.Preempt(ctx, nadine.Turn{Text: "tell me about the lake please"}); e == nil {
		t.Error("no early turn once the first was cancelled")
	} else {
		e.Cancel()
	}
}

func TestSameUtterance(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"whats the weather like in geneva", "What's the weather like in Geneva?", true},
		{"bonjour nadine", "Bonjour, Nadine !", true},
		{"  hello   there ", "Hello there.", true},
		{"tell me about the lake", "Tell me about the lakes.", false},
		{"tell me about the lake", "Tell me about the lake, please.", false},
		{"你好", "你好。", true},
		{"qui t'a cre\u0301e\u0301e", "Qui t'a créée ?", true},
		{"", "", true},
	}
	for _, tt := range tests {
		if got := dialogue.SameUtterance(tt.a, tt.b); got != tt.want {
			t.Errorf("SameUtterance(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestCloseCancelsTheEarlyTurn: Close cancels an early turn waiting for its
// final transcript and returns once nothing of it runs; nothing of it is
// stored.
func TestCloseCancelsTheEarlyTurn(t *testing.T) {
	r := newEarlyRig(t, time.Minute)
	e := r.m.Preempt(context.Background(), nadine.Turn{Text: "tell me about the lake"})
	if e == nil {
		t.Fatal("Preempt = nil")
	}
	<-r.eng.answered
	if err := r.m.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if sp, ok := e.Discarded(); !ok || sp.Kept {
		t.Errorf("Discarded = %+v, %v after Close; want cancelled", sp, ok)
	}
	r.nothingFrom(t, "closed")
}

// answeredEngine tells answered each time the engine it wraps returns.
type answeredEngine struct {
	nadine.Engine
	answered chan string
}

func (e answeredEngine) Respond(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
	r, err := e.Engine.Respond(ctx, req)
	e.answered <- req.Turn.Text
	return r, err
}

// TestEarlyIntroductionStoresNoName: the offline engine keeps the name a
// person gives ("my name is …"); an early turn on those words writes it
// only once a final transcript with the same words adopts it, and a final
// with another name leaves only that one in the store.
func TestEarlyIntroductionStoresNoName(t *testing.T) {
	for _, tc := range []struct {
		final string
		want  string // the name stored in the end
	}{
		{"My name is Robin.", "Robin"},
		{"My name is Robyn.", "Robyn"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			ctx := context.Background()
			st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "n.db"), sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			eng := answeredEngine{offline.New(offline.Options{Store: st}), make(chan string, 2)}
			m, err := dialogue.NewManager(dialogue.ManagerOptions{Engines: []nadine.Engine{eng}, History: dialogue.NewHistory(st, &historyEmbedder{}, dialogue.HistoryOptions{}), Profiles: st, Checkpoints: st})
			if err != nil {
				t.Fatal(err)
			}
			names := func() []string {
				users, err := st.Users(ctx)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, u := range users {
					got = append(got, u.Name)
				}
				return got
			}
			e := m.Preempt(ctx, nadine.Turn{Text: "my name is robin"})
			if e == nil {
				t.Fatal("Preempt = nil on an idle manager")
			}
			<-eng.answered
			if got := names(); len(got) != 0 {
				t.Fatalf("stored %q before the final transcript", got)
			}
			final := nadine.Turn{ID: "final-1", Text: tc.final}
			if _, ok := e.Adopt(ctx, final, func(nadine.Event) {}); !ok {
				if _, err := m.Stream(ctx, final, nil); err != nil {
					t.Fatal(err)
				}
				<-eng.answered
			}
			if got := names(); !slices.Equal(got, []string{tc.want}) {
				t.Errorf("stored names %q, want [%s]", got, tc.want)
			}
		})
	}
}

// FuzzSameUtterance: speech-to-text's text is outside input. A transcript
// is the same utterance as itself with other spacing, closing punctuation
// or accents in decomposed form, and the relation is symmetric.
func FuzzSameUtterance(f *testing.F) {
	for _, s := range []string{"whats the weather like in geneva", "Bonjour, Nadine !", "你好", "cre\u0301e\u0301e", "", "\xff\xfe", "what's"} {
		f.Add(s, "What's the weather like in Geneva?")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, v := range []string{"  " + a + " ", a + "?!", norm.NFD.String(a), norm.NFC.String(a)} {
			if !dialogue.SameUtterance(a, v) {
				t.Fatalf("SameUtterance(%q, %q) = false", a, v)
			}
		}
		if dialogue.SameUtterance(a, b) != dialogue.SameUtterance(b, a) {
			t.Fatalf("SameUtterance(%q, %q) is not symmetric", a, b)
		}
	})
}
