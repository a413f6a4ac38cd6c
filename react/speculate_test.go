package react_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/fence"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/react"
	"github.com/nadine-robot/nadine/sqlite"
)

// specFixture serves the contextualizer from its own scripted server, so
// that its answer can wait on what the agent's server receives (a rule's
// reply function runs under its server's lock).
type specFixture struct {
	srv, ctxSrv *llmtest.Server
	store       *sqlite.Store
	emb         nadine.Embedder
	agent       *watchedModel
	ctxModel    nadine.ChatModel
	tool        *hookTool
	checked     chan struct{} // closed once the test has looked for leftovers
}

// watchedModel wraps the agent's client: it counts the calls in progress
// and closes ended when the first call returns. A cancelled call runs
// lingering, when set, before it returns, like a client slow to notice.
type watchedModel struct {
	nadine.ChatModel
	active    atomic.Int32
	once      sync.Once
	ended     chan struct{}
	lingering func()
}

func (w *watchedModel) ChatStream(ctx context.Context, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
	w.active.Add(1)
	defer func() {
		w.active.Add(-1)
		w.once.Do(func() { close(w.ended) })
	}()
	resp, err := w.ChatModel.ChatStream(ctx, req, onDelta)
	if ctx.Err() != nil && w.lingering != nil {
		w.lingering()
	}
	return resp, err
}

// hookTool is the Weather App with a hook run on each call.
type hookTool struct {
	mu     sync.Mutex
	inputs []string
	hook   func()
}

func (h *hookTool) Name() string        { return "Weather App" }
func (h *hookTool) Description() string { return "Use it for the current weather. Input: City,CC." }
func (h *hookTool) Call(_ context.Context, in nadine.ToolInput) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.inputs = append(h.inputs, in.Text)
	if h.hook != nil {
		h.hook()
	}
	return "Tell the human: 14 degrees Celsius and sunny in Geneva tomorrow.", nil
}

func (h *hookTool) calls() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.inputs...)
}

func newSpecFixture(t *testing.T) *specFixture {
	t.Helper()
	srv, ctxSrv := llmtest.New(t), llmtest.New(t)
	agent, err := openai.New(openai.Config{Profile: "default", BaseURL: srv.URL(), Model: "agent-model", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctxModel, err := openai.New(openai.Config{Profile: "small", BaseURL: ctxSrv.URL(), Model: "ctx-model", Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	emb, err := openai.NewEmbedder(openai.EmbedderConfig{Profile: "default", BaseURL: srv.URL(), Model: "embed-model"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "nadine.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &specFixture{srv: srv, ctxSrv: ctxSrv, store: st, emb: emb, ctxModel: ctxModel, tool: &hookTool{},
		agent: &watchedModel{ChatModel: agent, ended: make(chan struct{})}}
}

// engine builds an engine over the fixture; memoryK 0 is the default (5).
func (f *specFixture) engine(t *testing.T, speculate bool, memoryK int) *react.Engine {
	t.Helper()
	eng, err := react.New(react.Options{
		Agent: f.agent, Contextualizer: f.ctxModel, Tools: []nadine.Tool{f.tool},
		Memories: f.store, Knowledge: f.store, Embedder: f.emb, MemoryK: memoryK, Speculate: speculate,
	})
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

func (f *specFixture) addMemory(t *testing.T, text string) {
	t.Helper()
	ctx := context.Background()
	v, err := nadine.EmbedOne(ctx, f.emb, text)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.AddMemory(ctx, nadine.Memory{UserID: "alex-1", Type: nadine.MemoryConversation, Text: text, Time: time.Now(), Embedder: f.emb.Name(), Embedding: v}); err != nil {
		t.Fatal(err)
	}
}

func (f *specFixture) addKnowledge(t *testing.T, text string) {
	t.Helper()
	ctx := context.Background()
	v, err := nadine.EmbedOne(ctx, f.emb, text)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.store.AddKnowledge(ctx, []nadine.KnowledgeChunk{{Source: "kb.md", Title: "t", Text: text, Embedder: f.emb.Name(), Embedding: v}}); err != nil {
		t.Fatal(err)
	}
}

// embedded returns the texts embedded so far, in order.
func (f *specFixture) embedded() []string {
	var out []string
	for _, e := range f.srv.EmbeddingRequests() {
		out = append(out, e.Input...)
	}
	return out
}

// agentRequests returns the agent's chat requests received so far.
func (f *specFixture) agentRequests() []llmtest.Request {
	var out []llmtest.Request
	for _, r := range f.srv.ChatRequests() {
		if r.Model == "agent-model" {
			out = append(out, r)
		}
	}
	return out
}

var specHistory = []nadine.Message{
	{Role: nadine.RoleUser, Content: "What is the weather in Geneva?", Name: "Alex"},
	{Role: nadine.RoleAssistant, Content: "It is 12 degrees with light rain in Geneva.", Name: "Nadine"},
}

func respondWith(t *testing.T, eng *react.Engine, text string, history []nadine.Message) (nadine.Reply, *events, *nadine.Trace) {
	t.Helper()
	ev := &events{}
	tr := nadine.NewTrace("t", text, time.Now())
	ctx := nadine.WithTrace(context.Background(), tr)
	req, wait := withOutput(ctx, ev.emit, nadine.Request{
		Turn: nadine.Turn{Text: text, Language: nadine.English, UserID: "alex-1", UserName: "Alex",
			Time: time.Date(2026, 11, 30, 14, 5, 0, 0, time.UTC)},
		History: history,
	})
	r, err := eng.Respond(ctx, req)
	wait()
	if err != nil {
		t.Fatalf("Respond(%q): %v", text, err)
	}
	return r, ev, tr
}

// await waits for ch, failing the test rather than hanging when the engine
// does not do what the test waits for.
func await(t *testing.T, ch <-chan struct{}, what string) {
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Errorf("timed out waiting for %s", what)
	}
}

// summary lists a turn's events as comparable strings.
func (e *events) summary() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, x := range e.ev {
		s := string(x.Kind) + ":" + x.Text + string(x.Gesture)
		if x.Affect != nil {
			s += fmt.Sprintf("%s/%.1f", x.Affect.Label, x.Affect.Intensity)
		}
		out = append(out, s)
	}
	return out
}

// modelCall returns the trace's only call by role.
func modelCall(t *testing.T, d nadine.TraceData, role string) nadine.ModelCall {
	t.Helper()
	var found []nadine.ModelCall
	for _, c := range d.ModelCalls {
		if c.Role == role {
			found = append(found, c)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d %s calls in the trace, want 1", len(found), role)
	}
	return found[0]
}

func step(d nadine.TraceData, name string) (nadine.Step, bool) {
	for _, s := range d.Steps {
		if s.Name == name {
			return s, true
		}
	}
	return nadine.Step{}, false
}

// speculating reports whether a goroutine of the speculative branch is
// alive.
func speculating() bool {
	buf := make([]byte, 1<<20)
	n := runtime.Stack(buf, true)
	return strings.Contains(string(buf[:n]), "react.(*Engine).speculate")
}

// eventually polls cond for a while: a goroutine that has signalled its
// end may still be on its way out.
func eventually(cond func() bool) bool {
	for range 500 {
		if cond() {
			return true
		}
		time.Sleep(2 * time.Millisecond)
	}
	return false
}

const standalone = "What will the weather be in Geneva tomorrow?"

// TestSpeculationKept: the raw input and the standalone question retrieve
// the same texts (one memory, one chunk), so the agent call started before
// the contextualizer answered is kept, and the turn sounds exactly as it
// does without speculation.
func TestSpeculationKept(t *testing.T) {
	f := newSpecFixture(t)
	f.addMemory(t, "[2026-11-29 10:00:00] Alex: I love skiing in Verbier.")
	f.addKnowledge(t, "Geneva weather is mild in autumn.")
	agentRule := llmtest.MatchAll(llmtest.MatchModel("agent-model"), llmtest.MatchLastUser("HUMAN'S INPUT\nAnd tomorrow?"))
	reply := answer("joy", 6, "Tomorrow will be sunny in Geneva. Perfect weather for a walk by the lake, Alex!", "information request", "Alex")

	// The same turn without speculation.
	f.ctxSrv.On(nil).Once().Reply(standalone)
	f.srv.On(agentRule).Once().Delay(time.Millisecond).Reply(reply)
	want, wantEv, _ := respondWith(t, f.engine(t, false, 0), "And tomorrow?", specHistory)
	wantPrompt := f.agentRequests()[0].Messages

	// With speculation, the contextualizer answers only once the agent's
	// request has arrived: a turn that waited for it would time out here.
	arrived := make(chan struct{})
	f.ctxSrv.On(nil).Once().ReplyFunc(func(llmtest.Request) string {
		await(t, arrived, "the agent request before the contextualizer's answer")
		return standalone
	})
	f.srv.On(agentRule).Once().Delay(time.Millisecond).ReplyFunc(func(llmtest.Request) string {
		close(arrived)
		return reply
	})
	got, gotEv, tr := respondWith(t, f.engine(t, true, 0), "And tomorrow?", specHistory)

	if !reflect.DeepEqual(got, want) {
		t.Errorf("reply = %+v, want %+v", got, want)
	}
	if g, w := gotEv.summary(), wantEv.summary(); !reflect.DeepEqual(g, w) {
		t.Errorf("events = %q, want %q", g, w)
	}
	reqs := f.agentRequests()
	if len(reqs) != 2 {
		t.Fatalf("agent calls = %d, want 1 per turn", len(reqs))
	}
	if !reflect.DeepEqual(reqs[1].Messages, wantPrompt) {
		t.Errorf("speculative prompt differs from the plain one")
	}
	d := tr.Snapshot()
	if !contains(d.Notes, "speculative agent call kept") {
		t.Errorf("notes = %q", d.Notes)
	}
	if s, ok := step(d, "speculate"); !ok || s.Detail != "kept" {
		t.Errorf("speculate step = %+v, %v", s, ok)
	}
	if sp := d.Speculations; len(sp) != 1 || sp[0].Kind != nadine.SpeculateAgent || !sp[0].Kept || sp[0].PromptTokens != 0 {
		t.Errorf("speculations = %+v, want one agent call kept, at no extra cost", sp)
	}
	ctxCall, agentCall := modelCall(t, d, "contextualizer"), modelCall(t, d, "react_agent")
	if !agentCall.Start.Before(ctxCall.Start.Add(ctxCall.Latency)) {
		t.Errorf("the agent call did not start before the contextualizer ended")
	}
	// Each call and search hangs from the step it ran in: the kept call
	// from its agent:1 step, made in the speculation's.
	spec, _ := step(d, "speculate")
	ctxStep, _ := step(d, "contextualize")
	agentStep, _ := step(d, "agent:1")
	retrieve, _ := step(d, "speculate:retrieve")
	if ctxCall.Step == 0 || ctxCall.Step != ctxStep.ID || agentCall.Step == 0 || agentCall.Step != agentStep.ID ||
		agentStep.Parent != spec.ID || retrieve.Parent != spec.ID || spec.ID == 0 {
		t.Errorf("steps %+v, calls %+v: want the contextualizer's call in contextualize, the agent's in agent:1, agent:1 and speculate:retrieve in speculate", d.Steps, d.ModelCalls)
	}
	plain, _ := step(d, "retrieve") // the standalone question's
	in := map[int]int{}
	for _, r := range d.Retrievals {
		in[r.Step]++
	}
	if in[retrieve.ID] != 2 || in[plain.ID] != 2 || plain.Parent != 0 || len(d.Retrievals) != 4 {
		t.Errorf("retrievals by step %v, want 2 in speculate:retrieve (%d), 2 in retrieve (%d)", in, retrieve.ID, plain.ID)
	}
}

// TestSpeculationDiscarded: with one memory in the prompt, the raw input
// and the standalone question retrieve different memories, so the
// speculative call is cancelled, nothing of it is heard, and a second call
// answers on the standalone question's prompt.
func TestSpeculationDiscarded(t *testing.T) {
	const (
		raw    = "Do you still go skiing in Verbier?"
		cat    = "What is the name of your cat?"
		heard  = "Felix is still my favourite name. How is he?"
		unsaid = "SPECULATIVE words. Never heard."
	)
	tests := []struct {
		name string
		// speculative scripts the speculative call's rule; the
		// contextualizer answers once wait is closed.
		speculative func(f *specFixture, r *llmtest.Rule) (wait <-chan struct{})
		wantError   bool // the speculative call was cut short
	}{
		{"answer held", func(f *specFixture, r *llmtest.Rule) <-chan struct{} {
			r.Reply(answer("fear", 9, unsaid, "insult", "Alex"))
			return f.agent.ended
		}, false},
		{"call in flight", func(f *specFixture, r *llmtest.Rule) <-chan struct{} {
			// The cancelled call returns only once the test has looked
			// (or after a while, when Respond rightly waits for it).
			checked := make(chan struct{})
			f.checked = checked
			f.agent.lingering = func() {
				select {
				case <-checked:
				case <-time.After(200 * time.Millisecond):
				}
			}
			arrived := make(chan struct{})
			r.ReplyFunc(func(llmtest.Request) string { close(arrived); return answer("fear", 9, unsaid, "insult", "Alex") }).Hang()
			return arrived
		}, true},
		{"tool call", func(f *specFixture, r *llmtest.Rule) <-chan struct{} {
			r.Reply(`{"action": "Weather App", "action_input": "Verbier,CH"}`)
			return f.agent.ended
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newSpecFixture(t)
			f.addMemory(t, raw)
			f.addMemory(t, cat)
			wait := tt.speculative(f, f.srv.On(llmtest.MatchAll(llmtest.MatchModel("agent-model"), llmtest.MatchLastUser(memoryAt+raw))).Once())
			f.srv.On(llmtest.MatchAll(llmtest.MatchModel("agent-model"), llmtest.MatchLastUser(memoryAt+cat))).Once().
				Reply(answer("joy", 6, heard, "information request", "Alex"))
			f.ctxSrv.On(nil).Once().ReplyFunc(func(llmtest.Request) string {
				await(t, wait, "the speculative call")
				return cat
			})

			r, ev, tr := respondWith(t, f.engine(t, true, 1), raw, specHistory)

			if f.agent.active.Load() != 0 {
				t.Errorf("Respond returned before the speculative call ended")
			}
			if f.checked != nil {
				close(f.checked)
			}
			if !eventually(func() bool { return !speculating() }) {
				t.Errorf("the speculative goroutine outlived the turn")
			}
			if r.Text != heard || r.Emotion != nadine.Joy {
				t.Errorf("reply = %+v", r)
			}
			// The speech ends with the reply text; the emotion follows.
			wantEv := []string{"speech:Felix is still my favourite name.", "speech:How is he?", "speech_end:", "affect:joy/0.6"}
			if got := ev.summary(); !reflect.DeepEqual(got, wantEv) {
				t.Errorf("events = %q, want %q", got, wantEv)
			}
			if got := f.tool.calls(); len(got) != 0 {
				t.Errorf("the discarded speculation's tool ran: %q", got)
			}
			reqs := f.agentRequests()
			if len(reqs) != 2 {
				t.Fatalf("agent calls = %d, want 2", len(reqs))
			}
			// Whatever order they arrived in, one prompt carried each memory.
			var prompts []string
			for _, q := range reqs {
				prompts = append(prompts, q.LastUser())
			}
			if !strings.Contains(strings.Join(prompts, "\n"), memoryAt+raw) || !strings.Contains(strings.Join(prompts, "\n"), memoryAt+cat) {
				t.Errorf("the two calls did not retrieve different memories")
			}
			d := tr.Snapshot()
			if !contains(d.Notes, "speculative agent call discarded: the standalone question retrieved other texts") {
				t.Errorf("notes = %q", d.Notes)
			}
			if s, ok := step(d, "speculate"); !ok || s.Detail != "discarded: retrieval differed" {
				t.Errorf("speculate step = %+v, %v", s, ok)
			}
			if sp := d.Speculations; len(sp) != 1 || sp[0].Kept || sp[0].PromptTokens < 100 || sp[0].Reason == "" {
				t.Errorf("speculations = %+v, want one discarded agent call with its prompt's cost", sp)
			}
			var agentCalls, failed int
			for _, c := range d.ModelCalls {
				if c.Role == "react_agent" {
					agentCalls++
					if c.Error != "" {
						failed++
					}
				}
			}
			if agentCalls != 2 || (failed == 1) != tt.wantError {
				t.Errorf("react_agent calls in the trace = %d (%d failed), want 2 (cut short: %v)", agentCalls, failed, tt.wantError)
			}
		})
	}
}

// TestSpeculativeToolCallWaitsForConfirmation: a kept speculation that asks
// for a tool runs it once, and only after the contextualizer has answered
// and the retrieval compared equal.
func TestSpeculativeToolCallWaitsForConfirmation(t *testing.T) {
	f := newSpecFixture(t)
	f.addMemory(t, "[2026-11-29 10:00:00] Alex: I love skiing in Verbier.")
	var answered, ranAfter atomic.Bool
	f.tool.hook = func() { ranAfter.Store(answered.Load()) }
	f.srv.On(llmtest.MatchLastUser("TOOL RESULT (Weather App)")).Once().
		Reply(answer("joy", 5, "Tomorrow will be sunny, 14 degrees.", "information request", "Alex"))
	f.srv.On(llmtest.MatchModel("agent-model")).Once().Reply(`{"action": "Weather App", "action_input": "Geneva,CH"}`)
	f.ctxSrv.On(nil).Once().ReplyFunc(func(llmtest.Request) string {
		await(t, f.agent.ended, "the speculative call")
		answered.Store(true)
		return standalone
	})
	r, _, tr := respondWith(t, f.engine(t, true, 0), "And tomorrow?", specHistory)
	if got := f.tool.calls(); len(got) != 1 || got[0] != "Geneva,CH" {
		t.Fatalf("tool calls = %q, want [Geneva,CH]", got)
	}
	if !ranAfter.Load() {
		t.Errorf("the tool ran before the speculation was confirmed")
	}
	if r.Text != "Tomorrow will be sunny, 14 degrees." {
		t.Errorf("reply = %+v", r)
	}
	if d := tr.Snapshot(); !contains(d.Notes, "speculative agent call kept") {
		t.Errorf("notes = %q", d.Notes)
	}
}

// TestSpeculationContextualizerFails: without a standalone question the raw
// input is the query, so the speculation is kept and nothing is retrieved
// twice.
func TestSpeculationContextualizerFails(t *testing.T) {
	f := newSpecFixture(t)
	f.addMemory(t, "[2026-11-29 10:00:00] Alex: I love skiing in Verbier.")
	f.addMemory(t, "[2026-11-29 10:01:00] Alex: My cat is called Felix.")
	f.ctxSrv.On(nil).Fail(400).Message("bad request")
	f.srv.On(llmtest.MatchModel("agent-model")).Once().Reply(answer("joy", 5, "Tomorrow looks sunny.", "information request", "Alex"))
	r, ev, tr := respondWith(t, f.engine(t, true, 1), "And tomorrow?", specHistory)
	if r.Text != "Tomorrow looks sunny." {
		t.Errorf("reply = %+v", r)
	}
	if sp := ev.kinds(nadine.EventSpeech); len(sp) != 1 || sp[0].Text != "Tomorrow looks sunny." {
		t.Errorf("speech = %+v", sp)
	}
	d := tr.Snapshot()
	if !contains(d.Notes, "speculative agent call kept") {
		t.Errorf("notes = %q", d.Notes)
	}
	if len(d.Failures) != 1 || d.Failures[0].Stage != "contextualize" {
		t.Errorf("failures = %+v, want the contextualizer's", d.Failures)
	}
	if n := len(f.agentRequests()); n != 1 {
		t.Errorf("agent calls = %d, want 1", n)
	}
	embedded := f.embedded()
	// Two memories were embedded when stored, then the turn's one query.
	if len(embedded) != 3 || embedded[2] != "And tomorrow?" {
		t.Errorf("embedded %q, want one query, the raw input", embedded)
	}
}

// TestNoSpeculationWithoutItsConditions: speculation needs history (so that
// the contextualizer runs), a contextualizer and retrieval; otherwise the
// turn is as before.
func TestNoSpeculationWithoutItsConditions(t *testing.T) {
	tests := []struct {
		name      string
		history   []nadine.Message
		configure func(*react.Options)
		ctxCalls  int
	}{
		{"no history", nil, nil, 0},
		{"no contextualizer", specHistory, func(o *react.Options) { o.Contextualizer = nil }, 0},
		{"no retrieval", specHistory, func(o *react.Options) { o.Embedder = nil }, 0}, // nothing would use the rewrite
		{"not enabled", specHistory, func(o *react.Options) { o.Speculate = false }, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, func(o *react.Options) {
				o.Speculate = true
				if tt.configure != nil {
					tt.configure(o)
				}
			})
			f.srv.On(llmtest.MatchModel("ctx-model")).Reply(standalone)
			f.srv.On(llmtest.MatchModel("agent-model")).Reply(answer("joy", 5, "Sunny.", "other", "Alex"))
			r, _, tr := f.respond(t, "And tomorrow?", tt.history)
			if r.Text != "Sunny." {
				t.Errorf("reply = %+v", r)
			}
			d := tr.Snapshot()
			if _, ok := step(d, "speculate"); ok {
				t.Errorf("speculated")
			}
			var ctxCalls int
			for _, c := range d.ModelCalls {
				if c.Role == "contextualizer" {
					ctxCalls++
				}
			}
			if ctxCalls != tt.ctxCalls {
				t.Errorf("contextualizer calls = %d, want %d", ctxCalls, tt.ctxCalls)
			}
		})
	}
}

// memoryAt is what precedes the first memory in the agent's prompt.
var memoryAt = fence.Begin(fence.Memory) + "\n"

// TestSpeculationContextualizerReturnsTheInput: a contextualizer that
// gives the input back as it was, in a model's wrapping (a label, quotes,
// other punctuation), leaves the raw input as the query: the speculation
// is kept and nothing is retrieved twice.
func TestSpeculationContextualizerReturnsTheInput(t *testing.T) {
	f := newSpecFixture(t)
	f.addMemory(t, "[2026-11-29 10:00:00] Alex: I love skiing in Verbier.")
	f.ctxSrv.On(nil).Reply("Standalone question: \"and tomorrow\"\n\nThe input already stands alone.")
	f.srv.On(llmtest.MatchModel("agent-model")).Once().Reply(answer("joy", 5, "Tomorrow looks sunny.", "information request", "Alex"))
	r, _, tr := respondWith(t, f.engine(t, true, 0), "And tomorrow?", specHistory)
	if r.Text != "Tomorrow looks sunny." {
		t.Errorf("reply = %+v", r)
	}
	if d := tr.Snapshot(); !contains(d.Notes, "speculative agent call kept") {
		t.Errorf("notes = %q", d.Notes)
	}
	if n := len(f.agentRequests()); n != 1 {
		t.Errorf("agent calls = %d, want 1", n)
	}
	embedded := f.embedded()
	if len(embedded) != 2 || embedded[1] != "And tomorrow?" {
		t.Errorf("embedded %q, want the memory then one query, the raw input", embedded)
	}
}
