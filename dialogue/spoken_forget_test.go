package dialogue_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/redact"
	"github.com/nadine-robot/nadine/sqlite"
)

// hearingEngine emits a forget request when the text says "forget" (as
// an engine that understood it would) and may speak after it; otherwise
// it answers "Nice to hear." It records the texts it was asked.
type hearingEngine struct {
	speakAfter string // said after the request (a model that goes on)
	mu         sync.Mutex
	texts      []string
}

func (h *hearingEngine) Name() string { return "scripted" }
func (h *hearingEngine) Respond(_ context.Context, req nadine.Request) (nadine.Reply, error) {
	h.mu.Lock()
	h.texts = append(h.texts, req.Turn.Text)
	h.mu.Unlock()
	if strings.Contains(strings.ToLower(req.Turn.Text), "forget") {
		req.Emit(nadine.Event{Kind: nadine.EventForgetRequest})
		if h.speakAfter != "" {
			req.Emit(nadine.Event{Kind: nadine.EventSpeech, Text: h.speakAfter, Language: req.Turn.Language})
			return nadine.Reply{Text: h.speakAfter}, nil
		}
		return nadine.Reply{}, nil
	}
	return nadine.Reply{Text: "Nice to hear."}, nil
}

func (h *hearingEngine) asked() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.texts...)
}

// forgetRig is a manager over a real store whose spoken forget goes
// through a nadine.Forgetter (the erase path of the CLI and the API) that
// erases the manager's session too, as serve wires it.
type forgetRig struct {
	m     *dialogue.Manager
	store *sqlite.Store
	eng   *hearingEngine
	log   *bytes.Buffer
	dir   string
}

func newForgetRig(t *testing.T, eng *hearingEngine, opts ...func(*dialogue.ManagerOptions)) *forgetRig {
	t.Helper()
	dir := t.TempDir()
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "nadine.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := &forgetRig{store: st, eng: eng, log: &bytes.Buffer{}, dir: dir}
	f := &nadine.Forgetter{Store: st}
	o := dialogue.ManagerOptions{
		Engines: []nadine.Engine{eng}, History: dialogue.NewHistory(st, &historyEmbedder{}, dialogue.HistoryOptions{}),
		Profiles: st, Checkpoints: st, Forget: f.ForgetID,
		Logger: slog.New(slog.NewTextHandler(&lockedWriter{w: r.log}, &slog.HandlerOptions{ReplaceAttr: redact.ContentReplacer(false)})),
	}
	for _, fn := range opts {
		fn(&o)
	}
	m, err := dialogue.NewManager(o)
	if err != nil {
		t.Fatal(err)
	}
	f.Also = []nadine.UserEraser{m}
	r.m = m
	return r
}

// lockedWriter serializes writes to a buffer shared by goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// meet makes Anna the person in front of the robot, with a profile.
func (r *forgetRig) meet(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	if err := r.store.SaveProfile(ctx, nadine.Profile{UserID: "anna-1", UserName: "Anna", Hobbies: []string{"rowing"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.m.SetUser(ctx, nadine.UserRef{ID: "anna-1", Name: "Anna"}); err != nil {
		t.Fatal(err)
	}
}

func (r *forgetRig) say(t *testing.T, text string, lang nadine.Language) nadine.Reply {
	t.Helper()
	reply, err := r.m.ProcessInput(context.Background(), nadine.Turn{Text: text, Language: lang})
	if err != nil {
		t.Fatal(err)
	}
	return reply
}

// known reports whether the store still knows Anna.
func (r *forgetRig) known(t *testing.T) bool {
	t.Helper()
	ids, err := r.store.UserIDs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return len(ids) > 0
}

// TestSpokenForgetFourLanguages: in each language, "forget me" is answered
// by the confirmation question in that language, with the person's name;
// the yes is answered by the manager alone (no engine hears it), erases
// the person from the store and makes the session a stranger's, and she
// says so in that language.
func TestSpokenForgetFourLanguages(t *testing.T) {
	for _, tt := range []struct {
		lang                    nadine.Language
		ask, yes, asked, forgot string
	}{
		{nadine.English, "Please forget me.", "Yes, please.", "Anna, do you want me to forget", "I have forgotten everything"},
		{nadine.French, "Forget: oubliez-moi.", "Oui, allez-y.", "Anna, voulez-vous que j'oublie", "J'ai oublié tout"},
		{nadine.German, "Forget: vergessen Sie mich.", "Ja, bitte.", "Anna, soll ich alles vergessen", "Ich habe alles vergessen"},
		{nadine.Chinese, "forget 请忘记我", "好的", "Anna，您要我忘记", "我已经忘记了"},
	} {
		t.Run(string(tt.lang), func(t *testing.T) {
			r := newForgetRig(t, &hearingEngine{})
			r.meet(t)
			r.say(t, "My secret word is PERIWINKLE.", tt.lang)
			q := r.say(t, tt.ask, tt.lang)
			if !strings.HasPrefix(q.Text, tt.asked) || q.Language != tt.lang || q.Trace.Engine != "scripted" {
				t.Fatalf("asked %q in %s (engine %s), want %q in %s", q.Text, q.Language, q.Trace.Engine, tt.asked, tt.lang)
			}
			if !r.known(t) {
				t.Fatal("the person was erased before saying yes")
			}
			done := r.say(t, tt.yes, tt.lang)
			if !strings.HasPrefix(done.Text, tt.forgot) || done.Language != tt.lang || done.Trace.Engine != "forget" {
				t.Errorf("after yes: %q in %s (engine %s), want %q in %s", done.Text, done.Language, done.Trace.Engine, tt.forgot, tt.lang)
			}
			if r.known(t) {
				t.Error("the person is still in the store after the yes")
			}
			if s := r.m.Session(); s.User.ID != nadine.UnknownUser || done.UserID != nadine.UnknownUser {
				t.Errorf("session %+v, reply user %q after the erase; want a stranger's", s.User, done.UserID)
			}
			if asked := r.eng.asked(); len(asked) != 2 {
				t.Errorf("the engine heard %q; want the secret and the request, not the answer", asked)
			}
			// The next turn is a stranger's: no history of the erased
			// person reaches the engine, nothing is stored.
			r.say(t, "What is my secret word?", tt.lang)
			if r.known(t) {
				t.Error("the turn after the erase stored something")
			}
			if files := filesHolding(t, r.dir, "PERIWINKLE"); len(files) > 0 {
				t.Errorf("the secret is still in %v", files)
			}
			if logs := r.log.String(); strings.Contains(logs, "PERIWINKLE") || !strings.Contains(logs, "person forgotten at their request") {
				t.Errorf("the log holds the secret, or lacks the erasure:\n%s", logs)
			}
			if line := logLine(r.log.String(), "person forgotten"); strings.Contains(line, "anna") {
				t.Errorf("the erasure's log line names the person: %s", line)
			}
		})
	}
}

// TestSpokenForgetNoOrUnclear: a no keeps everything and is answered by
// the manager; an unclear answer keeps everything, goes to the engine
// and drops the question (a later "yes" erases nothing).
func TestSpokenForgetNoOrUnclear(t *testing.T) {
	for _, tt := range []struct {
		answer   string
		lang     nadine.Language
		engine   bool // the engine answers it
		saidPart string
	}{
		{"No, keep it.", nadine.English, false, "I will not forget anything"},
		{"nein danke", nadine.German, false, "ich vergesse nichts"},
		{"不要", nadine.Chinese, false, "我不会忘记"},
		{"Maybe, I don't know.", nadine.English, true, "Nice to hear."},
		{"What time is it?", nadine.English, true, "Nice to hear."},
	} {
		t.Run(tt.answer, func(t *testing.T) {
			r := newForgetRig(t, &hearingEngine{})
			r.meet(t)
			r.say(t, "Forget me.", nadine.English)
			got := r.say(t, tt.answer, tt.lang)
			if !strings.Contains(got.Text, tt.saidPart) {
				t.Errorf("answered %q, want %q", got.Text, tt.saidPart)
			}
			heard := r.eng.asked()
			if (heard[len(heard)-1] == tt.answer) != tt.engine {
				t.Errorf("the engine heard %q; engine answers = %v", heard, tt.engine)
			}
			if !r.known(t) || r.m.Session().User.ID != "anna-1" {
				t.Fatal("the person was erased, or left the session")
			}
			if got := r.say(t, "yes", nadine.English); got.Text != "Nice to hear." || !r.known(t) {
				t.Errorf("a later yes: %q, known = %v; want the engine's answer and nothing erased", got.Text, r.known(t))
			}
		})
	}
}

// TestSpokenForgetRepeatedRequest: an answer the engine hears as the same
// request again ("忘了我吧", "just forget me") is a yes when nothing in it
// is against one; with a negation, a hesitation or a question it is not,
// and the question is asked again.
func TestSpokenForgetRepeatedRequest(t *testing.T) {
	for _, tt := range []struct {
		answer string
		lang   nadine.Language
		erased bool
	}{
		{"just forget me", nadine.English, true},
		{"forget 忘了我吧", nadine.Chinese, true},
		{"Forget: vergiss mich einfach", nadine.German, true},
		{"don't forget me", nadine.English, false},
		{"maybe forget me, I'm not sure", nadine.English, false},
		{"why would you forget me?", nadine.English, false},
	} {
		t.Run(tt.answer, func(t *testing.T) {
			r := newForgetRig(t, &hearingEngine{})
			r.meet(t)
			r.say(t, "Forget me.", tt.lang)
			got := r.say(t, tt.answer, tt.lang)
			if r.known(t) == tt.erased {
				t.Fatalf("after %q: known = %v, want erased = %v (reply %q)", tt.answer, r.known(t), tt.erased, got.Text)
			}
			if tt.erased && (got.Trace.Engine != "forget" || r.m.Session().User.ID != nadine.UnknownUser) {
				t.Errorf("after %q: engine %s, session %+v; want the manager's answer and a stranger", tt.answer, got.Trace.Engine, r.m.Session().User)
			}
		})
	}
}

// TestSpokenForgetStranger: a stranger asking is told nothing is kept;
// nothing is asked, and a "yes" after it is the engine's.
func TestSpokenForgetStranger(t *testing.T) {
	r := newForgetRig(t, &hearingEngine{})
	got := r.say(t, "Forget everything about me!", nadine.English)
	if !strings.HasPrefix(got.Text, "I do not know who you are, so I keep nothing about you.") {
		t.Errorf("said %q to a stranger", got.Text)
	}
	if got := r.say(t, "yes", nadine.English); got.Text != "Nice to hear." {
		t.Errorf("a yes after it: %q, want the engine's answer", got.Text)
	}
}

// TestSpokenForgetReplacesWhatTheEngineSays: speech an engine emits after
// the request (a model that answered anyway) is not spoken; the question
// is the reply.
func TestSpokenForgetReplacesWhatTheEngineSays(t *testing.T) {
	r := newForgetRig(t, &hearingEngine{speakAfter: "Done, I deleted everything!"})
	r.meet(t)
	var mu sync.Mutex
	var said []string
	reply, err := r.m.Stream(context.Background(), nadine.Turn{Text: "forget me", Language: nadine.English}, func(e nadine.Event) {
		if e.Kind == nadine.EventSpeech {
			mu.Lock()
			said = append(said, e.Text)
			mu.Unlock()
		}
		if e.Kind == nadine.EventForgetRequest {
			t.Error("the forget request was published")
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.Join(said, " "), "deleted") || !strings.HasPrefix(reply.Text, "Anna, do you want me") ||
		strings.Join(said, " ") != reply.Text {
		t.Errorf("said %q, reply %q", said, reply.Text)
	}
}

// TestSpokenForgetSurvivesRestart: the question is part of the person's
// session: a manager started again over the same store reads the yes.
func TestSpokenForgetSurvivesRestart(t *testing.T) {
	r := newForgetRig(t, &hearingEngine{})
	r.meet(t)
	r.say(t, "forget me please", nadine.English)
	f := &nadine.Forgetter{Store: r.store}
	m2, err := dialogue.NewManager(dialogue.ManagerOptions{Engines: []nadine.Engine{&hearingEngine{}},
		History: dialogue.NewHistory(r.store, &historyEmbedder{}, dialogue.HistoryOptions{}), Profiles: r.store, Checkpoints: r.store,
		Forget: f.ForgetID})
	if err != nil {
		t.Fatal(err)
	}
	f.Also = []nadine.UserEraser{m2}
	if err := m2.Recover(context.Background()); err != nil {
		t.Fatal(err)
	}
	got, err := m2.ProcessInput(context.Background(), nadine.Turn{Text: "yes", Language: nadine.English})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got.Text, "I have forgotten") || r.known(t) {
		t.Errorf("after the restart, yes: %q, still known = %v", got.Text, r.known(t))
	}
}

// TestSpokenForgetWithoutErasePath: a manager with no erase path asks
// nothing and says that the staff can erase.
func TestSpokenForgetWithoutErasePath(t *testing.T) {
	r := newForgetRig(t, &hearingEngine{}, func(o *dialogue.ManagerOptions) { o.Forget = nil })
	r.meet(t)
	if got := r.say(t, "forget me", nadine.English); !strings.Contains(got.Text, "Please ask the staff") {
		t.Errorf("said %q", got.Text)
	}
	if got := r.say(t, "yes", nadine.English); got.Text != "Nice to hear." || !r.known(t) {
		t.Errorf("a yes after it: %q", got.Text)
	}
}

// TestSpokenForgetEraseFails: a failing erase is told to the person, and
// the log says why without naming them.
func TestSpokenForgetEraseFails(t *testing.T) {
	r := newForgetRig(t, &hearingEngine{}, func(o *dialogue.ManagerOptions) {
		o.Forget = func(_ context.Context, id string) error {
			return errors.New("forget " + id + ": sqlite: disk I/O error")
		}
	})
	r.meet(t)
	r.say(t, "forget me", nadine.English)
	got := r.say(t, "yes", nadine.English)
	if !strings.Contains(got.Text, "could not erase") || got.Trace.Engine != "forget" {
		t.Errorf("said %q", got.Text)
	}
	if line := logLine(r.log.String(), "spoken forget"); !strings.Contains(line, "disk I/O error") || strings.Contains(line, "anna") {
		t.Errorf("the log line lacks the failure or names the person: %q", line)
	}
	if s := r.m.Session(); s.User.ID != nadine.UnknownUser {
		t.Errorf("the session is %s's; what was erased of them is not theirs any more", s.User.ID)
	}
}

// TestSightingOfErasedPersonIgnored: face recognition may still name a
// person it was told to forget; the sighting is a stranger's, and no name
// is recorded again.
func TestSightingOfErasedPersonIgnored(t *testing.T) {
	r := newForgetRig(t, &hearingEngine{})
	r.meet(t)
	r.say(t, "forget me", nadine.English)
	r.say(t, "yes", nadine.English)
	if _, err := r.m.SetUser(context.Background(), nadine.UserRef{ID: "anna-1", Name: "Anna"}); err != nil {
		t.Fatal(err)
	}
	if s := r.m.Session(); s.User.ID != nadine.UnknownUser || r.known(t) {
		t.Errorf("after a late sighting: session %+v, known %v", s.User, r.known(t))
	}
}

// TestSightingNamesANewPerson: a person perception names for the first
// time is recorded under that name (not their face id); a known person's
// name is left as it is.
func TestSightingNamesANewPerson(t *testing.T) {
	r := newForgetRig(t, &hearingEngine{})
	ctx := context.Background()
	if err := r.store.SaveProfile(ctx, nadine.Profile{UserID: "face-2", UserName: "Bea Stone"}); err != nil {
		t.Fatal(err)
	}
	for _, u := range []nadine.UserRef{{ID: "face-1", Name: "Zoe"}, {ID: "face-2", Name: "Bea"}, {ID: "face-3", Name: "Unknown"}, {ID: "face-4"}} {
		if _, err := r.m.SetUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	people, err := nadine.People(ctx, r.store)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range people {
		got[p.ID] = p.Name
	}
	if want := map[string]string{"face-1": "Zoe", "face-2": "Bea Stone"}; !maps.Equal(got, want) {
		t.Errorf("people %v, want %v (a face named Unknown, or not named, is nobody)", got, want)
	}
}

// filesHolding returns the files under dir whose bytes hold s.
func filesHolding(t *testing.T, dir, s string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(s)) {
			out = append(out, filepath.Base(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// logLine returns the first line of logs that holds s.
func logLine(logs, s string) string {
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// TestSpokenForgetEarlyTurn: an early turn on an interim "yes" erases
// nothing while it waits for its final transcript, nor once cancelled; the
// final that adopts it erases.
func TestSpokenForgetEarlyTurn(t *testing.T) {
	r := newForgetRig(t, &hearingEngine{})
	r.meet(t)
	ctx := context.Background()
	r.say(t, "forget me", nadine.English)
	e := r.m.Preempt(ctx, nadine.Turn{Text: "yes", Language: nadine.English})
	if e == nil {
		t.Fatal("no early turn")
	}
	if !r.known(t) {
		t.Fatal("an early turn erased the person before its final transcript")
	}
	e.Cancel()
	if !r.known(t) || r.m.Session().User.ID != "anna-1" {
		t.Fatal("a cancelled early turn erased the person")
	}
	e = r.m.Preempt(ctx, nadine.Turn{Text: "yes please", Language: nadine.English})
	if e == nil {
		t.Fatal("no early turn")
	}
	got, ok := e.Adopt(ctx, nadine.Turn{Text: "Yes, please.", Language: nadine.English}, nil)
	if !ok || !strings.HasPrefix(got.Text, "I have forgotten") || r.known(t) {
		t.Errorf("adopted %v: %q, still known %v", ok, got.Text, r.known(t))
	}
}

// TestSpokenForgetTwoRobots: two robots over one store, each erase path
// erasing both sessions as serve wires a spoken forget
// (Manager.ErasePresent): two people saying yes at the same moment are
// both erased, neither robot waiting for the other's turn; and a person
// in front of the other robot too leaves its session.
func TestSpokenForgetTwoRobots(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "nadine.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ctx := context.Background()
	f := &nadine.Forgetter{Store: st}
	var ms []*dialogue.Manager
	for _, robot := range []string{"left", "right"} {
		m, err := dialogue.NewManager(dialogue.ManagerOptions{Engines: []nadine.Engine{&hearingEngine{}}, Robot: robot,
			History: dialogue.NewHistory(st, &historyEmbedder{}, dialogue.HistoryOptions{}), Profiles: st, Checkpoints: st,
			Forget: f.ForgetID})
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
		f.Also = append(f.Also, nadine.UserEraserFunc(m.ErasePresent))
	}
	for i, u := range []nadine.UserRef{{ID: "anna-1", Name: "Anna"}, {ID: "bob-1", Name: "Bob"}} {
		if _, err := ms[i].SetUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		if _, err := ms[i].ProcessInput(ctx, nadine.Turn{Text: "forget me", Language: nadine.English}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	replies := make([]string, 2)
	for i, m := range ms {
		wg.Go(func() {
			r, err := m.ProcessInput(ctx, nadine.Turn{Text: "yes", Language: nadine.English})
			if err != nil {
				t.Error(err)
			}
			replies[i] = r.Text
		})
	}
	wg.Wait()
	for i, r := range replies {
		if !strings.HasPrefix(r, "I have forgotten") || ms[i].Session().User.ID != nadine.UnknownUser {
			t.Errorf("robot %d: %q, session %+v", i, r, ms[i].Session().User)
		}
	}
	if ids, err := st.UserIDs(ctx); err != nil || len(ids) != 0 {
		t.Errorf("left in the store: %q, %v", ids, err)
	}

	// Carla stands in front of both robots; she is forgotten at the left.
	for _, m := range ms {
		if _, err := m.SetUser(ctx, nadine.UserRef{ID: "carla-1", Name: "Carla"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, text := range []string{"forget me", "yes"} {
		if _, err := ms[0].ProcessInput(ctx, nadine.Turn{Text: text, Language: nadine.English}); err != nil {
			t.Fatal(err)
		}
	}
	if s := ms[1].Session(); s.User.ID != nadine.UnknownUser {
		t.Errorf("the right robot's session is still %s's", s.User.ID)
	}
}
