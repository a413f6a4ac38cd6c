package offline_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/langid"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/spoken"
)

// fixedNow is the clock of every test: Monday 3 March 2025, 14:05 UTC, which
// is 15:05 in Geneva's winter time.
var fixedNow = time.Date(2025, 3, 3, 14, 5, 0, 0, time.UTC)

var geneva = time.FixedZone("CET", 3600)

// fakeStore is an in-memory nadine.ProfileStore.
type fakeStore struct {
	mu       sync.Mutex
	profiles map[string]nadine.Profile
	names    map[string]string
	err      error // when set, every method fails with it
	saves    int
}

func newFakeStore() *fakeStore {
	return &fakeStore{profiles: map[string]nadine.Profile{}, names: map[string]string{}}
}

func (s *fakeStore) Profile(_ context.Context, id string) (nadine.Profile, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return nadine.Profile{}, s.err
	}
	p, ok := s.profiles[id]
	if !ok {
		return nadine.Profile{}, nadine.Errorf(nadine.ENOTFOUND, "fake: no profile for %q", id)
	}
	return p, nil
}

func (s *fakeStore) SaveProfile(_ context.Context, p nadine.Profile) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.saves++
	s.profiles[p.UserID] = p
	s.names[p.UserID] = p.UserName
	return nil
}

func (s *fakeStore) SetUserName(_ context.Context, id, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return s.err
	}
	s.names[id] = name
	return nil
}

func (s *fakeStore) Users(context.Context) ([]nadine.UserRef, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return nil, s.err
	}
	var out []nadine.UserRef
	for id, name := range s.names {
		out = append(out, nadine.UserRef{ID: id, Name: name})
	}
	slices.SortFunc(out, func(a, b nadine.UserRef) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// UserIDs lists the ids with a name or a profile.
func (s *fakeStore) UserIDs(context.Context) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for id := range s.names {
		out = append(out, id)
	}
	for id := range s.profiles {
		if _, ok := s.names[id]; !ok {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (s *fakeStore) ForgetUser(_ context.Context, id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.profiles, id)
	delete(s.names, id)
	return nil
}

var _ nadine.ProfileStore = (*fakeStore)(nil)

// result is one Respond call's output.
type result struct {
	reply  nadine.Reply
	events []nadine.Event
	trace  nadine.TraceData
}

// intent returns the intent the trace recorded ("greeting" for
// "offline:greeting").
func (r result) intent() string {
	for _, s := range r.trace.Steps {
		if name, ok := strings.CutPrefix(s.Name, "offline:"); ok {
			return name
		}
	}
	return ""
}

func (r result) kinds() []nadine.EventKind {
	var out []nadine.EventKind
	for _, e := range r.events {
		out = append(out, e.Kind)
	}
	return out
}

func (r result) event(kind nadine.EventKind) (nadine.Event, bool) {
	for _, e := range r.events {
		if e.Kind == kind {
			return e, true
		}
	}
	return nadine.Event{}, false
}

func respond(t testing.TB, e *offline.Engine, turn nadine.Turn, history ...nadine.Message) result {
	t.Helper()
	trace := nadine.NewTrace("t", turn.Text, fixedNow)
	ctx := nadine.WithTrace(context.Background(), trace)
	var mu sync.Mutex
	var events []nadine.Event
	reply, err := e.Respond(ctx, nadine.Request{Turn: turn, History: history, Emit: func(ev nadine.Event) {
		mu.Lock()
		events = append(events, ev)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatalf("Respond(%q): %v", turn.Text, err)
	}
	return result{reply: reply, events: events, trace: trace.Snapshot()}
}

func testEngine(opts offline.Options) *offline.Engine {
	if opts.Now == nil {
		opts.Now = func() time.Time { return fixedNow }
	}
	if opts.Location == nil {
		opts.Location = geneva
	}
	if opts.NewUserID == nil {
		opts.NewUserID = func(name string) string { return strings.ToLower(name) + "-000001" }
	}
	return offline.New(opts)
}

// checkInvariants checks what every reply must satisfy.
func checkInvariants(t *testing.T, in string, r result) {
	t.Helper()
	rep := r.reply
	if strings.TrimSpace(rep.Text) == "" {
		t.Errorf("%q: empty reply", in)
	}
	if !rep.Language.Valid() {
		t.Errorf("%q: language %q", in, rep.Language)
	}
	if !rep.Emotion.Valid() || rep.EmotionIntensity < 0 || rep.EmotionIntensity > 10 {
		t.Errorf("%q: emotion %q intensity %d", in, rep.Emotion, rep.EmotionIntensity)
	}
	if !rep.Category.Valid() {
		t.Errorf("%q: category %q", in, rep.Category)
	}
	if want := rep.UserName; want == "" && rep.CausingPerson != nadine.CausedByHuman || want != "" && rep.CausingPerson != want {
		t.Errorf("%q: causing person %q with user name %q", in, rep.CausingPerson, rep.UserName)
	}
	sentences := spoken.SplitSentences(rep.Text)
	if len(sentences) > 2 {
		t.Errorf("%q: %d sentences in %q", in, len(sentences), rep.Text)
	}
	var spoken []string
	var gestures []nadine.Gesture
	for _, ev := range r.events {
		switch ev.Kind {
		case nadine.EventSpeech:
			spoken = append(spoken, ev.Text)
			if ev.Language != rep.Language {
				t.Errorf("%q: speech event in %q, reply in %q", in, ev.Language, rep.Language)
			}
		case nadine.EventGesture:
			gestures = append(gestures, ev.Gesture)
		case nadine.EventDone:
			t.Errorf("%q: the engine emitted EventDone", in)
		}
	}
	if !slices.Equal(spoken, sentences) {
		t.Errorf("%q: spoke %q, reply sentences %q", in, spoken, sentences)
	}
	if !slices.Equal(gestures, rep.Gestures) {
		t.Errorf("%q: gesture events %v, reply gestures %v", in, gestures, rep.Gestures)
	}
	lower := strings.ToLower(rep.Text)
	for _, f := range []string{"understand", "comprends", "verstehe", "不明白", "不懂"} {
		if strings.Contains(lower, f) {
			t.Errorf("%q: reply %q says %q", in, rep.Text, f)
		}
	}
	if rep.Language == nadine.French {
		for _, w := range strings.FieldsFunc(lower, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r == '\'') }) {
			if w == "tu" || w == "toi" || w == "te" || w == "ton" || w == "ta" || w == "tes" || strings.HasPrefix(w, "t'") {
				t.Errorf("%q: informal French %q in %q", in, w, rep.Text)
			}
		}
	}
	if n := len(r.trace.Steps); n != 1 {
		t.Errorf("%q: %d trace steps, want 1 offline step", in, n)
	}
	// The reply is in the language it says it is in, as the language
	// detector hears it.
	if l, _, ok := detector.Detect(rep.Text); ok && l != rep.Language {
		t.Errorf("%q: reply %q tagged %s is in %s", in, rep.Text, rep.Language, l)
	}
}

// detector checks the language of every reply.
var detector = func() *langid.Detector {
	d, err := langid.New()
	if err != nil {
		panic(err)
	}
	return d
}()

type intentCase struct {
	in       string
	session  nadine.Language // default English
	intent   string
	category nadine.Category
	lang     nadine.Language
	gesture  nadine.Gesture // "" for none
	emotion  nadine.Emotion // "" to skip
	contains string
}

func intentCases() []intentCase {
	const en, fr, de, zh = nadine.English, nadine.French, nadine.German, nadine.Chinese
	const (
		greet, bye, info, other = nadine.CategoryGreeting, nadine.CategoryFarewell, nadine.CategoryInformation, nadine.CategoryOther
		insult, compl           = nadine.CategoryInsult, nadine.CategoryComplement
	)
	return []intentCase{
		// greetings
		{in: "Hello!", intent: "greeting", category: greet, lang: en, gesture: nadine.Wave, emotion: nadine.Joy, contains: "Hello"},
		{in: "Good morning, Nadine", intent: "greeting", category: greet, lang: en, gesture: nadine.Wave},
		{in: "Bonjour", intent: "greeting", category: greet, lang: fr, gesture: nadine.Wave, contains: "Bonjour"},
		{in: "Salut !", intent: "greeting", category: greet, lang: fr, gesture: nadine.Wave},
		{in: "Guten Tag", intent: "greeting", category: greet, lang: de, gesture: nadine.Wave, contains: "Sie"},
		{in: "Hallo", intent: "greeting", category: greet, lang: de, gesture: nadine.Wave},
		{in: "你好", intent: "greeting", category: greet, lang: zh, gesture: nadine.Wave, contains: "您好"},
		{in: "您好！", intent: "greeting", category: greet, lang: zh, gesture: nadine.Wave},
		{in: "Hi", session: de, intent: "greeting", category: greet, lang: de, gesture: nadine.Wave},
		// farewells
		{in: "Goodbye", intent: "farewell", category: bye, lang: en, gesture: nadine.Wave, contains: "Goodbye"},
		{in: "See you later!", intent: "farewell", category: bye, lang: en, gesture: nadine.Wave},
		{in: "Au revoir", intent: "farewell", category: bye, lang: fr, gesture: nadine.Wave, contains: "Au revoir"},
		{in: "Tschüss!", intent: "farewell", category: bye, lang: de, gesture: nadine.Wave, contains: "Wiedersehen"},
		{in: "Auf Wiedersehen", intent: "farewell", category: bye, lang: de, gesture: nadine.Wave},
		{in: "再见", intent: "farewell", category: bye, lang: zh, gesture: nadine.Wave, contains: "再见"},
		{in: "拜拜", intent: "farewell", category: bye, lang: zh, gesture: nadine.Wave},
		// thanks and a farewell in one breath, without punctuation: the farewell
		{in: "vielen dank und bis bald", intent: "farewell", category: bye, lang: de, gesture: nadine.Wave},
		{in: "thanks and bye", intent: "farewell", category: bye, lang: en, gesture: nadine.Wave},
		{in: "merci beaucoup à bientôt", intent: "farewell", category: bye, lang: fr, gesture: nadine.Wave},
		// names (without a store)
		{in: "My name is Alex", intent: "name", category: other, lang: en, contains: "Alex"},
		{in: "Hello, my name is Alex.", intent: "name", category: greet, lang: en, gesture: nadine.Wave, contains: "Alex"},
		{in: "I'm Alex", intent: "name", category: other, lang: en, contains: "Alex"},
		{in: "call me Sam", intent: "name", category: other, lang: en, contains: "Sam"},
		{in: "Je m'appelle Jean-Pierre", intent: "name", category: other, lang: fr, contains: "Jean-Pierre"},
		{in: "Bonjour, je suis Marie", intent: "name", category: greet, lang: fr, gesture: nadine.Wave, contains: "Marie"},
		{in: "Ich heiße Jürgen", intent: "name", category: other, lang: de, contains: "Jürgen"},
		{in: "Mein Name ist Anna", intent: "name", category: other, lang: de, contains: "Anna"},
		{in: "我叫王小明", intent: "name", category: other, lang: zh, contains: "王小明"},
		{in: "你好，我的名字是Alex", intent: "name", category: greet, lang: zh, gesture: nadine.Wave, contains: "Alex"},
		// not names
		{in: "I'm tired", intent: "feeling_tired", category: other, lang: en, emotion: nadine.Sadness},
		{in: "I am going home", intent: "default", category: other, lang: en, contains: ", but "},
		{in: "Je suis fatigué", intent: "feeling_tired", category: other, lang: fr, emotion: nadine.Sadness},
		{in: "Ich bin müde", intent: "feeling_tired", category: other, lang: de, emotion: nadine.Sadness},
		{in: "我是学生", session: zh, intent: "default", category: other, lang: zh, contains: "不过"},
		{in: "My name is not important", intent: "default", category: other, lang: en},
		{in: "你能帮我叫辆出租车吗？", session: zh, intent: "default", category: other, lang: zh},
		// do you remember me (nobody known)
		{in: "Do you remember me?", intent: "remember", category: other, lang: en, contains: "What is your name?"},
		{in: "Tu te souviens de moi ?", intent: "remember", category: other, lang: fr, contains: "Comment vous appelez-vous"},
		{in: "Erinnerst du dich an mich?", intent: "remember", category: other, lang: de, contains: "Wie heißen Sie"},
		{in: "你记得我吗？", intent: "remember", category: other, lang: zh, contains: "名字"},
		// time and date (exact texts are in TestTimeAndDate)
		{in: "What time is it?", intent: "time", category: info, lang: en, contains: "3:05 PM"},
		{in: "Quelle heure est-il ?", intent: "time", category: info, lang: fr, contains: "15 h 05"},
		{in: "Wie spät ist es?", intent: "time", category: info, lang: de, contains: "15:05 Uhr"},
		{in: "现在几点？", intent: "time", category: info, lang: zh, contains: "15点05分"},
		{in: "What's the date today?", intent: "date", category: info, lang: en, contains: "March 3"},
		{in: "Quel jour sommes-nous ?", intent: "date", category: info, lang: fr, contains: "lundi"},
		{in: "Welches Datum haben wir heute?", intent: "date", category: info, lang: de, contains: "März"},
		{in: "今天星期几？", intent: "date", category: info, lang: zh, contains: "星期一"},
		// how are you
		{in: "How are you?", intent: "how_are_you", category: other, lang: en, emotion: nadine.Joy, contains: "well"},
		{in: "Comment allez-vous ?", intent: "how_are_you", category: other, lang: fr, emotion: nadine.Joy, contains: "très bien"},
		{in: "Salut, ça va ?", intent: "how_are_you", category: greet, lang: fr, gesture: nadine.Wave},
		{in: "Wie geht's?", intent: "how_are_you", category: other, lang: de, contains: "gut"},
		{in: "你好吗？", intent: "how_are_you", category: greet, lang: zh, gesture: nadine.Wave, contains: "很好"},
		// gestures
		{in: "Can you smile?", intent: "smile", category: other, lang: en, gesture: nadine.Smile, emotion: nadine.Joy, contains: "smiling now"},
		{in: "Souriez !", intent: "smile", category: other, lang: fr, gesture: nadine.Smile, contains: "souris"},
		{in: "Lächle mal!", intent: "smile", category: other, lang: de, gesture: nadine.Smile, contains: "lächle"},
		{in: "笑一笑", intent: "smile", category: other, lang: zh, gesture: nadine.Smile, contains: "微笑"},
		{in: "Wave at me", intent: "wave", category: other, lang: en, gesture: nadine.Wave, contains: "waving"},
		{in: "Faites coucou", intent: "wave", category: other, lang: fr, gesture: nadine.Wave, contains: "signe"},
		{in: "Kannst du winken?", intent: "wave", category: other, lang: de, gesture: nadine.Wave, contains: "winke"},
		{in: "挥挥手", intent: "wave", category: other, lang: zh, gesture: nadine.Wave, contains: "挥手"},
		{in: "Be angry!", intent: "anger", category: other, lang: en, gesture: nadine.AngerFace, emotion: nadine.Anger, contains: "angry"},
		{in: "Fâchez-vous !", intent: "anger", category: other, lang: fr, gesture: nadine.AngerFace, emotion: nadine.Anger, contains: "colère"},
		{in: "Sei wütend!", intent: "anger", category: other, lang: de, gesture: nadine.AngerFace, emotion: nadine.Anger, contains: "wütend"},
		{in: "生气一下", intent: "anger", category: other, lang: zh, gesture: nadine.AngerFace, emotion: nadine.Anger, contains: "生气"},
		{in: "Don't be angry", intent: "calm", category: other, lang: en, emotion: nadine.Joy, contains: "not angry"},
		{in: "Ne vous fâchez pas", intent: "calm", category: other, lang: fr, contains: "pas du tout"},
		{in: "别生气", intent: "calm", category: other, lang: zh, contains: "不生气"},
		// songs (no library)
		{in: "Sing a song", intent: "song", category: other, lang: en, contains: "no song library"},
		{in: "Chantez une chanson", intent: "song", category: other, lang: fr, contains: "chansons"},
		{in: "Sing ein Lied", intent: "song", category: other, lang: de, contains: "Liedersammlung"},
		{in: "唱首歌吧", intent: "song", category: other, lang: zh, contains: "歌曲库"},
		// language switches: the confirmation is in the new language
		{in: "Speak French", intent: "language", category: other, lang: fr, contains: "français"},
		{in: "Can you speak German?", intent: "language", category: other, lang: de, contains: "Deutsch"},
		{in: "Parlez anglais, s'il vous plaît", intent: "language", category: other, lang: en, contains: "English"},
		{in: "Sprich Deutsch", session: fr, intent: "language", category: other, lang: de, contains: "Deutsch"},
		{in: "Kannst du Französisch sprechen?", intent: "language", category: other, lang: fr, contains: "français"},
		{in: "说中文", intent: "language", category: other, lang: zh, contains: "中文"},
		{in: "请用英语回答", session: zh, intent: "language", category: other, lang: en, contains: "English"},
		{in: "Answer in French please", intent: "language", category: other, lang: fr, contains: "français"},
		{in: "Speak Klingon", intent: "language_unsupported", category: other, lang: en, contains: "English, French, German and Chinese"},
		{in: "Parlez-vous espagnol ?", intent: "language_unsupported", category: other, lang: fr, contains: "anglais"},
		{in: "Kannst du Klingonisch sprechen?", intent: "language_unsupported", category: other, lang: de, contains: "Englisch"},
		{in: "你会说日语吗？", intent: "language_unsupported", category: other, lang: zh, contains: "英语"},
		{in: "What languages do you speak?", intent: "languages", category: info, lang: en, contains: "French"},
		{in: "Speak slowly please", intent: "default", category: other, lang: en},
		// abilities
		{in: "What can you do?", intent: "abilities", category: info, lang: en, contains: "MIRALab"},
		{in: "Que savez-vous faire ?", intent: "abilities", category: info, lang: fr, contains: "MIRALab"},
		{in: "Was kannst du?", intent: "abilities", category: info, lang: de, contains: "MIRALab"},
		{in: "你能做什么？", intent: "abilities", category: info, lang: zh, contains: "MIRALab"},
		// insults: sharper emotion
		{in: "You are stupid", intent: "insult", category: insult, lang: en, gesture: nadine.AngerFace, emotion: nadine.Anger},
		{in: "Idiot!", intent: "insult", category: insult, lang: en, gesture: nadine.AngerFace, emotion: nadine.Anger},
		{in: "T'es nul", intent: "insult", category: insult, lang: fr, gesture: nadine.AngerFace, emotion: nadine.Anger},
		{in: "Vous êtes stupide", intent: "insult", category: insult, lang: fr, gesture: nadine.AngerFace},
		{in: "Du bist dumm", intent: "insult", category: insult, lang: de, gesture: nadine.AngerFace, emotion: nadine.Anger},
		{in: "笨蛋", intent: "insult", category: insult, lang: zh, gesture: nadine.AngerFace, emotion: nadine.Anger},
		{in: "I don't like you", intent: "insult", category: insult, lang: en, gesture: nadine.AngerFace},
		{in: "Je ne vous aime pas", intent: "insult", category: insult, lang: fr, gesture: nadine.AngerFace},
		{in: "Ich mag dich nicht", intent: "insult", category: insult, lang: de, gesture: nadine.AngerFace},
		{in: "我不喜欢你", intent: "insult", category: insult, lang: zh, gesture: nadine.AngerFace},
		{in: "Vous n'êtes pas stupide", intent: "compliment", category: compl, lang: fr, gesture: nadine.Smile},
		{in: "你不笨", intent: "compliment", category: compl, lang: zh, gesture: nadine.Smile},
		// compliments
		{in: "You are beautiful", intent: "compliment", category: compl, lang: en, gesture: nadine.Smile, emotion: nadine.Joy},
		{in: "You're so smart!", intent: "compliment", category: compl, lang: en, gesture: nadine.Smile},
		{in: "You are not stupid", intent: "compliment", category: compl, lang: en, gesture: nadine.Smile},
		{in: "Vous êtes très intelligente", intent: "compliment", category: compl, lang: fr, gesture: nadine.Smile, contains: "gentil"},
		{in: "Du bist super", intent: "compliment", category: compl, lang: de, gesture: nadine.Smile, contains: "nett"},
		{in: "你真漂亮", intent: "compliment", category: compl, lang: zh, gesture: nadine.Smile, contains: "谢"},
		{in: "This is stupid", intent: "default", category: other, lang: en},
		// thanks
		{in: "Thank you", intent: "thanks", category: other, lang: en, contains: "welcome"},
		{in: "Thanks a lot", intent: "thanks", category: other, lang: en},
		{in: "Merci beaucoup", intent: "thanks", category: other, lang: fr},
		{in: "Danke schön", intent: "thanks", category: other, lang: de},
		{in: "谢谢", intent: "thanks", category: other, lang: zh},
		// the honest limit says what she can do instead, and claims no failure
		{in: "Tell me about quantum physics", intent: "default", category: other, lang: en, emotion: nadine.Neutral, contains: ", but "},
		{in: "Parlez-moi de la physique quantique", session: fr, intent: "default", category: other, lang: fr, contains: ", mais "},
		{in: "Erzähl mir etwas über Physik", session: de, intent: "default", category: other, lang: de, contains: ", aber "},
		{in: "给我讲讲量子物理", session: zh, intent: "default", category: other, lang: zh, contains: "不过"},
	}
}

func TestRespondIntents(t *testing.T) {
	e := testEngine(offline.Options{})
	for _, tt := range intentCases() {
		t.Run(tt.in, func(t *testing.T) {
			session := tt.session
			if session == "" {
				session = nadine.English
			}
			r := respond(t, e, nadine.Turn{Text: tt.in, Language: session})
			checkInvariants(t, tt.in, r)
			if got := r.intent(); got != tt.intent {
				t.Errorf("intent = %q, want %q (reply %q)", got, tt.intent, r.reply.Text)
			}
			if got := r.reply.Category; got != tt.category {
				t.Errorf("category = %q, want %q", got, tt.category)
			}
			if got := r.reply.Language; got != tt.lang {
				t.Errorf("language = %q, want %q (reply %q)", got, tt.lang, r.reply.Text)
			}
			var want []nadine.Gesture
			if tt.gesture != "" {
				want = []nadine.Gesture{tt.gesture}
			}
			if got := r.reply.Gestures; !slices.Equal(got, want) {
				t.Errorf("gestures = %v, want %v", got, want)
			}
			if tt.emotion != "" && r.reply.Emotion != tt.emotion {
				t.Errorf("emotion = %q, want %q", r.reply.Emotion, tt.emotion)
			}
			if !strings.Contains(r.reply.Text, tt.contains) {
				t.Errorf("reply %q does not contain %q", r.reply.Text, tt.contains)
			}
			_, gotUser := r.event(nadine.EventUser)
			if wantUser := tt.intent == "name"; gotUser != wantUser {
				t.Errorf("user event = %v, want %v", gotUser, wantUser)
			}
			_, gotLang := r.event(nadine.EventLanguage)
			if wantLang := tt.intent == "language"; gotLang != wantLang {
				t.Errorf("language event = %v, want %v", gotLang, wantLang)
			}
		})
	}
}

func TestInsultIsSharper(t *testing.T) {
	e := testEngine(offline.Options{})
	insult := respond(t, e, nadine.Turn{Text: "You are an idiot"}).reply
	if insult.Emotion != nadine.Anger || insult.EmotionIntensity != 7 {
		t.Errorf("insult: %s/%d, want anger/7", insult.Emotion, insult.EmotionIntensity)
	}
	angry := respond(t, e, nadine.Turn{Text: "Be angry"}).reply
	if angry.EmotionIntensity >= insult.EmotionIntensity {
		t.Errorf("an anger request (%d) is as sharp as an insult (%d)", angry.EmotionIntensity, insult.EmotionIntensity)
	}
}

func TestNameExtraction(t *testing.T) {
	tests := []struct{ in, want string }{
		{"my name is alex how are you", "Alex"},
		{"MY NAME IS ALEX", "Alex"},
		{"Hi, I am Alex Smith. How are you?", "Alex Smith"},
		{"My name is Zoë", "Zoë"},
		{"I'm O'Brien", "O'Brien"},
		{"I’m Alex", "Alex"},
		{"my name is McDonald", "McDonald"},
		{"Je m'appelle Marie-Claire, et vous ?", "Marie-Claire"},
		{"je m’appelle jean", "Jean"},
		{"Guten Morgen, ich heiße Anna und ich bin Lehrerin", "Anna"},
		{"Ich bin Anna", "Anna"},
		{"你好，我叫李华，很高兴认识你", "李华"},
		{"我叫王小明很高兴认识您", "王小明"},
		{"我叫Alex", "Alex"},
		{"我是李华", "李华"},
		{"My name is Anna Maria Lopez Garcia", "Anna Maria Lopez"},
	}
	e := testEngine(offline.Options{})
	for _, tt := range tests {
		r := respond(t, e, nadine.Turn{Text: tt.in})
		ev, ok := r.event(nadine.EventUser)
		if !ok {
			t.Errorf("%q: no user event (reply %q)", tt.in, r.reply.Text)
			continue
		}
		if ev.User.Name != tt.want || r.reply.UserName != tt.want {
			t.Errorf("%q: name %q (reply user %q), want %q", tt.in, ev.User.Name, r.reply.UserName, tt.want)
		}
		if ev.User.ID == "" || ev.User.ID != r.reply.UserID {
			t.Errorf("%q: user id %q, reply user id %q", tt.in, ev.User.ID, r.reply.UserID)
		}
		if !strings.Contains(r.reply.Text, tt.want) {
			t.Errorf("%q: reply %q does not use the name", tt.in, r.reply.Text)
		}
	}
}

func TestNotNames(t *testing.T) {
	e := testEngine(offline.Options{})
	for _, in := range []string{"I'm tired", "I'm fine, thanks", "I am from Geneva", "I'm German", "I'm sorry",
		"I'm looking for the exit", "Je suis fatigué", "Je suis français", "Je suis désolée", "Ich bin müde",
		"Ich bin im Büro", "Ich bin Lehrerin", "我是学生", "我是中国人", "What is my name?", "Comment je m'appelle ?",
		"我叫什么名字？", "call me maybe", "Hello", "Alex"} {
		r := respond(t, e, nadine.Turn{Text: in})
		if ev, ok := r.event(nadine.EventUser); ok {
			t.Errorf("%q: took %q for a name", in, ev.User.Name)
		}
	}
}

func TestDefaultUserID(t *testing.T) {
	e := offline.New(offline.Options{})
	r := respond(t, e, nadine.Turn{Text: "My name is Alex"})
	ev, ok := r.event(nadine.EventUser)
	if !ok {
		t.Fatal("no user event")
	}
	if !regexp.MustCompile(`^alex-[0-9a-f]{6}$`).MatchString(ev.User.ID) {
		t.Errorf("default user id %q, want alex-<6 hex digits>", ev.User.ID)
	}
}

func TestNameIsRememberedAcrossRuns(t *testing.T) {
	store := newFakeStore()
	first := testEngine(offline.Options{Store: store})
	r := respond(t, first, nadine.Turn{Text: "Hello, my name is Alex", UserID: nadine.UnknownUser})
	checkInvariants(t, "introduction", r)

	// The first run greets Alex, settles the identity and saves the profile.
	if got, want := r.kinds(), []nadine.EventKind{nadine.EventUser, nadine.EventGesture, nadine.EventSpeech, nadine.EventSpeech}; !slices.Equal(got, want) {
		t.Errorf("events = %v, want %v", got, want)
	}
	ev, _ := r.event(nadine.EventUser)
	if got, want := *ev.User, (nadine.UserRef{ID: "alex-000001", Name: "Alex"}); got != want {
		t.Errorf("user event %+v, want %+v", got, want)
	}
	if r.reply.Category != nadine.CategoryGreeting || !strings.Contains(r.reply.Text, "Alex") || !strings.Contains(r.reply.Text, "remember") {
		t.Errorf("reply %q (%s), want a greeting of Alex promising to remember", r.reply.Text, r.reply.Category)
	}
	if r.reply.UserID != "alex-000001" || r.reply.UserName != "Alex" || r.reply.CausingPerson != "Alex" {
		t.Errorf("reply user %q %q causing %q", r.reply.UserID, r.reply.UserName, r.reply.CausingPerson)
	}
	p, err := store.Profile(context.Background(), "alex-000001")
	if err != nil {
		t.Fatalf("profile not saved: %v", err)
	}
	if want := (nadine.Profile{UserID: "alex-000001", UserName: "Alex", LastUpdated: fixedNow}); !reflect.DeepEqual(p, want) {
		t.Errorf("saved profile %+v, want %+v", p, want)
	}

	// A second run (a new engine over the same store) recognizes Alex by id.
	second := testEngine(offline.Options{Store: store})
	r = respond(t, second, nadine.Turn{Text: "Do you remember me?", UserID: "alex-000001"})
	checkInvariants(t, "remember", r)
	if !strings.Contains(r.reply.Text, "Of course") || !strings.Contains(r.reply.Text, "Alex") {
		t.Errorf("remember reply %q, want it to recognize Alex", r.reply.Text)
	}
	if r.reply.UserName != "Alex" || r.reply.Emotion != nadine.Joy {
		t.Errorf("remember reply user %q emotion %s", r.reply.UserName, r.reply.Emotion)
	}

	// With a remembered fact, she mentions it.
	p.CurrentCompany = "Acme"
	p.Hobbies = []string{"chess"}
	if err := store.SaveProfile(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	r = respond(t, second, nadine.Turn{Text: "Vous souvenez-vous de moi ?", UserID: "alex-000001", Language: nadine.French})
	if got, want := r.reply.Text, "Bien sûr, Alex ! Je me souviens que vous travaillez chez Acme."; got != want {
		t.Errorf("remember with fact = %q, want %q", got, want)
	}

	// A third run, not knowing who is there, hears the name again and
	// adopts the stored id instead of making a new one.
	third := testEngine(offline.Options{Store: store, NewUserID: func(string) string {
		t.Error("a known name got a new user id")
		return "new"
	}})
	saves := store.saves
	r = respond(t, third, nadine.Turn{Text: "ich heiße alex", Language: nadine.English})
	ev, ok := r.event(nadine.EventUser)
	if !ok || ev.User.ID != "alex-000001" {
		t.Errorf("user event %+v, want the stored id alex-000001", ev.User)
	}
	if got, want := r.reply.Text, "Willkommen zurück, Alex! Ich weiß noch, dass Sie bei Acme arbeiten."; got != want {
		t.Errorf("welcome back = %q, want %q", got, want)
	}
	if store.saves != saves {
		t.Errorf("a known user's profile was saved again")
	}
}

func TestGreetingUsesStoredName(t *testing.T) {
	store := newFakeStore()
	if err := store.SaveProfile(context.Background(), nadine.Profile{UserID: "u1", UserName: "Alex"}); err != nil {
		t.Fatal(err)
	}
	if err := store.SetUserName(context.Background(), "u2", "Bea"); err != nil {
		t.Fatal(err)
	}
	e := testEngine(offline.Options{Store: store})
	for id, name := range map[string]string{"u1": "Alex", "u2": "Bea"} {
		r := respond(t, e, nadine.Turn{Text: "Hello", UserID: id})
		if !strings.Contains(r.reply.Text, name) || r.reply.UserName != name || r.reply.CausingPerson != name {
			t.Errorf("%s: reply %q user %q causing %q, want %s", id, r.reply.Text, r.reply.UserName, r.reply.CausingPerson, name)
		}
	}
	// The turn's own name needs no store.
	r := respond(t, testEngine(offline.Options{}), nadine.Turn{Text: "Goodbye", UserID: "u9", UserName: "Chen"})
	if !strings.Contains(r.reply.Text, "Chen") {
		t.Errorf("farewell %q does not name Chen", r.reply.Text)
	}
}

func TestIntroductionNamesARecognizedFace(t *testing.T) {
	store := newFakeStore()
	e := testEngine(offline.Options{Store: store, NewUserID: func(string) string {
		t.Error("a recognized face without a name got a new id")
		return "new"
	}})
	r := respond(t, e, nadine.Turn{Text: "I'm Alex", UserID: "face-7"})
	ev, ok := r.event(nadine.EventUser)
	if !ok || ev.User.ID != "face-7" || ev.User.Name != "Alex" {
		t.Fatalf("user event %+v, want face-7 named Alex", ev.User)
	}
	if p, err := store.Profile(context.Background(), "face-7"); err != nil || p.UserName != "Alex" {
		t.Errorf("profile %+v, %v", p, err)
	}
}

func TestIntroductionWithoutStore(t *testing.T) {
	e := testEngine(offline.Options{})
	r := respond(t, e, nadine.Turn{Text: "My name is Alex", UserID: nadine.UnknownUser})
	ev, ok := r.event(nadine.EventUser)
	if !ok || ev.User.ID != "alex-000001" || ev.User.Name != "Alex" {
		t.Fatalf("user event %+v", ev.User)
	}
	if strings.Contains(r.reply.Text, "remember") {
		t.Errorf("without a store Nadine promises to remember: %q", r.reply.Text)
	}
	// The same name again within the session: she knows it already.
	r = respond(t, e, nadine.Turn{Text: "My name is Alex", UserID: "alex-000001", UserName: "Alex"})
	if ev, _ := r.event(nadine.EventUser); ev.User == nil || ev.User.ID != "alex-000001" {
		t.Errorf("user event %+v, want the session's id", ev.User)
	}
	if !strings.Contains(r.reply.Text, "Welcome back") {
		t.Errorf("reply %q, want a welcome back", r.reply.Text)
	}
}

func TestStoreFailureStillAnswers(t *testing.T) {
	store := newFakeStore()
	store.err = nadine.Errorf(nadine.EUNAVAILABLE, "fake: database is down")
	e := testEngine(offline.Options{Store: store})
	r := respond(t, e, nadine.Turn{Text: "My name is Alex"})
	checkInvariants(t, "store down", r)
	if ev, ok := r.event(nadine.EventUser); !ok || ev.User.Name != "Alex" {
		t.Errorf("user event %+v, want Alex for the session", ev.User)
	}
	if !strings.Contains(r.reply.Text, "Alex") || strings.Contains(r.reply.Text, "remember") {
		t.Errorf("reply %q, want Alex greeted without a promise to remember", r.reply.Text)
	}
	if len(r.trace.Failures) == 0 || r.trace.Failures[0].Stage != "offline:store" || r.trace.Failures[0].Code != nadine.EUNAVAILABLE {
		t.Errorf("trace failures %+v, want the store failure", r.trace.Failures)
	}
	r = respond(t, e, nadine.Turn{Text: "Do you remember me?", UserID: "u1"})
	if r.intent() != "remember" || !strings.Contains(r.reply.Text, "name") {
		t.Errorf("remember with the store down: %q", r.reply.Text)
	}
}

func TestPendingNameQuestion(t *testing.T) {
	e := testEngine(offline.Options{})
	asked := respond(t, e, nadine.Turn{Text: "Erinnerst du dich an mich?"}).reply.Text
	history := []nadine.Message{
		{Role: nadine.RoleUser, Content: "Erinnerst du dich an mich?"},
		{Role: nadine.RoleAssistant, Content: asked},
	}
	r := respond(t, e, nadine.Turn{Text: "Jürgen", Language: nadine.English}, history...)
	ev, ok := r.event(nadine.EventUser)
	if !ok || ev.User.Name != "Jürgen" {
		t.Fatalf("answer to the name question: user event %+v, reply %q", ev.User, r.reply.Text)
	}
	if r.reply.Language != nadine.German {
		t.Errorf("language %s, want the question's German", r.reply.Language)
	}
	// Without the question, a lone word is no introduction.
	if _, ok := respond(t, e, nadine.Turn{Text: "Jürgen"}).event(nadine.EventUser); ok {
		t.Error("a lone word became a name without a question")
	}
}

func TestTimeAndDate(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"What time is it?", "It is 3:05 PM."},
		{"Quelle heure est-il ?", "Il est 15 h 05."},
		{"Wie spät ist es?", "Es ist 15:05 Uhr."},
		{"现在几点了？", "现在是15点05分。"},
		{"What day is it?", "Today is Monday, March 3, 2025."},
		{"On est le combien aujourd'hui ?", "Nous sommes le lundi 3 mars 2025."},
		{"Welcher Tag ist heute?", "Heute ist Montag, der dritte März 2025."},
		{"今天几号？", "今天是2025年3月3日星期一。"},
		{"What's the date and time?", "It is 3:05 PM. Today is Monday, March 3, 2025."},
	}
	e := testEngine(offline.Options{})
	for _, tt := range tests {
		r := respond(t, e, nadine.Turn{Text: tt.in})
		if r.reply.Text != tt.want {
			t.Errorf("%q: %q, want %q", tt.in, r.reply.Text, tt.want)
		}
	}
	// The default location is time.Local; an explicit one converts Now.
	tokyo := time.FixedZone("JST", 9*3600)
	r := respond(t, testEngine(offline.Options{Location: tokyo}), nadine.Turn{Text: "what time is it"})
	if got, want := r.reply.Text, "It is 11:05 PM."; got != want {
		t.Errorf("Tokyo time %q, want %q", got, want)
	}
}

func TestLanguageSwitchEvents(t *testing.T) {
	e := testEngine(offline.Options{})
	r := respond(t, e, nadine.Turn{Text: "Parlez-vous allemand ?", Language: nadine.French})
	if got, want := r.kinds(), []nadine.EventKind{nadine.EventLanguage, nadine.EventSpeech}; !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	if ev, _ := r.event(nadine.EventLanguage); ev.Language != nadine.German {
		t.Errorf("language event %q, want de", ev.Language)
	}
	if r.reply.Language != nadine.German || r.reply.Text != "Gern, ab jetzt spreche ich Deutsch." {
		t.Errorf("reply %s %q", r.reply.Language, r.reply.Text)
	}
}

func TestSongs(t *testing.T) {
	library := map[nadine.Language][]nadine.Song{
		nadine.English: {{Title: "Yellow Submarine", Language: nadine.English, Path: "/songs/en/yellow.mp3"}, {Title: "Let It Be", Language: nadine.English, Path: "/songs/en/letitbe.mp3"}},
		nadine.French:  {{Title: "Frère Jacques", Language: nadine.French, Path: "/songs/fr/frere.mp3"}},
		nadine.German:  {{Title: "Wrong language", Language: nadine.English, Path: "/songs/x.mp3"}},
	}
	var asked []nadine.Language
	var mu sync.Mutex
	e := testEngine(offline.Options{Songs: func(l nadine.Language) []nadine.Song {
		mu.Lock()
		asked = append(asked, l)
		mu.Unlock()
		return library[l]
	}})
	tests := []struct {
		in       string
		session  nadine.Language
		song     string
		lang     nadine.Language
		contains string // the reply says it is not in the language asked for
	}{
		{"Sing a song", nadine.English, "Yellow Submarine", nadine.English, ""},
		{"Chantez-moi une chanson", nadine.English, "Frère Jacques", nadine.French, ""},
		{"Sing a French song", nadine.English, "Frère Jacques", nadine.English, ""},
		// No German song (the one filed under de is English): an English one,
		// and she says why.
		{"Sing ein Lied", nadine.German, "Yellow Submarine", nadine.German, "Deutsch"},
		{"唱首歌", nadine.Chinese, "Yellow Submarine", nadine.Chinese, "中文"},
	}
	for _, tt := range tests {
		mu.Lock()
		asked = nil
		mu.Unlock()
		r := respond(t, e, nadine.Turn{Text: tt.in, Language: tt.session})
		checkInvariants(t, tt.in, r)
		ev, ok := r.event(nadine.EventSong)
		if !ok || ev.Song.Title != tt.song {
			t.Errorf("%q: song event %+v, want %q", tt.in, ev.Song, tt.song)
			continue
		}
		if !strings.Contains(r.reply.Text, tt.song) || r.reply.Language != tt.lang || !strings.Contains(r.reply.Text, tt.contains) {
			t.Errorf("%q: reply %s %q, want the title announced in %s (with %q)", tt.in, r.reply.Language, r.reply.Text, tt.lang, tt.contains)
		}
		if kinds := r.kinds(); kinds[len(kinds)-1] != nadine.EventSong {
			t.Errorf("%q: events %v, want the song after the announcement", tt.in, kinds)
		}
		mu.Lock()
		first := asked[0]
		mu.Unlock()
		if want := map[bool]nadine.Language{true: nadine.French, false: tt.lang}[strings.Contains(tt.in, "French")]; first != want {
			t.Errorf("%q: library asked first for %s, want %s", tt.in, first, want)
		}
	}
	// With a library, "what can you do" mentions singing.
	if r := respond(t, e, nadine.Turn{Text: "What can you do?"}); !strings.Contains(r.reply.Text, "sing") {
		t.Errorf("abilities with songs: %q", r.reply.Text)
	}

	// A library folder without songs: she says so, never "offline mode",
	// and does not offer to sing.
	empty := testEngine(offline.Options{Songs: func(nadine.Language) []nadine.Song { return nil }})
	for _, tt := range []struct {
		in   string
		lang nadine.Language
		want string
	}{
		{"Sing a song", nadine.English, "song library is empty"},
		{"Chantez une chanson", nadine.French, "bibliothèque de chansons est vide"},
		{"Sing ein Lied", nadine.German, "Liedersammlung ist leer"},
		{"唱首歌吧", nadine.Chinese, "歌曲库是空的"},
	} {
		r := respond(t, empty, nadine.Turn{Text: tt.in, Language: tt.lang})
		checkInvariants(t, tt.in, r)
		if _, ok := r.event(nadine.EventSong); ok || !strings.Contains(r.reply.Text, tt.want) || r.reply.Emotion != nadine.Sadness {
			t.Errorf("%q with an empty library: %s %q", tt.in, r.reply.Emotion, r.reply.Text)
		}
		for _, w := range []string{"offline", "hors ligne", "离线"} {
			if strings.Contains(strings.ToLower(r.reply.Text), w) {
				t.Errorf("%q: %q blames offline mode", tt.in, r.reply.Text)
			}
		}
	}
	for _, in := range []string{"What can you do?", "What is the meaning of life?", "Tell me about quantum physics"} {
		if r := respond(t, empty, nadine.Turn{Text: in}); strings.Contains(r.reply.Text, "sing") {
			t.Errorf("%q with an empty library offers to sing: %q", in, r.reply.Text)
		}
	}
	if r := respond(t, testEngine(offline.Options{}), nadine.Turn{Text: "What can you do?"}); strings.Contains(r.reply.Text, "sing") {
		t.Errorf("abilities without a library claims singing: %q", r.reply.Text)
	}
}

func TestTwoSentenceRuleHoldsForStoredValues(t *testing.T) {
	store := newFakeStore()
	if err := store.SaveProfile(context.Background(), nadine.Profile{UserID: "u1", UserName: "Alex",
		CurrentCompany: "Acme. We build robots! Really? Yes."}); err != nil {
		t.Fatal(err)
	}
	e := testEngine(offline.Options{Store: store, Songs: func(nadine.Language) []nadine.Song {
		return []nadine.Song{{Title: "Stop! In the Name of Love. Again!", Path: "/x.mp3"}}
	}})
	for _, in := range []string{"Do you remember me?", "Sing a song"} {
		r := respond(t, e, nadine.Turn{Text: in, UserID: "u1"})
		checkInvariants(t, in, r)
		if n := len(spoken.SplitSentences(r.reply.Text)); n != 2 {
			t.Errorf("%q: %d sentences in %q, want the reply cut to 2", in, n, r.reply.Text)
		}
	}
}

func TestVariesWordingOverTheConversation(t *testing.T) {
	e := testEngine(offline.Options{})
	seen := map[string]bool{}
	var history []nadine.Message
	for range 2 {
		r := respond(t, e, nadine.Turn{Text: "Hello"}, history...)
		seen[r.reply.Text] = true
		history = append(history, nadine.Message{Role: nadine.RoleUser, Content: "Hello"},
			nadine.Message{Role: nadine.RoleAssistant, Content: r.reply.Text})
	}
	if len(seen) != 2 {
		t.Errorf("two greetings in a row were worded the same: %v", seen)
	}
}

func TestDeterministic(t *testing.T) {
	t.Parallel() // reads the shared model, writes nothing shared
	for _, tt := range intentCases() {
		a := respond(t, testEngine(offline.Options{Store: newFakeStore()}), nadine.Turn{Text: tt.in, Language: tt.session, UserID: "u1"})
		b := respond(t, testEngine(offline.Options{Store: newFakeStore()}), nadine.Turn{Text: tt.in, Language: tt.session, UserID: "u1"})
		if !reflect.DeepEqual(a.reply, b.reply) || !reflect.DeepEqual(a.events, b.events) {
			t.Errorf("%q: two runs differ:\n%+v %v\n%+v %v", tt.in, a.reply, a.kinds(), b.reply, b.kinds())
		}
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel() // reads the shared model, writes nothing shared
	e := testEngine(offline.Options{})
	for _, in := range []string{"", "   \n\t", "\xff\xfe\xfd", "😀🎉👍", "???!!!", "12345",
		strings.Repeat("hello ", 2000), strings.Repeat("你好", 1000), "hello\x00world", "my name is \xff"} {
		name := in
		if len(name) > 20 {
			name = name[:20]
		}
		t.Run(fmt.Sprintf("%q", name), func(t *testing.T) {
			r := respond(t, e, nadine.Turn{Text: in})
			checkInvariants(t, name, r)
			if strings.TrimSpace(in) != "" && !strings.Contains(in, "\x00") && !strings.HasPrefix(in, "my name") && r.intent() != "default" {
				t.Errorf("intent %q, want default", r.intent())
			}
		})
	}
}

func TestConcurrentUse(t *testing.T) {
	t.Parallel() // reads the shared model, writes nothing shared
	store := newFakeStore()
	e := testEngine(offline.Options{Store: store})
	cases := intentCases()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j, tt := range cases {
				if (i+j)%2 == 0 {
					respond(t, e, nadine.Turn{Text: tt.in, UserID: fmt.Sprintf("u%d", i)})
				}
			}
		})
	}
	wg.Wait()
}

func TestNameAndInterface(t *testing.T) {
	var e nadine.Engine = offline.New(offline.Options{})
	if got := e.Name(); got != "offline" {
		t.Errorf("Name() = %q", got)
	}
	// A nil Emit and no trace must not panic.
	r, err := e.Respond(context.Background(), nadine.Request{Turn: nadine.Turn{Text: "Hello"}})
	if err != nil || r.Text == "" {
		t.Errorf("Respond without Emit: %q, %v", r.Text, err)
	}
	if r.UserID != nadine.UnknownUser {
		t.Errorf("user id %q, want %q", r.UserID, nadine.UnknownUser)
	}
	// A cancelled context does not stop the last fallback from answering.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r, err := e.Respond(ctx, nadine.Request{Turn: nadine.Turn{Text: "Hello"}}); err != nil || r.Text == "" {
		t.Errorf("Respond with a cancelled context: %q, %v", r.Text, err)
	}
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatal("context not cancelled")
	}
}

func BenchmarkRespond(b *testing.B) {
	e := testEngine(offline.Options{Store: newFakeStore()})
	req := nadine.Request{
		Turn: nadine.Turn{Text: "Hello Nadine, how are you today?", Language: nadine.English, UserID: "u1", UserName: "Alex"},
		Emit: func(nadine.Event) {},
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Respond(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
