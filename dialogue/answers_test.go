package dialogue_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/langid"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/react"
	"github.com/nadine-robot/nadine/sqlite"
	"github.com/nadine-robot/nadine/translate"
)

// answerCase is one realistic model answer of testdata/answers.yaml, run
// through the real engine and dialogue manager against the scripted
// server.
type answerCase struct {
	Name    string              `yaml:"name"`
	Engine  string              `yaml:"engine"` // react or graph
	Say     string              `yaml:"say"`
	Before  []string            `yaml:"before"`  // turns said first, with the default answers
	Always  bool                `yaml:"always"`  // the answers below apply to the turns before too
	User    string              `yaml:"user"`    // a recognized user's name ("" for nobody)
	Session nadine.Language     `yaml:"session"` // the session language, with a detector and the translator checking each sentence
	Lang    nadine.Language     `yaml:"-"`       // the session language, without a translator (Session sets its own)
	Options []string            `yaml:"options"` // graph: search_summary, vision
	Answers map[string][]string `yaml:"answers"` // role → answers, in order (the last one repeats)
	Want    answerWant          `yaml:"want"`
}

type answerWant struct {
	Said          string            `yaml:"said"`      // every sentence spoken, joined with spaces
	SaidNot       []string          `yaml:"said_not"`  // never spoken
	Fallback      bool              `yaml:"fallback"`  // a fallback engine answered
	Emotion       string            `yaml:"emotion"`   // the reply's
	Intensity     *int              `yaml:"intensity"` // the reply's
	Category      string            `yaml:"category"`
	CausingPerson string            `yaml:"causing_person"`
	Gestures      []string          `yaml:"gestures"`
	Tool          string            `yaml:"tool"`       // the tool called
	ToolInput     string            `yaml:"tool_input"` // with this input
	PromptHas     map[string]string `yaml:"prompt_has"` // role → in its last request
	PromptLacks   map[string]string `yaml:"prompt_lacks"`
	Note          string            `yaml:"note"`  // in the trace's notes
	Calls         map[string]int    `yaml:"calls"` // role → chat requests
	Profile       map[string]string `yaml:"profile"`
	Episode       string            `yaml:"episode"` // in the user's stored episode
}

// The roles of the scripted answers; each model client's model name is
// its role, so that requests say who sent them.
const (
	roleAgent   = "react_agent"
	roleEpisode = "episode" // memory_update asked for an episode summary
)

// graphDefaults and reactDefault answer every role a case does not script.
var graphDefaults = map[string]string{
	agents.RoleIntent:         "continue_conversation",
	agents.RoleAppraisal:      "neutral 0",
	agents.RoleOrchestrator:   `{"plan": []}`,
	agents.RoleContextSummary: "The person and Nadine are chatting.",
	roleEpisode:               `{"observation": "They talked.", "thought": "Nice.", "action": "Nadine answered.", "result": "They said goodbye."}`,
	agents.RoleMemoryUpdate:   `{"user_name": "", "current_company": "", "current_position": "", "location": "", "hobbies": [], "interests": []}`,
	agents.RoleSearchRouter:   `{"tool": "Google Search", "query": "search"}`,
	agents.RoleSearchAnswer:   "Nothing found.",
	agents.RoleVision:         "A person.",
	agents.RoleResponse:       "Nice to talk with you.",
	translate.Role:            "Bonjour.",
}

const reactDefault = `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 5, "action_input": "Nice to talk with you.", "category": "other", "causing_person": "human"}`

// fakeTool answers with a fixed observation and records its inputs.
type fakeTool struct {
	name, out string
	mu        sync.Mutex
	inputs    []string
}

func (f *fakeTool) Name() string        { return f.name }
func (f *fakeTool) Description() string { return "Use it for " + f.name + "." }
func (f *fakeTool) Call(_ context.Context, in nadine.ToolInput) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.inputs = append(f.inputs, in.Text)
	return f.out, nil
}

type camera struct{}

func (camera) Capture(context.Context) (nadine.Image, error) {
	b, err := os.ReadFile("../agents/testdata/camera.jpg")
	return nadine.Image{Data: b, Type: "image/jpeg"}, err
}

// TestRealisticAnswers runs the corpus of realistic answer variants: each
// case's answers go through the real engine (ReAct or graph) and the
// dialogue manager, over the OpenAI wire format; the model's reply must be
// what is spoken, and the normalized fields what the case says.
func TestRealisticAnswers(t *testing.T) {
	b, err := os.ReadFile("testdata/answers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cases []answerCase
	if err := yaml.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	roles := map[string]int{}
	for _, c := range cases {
		for r := range c.Answers {
			roles[c.Engine+":"+r]++
		}
	}
	if len(cases) < 40 {
		t.Errorf("%d cases, want at least 40", len(cases))
	}
	t.Logf("%d cases; answers per role: %v", len(cases), roles)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel() // each case has its own model server, store and engine
			runAnswerCase(t, c)
		})
	}
}

type answerRig struct {
	// phase is 0 during a case's turns before, 1 during the turn under
	// test: the case's answers are for that turn.
	phase atomic.Int32
	srv   *llmtest.Server
	store *sqlite.Store
	emb   *lexical.Embedder
	tools map[string]*fakeTool
	graph *agents.Engine
	mgr   *dialogue.Manager
}

func runAnswerCase(t *testing.T, c answerCase) {
	ctx := context.Background()
	rig := newAnswerRig(t, c)
	for _, before := range c.Before {
		if _, err := rig.mgr.Stream(ctx, nadine.Turn{Text: before}, nil); err != nil {
			t.Fatal(err)
		}
		rig.wait()
	}
	rig.phase.Store(1)
	var mu sync.Mutex
	var said []string
	tr := nadine.NewTrace("case", c.Say, time.Now())
	reply, err := rig.mgr.Stream(nadine.WithTrace(ctx, tr), nadine.Turn{Text: c.Say}, func(e nadine.Event) {
		if e.Kind == nadine.EventSpeech && !e.Filler {
			mu.Lock()
			said = append(said, e.Text)
			mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	rig.wait()
	d := tr.Snapshot()
	w := c.Want
	spoken := strings.Join(said, " ")
	if w.Said != "" && spoken != w.Said {
		t.Errorf("said %q, want %q (engine %s, failures %+v, notes %q)", spoken, w.Said, d.Engine, d.Failures, d.Notes)
	}
	if spoken != reply.Text {
		t.Errorf("said %q but the reply is %q", spoken, reply.Text)
	}
	for _, not := range w.SaidNot {
		if strings.Contains(spoken, not) {
			t.Errorf("said %q, which holds %q", spoken, not)
		}
	}
	if reply.Fallback != w.Fallback {
		t.Errorf("fallback = %v, want %v (engine %s, failures %+v)", reply.Fallback, w.Fallback, d.Engine, d.Failures)
	}
	check := func(field, got, want string) {
		if want != "" && got != want {
			t.Errorf("%s = %q, want %q (notes %q)", field, got, want, d.Notes)
		}
	}
	check("emotion", string(reply.Emotion), w.Emotion)
	check("category", string(reply.Category), w.Category)
	check("causing_person", reply.CausingPerson, w.CausingPerson)
	if w.Intensity != nil && reply.EmotionIntensity != *w.Intensity {
		t.Errorf("intensity = %d, want %d", reply.EmotionIntensity, *w.Intensity)
	}
	for _, g := range w.Gestures {
		if !slices.Contains(reply.Gestures, nadine.Gesture(g)) {
			t.Errorf("gestures = %v, want %s", reply.Gestures, g)
		}
	}
	if w.Tool != "" {
		tool := rig.tools[w.Tool]
		tool.mu.Lock()
		inputs := slices.Clone(tool.inputs)
		tool.mu.Unlock()
		if !slices.Contains(inputs, w.ToolInput) {
			t.Errorf("%s inputs = %q, want %q", w.Tool, inputs, w.ToolInput)
		}
	}
	for role, want := range w.PromptHas {
		if got := lastPrompt(rig.srv, role); !strings.Contains(got, want) {
			t.Errorf("the last %s request lacks %q:\n%s", role, want, got)
		}
	}
	for role, not := range w.PromptLacks {
		if got := lastPrompt(rig.srv, role); strings.Contains(got, not) {
			t.Errorf("the last %s request holds %q", role, not)
		}
	}
	if w.Note != "" && !slices.ContainsFunc(d.Notes, func(n string) bool { return strings.Contains(n, w.Note) }) {
		t.Errorf("notes %q, want one with %q", d.Notes, w.Note)
	}
	for role, n := range w.Calls {
		if got := countCalls(rig.srv, role); got != n {
			t.Errorf("%s calls = %d, want %d", role, got, n)
		}
	}
	if len(w.Profile) > 0 {
		checkProfile(t, rig.store, w.Profile)
	}
	if w.Episode != "" {
		checkEpisode(t, rig.store, reply.UserID, w.Episode)
	}
}

// newAnswerRig builds the engine of c and the dialogue manager over a new
// store; first, when set, adds rules before the case's and the defaults.
func newAnswerRig(t *testing.T, c answerCase, first ...func(*llmtest.Server)) *answerRig {
	t.Helper()
	ctx := context.Background()
	rig := &answerRig{srv: llmtest.New(t), emb: lexical.New(256), tools: map[string]*fakeTool{}}
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "nadine.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rig.store = st
	kb := "MIRALab is the research laboratory of Professor Nadia Magnenat Thalmann at the University of Geneva."
	v, _ := nadine.EmbedOne(ctx, rig.emb, kb)
	if err := st.AddKnowledge(ctx, []nadine.KnowledgeChunk{{Source: "kb.md", Title: "MIRALab", Text: kb, Embedder: rig.emb.Name(), Embedding: v}}); err != nil {
		t.Fatal(err)
	}
	for _, f := range first {
		f(rig.srv)
	}
	rig.script(c)
	var tools []nadine.Tool
	for name, out := range map[string]string{
		"Weather App":   "Geneva: 12 degrees Celsius, light rain.",
		"Google Search": "Lima is the capital of Peru.",
		"Google News":   "CERN announced a new collider.",
	} {
		rig.tools[name] = &fakeTool{name: name, out: out}
		tools = append(tools, rig.tools[name])
	}
	slices.SortFunc(tools, func(a, b nadine.Tool) int { return strings.Compare(a.Name(), b.Name()) })
	client := func(role string) nadine.ChatModel {
		m, err := openai.New(openai.Config{Profile: "test", BaseURL: rig.srv.URL(), Model: role, Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	var eng nadine.Engine
	switch c.Engine {
	case "react":
		e, err := react.New(react.Options{Agent: client(roleAgent), Contextualizer: client("contextualizer"), Tools: tools,
			Memories: st, Knowledge: st, Embedder: rig.emb})
		if err != nil {
			t.Fatal(err)
		}
		eng = e
	case "graph":
		opts := agents.Options{Models: client, Store: st, Embedder: rig.emb, Tools: tools, Camera: camera{}, MemoryAgents: true,
			VisionAgent: slices.Contains(c.Options, "vision"), SearchSummary: slices.Contains(c.Options, "search_summary")}
		e, err := agents.New(opts)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		rig.graph, eng = e, e
	default:
		t.Fatalf("unknown engine %q", c.Engine)
	}
	mo := dialogue.ManagerOptions{
		Engines: []nadine.Engine{eng, offline.New(offline.Options{Store: st})},
		History: dialogue.NewHistory(st, rig.emb, dialogue.HistoryOptions{}), Profiles: st,
	}
	if c.Lang.Valid() {
		mo.Language = c.Lang
	}
	if c.Session.Valid() {
		det, err := langid.New()
		if err != nil {
			t.Fatal(err)
		}
		mo.Language, mo.Detector, mo.Translator = c.Session, det, &translate.Model{Model: client(translate.Role)}
	}
	m, err := dialogue.NewManager(mo)
	if err != nil {
		t.Fatal(err)
	}
	if c.User != "" {
		id := strings.ToLower(c.User) + "-1"
		if err := st.SaveProfile(ctx, nadine.Profile{UserID: id, UserName: c.User}); err != nil {
			t.Fatal(err)
		}
		if _, err := m.SetUser(ctx, nadine.UserRef{ID: id, Name: c.User}); err != nil {
			t.Fatal(err)
		}
	}
	rig.mgr = m
	return rig
}

// script adds the case's answers, then every role's default.
func (rig *answerRig) script(c answerCase) {
	inPhase := func(r llmtest.Request) bool { return c.Always || rig.phase.Load() == 1 }
	for role, answers := range c.Answers {
		for i, a := range answers {
			rule := rig.srv.On(llmtest.MatchAll(inPhase, matchRole(role))).Reply(a)
			if i < len(answers)-1 {
				rule.Once()
			}
		}
	}
	for role, a := range graphDefaults {
		rig.srv.On(matchRole(role)).Reply(a)
	}
	rig.srv.On(matchRole(roleAgent)).Reply(reactDefault)
	rig.srv.On(matchRole("contextualizer")).ReplyFunc(func(r llmtest.Request) string { return r.LastUser() })
}

// matchRole matches the requests of a role (episodes and profile
// extraction share the memory_update model).
func matchRole(role string) llmtest.Matcher {
	episode := llmtest.MatchSystem("episodic memory")
	switch role {
	case roleEpisode:
		return llmtest.MatchAll(llmtest.MatchModel(agents.RoleMemoryUpdate), episode)
	case agents.RoleMemoryUpdate:
		return llmtest.MatchAll(llmtest.MatchModel(role), func(r llmtest.Request) bool { return !episode(r) })
	}
	return llmtest.MatchModel(role)
}

func (rig *answerRig) wait() {
	if rig.graph != nil {
		rig.graph.Wait()
	}
}

func lastPrompt(srv *llmtest.Server, role string) string {
	m := matchRole(role)
	var last string
	for _, r := range srv.ChatRequests() {
		if m(r) {
			var b strings.Builder
			for _, msg := range r.Messages {
				b.WriteString(msg.Content + "\n")
			}
			last = b.String()
		}
	}
	return last
}

func countCalls(srv *llmtest.Server, role string) int {
	m := matchRole(role)
	n := 0
	for _, r := range srv.ChatRequests() {
		if m(r) {
			n++
		}
	}
	return n
}

func checkProfile(t *testing.T, st *sqlite.Store, want map[string]string) {
	t.Helper()
	ctx := context.Background()
	users, err := st.Users(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		if u.Name != want["user_name"] {
			continue
		}
		p, err := st.Profile(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{"user_name": p.UserName, "location": p.Location, "current_company": p.CurrentCompany,
			"current_position": p.CurrentPosition, "hobbies": strings.Join(p.Hobbies, ", "), "interests": strings.Join(p.Interests, ", ")}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("profile %s = %q, want %q", k, got[k], v)
			}
		}
		return
	}
	t.Errorf("no profile named %q among %+v", want["user_name"], users)
}

func checkEpisode(t *testing.T, st *sqlite.Store, userID, want string) {
	t.Helper()
	eps, err := st.Memories(context.Background(), userID, nadine.MemoryEpisode)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range eps {
		if strings.Contains(e.Text, want) {
			return
		}
	}
	t.Errorf("episodes of %s: %+v, want one with %q", userID, eps, want)
}
