package dialogue_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/langid"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/sqlite"
)

// scriptedEngine answers with a fixed reply or error and records requests.
type scriptedEngine struct {
	name   string
	reply  nadine.Reply
	err    error
	speak  []string // sentences to stream before answering
	events []nadine.Event
	mu     sync.Mutex
	reqs   []nadine.Request
}

func (s *scriptedEngine) Name() string { return s.name }
func (s *scriptedEngine) Respond(_ context.Context, req nadine.Request) (nadine.Reply, error) {
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	s.mu.Unlock()
	for _, e := range s.events {
		req.Emit(e)
	}
	for _, sent := range s.speak {
		req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: sent})
	}
	return s.reply, s.err
}

func newManager(t *testing.T, engines ...nadine.Engine) (*dialogue.Manager, *sqlite.Store) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "n.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	n := 0
	m, err := dialogue.NewManager(dialogue.ManagerOptions{
		Engines: engines, History: dialogue.NewHistory(st, &historyEmbedder{}, dialogue.HistoryOptions{}), Profiles: st,
		NewID: func() string { n++; return "id" + string(rune('a'+n)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	return m, st
}

type recorder struct {
	mu sync.Mutex
	ev []nadine.Event
}

func (r *recorder) emit(e nadine.Event) { r.mu.Lock(); r.ev = append(r.ev, e); r.mu.Unlock() }
func (r *recorder) kinds() []nadine.EventKind {
	var k []nadine.EventKind
	for _, e := range r.ev {
		k = append(k, e.Kind)
	}
	return k
}

func TestManagerFallsBackToTheNextEngine(t *testing.T) {
	broken := &scriptedEngine{name: "react", err: nadine.Errorf(nadine.EUNAVAILABLE, "openai: profile default: timed out after 2s")}
	m, _ := newManager(t, broken, offline.New(offline.Options{}))
	rec := &recorder{}
	r, err := m.Stream(context.Background(), nadine.Turn{Text: "  Bonjour  Nadine  "}, rec.emit)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Fallback || r.Trace.Engine != "offline" || r.Language != nadine.French {
		t.Errorf("reply = %+v (engine %s)", r, r.Trace.Engine)
	}
	if broken.reqs[0].Turn.Text != "Bonjour Nadine" {
		t.Errorf("input not normalized: %q", broken.reqs[0].Turn.Text)
	}
	f := r.Trace.Snapshot().Failures
	if len(f) != 1 || f[0].Code != nadine.EUNAVAILABLE || !strings.Contains(f[0].Error, "timed out") {
		t.Errorf("trace failures = %+v", f)
	}
	if k := rec.kinds(); k[len(k)-1] != nadine.EventDone {
		t.Errorf("last event %v, want done", k)
	}
}

func TestManagerApologizesInTheUsersLanguageWhenAllFail(t *testing.T) {
	m, _ := newManager(t, &scriptedEngine{name: "a", err: errors.New("boom")}, &scriptedEngine{name: "b", reply: nadine.Reply{Text: "  "}})
	if err := m.SetLanguage(nadine.German); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	r, err := m.Stream(context.Background(), nadine.Turn{Text: "Wie geht's?"}, rec.emit)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Text, "Entschuldigung") || r.Language != nadine.German || !r.Fallback {
		t.Errorf("reply = %+v", r)
	}
	if got := len(r.Trace.Snapshot().Failures); got != 2 {
		t.Errorf("failures = %d, want 2 (an error and an empty reply)", got)
	}
	if k := rec.kinds(); len(k) != 3 || k[0] != nadine.EventSpeech || k[1] != nadine.EventAffect || k[2] != nadine.EventDone {
		t.Errorf("events = %v, want the apology spoken, the emotion, then done", k)
	}
}

func TestManagerRejectsEmptyInput(t *testing.T) {
	m, _ := newManager(t, offline.New(offline.Options{}))
	for _, in := range []string{"", "   ", "\x00\x01"} {
		if _, err := m.ProcessInput(context.Background(), nadine.Turn{Text: in}); nadine.ErrorCode(err) != nadine.EINVALID {
			t.Errorf("ProcessInput(%q) err = %v, want invalid", in, err)
		}
	}
}

func TestManagerSpeaksRepliesThatWereNotStreamed(t *testing.T) {
	eng := &scriptedEngine{name: "x", reply: nadine.Reply{Text: "Hello there. Second one!", Emotion: "ecstasy", EmotionIntensity: 42, Category: "weird"}}
	m, _ := newManager(t, eng)
	rec := &recorder{}
	r, err := m.Stream(context.Background(), nadine.Turn{Text: "hi"}, rec.emit)
	if err != nil {
		t.Fatal(err)
	}
	var said []string
	for _, e := range rec.ev {
		if e.Kind == nadine.EventSpeech {
			said = append(said, e.Text)
		}
	}
	if strings.Join(said, "|") != "Hello there.|Second one!" {
		t.Errorf("spoken = %q", said)
	}
	if r.Emotion != nadine.Neutral || r.EmotionIntensity != 10 || r.Category != nadine.CategoryOther || r.Language != nadine.English {
		t.Errorf("reply not sanitized: %+v", r)
	}
}

func TestManagerDoesNotRespeakStreamedReplies(t *testing.T) {
	eng := &scriptedEngine{name: "x", speak: []string{"Hello."}, reply: nadine.Reply{Text: "Hello."}}
	m, _ := newManager(t, eng)
	rec := &recorder{}
	if _, err := m.Stream(context.Background(), nadine.Turn{Text: "hi"}, rec.emit); err != nil {
		t.Fatal(err)
	}
	if k := rec.kinds(); len(k) != 3 || k[0] != nadine.EventSpeech {
		t.Errorf("events = %v, want one speech, the emotion and done", k)
	}
}

func TestManagerKeepsHistoryAndAppliesEvents(t *testing.T) {
	eng := &scriptedEngine{name: "x", reply: nadine.Reply{Text: "Nice to meet you, Alex."}}
	m, st := newManager(t, eng)
	ctx := context.Background()
	// The unknown user says something first; then introduces themself.
	if _, err := m.ProcessInput(ctx, nadine.Turn{Text: "Hi there"}); err != nil {
		t.Fatal(err)
	}
	eng.events = []nadine.Event{
		{Kind: nadine.EventUser, User: &nadine.UserRef{ID: "alex-1", Name: "Alex"}},
		{Kind: nadine.EventLanguage, Language: nadine.French},
		{Kind: nadine.EventGesture, Gesture: nadine.Wave},
		{Kind: nadine.EventAffect, Affect: &nadine.AffectState{Label: nadine.Joy, Intensity: 0.5}},
	}
	r, err := m.ProcessInput(ctx, nadine.Turn{Text: "I am Alex"})
	if err != nil {
		t.Fatal(err)
	}
	if r.UserID != "alex-1" || len(r.Gestures) != 1 || r.Gestures[0] != nadine.Wave {
		t.Errorf("reply = %+v", r)
	}
	s := m.Session()
	if s.User.ID != "alex-1" || s.Language != nadine.French || s.Mood.Label != nadine.Joy {
		t.Errorf("session = %+v", s)
	}
	// Alex's window holds the whole conversation, the unknown user's none.
	got, err := st.RecentMessages(ctx, "alex-1", s.ConversationID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || got[0].Content != "Hi there" || got[3].Content != "Nice to meet you, Alex." || got[2].Name != "Alex" {
		t.Errorf("alex's window = %+v", got)
	}
	// The next turn sees the history, and the user leaving stores it.
	eng.events = nil
	if _, err := m.ProcessInput(ctx, nadine.Turn{Text: "How are you?"}); err != nil {
		t.Fatal(err)
	}
	if h := eng.reqs[len(eng.reqs)-1].History; len(h) != 4 {
		t.Errorf("history given to the engine = %d messages, want 4", len(h))
	}
	if _, err := m.EndInteraction(ctx, "left"); err != nil {
		t.Fatal(err)
	}
	mems, err := st.Memories(ctx, "alex-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(mems) != 1 || !strings.Contains(mems[0].Text, "Alex: How are you?") {
		t.Errorf("memories after the user left = %+v", mems)
	}
	if u, _ := st.Memories(ctx, nadine.UnknownUser); len(u) != 0 {
		t.Errorf("memories stored for the unknown user: %+v", u)
	}
}

func TestManagerOneTurnAtATime(t *testing.T) {
	var mu sync.Mutex
	active, maxActive := 0, 0
	eng := engineFunc(func(ctx context.Context, req nadine.Request) (nadine.Reply, error) {
		mu.Lock()
		active++
		maxActive = max(maxActive, active)
		mu.Unlock()
		time.Sleep(time.Millisecond)
		mu.Lock()
		active--
		mu.Unlock()
		return nadine.Reply{Text: "ok"}, nil
	})
	m, _ := newManager(t, eng)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Go(func() { _, _ = m.ProcessInput(context.Background(), nadine.Turn{Text: "hi"}) })
	}
	wg.Wait()
	if maxActive != 1 {
		t.Errorf("%d turns ran at once", maxActive)
	}
}

type engineFunc func(context.Context, nadine.Request) (nadine.Reply, error)

func (f engineFunc) Name() string { return "func" }
func (f engineFunc) Respond(ctx context.Context, r nadine.Request) (nadine.Reply, error) {
	return f(ctx, r)
}

// TestManagerMoodMovesAndPersists: for engines without an affect model the
// manager appraises each reply's emotion on the PAD state, publishes it,
// and keeps it across restarts.
func TestManagerMoodMovesAndPersists(t *testing.T) {
	eng := &scriptedEngine{name: "x", reply: nadine.Reply{Text: "How lovely!", Emotion: nadine.Joy, EmotionIntensity: 9}}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "n.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	newM := func() *dialogue.Manager {
		m, err := dialogue.NewManager(dialogue.ManagerOptions{Engines: []nadine.Engine{eng},
			History: dialogue.NewHistory(st, &historyEmbedder{}, dialogue.HistoryOptions{}), Checkpoints: st})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := newM()
	var moods []nadine.AffectState
	for i := 0; i < 3; i++ {
		rec := &recorder{}
		if _, err := m.Stream(context.Background(), nadine.Turn{Text: "You are wonderful"}, rec.emit); err != nil {
			t.Fatal(err)
		}
		for _, e := range rec.ev {
			if e.Kind == nadine.EventAffect {
				moods = append(moods, *e.Affect)
			}
		}
	}
	if len(moods) != 3 || moods[0].Label != nadine.Joy || moods[0].Intensity != 0.9 || moods[0].Arousal <= 0 {
		t.Fatalf("affect events = %+v", moods)
	}
	if !(moods[2].Pleasure > moods[0].Pleasure) || moods[2].MoodLabel == "" {
		t.Errorf("joy did not lift the mood: %+v → %+v", moods[0], moods[2])
	}
	// A new manager (a restart) starts from the saved mood, not the baseline.
	rec := &recorder{}
	if _, err := newM().Stream(context.Background(), nadine.Turn{Text: "Hi"}, rec.emit); err != nil {
		t.Fatal(err)
	}
	for _, e := range rec.ev {
		if e.Kind == nadine.EventAffect && e.Affect.Pleasure < moods[1].Pleasure {
			t.Errorf("mood after restart %+v fell back below %+v", e.Affect, moods[1])
		}
	}
}

// frenchOnly translates into French and English by tagging the text.
type frenchOnly struct{}

func (frenchOnly) Translate(_ context.Context, text string, _, to nadine.Language) (string, error) {
	if to == nadine.French {
		return "Il est trois heures. Bonne journée !", nil
	}
	return "EN: " + text, nil
}

// TestManagerSpeaksTheSessionLanguage: a reply in the wrong language is
// translated before it is spoken, the reply holds what was said, and the
// trace keeps English renderings for the monitor.
func TestManagerSpeaksTheSessionLanguage(t *testing.T) {
	eng := &scriptedEngine{name: "x", speak: []string{"It is three o'clock in the afternoon."}, reply: nadine.Reply{Text: "It is three o'clock in the afternoon."}}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "n.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	det, err := langid.New()
	if err != nil {
		t.Fatal(err)
	}
	m, err := dialogue.NewManager(dialogue.ManagerOptions{Engines: []nadine.Engine{eng},
		History:  dialogue.NewHistory(st, &historyEmbedder{}, dialogue.HistoryOptions{}),
		Detector: det, Translator: frenchOnly{}, Language: nadine.French})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	r, err := m.Stream(context.Background(), nadine.Turn{Text: "Quelle heure est-il ?"}, rec.emit)
	if err != nil {
		t.Fatal(err)
	}
	var said []nadine.Event
	for _, e := range rec.ev {
		if e.Kind == nadine.EventSpeech {
			said = append(said, e)
		}
	}
	if len(said) != 1 || said[0].Text != "Il est trois heures. Bonne journée !" || said[0].Language != nadine.French {
		t.Errorf("spoken = %+v", said)
	}
	if r.Text != "Il est trois heures. Bonne journée !" || r.Language != nadine.French {
		t.Errorf("reply = %q (%s), want what was said", r.Text, r.Language)
	}
	d := r.Trace.Snapshot()
	if d.InputEnglish != "EN: Quelle heure est-il ?" || d.ReplyEnglish != "EN: Il est trois heures. Bonne journée !" {
		t.Errorf("English for the monitor = %q / %q", d.InputEnglish, d.ReplyEnglish)
	}
	if len(d.Notes) == 0 || !strings.Contains(d.Notes[0], "translated to French") {
		t.Errorf("trace notes = %q", d.Notes)
	}
	// A sentence already in French is left alone.
	eng.speak, eng.reply = []string{"Il est quinze heures."}, nadine.Reply{Text: "Il est quinze heures."}
	if r, _ := m.ProcessInput(context.Background(), nadine.Turn{Text: "Et maintenant ?"}); r.Text != "Il est quinze heures." {
		t.Errorf("French reply changed: %q", r.Text)
	}
}

// TestManagerTurnTimeout: an engine that hangs past the turn's budget gives
// way to the last engine, which always answers.
func TestManagerTurnTimeout(t *testing.T) {
	hang := engineFunc(func(ctx context.Context, _ nadine.Request) (nadine.Reply, error) {
		<-ctx.Done()
		return nadine.Reply{}, nadine.Errorf(nadine.EUNAVAILABLE, "hung: %w", ctx.Err())
	})
	never := &scriptedEngine{name: "second", reply: nadine.Reply{Text: "too late"}}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "n.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m, err := dialogue.NewManager(dialogue.ManagerOptions{
		Engines: []nadine.Engine{hang, never, offline.New(offline.Options{})},
		History: dialogue.NewHistory(st, &historyEmbedder{}, dialogue.HistoryOptions{}), TurnTimeout: 50 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.ProcessInput(context.Background(), nadine.Turn{Text: "Hello"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Trace.Snapshot().Engine != "offline" || !r.Fallback {
		t.Errorf("engine = %s, want offline", r.Trace.Snapshot().Engine)
	}
	if len(never.reqs) != 0 {
		t.Errorf("an engine ran after the turn's budget ran out")
	}
}

// TestDecomposedAccentsAreUnderstood: a recognizer that writes accents as
// combining marks ("cre\u0301e\u0301e") is understood as one that composes
// them: the offline engine's French phrase for "who made you" matches.
func TestDecomposedAccentsAreUnderstood(t *testing.T) {
	m, _ := newManager(t, offline.New(offline.Options{}))
	r, err := m.ProcessInput(context.Background(), nadine.Turn{Text: "Qui t'a cre\u0301e\u0301e ?", Language: nadine.French})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Text, "Thalmann") {
		t.Errorf("reply %q, want who made her", r.Text)
	}
}

// authoredEngine is a scriptedEngine that speaks only the project's texts.
type authoredEngine struct{ scriptedEngine }

func (*authoredEngine) Authored() bool { return true }

// TestNeverSilentWhenNothingMayBeSaid: when the speech gate lets nothing of
// the last engine's reply through (the offline engine greeting a person
// whose name holds an address; a model's reply that is all prompt), the
// apology is said, and the reply and the history hold what was said.
func TestNeverSilentWhenNothingMayBeSaid(t *testing.T) {
	for _, tt := range []struct {
		name     string
		authored bool
		speak    []string
		reply    string
	}{
		{"authored, streamed", true, []string{"Hello Dr. Smith https://x.io, welcome!"}, "Hello Dr. Smith https://x.io, welcome!"},
		{"authored, not streamed", true, nil, "See https://x.io/nadine."},
		{"a model's reply, all prompt", false, []string{"RULES: Answer with exactly one JSON code block."}, "RULES: Answer with exactly one JSON code block."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a := &authoredEngine{scriptedEngine{name: "offline", speak: tt.speak, reply: nadine.Reply{Text: tt.reply}}}
			var eng nadine.Engine = a
			script := &a.scriptedEngine
			if !tt.authored {
				script = &scriptedEngine{name: "react", speak: tt.speak, reply: nadine.Reply{Text: tt.reply}}
				eng = script
			}
			m, _ := newManager(t, eng)
			if _, err := m.SetUser(context.Background(), nadine.UserRef{ID: "smith-1", Name: "Dr. Smith"}); err != nil {
				t.Fatal(err)
			}
			rec := &recorder{}
			r, err := m.Stream(context.Background(), nadine.Turn{Text: "Hello"}, rec.emit)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range rec.ev {
				if e.Kind == nadine.EventSpeech && !e.Filler && e.Text != "" {
					got = append(got, e.Text)
				}
			}
			want := "Sorry, I am unable to answer this question right now."
			if len(got) != 1 || got[0] != want || r.Text != want {
				t.Errorf("spoken %q, reply %q: want the apology", got, r.Text)
			}
			if _, err := m.ProcessInput(context.Background(), nadine.Turn{Text: "Hello again"}); err != nil {
				t.Fatal(err)
			}
			script.mu.Lock()
			defer script.mu.Unlock()
			h := script.reqs[len(script.reqs)-1].History
			if len(h) == 0 || h[len(h)-1].Content != want {
				t.Errorf("history %+v: want what was said", h)
			}
		})
	}
}

// TestAuthoredEngineIsNotSilenced: the classifier of talk about the answer
// is for models; an authored engine's sentence it would drop (the offline
// engine's "As I said: I answer from my knowledge base…", which once left
// a fallback turn silent) is spoken, and the same sentence from a model
// engine is not.
func TestAuthoredEngineIsNotSilenced(t *testing.T) {
	const said = "As I said: I answer from my knowledge base and keep every reply to two sentences in your language."
	for _, tt := range []struct {
		name   string
		engine nadine.Engine
		spoken bool
	}{
		{"model", &scriptedEngine{name: "react", speak: []string{said}, reply: nadine.Reply{Text: said}}, false},
		{"authored", &authoredEngine{scriptedEngine{name: "offline", speak: []string{said}, reply: nadine.Reply{Text: said}}}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, _ := newManager(t, tt.engine)
			rec := &recorder{}
			if _, err := m.Stream(context.Background(), nadine.Turn{Text: "What can you do?"}, rec.emit); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range rec.ev {
				if e.Kind == nadine.EventSpeech && !e.Filler {
					got = append(got, e.Text)
				}
			}
			if spoken := slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "knowledge base") }); spoken != tt.spoken {
				t.Errorf("spoken %q, want the sentence spoken: %v", got, tt.spoken)
			}
		})
	}
}
