package agents_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/lexical"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/sqlite"
)

// group is how visited shows the parallel group of a turn.
const group = "understand(affective_appraisal intention_classifier memory_retrieve_agent orchestrator)"

// harness runs the engine against llmtest and a real SQLite store, and
// plays the dialogue manager's part: it keeps the session (user, language,
// conversation window) and adopts EventUser and EventLanguage.
type harness struct {
	t     *testing.T
	srv   *llmtest.Server
	dir   string
	store *sqlite.Store
	emb   *lexical.Embedder
	opts  agents.Options
	eng   *agents.Engine
	now   time.Time
	gate  *gate

	user    nadine.UserRef
	lang    nadine.Language
	conv    string
	history []nadine.Message
	session nadine.Session // the engine's part of the session, as the manager keeps it

	mu     sync.Mutex
	events []nadine.Event

	// async leaves the engine's background work running after a turn,
	// as a robot whose person answers at once does.
	async bool
}

// newHarness returns a harness whose engine is not started yet: script
// the test's answers, then call start (which adds the default answers
// after them). edit adjusts the options.
func newHarness(t *testing.T, edit ...func(*agents.Options)) *harness {
	t.Helper()
	h := &harness{
		t:    t,
		srv:  llmtest.New(t),
		dir:  t.TempDir(),
		emb:  lexical.New(256),
		now:  time.Date(2026, 11, 30, 14, 5, 0, 0, time.UTC),
		gate: &gate{},
		user: nadine.UserRef{ID: nadine.UnknownUser},
		lang: nadine.English,
		conv: "conv-1",
	}
	h.openStore()
	h.opts = agents.Options{
		Models:       h.models,
		Store:        h.store,
		Embedder:     h.emb,
		MemoryAgents: true,
		VisionAgent:  true,
		Speculate:    true, // as features.speculate's default
		Now:          func() time.Time { return h.now },
		NewUserID:    func(name string) string { return strings.ToLower(strings.ReplaceAll(name, " ", "-")) + "-new" },
	}
	for _, e := range edit {
		e(&h.opts)
	}
	return h
}

func (h *harness) openStore() {
	h.t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(h.dir, "nadine.db"), sqlite.Options{Now: func() time.Time { return h.now }})
	if err != nil {
		h.t.Fatal(err)
	}
	h.store = st
	h.t.Cleanup(func() { st.Close() })
}

// models gives each role its own client whose model is the role's name, so
// that requests tell which role sent them. The roles of the parallel group
// (and the response, which may start beside it) go through the gate.
func (h *harness) models(role string) nadine.ChatModel {
	cfg := openai.Config{BaseURL: h.srv.URL(), Model: role, Profile: "small"}
	switch role {
	case agents.RoleIntent, agents.RoleAppraisal, agents.RoleOrchestrator, agents.RoleResponse:
		cfg.HTTPClient = &http.Client{Transport: h.gate}
	}
	c, err := openai.New(cfg)
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

// start adds the default answers of every role and builds the engine.
func (h *harness) start() *harness {
	h.t.Helper()
	h.defaults()
	h.newEngine()
	return h
}

func (h *harness) defaults() {
	s := h.srv
	s.On(llmtest.MatchModel(agents.RoleIntent)).Reply("continue_conversation")
	s.On(llmtest.MatchModel(agents.RoleAppraisal)).Reply(`{"emotion":"neutral","intensity":0}`)
	s.On(llmtest.MatchModel(agents.RoleOrchestrator)).Reply(`{"plan":[]}`)
	s.On(llmtest.MatchModel(agents.RoleContextSummary)).Reply("The user and Nadine are chatting.")
	s.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleMemoryUpdate), llmtest.MatchSystem("episodic memory"))).
		Reply(`{"observation":"They talked.","thought":"Nadine enjoyed it.","action":"Nadine answered.","result":"They said goodbye."}`)
	s.On(llmtest.MatchModel(agents.RoleMemoryUpdate)).
		Reply(`{"user_name":"","current_company":"","current_position":"","location":"","hobbies":[],"interests":[]}`)
	s.On(llmtest.MatchModel(agents.RoleResponse)).Reply("Nice to talk with you.")
}

func (h *harness) newEngine() {
	h.t.Helper()
	eng, err := agents.New(h.opts)
	if err != nil {
		h.t.Fatal(err)
	}
	h.eng = eng
	h.t.Cleanup(func() { eng.Close() })
}

// restart closes the engine and the store and opens new ones over the same
// database file, as after a process restart.
func (h *harness) restart() {
	h.t.Helper()
	if err := h.eng.Close(); err != nil {
		h.t.Fatal(err)
	}
	if err := h.store.Close(); err != nil {
		h.t.Fatal(err)
	}
	h.openStore()
	h.opts.Store = h.store
	h.newEngine()
}

// as makes perception recognize a user.
func (h *harness) as(id, name string) *harness {
	h.user = nadine.UserRef{ID: id, Name: name}
	return h
}

// turn runs one turn like the dialogue manager and returns the reply and
// the finished trace. It waits for the engine's background work, so that
// tests stay deterministic.
func (h *harness) turn(text string) (nadine.Reply, nadine.TraceData) {
	h.t.Helper()
	r, tr, err := h.try(text)
	if err != nil {
		h.t.Fatalf("turn %q: %v", text, err)
	}
	return r, tr
}

func (h *harness) try(text string) (nadine.Reply, nadine.TraceData, error) {
	h.t.Helper()
	h.mu.Lock()
	h.events = nil
	h.mu.Unlock()
	h.now = h.now.Add(time.Minute)
	trace := nadine.NewTrace("t", text, time.Now())
	ctx := nadine.WithTrace(context.Background(), trace)
	// The turn's events go through a dialogue Output, as in the manager's
	// turn: it holds a speculation's until its verdict. The session's
	// changes are applied (here: recorded), the rest published.
	record := func(ev nadine.Event) {
		h.mu.Lock()
		h.events = append(h.events, ev)
		h.mu.Unlock()
	}
	out := dialogue.NewOutput(ctx, dialogue.OutputOptions{Language: h.lang, To: record, Apply: func(ev nadine.Event) {
		if ev.Kind == nadine.EventSession {
			record(ev)
		}
	}})
	req := out.Bind(nadine.Request{
		Turn:           nadine.Turn{Text: text, Language: h.lang, UserID: h.user.ID, UserName: h.user.Name, Time: h.now},
		ConversationID: h.conv,
		History:        slices.Clone(h.history),
		Session:        h.sessionNow(),
	})
	// A forget request is the manager's (the Output passes it on to no
	// one): it is recorded as the engine emits it.
	bound := req.Emit
	req.Emit = func(ev nadine.Event) {
		if ev.Kind == nadine.EventForgetRequest {
			record(ev)
		}
		bound(ev)
	}
	reply, err := h.eng.Respond(ctx, req)
	out.Close()
	trace.Finish(time.Now())
	if !h.async {
		h.eng.Wait()
	}
	if err != nil {
		return reply, trace.Snapshot(), err
	}
	for _, ev := range h.emitted() {
		switch ev.Kind {
		case nadine.EventUser:
			h.user = *ev.User
		case nadine.EventLanguage:
			h.lang = ev.Language
		case nadine.EventSession:
			h.applySession(*ev.Session)
		}
	}
	h.history = append(h.history,
		nadine.Message{Role: nadine.RoleUser, Content: text, Name: h.user.Name, Time: h.now.Unix()},
		nadine.Message{Role: nadine.RoleAssistant, Content: reply.Text, Name: "Nadine", Time: h.now.Unix()})
	return reply, trace.Snapshot(), nil
}

// sessionNow is the session a request carries.
func (h *harness) sessionNow() nadine.Session {
	s := h.session
	s.User, s.Language, s.ConversationID = h.user, h.lang, h.conv
	return s
}

// applySession applies an EventSession as the dialogue manager does.
func (h *harness) applySession(u nadine.SessionUpdate) {
	if len(u.Affect) > 0 {
		h.session.Affect = u.Affect
	}
	switch {
	case string(u.Engine) == "null":
		h.session.Engine = nil
	case len(u.Engine) > 0:
		h.session.Engine = u.Engine
	}
	if u.Greeted != "" {
		h.session.Greeted = u.Greeted
	}
}

// endInteraction resets the session as the dialogue manager does when
// the person leaves: the next person starts fresh; Nadine's mood stays.
func (h *harness) endInteraction() {
	h.session = nadine.Session{Affect: h.session.Affect}
	h.user = nadine.UserRef{ID: nadine.UnknownUser}
	h.history = nil
	h.conv += "+"
}

func (h *harness) emitted() []nadine.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.events)
}

// eventsOf returns the last turn's events of a kind.
func (h *harness) eventsOf(kind nadine.EventKind) []nadine.Event {
	var out []nadine.Event
	for _, ev := range h.emitted() {
		if ev.Kind == kind {
			out = append(out, ev)
		}
	}
	return out
}

// spoken joins the last turn's speech events.
func (h *harness) spoken() string {
	var parts []string
	for _, ev := range h.eventsOf(nadine.EventSpeech) {
		parts = append(parts, ev.Text)
	}
	return strings.Join(parts, " ")
}

// requests returns the chat requests a role's model received.
func (h *harness) requests(role string) []llmtest.Request {
	var out []llmtest.Request
	for _, r := range h.srv.ChatRequests() {
		if r.Model == role {
			out = append(out, r)
		}
	}
	return out
}

// lastRequest returns the last request of a role, failing without one.
func (h *harness) lastRequest(role string) llmtest.Request {
	h.t.Helper()
	rs := h.requests(role)
	if len(rs) == 0 {
		h.t.Fatalf("the %s model received no request", role)
	}
	return rs[len(rs)-1]
}

// plannedRequest returns the last request of role whose last user message
// holds marker, a result only the plan's steps give: a speculative response
// started on the empty plan's inputs may reach the server after the planned
// one when the machine is loaded, so the last request is not always it.
func (h *harness) plannedRequest(role, marker string) llmtest.Request {
	h.t.Helper()
	rs := h.requests(role)
	for i := len(rs) - 1; i >= 0; i-- {
		if strings.Contains(rs[i].LastUser(), marker) {
			return rs[i]
		}
	}
	var packets []string
	for _, r := range rs {
		packets = append(packets, r.LastUser())
	}
	h.t.Fatalf("no %s request holds %q; their last user messages: %q", role, marker, packets)
	return llmtest.Request{}
}

// allText returns everything every chat request carried.
func (h *harness) allText() string {
	var b strings.Builder
	for _, r := range h.srv.ChatRequests() {
		for _, m := range r.Messages {
			b.WriteString(m.Content)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func (h *harness) saveProfile(p nadine.Profile) {
	h.t.Helper()
	if err := h.store.SaveProfile(context.Background(), p); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) profile(id string) nadine.Profile {
	h.t.Helper()
	p, err := h.store.Profile(context.Background(), id)
	if err != nil {
		h.t.Fatalf("profile %s: %v", id, err)
	}
	return p
}

func (h *harness) addMemory(userID string, typ nadine.MemoryType, text string) {
	h.t.Helper()
	_, err := h.store.AddMemory(context.Background(), nadine.Memory{UserID: userID, Type: typ, Text: text,
		Embedder: h.emb.Name(), Embedding: h.emb.Vector(text)})
	if err != nil {
		h.t.Fatal(err)
	}
}

// visited lists the nodes of a trace in order; the members of a parallel
// group (which finish in any order) are sorted inside the group's entry,
// and an interrupted node is marked.
func visited(tr nadine.TraceData) []string {
	var out, members []string
	for _, st := range tr.Steps {
		name := st.Name
		if strings.Contains(st.Detail, "interrupted") {
			name += "(interrupted)"
		}
		switch {
		case strings.HasPrefix(st.Detail, "in parallel group"):
			members = append(members, name)
		case strings.HasPrefix(st.Detail, "parallel group"):
			sort.Strings(members)
			out = append(out, name+"("+strings.Join(members, " ")+")")
			members = nil
		default:
			out = append(out, name)
		}
	}
	return out
}

// callRoles lists the roles of a trace's model calls, sorted.
func callRoles(tr nadine.TraceData) []string {
	var out []string
	for _, c := range tr.ModelCalls {
		out = append(out, c.Role)
	}
	sort.Strings(out)
	return out
}

func checkVisited(t *testing.T, tr nadine.TraceData, want ...string) {
	t.Helper()
	if got := visited(tr); !slices.Equal(got, want) {
		t.Errorf("visited:\n got %q\nwant %q", got, want)
	}
}

func hasNote(tr nadine.TraceData, substr string) bool {
	return slices.ContainsFunc(tr.Notes, func(n string) bool { return strings.Contains(n, substr) })
}

func hasFailure(tr nadine.TraceData, stage string) bool {
	return slices.ContainsFunc(tr.Failures, func(f nadine.Failure) bool { return f.Stage == stage })
}

// gate holds the requests that pass through it until n of them wait, then
// lets them all go: calls that the graph runs side by side then overlap in
// time for sure, whatever the scheduler does. It is open until armed.
type gate struct {
	mu      sync.Mutex
	n       int
	arrived int
	open    chan struct{}
}

func (g *gate) arm(n int) {
	g.mu.Lock()
	g.n, g.arrived, g.open = n, 0, make(chan struct{})
	g.mu.Unlock()
}

func (g *gate) RoundTrip(r *http.Request) (*http.Response, error) {
	g.mu.Lock()
	open := g.open
	if open != nil {
		g.arrived++
		if g.arrived == g.n {
			close(open)
			g.open = nil
		}
	}
	g.mu.Unlock()
	if open != nil {
		select {
		case <-open:
		case <-time.After(10 * time.Second): // a missing caller shows up as a failed assertion
		case <-r.Context().Done():
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

// fakeTool is a search tool that records its inputs.
type fakeTool struct {
	name, out string
	mu        sync.Mutex
	inputs    []string
}

func (f *fakeTool) Name() string        { return f.name }
func (f *fakeTool) Description() string { return "Use it for " + f.name + "." }
func (f *fakeTool) Call(_ context.Context, in nadine.ToolInput) (string, error) {
	f.mu.Lock()
	f.inputs = append(f.inputs, in.Text)
	f.mu.Unlock()
	return f.out, nil
}

func (f *fakeTool) calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.inputs)
}

// camera returns the test JPEG.
type camera struct{ path string }

func (c camera) Capture(context.Context) (nadine.Image, error) { return readJPEG(c.path) }

// readJPEG reads a test picture as the camera gives it.
func readJPEG(path string) (nadine.Image, error) {
	b, err := os.ReadFile(path)
	return nadine.Image{Data: b, Type: "image/jpeg"}, err
}

func (h *harness) profileOf(id, name string) nadine.Profile {
	return nadine.Profile{UserID: id, UserName: name}
}
