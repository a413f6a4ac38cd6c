package dialogue_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/langid"
	"github.com/nadine-robot/nadine/sqlite"
)

// sessionEngine plays an engine with state: it greets once per person
// (Greeted), keeps a note of what the person said in its session state,
// emits its mood, and records every request.
type sessionEngine struct {
	mu     sync.Mutex
	reqs   []nadine.Request
	during func(req nadine.Request) // runs in the middle of a turn
	reply  func(req nadine.Request) string
}

type engineNote struct {
	Heard []string `json:"heard"`
}

func (e *sessionEngine) Name() string { return "stateful" }

func (e *sessionEngine) Respond(_ context.Context, req nadine.Request) (nadine.Reply, error) {
	e.mu.Lock()
	e.reqs = append(e.reqs, req)
	e.mu.Unlock()
	if e.during != nil {
		e.during(req)
	}
	var note engineNote
	if len(req.Session.Engine) > 0 {
		_ = json.Unmarshal(req.Session.Engine, &note)
	}
	note.Heard = append(note.Heard, req.Turn.Text)
	b, _ := json.Marshal(note)
	u := &nadine.SessionUpdate{Engine: b}
	text := "Nice to talk with you."
	switch {
	case e.reply != nil:
		text = e.reply(req)
	case req.Session.Greeted == "":
		text = "Hello!"
		if req.Turn.UserName != "" {
			text = "Hello " + req.Turn.UserName + "!"
		}
		u.Greeted = req.Turn.UserID
	}
	req.Emit(nadine.Event{Kind: nadine.EventSession, Session: u})
	return nadine.Reply{Text: text, Language: req.Turn.Language}, nil
}

func (e *sessionEngine) last() nadine.Request {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.reqs[len(e.reqs)-1]
}

// sessionFixture is a manager over a real SQLite file.
type sessionFixture struct {
	t     *testing.T
	path  string
	store *sqlite.Store
	eng   *sessionEngine
	opts  dialogue.ManagerOptions
	m     *dialogue.Manager
}

func newSessionFixture(t *testing.T, edit ...func(*dialogue.ManagerOptions)) *sessionFixture {
	t.Helper()
	f := &sessionFixture{t: t, path: filepath.Join(t.TempDir(), "n.db"), eng: &sessionEngine{}}
	f.open()
	f.opts = dialogue.ManagerOptions{Engines: []nadine.Engine{f.eng}, Profiles: f.store, Checkpoints: f.store}
	for _, e := range edit {
		e(&f.opts)
	}
	f.restart()
	return f
}

func (f *sessionFixture) open() {
	f.t.Helper()
	st, err := sqlite.Open(context.Background(), f.path, sqlite.Options{})
	if err != nil {
		f.t.Fatal(err)
	}
	f.store = st
	f.t.Cleanup(func() { st.Close() })
}

// restart builds a new manager over the same store, as a new process.
func (f *sessionFixture) restart() {
	f.t.Helper()
	opts := f.opts
	opts.History = dialogue.NewHistory(f.store, &historyEmbedder{}, dialogue.HistoryOptions{})
	opts.Profiles, opts.Checkpoints = f.store, f.store
	m, err := dialogue.NewManager(opts)
	if err != nil {
		f.t.Fatal(err)
	}
	if err := m.Recover(context.Background()); err != nil {
		f.t.Fatal(err)
	}
	f.m = m
}

func (f *sessionFixture) say(text string) nadine.Reply {
	f.t.Helper()
	r, err := f.m.ProcessInput(context.Background(), nadine.Turn{Text: text})
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

func (f *sessionFixture) setUser(id, name string) dialogue.Ending {
	f.t.Helper()
	end, err := f.m.SetUser(context.Background(), nadine.UserRef{ID: id, Name: name})
	if err != nil {
		f.t.Fatal(err)
	}
	return end
}

// files returns the bytes of the database and its WAL and shared-memory
// files.
func (f *sessionFixture) files() []byte {
	var all []byte
	for _, p := range []string{f.path, f.path + "-wal", f.path + "-shm"} {
		b, err := os.ReadFile(p)
		if err == nil {
			all = append(all, b...)
		}
	}
	return all
}

// TestNextVisitorStartsFresh: whichever way an interaction ends, the next
// person's first turn carries a stranger's session: no name, no greeting,
// no engine state, no history, the default language; Nadine's mood stays.
func TestNextVisitorStartsFresh(t *testing.T) {
	ends := map[string]func(f *sessionFixture) dialogue.Ending{
		"left": func(f *sessionFixture) dialogue.Ending {
			e, err := f.m.EndInteraction(context.Background(), "left")
			if err != nil {
				t.Fatal(err)
			}
			return e
		},
		"another person": func(f *sessionFixture) dialogue.Ending { return f.setUser("kenji-2", "Kenji") },
	}
	for name, end := range ends {
		t.Run(name, func(t *testing.T) {
			f := newSessionFixture(t)
			f.setUser("maria-1", "Maria")
			if r := f.say("Hello"); r.Text != "Hello Maria!" {
				t.Fatalf("greeting %q", r.Text)
			}
			f.say("Bonjour, comment ça va ?") // switches the session to French
			moodBefore := f.m.Session().Mood
			e := end(f)
			if !e.Ended() || e.User.ID != "maria-1" || e.Turns != 2 || !e.Stored || e.Reason != name {
				t.Errorf("ending %+v", e)
			}
			r := f.say("Hello")
			req := f.eng.last()
			if name == "another person" {
				if req.Turn.UserID != "kenji-2" || r.Text != "Hello Kenji!" {
					t.Errorf("next person: %+v, reply %q", req.Turn, r.Text)
				}
			} else if req.Turn.UserID != nadine.UnknownUser || req.Turn.UserName != "" || r.Text != "Hello!" {
				t.Errorf("next person: %+v, reply %q", req.Turn, r.Text)
			}
			if strings.Contains(string(req.Session.Engine), "comment") || len(req.History) != 0 || req.Session.Greeted != "" {
				t.Errorf("the next person inherits: engine %s, history %d, greeted %q", req.Session.Engine, len(req.History), req.Session.Greeted)
			}
			if req.Session.ConversationID == "" || req.Session.ConversationID == e.User.ID {
				t.Errorf("conversation id %q", req.Session.ConversationID)
			}
			if f.m.Session().Mood.Label == "" || moodBefore.Label == "" {
				t.Errorf("mood lost: %+v → %+v", moodBefore, f.m.Session().Mood)
			}
			mems, _ := f.store.Memories(context.Background(), "maria-1")
			if len(mems) != 1 || !strings.Contains(mems[0].Text, "Bonjour") {
				t.Errorf("Maria's conversation was not stored: %+v", mems)
			}
		})
	}
}

// TestEndOfInteractionLanguage: the language goes back to the configured
// default at the end of an interaction (language.reset_on_leave), or
// stays with KeepLanguage; the Ending says when speech-to-text must be
// told.
func TestEndOfInteractionLanguage(t *testing.T) {
	for _, keep := range []bool{false, true} {
		f := newSessionFixture(t, func(o *dialogue.ManagerOptions) { o.Language = nadine.German; o.KeepLanguage = keep })
		if err := f.m.SetLanguage(nadine.Chinese); err != nil {
			t.Fatal(err)
		}
		f.say("你好")
		e, err := f.m.EndInteraction(context.Background(), "api")
		if err != nil {
			t.Fatal(err)
		}
		want := nadine.German
		if keep {
			want = nadine.Chinese
		}
		if got := f.m.Language(); got != want || e.Language != want || e.LanguageChanged == keep {
			t.Errorf("keep %v: language %s, ending %+v; want %s", keep, got, e, want)
		}
	}
}

// TestDefaultLanguageAfterRestart: a robot restarted between interactions
// speaks the configured default, even when it was changed meanwhile (an
// exhibition's French day); one restarted in the middle of an interaction
// keeps the language the interaction was in.
func TestDefaultLanguageAfterRestart(t *testing.T) {
	f := newSessionFixture(t, func(o *dialogue.ManagerOptions) { o.Language = nadine.German })
	f.say("Hallo")
	if _, err := f.m.EndInteraction(context.Background(), "left"); err != nil {
		t.Fatal(err)
	}
	f.opts.Language = nadine.French // the configuration changed, the process restarts
	f.restart()
	if got := f.m.Language(); got != nadine.French {
		t.Errorf("idle robot restarted with default French speaks %s", got)
	}

	if err := f.m.SetLanguage(nadine.Chinese); err != nil {
		t.Fatal(err)
	}
	f.say("你好") // an interaction in Chinese, then a restart in its middle
	f.restart()
	if got := f.m.Language(); got != nadine.Chinese {
		t.Errorf("restarted in the middle of an interaction in Chinese: speaks %s", got)
	}

	keep := newSessionFixture(t, func(o *dialogue.ManagerOptions) { o.Language = nadine.German; o.KeepLanguage = true })
	if err := keep.m.SetLanguage(nadine.Chinese); err != nil {
		t.Fatal(err)
	}
	keep.say("你好")
	if _, err := keep.m.EndInteraction(context.Background(), "left"); err != nil {
		t.Fatal(err)
	}
	keep.restart()
	if got := keep.m.Language(); got != nadine.Chinese {
		t.Errorf("with KeepLanguage the restored language is kept: speaks %s", got)
	}
}

// TestStrangerLeavesNothingOnDisk: what a stranger says is kept in memory
// for the interaction, and never reaches the database files; once they
// introduce themselves, the conversation so far is theirs and is stored.
func TestStrangerLeavesNothingOnDisk(t *testing.T) {
	// A secret no number, time or hash in the files can spell by chance
	// (the mood's floats and the timestamps are digits, "4242" among them).
	f := newSessionFixture(t)
	f.say("My secret password is zanzibarquokka")
	if n := len(f.eng.last().History); n != 0 {
		t.Fatalf("first turn history %d", n)
	}
	f.say("Do you remember my password?")
	if h := f.eng.last().History; len(h) != 2 || !strings.Contains(h[0].Content, "zanzibarquokka") {
		t.Errorf("the stranger's window %+v: want the first exchange", h)
	}
	if bytes.Contains(bytes.ToLower(f.files()), []byte("zanzibarquokka")) {
		t.Error("the stranger's secret is in the database files")
	}
	if _, err := f.m.EndInteraction(context.Background(), "left"); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(bytes.ToLower(f.files()), []byte("zanzibarquokka")) {
		t.Error("the stranger's secret is in the database files after they left")
	}
	if len(f.eng.last().History) != 2 {
		t.Fatal("the engine's view changed after the fact")
	}

	// Another stranger introduces themself after two turns.
	f.say("I like the lake")
	f.setUser("zoe-3", "Zoe")
	f.say("Now you know me")
	msgs, err := f.store.RecentMessages(context.Background(), "zoe-3", f.m.Session().ConversationID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 4 || msgs[0].Content != "I like the lake" || msgs[2].Content != "Now you know me" {
		t.Errorf("Zoe's conversation %+v", msgs)
	}
}

// TestSessionSurvivesRestart: a restart in the middle of an interaction
// resumes it (person, greeting, engine state); an interaction idle for
// longer than the idle timeout when the process comes back is ended and
// stored.
func TestSessionSurvivesRestart(t *testing.T) {
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	f := newSessionFixture(t, func(o *dialogue.ManagerOptions) {
		o.Now = func() time.Time { return now }
		o.IdleTimeout = 90 * time.Second
	})
	f.setUser("maria-1", "Maria")
	f.say("Hello")
	f.say("I work at the museum")
	now = now.Add(10 * time.Second)
	f.restart()
	r := f.say("Still me")
	req := f.eng.last()
	if req.Turn.UserID != "maria-1" || req.Session.Greeted != "maria-1" || !strings.Contains(string(req.Session.Engine), "museum") ||
		len(req.History) != 4 || r.Text != "Nice to talk with you." {
		t.Errorf("after a restart: turn %+v, session %+v, history %d, reply %q", req.Turn, req.Session, len(req.History), r.Text)
	}

	now = now.Add(time.Hour)
	f.restart()
	if s := f.m.Session(); s.User.ID != nadine.UnknownUser || s.Turns != 0 {
		t.Errorf("an interaction idle for an hour was resumed: %+v", s)
	}
	if mems, _ := f.store.Memories(context.Background(), "maria-1"); len(mems) != 1 || !strings.Contains(mems[0].Text, "Still me") {
		t.Errorf("the idle interaction was not stored: %+v", mems)
	}
	if r := f.say("Hello"); r.Text != "Hello!" {
		t.Errorf("next person greeted %q", r.Text)
	}
}

// TestForgottenPerson: a person erased while in front of the robot (by
// this process during a turn, or by another process between turns)
// leaves nothing: the turn in flight stores nothing for them, and the next
// turn is a stranger's.
func TestForgottenPerson(t *testing.T) {
	t.Run("during the turn", func(t *testing.T) {
		f := newSessionFixture(t)
		f.setUser("zora-1", "Zora")
		f.say("I work at Quantix")
		f.eng.during = func(req nadine.Request) {
			if err := f.store.ForgetUser(context.Background(), "zora-1"); err != nil {
				t.Error(err)
			}
			f.m.Forgotten("zora-1")
		}
		f.say("Please forget me")
		f.eng.during = nil
		if bytes.Contains(f.files(), []byte("Quantix")) || bytes.Contains(f.files(), []byte("forget me")) {
			t.Error("the erased person's words are in the database files")
		}
		if c, err := f.store.OpenConversations(context.Background()); err != nil || len(c) != 0 {
			t.Errorf("conversations after the erase: %+v, %v", c, err)
		}
		if _, err := f.store.LoadCheckpoint(context.Background(), dialogue.PersonSessionKey("zora-1", "nadine")); nadine.ErrorCode(err) != nadine.ENOTFOUND {
			t.Errorf("the erased person's session was saved again: %v", err)
		}
		if s := f.m.Session(); s.User.ID != nadine.UnknownUser {
			t.Errorf("session %+v", s)
		}
		f.say("Hello")
		if req := f.eng.last(); req.Turn.UserID != nadine.UnknownUser || len(req.History) != 0 || len(req.Session.Engine) != 0 {
			t.Errorf("the next turn knows the erased person: %+v", req)
		}
	})
	t.Run("by another process", func(t *testing.T) {
		f := newSessionFixture(t)
		f.setUser("zora-1", "Zora")
		f.say("I work at Quantix")
		other, err := sqlite.Open(context.Background(), f.path, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := other.ForgetUser(context.Background(), "zora-1"); err != nil {
			t.Fatal(err)
		}
		other.Close()
		f.say("Hello again")
		req := f.eng.last()
		if req.Turn.UserID != nadine.UnknownUser || len(req.History) != 0 || strings.Contains(string(req.Session.Engine), "Quantix") {
			t.Errorf("the turn after the erase knows the person: %+v", req)
		}
	})
}

// TestLegacyStateScrubbed: the keys earlier versions kept (the manager's
// robot/affect, the graph's robot/state with a person's data in it, the
// graph's interrupted run) are read for the mood once and deleted.
func TestLegacyStateScrubbed(t *testing.T) {
	f := newSessionFixture(t)
	ctx := context.Background()
	old := `{"affect":{"personality":{"openness":0.8},"mood":{"p":0.5,"a":0.1,"d":0.2},"turns":7,"updated":"2026-11-30T10:00:00Z"},"language":"fr","messages":[{"role":"user","content":"I work at EPFL"}]}`
	for key, v := range map[string]string{"robot/state": old, "robot/graph": `{"state":{"user_info":{"user_name":"Alise"}}}`} {
		if err := f.store.SaveCheckpoint(ctx, key, []byte(v)); err != nil {
			t.Fatal(err)
		}
	}
	f.restart()
	f.say("Hello")
	for _, key := range []string{"robot/state", "robot/graph", "robot/affect"} {
		if _, err := f.store.LoadCheckpoint(ctx, key); nadine.ErrorCode(err) != nadine.ENOTFOUND {
			t.Errorf("legacy key %s kept: %v", key, err)
		}
	}
	if m := f.m.Session().Mood; m.Pleasure <= 0 {
		t.Errorf("the legacy mood was not carried over: %+v", m)
	}
}

// TestLanguagePolicy: the turn's language comes from the transcript, else
// from detection, else the session; language.follow decides whether the
// session follows the visitor; every sentence is tagged with the language
// it is in.
func TestLanguagePolicy(t *testing.T) {
	det, err := langid.New()
	if err != nil {
		t.Fatal(err)
	}
	replies := map[nadine.Language]string{
		nadine.English: "I am happy to see you.",
		nadine.French:  "Je suis très heureuse de vous voir.",
		nadine.German:  "Ich freue mich sehr, Sie zu sehen.",
		nadine.Chinese: "很高兴见到你。",
	}
	tests := []struct {
		name       string
		follow     dialogue.LanguageFollow
		translator nadine.Translator
		session    nadine.Language
		turn       nadine.Turn
		// the engine answers in the turn's language, or in this one
		answerIn  nadine.Language
		wantTurn  nadine.Language // the language the engine is asked for
		wantSaid  nadine.Language // the tag of the spoken sentence
		wantText  string
		wantEvent bool // an EventLanguage tells speech-to-text
	}{
		{"transcript field wins", dialogue.FollowInput, nil, nadine.French,
			nadine.Turn{Text: "Hello", Language: nadine.German}, "", nadine.German, nadine.German, replies[nadine.German], true},
		{"detected input switches the session", dialogue.FollowInput, nil, nadine.English,
			nadine.Turn{Text: "Bonjour Nadine, comment allez-vous ?"}, "", nadine.French, nadine.French, replies[nadine.French], true},
		{"unsure input keeps the session", dialogue.FollowInput, nil, nadine.German,
			nadine.Turn{Text: "OK"}, "", nadine.German, nadine.German, replies[nadine.German], false},
		{"follow session, translated", dialogue.FollowSession, frenchOnly{}, nadine.French,
			nadine.Turn{Text: "What time is it please?"}, nadine.English, nadine.French, nadine.French, "Il est trois heures. Bonne journée !", false},
		{"no translator: tagged with its real language", dialogue.FollowSession, nil, nadine.English,
			nadine.Turn{Text: "你好，今天怎么样？"}, nadine.Chinese, nadine.English, nadine.Chinese, replies[nadine.Chinese], false},
		{"engine answers off-language: tagged truly", dialogue.FollowInput, nil, nadine.English,
			nadine.Turn{Text: "Good morning, how are you today?"}, nadine.German, nadine.English, nadine.German, replies[nadine.German], false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newSessionFixture(t, func(o *dialogue.ManagerOptions) {
				o.Detector, o.Translator, o.Follow, o.Language = det, tt.translator, tt.follow, tt.session
			})
			f.eng.reply = func(req nadine.Request) string {
				if tt.answerIn != "" {
					return replies[tt.answerIn]
				}
				return replies[req.Turn.Language]
			}
			rec := &recorder{}
			r, err := f.m.Stream(context.Background(), tt.turn, rec.emit)
			if err != nil {
				t.Fatal(err)
			}
			if got := f.eng.last().Turn.Language; got != tt.wantTurn {
				t.Errorf("engine asked for %s, want %s", got, tt.wantTurn)
			}
			var said []nadine.Event
			langEvents := 0
			for _, e := range rec.ev {
				switch e.Kind {
				case nadine.EventSpeech:
					said = append(said, e)
				case nadine.EventLanguage:
					langEvents++
				}
			}
			if len(said) != 1 || said[0].Language != tt.wantSaid || said[0].Text != tt.wantText {
				t.Errorf("spoken %+v, want %q in %s", said, tt.wantText, tt.wantSaid)
			}
			if r.Language != tt.wantSaid {
				t.Errorf("reply language %s, want %s (the language it was spoken in)", r.Language, tt.wantSaid)
			}
			if (langEvents > 0) != tt.wantEvent {
				t.Errorf("%d language events, want %v", langEvents, tt.wantEvent)
			}
		})
	}
}
