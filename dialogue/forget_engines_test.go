package dialogue_test

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/react"
	"github.com/nadine-robot/nadine/redact"
	"github.com/nadine-robot/nadine/sqlite"
	"github.com/nadine-robot/nadine/tools"
)

// forgetCanary is the secret the person tells Nadine before asking to be
// forgotten.
const forgetCanary = "PERIWINKLE-7Q"

// spokenForgetTurns are a visitor's words in one language: the secret, the
// request, a yes, a no, and the start of Nadine's lines that answer them.
type spokenForgetTurns struct {
	lang                      nadine.Language
	secret, ask, yes, no      string
	asked, forgotten, kept    string
	strangerTold              string
	requestWords, secretWords []string // what the scripted models recognize
}

var spokenForgetLanguages = []spokenForgetTurns{
	{nadine.English, "My secret word is " + forgetCanary + ", please remember it.", "Please forget everything about me.",
		"Yes, please do.", "No, keep it.",
		"Anna, do you want me to forget", "I have forgotten everything", "All right, I will not forget", "I do not know who you are",
		[]string{"forget everything about me"}, []string{forgetCanary}},
	{nadine.French, "Mon mot secret est " + forgetCanary + ", retenez-le.", "Oubliez tout ce que vous savez sur moi, s'il vous plaît.",
		"Oui, allez-y.", "Non merci.",
		"Anna, voulez-vous que j'oublie", "J'ai oublié tout", "D'accord, je n'oublie rien", "Je ne sais pas qui vous êtes",
		[]string{"Oubliez tout"}, []string{forgetCanary}},
	{nadine.German, "Mein geheimes Wort ist " + forgetCanary + ", merken Sie es sich.", "Bitte vergessen Sie alles über mich.",
		"Ja, bitte.", "Nein, lieber nicht.",
		"Anna, soll ich alles vergessen", "Ich habe alles vergessen", "Gut, ich vergesse nichts", "Ich weiß nicht, wer Sie sind",
		[]string{"vergessen Sie alles"}, []string{forgetCanary}},
	{nadine.Chinese, "我的秘密词是" + forgetCanary + "，请记住它。", "请忘记我。",
		"是的。", "不要。",
		"Anna，您要我忘记", "我已经忘记了", "好的，我不会忘记", "我不知道您是谁",
		[]string{"请忘记我"}, []string{forgetCanary}},
}

// engineForgetRig is a real engine (offline, ReAct or graph over the
// scripted model server) under a real dialogue manager over a real SQLite
// store in its own data directory, with the erase path wired as serve
// wires it, and every component logging into one buffer at the default
// level.
type engineForgetRig struct {
	m     *dialogue.Manager
	store *sqlite.Store
	graph *agents.Engine
	log   *bytes.Buffer
	dir   string
}

func newEngineForgetRig(t *testing.T, engine string, words spokenForgetTurns) *engineForgetRig {
	t.Helper()
	ctx := context.Background()
	r := &engineForgetRig{log: &bytes.Buffer{}, dir: t.TempDir()}
	log := slog.New(slog.NewTextHandler(&lockedWriter{w: r.log}, &slog.HandlerOptions{ReplaceAttr: redact.ContentReplacer(false)}))
	st, err := sqlite.Open(ctx, filepath.Join(r.dir, "nadine.db"), sqlite.Options{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r.store = st
	emb := lexical.New(256)
	var eng nadine.Engine
	switch engine {
	case "offline":
		eng = offline.New(offline.Options{Store: st, Logger: log})
	case "react", "graph":
		srv := llmtest.New(t)
		scriptSpokenForget(srv, words)
		client := func(role string) nadine.ChatModel {
			m, err := openai.New(openai.Config{Profile: "test", BaseURL: srv.URL(), Model: role, Timeout: 10 * time.Second, Logger: log})
			if err != nil {
				t.Fatal(err)
			}
			return m
		}
		if engine == "react" {
			e, err := react.New(react.Options{Agent: client(roleAgent), Tools: tools.New(tools.Config{Songs: tools.SongConfig{Dir: t.TempDir()}}, log),
				Memories: st, Knowledge: st, Embedder: emb, Logger: log})
			if err != nil {
				t.Fatal(err)
			}
			eng = e
		} else {
			e, err := agents.New(agents.Options{Models: client, Store: st, Embedder: emb, MemoryAgents: true, Logger: log})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { e.Close() })
			r.graph, eng = e, e
		}
	}
	f := &nadine.Forgetter{Store: st}
	// A chunk of the conversation becomes a long-term memory every turn,
	// so that the secret is in the memories too.
	m, err := dialogue.NewManager(dialogue.ManagerOptions{Engines: []nadine.Engine{eng},
		History:  dialogue.NewHistory(st, emb, dialogue.HistoryOptions{Window: 2, Stride: 2}),
		Profiles: st, Checkpoints: st, Forget: f.ForgetID, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	f.Also = []nadine.UserEraser{m}
	r.m = m
	return r
}

// scriptSpokenForget makes the models answer as models that understood:
// the ReAct agent calls Forget me on the request and answers the tool's
// observation; the graph's classifier says forget_me; the secret is kept
// in the profile, the summary and the replies.
func scriptSpokenForget(srv *llmtest.Server, w spokenForgetTurns) {
	has := func(s string, words []string) bool {
		for _, x := range words {
			if strings.Contains(s, x) {
				return true
			}
		}
		return false
	}
	final := func(text string) string {
		return `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 4, "action_input": "` + text + `", "category": "other", "causing_person": "human"}`
	}
	srv.On(llmtest.MatchModel(roleAgent)).ReplyFunc(func(r llmtest.Request) string {
		switch last := r.LastUser(); {
		case strings.Contains(last, "Nothing is erased yet"):
			return final("OK.")
		case has(last, w.requestWords):
			return `{"action": "` + tools.NameForget + `", "action_input": ""}`
		case has(last, w.secretWords):
			return final("I will remember " + forgetCanary + ".")
		}
		return final("Nice to talk with you.")
	})
	srv.On(llmtest.MatchModel(agents.RoleIntent)).ReplyFunc(func(r llmtest.Request) string {
		switch {
		case has(r.LastUser(), w.requestWords):
			return "forget_me"
		case has(r.LastUser(), w.secretWords):
			return "update_user_info"
		}
		return "continue_conversation"
	})
	srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleMemoryUpdate), llmtest.MatchSystem("episodic memory"))).
		Reply(`{"observation": "Anna said ` + forgetCanary + `.", "thought": "A secret.", "action": "Nadine listened.", "result": "Keep it."}`)
	srv.On(llmtest.MatchModel(agents.RoleMemoryUpdate)).Reply(`{"user_name": "", "current_company": "", "current_position": "", "location": "", "hobbies": ["guarding ` +
		forgetCanary + `"], "interests": []}`)
	srv.On(llmtest.MatchModel(agents.RoleAppraisal)).Reply("neutral 0")
	srv.On(llmtest.MatchModel(agents.RoleOrchestrator)).Reply(`{"plan": []}`)
	srv.On(llmtest.MatchModel(agents.RoleContextSummary)).Reply("Anna told Nadine the secret word " + forgetCanary + ".")
	srv.On(llmtest.MatchModel(agents.RoleResponse)).ReplyFunc(func(r llmtest.Request) string {
		if has(r.LastUser(), w.secretWords) {
			return "I will remember " + forgetCanary + "."
		}
		return "Nice to talk with you."
	})
}

// say runs one turn in the visitor's language and waits for the graph's
// background work.
func (r *engineForgetRig) say(t *testing.T, text string, lang nadine.Language) nadine.Reply {
	t.Helper()
	reply, err := r.m.ProcessInput(context.Background(), nadine.Turn{Text: text, Language: lang})
	if err != nil {
		t.Fatal(err)
	}
	if r.graph != nil {
		r.graph.Wait()
	}
	return reply
}

func (r *engineForgetRig) known(t *testing.T) bool {
	t.Helper()
	ids, err := r.store.UserIDs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return len(ids) > 0
}

// meet makes Anna, known by face recognition, the person in front of the
// robot.
func (r *engineForgetRig) meet(t *testing.T) {
	t.Helper()
	if _, err := r.m.SetUser(context.Background(), nadine.UserRef{ID: "anna-1", Name: "Anna"}); err != nil {
		t.Fatal(err)
	}
}

// TestSpokenForgetEveryEngine is the spoken forget through each engine —
// offline directly, ReAct and the graph against the scripted model
// server — under the real dialogue manager and store, in the four
// languages: a known person tells a secret (kept in messages, memories,
// and with the graph in the profile and the session), asks to be
// forgotten, is asked to confirm in their language and says yes; then
// the secret is in no file under the data directory and in no log line,
// the store knows nobody, and the session is a stranger's.
func TestSpokenForgetEveryEngine(t *testing.T) {
	for _, engine := range []string{"offline", "react", "graph"} {
		for _, w := range spokenForgetLanguages {
			t.Run(engine+"/"+string(w.lang), func(t *testing.T) {
				r := newEngineForgetRig(t, engine, w)
				r.meet(t)
				r.say(t, w.secret, w.lang)
				q := r.say(t, w.ask, w.lang)
				if !strings.HasPrefix(q.Text, w.asked) || q.Language != w.lang {
					t.Fatalf("asked %q in %s (trace %+v)", q.Text, q.Language, q.Trace.Snapshot().Notes)
				}
				if files := filesHolding(t, r.dir, forgetCanary); len(files) == 0 || !r.known(t) {
					t.Fatalf("before the yes the secret is in no file (%v) or the person unknown: the test proves nothing", files)
				}
				done := r.say(t, w.yes, w.lang)
				if !strings.HasPrefix(done.Text, w.forgotten) || done.Language != w.lang {
					t.Errorf("after the yes: %q in %s", done.Text, done.Language)
				}
				if r.known(t) {
					t.Error("the store still knows the person")
				}
				if s := r.m.Session(); s.User.ID != nadine.UnknownUser {
					t.Errorf("the session is %s's", s.User.ID)
				}
				r.say(t, "Hello!", w.lang) // a stranger's turn after it stores nothing
				if files := filesHolding(t, r.dir, forgetCanary); len(files) > 0 {
					t.Errorf("the secret is still in %v", files)
				}
				if r.known(t) {
					t.Error("the turn after the erase stored something")
				}
				logs := r.log.String()
				if strings.Contains(logs, forgetCanary) || !strings.Contains(logs, "person forgotten at their request") {
					t.Errorf("the log holds the secret or lacks the erasure:\n%s", logs)
				}
			})
		}
	}
}

// TestSpokenForgetEveryEngineNoAndStranger: through each engine, a no
// erases nothing (the secret and the person stay), and a stranger asking
// is told that nothing is kept.
func TestSpokenForgetEveryEngineNoAndStranger(t *testing.T) {
	for _, engine := range []string{"offline", "react", "graph"} {
		for _, w := range []spokenForgetTurns{spokenForgetLanguages[0], spokenForgetLanguages[2]} {
			t.Run(engine+"/"+string(w.lang)+"/no", func(t *testing.T) {
				r := newEngineForgetRig(t, engine, w)
				r.meet(t)
				r.say(t, w.secret, w.lang)
				r.say(t, w.ask, w.lang)
				kept := r.say(t, w.no, w.lang)
				if !strings.HasPrefix(kept.Text, w.kept) {
					t.Errorf("after the no: %q", kept.Text)
				}
				if files := filesHolding(t, r.dir, forgetCanary); len(files) == 0 || !r.known(t) || r.m.Session().User.ID != "anna-1" {
					t.Errorf("a no erased something: files %v, known %v, session %s", files, r.known(t), r.m.Session().User.ID)
				}
			})
			t.Run(engine+"/"+string(w.lang)+"/stranger", func(t *testing.T) {
				r := newEngineForgetRig(t, engine, w)
				r.say(t, w.secret, w.lang)
				told := r.say(t, w.ask, w.lang)
				if !strings.HasPrefix(told.Text, w.strangerTold) {
					t.Errorf("told a stranger %q", told.Text)
				}
				if files := filesHolding(t, r.dir, forgetCanary); len(files) > 0 || r.known(t) {
					t.Errorf("a stranger left %v on disk", files)
				}
			})
		}
	}
}
