package react_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/react"
	"github.com/nadine-robot/nadine/sqlite"
)

// recordingTool is a tool that records its inputs and answers with an
// instruction, as the ReAct tools do.
type recordingTool struct {
	name, desc, out string
	mu              sync.Mutex
	inputs          []string
}

func (r *recordingTool) Name() string        { return r.name }
func (r *recordingTool) Description() string { return r.desc }
func (r *recordingTool) Call(_ context.Context, in nadine.ToolInput) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.inputs = append(r.inputs, in.Text)
	return r.out, nil
}

type fixture struct {
	srv    *llmtest.Server
	store  *sqlite.Store
	engine *react.Engine
	emb    nadine.Embedder
	tools  []*recordingTool
}

func newFixture(t *testing.T, configure ...func(*react.Options)) *fixture {
	t.Helper()
	ctx := context.Background()
	srv := llmtest.New(t)
	agent, err := openai.New(openai.Config{Profile: "default", BaseURL: srv.URL(), Model: "agent-model", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctxModel, err := openai.New(openai.Config{Profile: "small", BaseURL: srv.URL(), Model: "ctx-model", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	emb, err := openai.NewEmbedder(openai.EmbedderConfig{Profile: "default", BaseURL: srv.URL(), Model: "embed-model"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "nadine.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	weather := &recordingTool{name: "Weather App", desc: "Use it for the current weather. Input: City,CC.", out: "BEGIN WEATHER DATA\nGeneva: 12 degrees Celsius, light rain.\nEND WEATHER DATA\nSummarize in under 25 words."}
	behaviour := &recordingTool{name: "Nadine behaviour", desc: "Use it to smile, be angry or wave.", out: "Tell the human 'I am smiling now'"}
	opts := react.Options{
		Agent: agent, Contextualizer: ctxModel, Tools: []nadine.Tool{weather, behaviour},
		Memories: st, Knowledge: st, Embedder: emb,
	}
	for _, c := range configure {
		c(&opts)
	}
	eng, err := react.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{srv: srv, store: st, engine: eng, emb: emb, tools: []*recordingTool{weather, behaviour}}
}

func final(category, emotion string, intensity int, person, text string) string {
	return "```json\n{\"action\": \"Final Answer\", \"category\": \"" + category + "\", \"emotion\": \"" + emotion +
		"\", \"emotion_intensity\": " + itoa(intensity) + ", \"causing_person\": \"" + person + "\", \"action_input\": \"" + text + "\"}\n```"
}

func itoa(n int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + string(rune('0'+n))) }

type events struct {
	mu sync.Mutex
	ev []nadine.Event
}

func (e *events) emit(ev nadine.Event) { e.mu.Lock(); e.ev = append(e.ev, ev); e.mu.Unlock() }
func (e *events) kinds(k nadine.EventKind) []nadine.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []nadine.Event
	for _, x := range e.ev {
		if x.Kind == k {
			out = append(out, x)
		}
	}
	return out
}

// withOutput binds req to a dialogue Output whose events go to emit, as
// in the dialogue manager's turn (it holds a speculation's events until
// the verdict), and returns the function that waits until they are out
// and closes it.
func withOutput(ctx context.Context, emit nadine.EmitFunc, req nadine.Request) (nadine.Request, func()) {
	out := dialogue.NewOutput(ctx, dialogue.OutputOptions{To: emit, Language: req.Turn.Language})
	return out.Bind(req), out.Close
}

func (f *fixture) respond(t *testing.T, text string, history []nadine.Message) (nadine.Reply, *events, *nadine.Trace) {
	t.Helper()
	ev := &events{}
	tr := nadine.NewTrace("t", text, time.Now())
	ctx := nadine.WithTrace(context.Background(), tr)
	req, wait := withOutput(ctx, ev.emit, nadine.Request{
		Turn: nadine.Turn{Text: text, Language: nadine.English, UserID: "alex-1", UserName: "Alex", UserEmotion: "Happy",
			Time: time.Date(2026, 11, 30, 14, 5, 0, 0, time.UTC)},
		History: history,
	})
	r, err := f.engine.Respond(ctx, req)
	wait()
	if err != nil {
		t.Fatalf("Respond(%q): %v", text, err)
	}
	return r, ev, tr
}

// TestConversation runs two turns, the second a follow-up with history,
// with and without speculation: the outcome must be the same.
func TestConversation(t *testing.T) {
	for _, speculate := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "speculate"}[speculate], func(t *testing.T) {
			testConversation(t, speculate)
		})
	}
}

func testConversation(t *testing.T, speculate bool) {
	f := newFixture(t, func(o *react.Options) { o.Speculate = speculate })
	ctx := context.Background()
	// Alex's memories, another user's memory, and knowledge.
	for _, m := range []struct{ user, text string }{
		{"alex-1", "[2026-11-29 10:00:00] Alex: I love skiing in Verbier."},
		{"bob-2", "[2026-11-29 11:00:00] Bob: My secret is the weather in Verbier skiing."},
	} {
		v, _ := nadine.EmbedOne(ctx, f.emb, m.text)
		if _, err := f.store.AddMemory(ctx, nadine.Memory{UserID: m.user, Type: nadine.MemoryConversation, Text: m.text, Time: time.Now(), Embedder: f.emb.Name(), Embedding: v}); err != nil {
			t.Fatal(err)
		}
	}
	kv, _ := nadine.EmbedOne(ctx, f.emb, "Geneva weather is mild in autumn.")
	if err := f.store.AddKnowledge(ctx, []nadine.KnowledgeChunk{{Source: "kb.md", Title: "Geneva", Text: "Geneva weather is mild in autumn.", Embedder: f.emb.Name(), Embedding: kv}}); err != nil {
		t.Fatal(err)
	}

	// Turn 1: no history, so no contextualizer call. The model first
	// returns a list of actions (the first is taken), then the final answer
	// after the observation.
	f.srv.On(llmtest.MatchAll(llmtest.MatchModel("agent-model"), llmtest.MatchLastUser("weather in Geneva"))).Once().
		Reply("```json\n[{\"action\": \"Weather App\", \"action_input\": \"Geneva,CH\"}, {\"action\": \"Nadine behaviour\", \"action_input\": \"wave\"}]\n```")
	f.srv.On(llmtest.MatchLastUser("TOOL RESULT (Weather App)")).Once().
		Reply(final("information request", "joy", 4, "Alex", "It is 12 degrees with light rain in Geneva. Take an umbrella, Alex!"))
	r1, ev1, tr1 := f.respond(t, "What is the weather in Geneva?", nil)
	if got := f.tools[0].inputs; len(got) != 1 || got[0] != "Geneva,CH" {
		t.Errorf("weather inputs = %q, want [Geneva,CH]", got)
	}
	if len(f.tools[1].inputs) != 0 {
		t.Errorf("second action of the list was run: %q", f.tools[1].inputs)
	}
	if r1.Text != "It is 12 degrees with light rain in Geneva. Take an umbrella, Alex!" || r1.Emotion != nadine.Joy ||
		r1.EmotionIntensity != 4 || r1.Category != nadine.CategoryInformation || r1.CausingPerson != "Alex" {
		t.Errorf("reply = %+v", r1)
	}
	if sp := ev1.kinds(nadine.EventSpeech); len(sp) != 2 || sp[0].Text != "It is 12 degrees with light rain in Geneva." {
		t.Errorf("speech events = %+v", sp)
	}
	if d := tr1.Snapshot(); len(d.ToolCalls) != 1 || d.ToolCalls[0].Tool != "Weather App" {
		t.Errorf("trace tool calls = %+v", d.ToolCalls)
	}
	chats := f.srv.ChatRequests()
	for _, c := range chats {
		if c.Model == "ctx-model" {
			t.Errorf("contextualizer called without history")
		}
	}
	first := chats[0]
	prompt := first.LastUser()
	for _, want := range []string{"LONG-TERM MEMORY", "I love skiing in Verbier", "KNOWLEDGE BASE", "Geneva weather is mild",
		"User name: Alex", "facial emotion: happy", "HUMAN'S INPUT\nWhat is the weather in Geneva?", "- Weather App: Use it for the current weather"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	if strings.Contains(prompt, "Bob") || strings.Contains(prompt, "secret") {
		t.Errorf("another user's memory reached Alex's prompt")
	}
	obs := chats[1].LastUser()
	if !strings.Contains(obs, "Geneva: 12 degrees Celsius") || !strings.Contains(obs, `answer my original input: "What is the weather in Geneva?"`) || !strings.Contains(obs, "never name the tool") {
		t.Errorf("observation message = %q", obs)
	}

	// Turn 2: a follow-up. The contextualizer rewrites it; retrieval uses
	// the rewritten question. The agent first answers in prose (fed back
	// once), then a final answer without its reply, then calls the
	// behaviour tool, then answers.
	history := []nadine.Message{
		{Role: nadine.RoleUser, Content: "What is the weather in Geneva?", Name: "Alex"},
		{Role: nadine.RoleAssistant, Content: r1.Text, Name: "Nadine"},
	}
	f.srv.On(llmtest.MatchModel("ctx-model")).Once().Reply("What will the weather be in Geneva tomorrow?")
	f.srv.On(llmtest.MatchAll(llmtest.MatchModel("agent-model"), llmtest.MatchLastUser("HUMAN'S INPUT\nAnd tomorrow? Smile please"))).Once().Reply("I think it will rain.")
	f.srv.On(llmtest.MatchLastUser("no JSON object")).Once().Reply(final("information request", "happiness", 5, "Alex", ""))
	f.srv.On(llmtest.MatchLastUser(`must hold your reply`)).Once().Reply(`{"action": "Nadine behaviour", "action_input": "smile"}`)
	f.srv.On(llmtest.MatchLastUser("TOOL RESULT (Nadine behaviour)")).Once().Reply(final("other", "joy", 6, "Alex", "I am smiling now. Tomorrow brings more rain!"))
	r2, _, tr2 := f.respond(t, "And tomorrow? Smile please", history)
	if r2.Text != "I am smiling now. Tomorrow brings more rain!" || r2.Emotion != nadine.Joy {
		t.Errorf("reply 2 = %+v", r2)
	}
	if got := f.tools[1].inputs; len(got) != 1 || got[0] != "smile" {
		t.Errorf("behaviour inputs = %q", got)
	}
	var embedInputs []string
	for _, e := range f.srv.EmbeddingRequests() {
		embedInputs = append(embedInputs, e.Input...)
	}
	if !contains(embedInputs, "What will the weather be in Geneva tomorrow?") {
		t.Errorf("retrieval did not use the standalone question; embedded %q", embedInputs)
	}
	d2 := tr2.Snapshot()
	if len(d2.Failures) != 2 {
		t.Errorf("want 2 parse failures in the trace, got %+v", d2.Failures)
	}
	var ctxCalls int
	for _, c := range d2.ModelCalls {
		if c.Role == "contextualizer" {
			ctxCalls++
		}
	}
	if ctxCalls != 1 {
		t.Errorf("contextualizer calls = %d, want 1", ctxCalls)
	}
	if speculate {
		// Alex has one memory and the base one chunk: the standalone
		// question retrieves what the raw input did.
		if !contains(d2.Notes, "speculative agent call kept") {
			t.Errorf("notes = %q, want the speculation kept", d2.Notes)
		}
	}
	// The agent saw the history between the system message and the human turn.
	last, _ := f.srv.LastChat()
	if last.Messages[0].Role != "system" || last.Messages[1].Content != "What is the weather in Geneva?" || last.Messages[2].Role != "assistant" {
		t.Errorf("history not threaded into the agent prompt: %+v", last.Messages[:3])
	}
}

// TestParseRetriesAreBounded: an answer whose own content is wrong is fed
// back ParseRetries times; output that is not a reply at all once; both
// then give up with EBADOUTPUT (the dialogue manager falls back). Plain
// prose is fed back once and then spoken.
func TestParseRetriesAreBounded(t *testing.T) {
	tests := []struct {
		name, answer string
		wantCalls    int
		wantErr      bool
	}{
		{"unknown tool", `{"action": "Launch Rocket", "action_input": "now"}`, 4, true},
		{"markup", "<|im_start|>assistant\n<|im_end|>", 2, true},
		{"json of no use", `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 5, "action_input": "[{\"role\": \"assistant\"}]"}`, 2, true},
		{"prose", "Hi! I am Nadine.", 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.srv.On(llmtest.MatchModel("agent-model")).Reply(tt.answer)
			r, err := f.engine.Respond(context.Background(), nadine.Request{Turn: nadine.Turn{Text: "Hi", UserID: nadine.UnknownUser}, Emit: func(nadine.Event) {}})
			if tt.wantErr && nadine.ErrorCode(err) != nadine.EBADOUTPUT {
				t.Fatalf("err = %v, want bad output", err)
			}
			if !tt.wantErr && (err != nil || r.Text != tt.answer || r.Emotion != nadine.Neutral || r.Category != nadine.CategoryOther) {
				t.Fatalf("reply = %+v, %v; want the prose spoken with default fields", r, err)
			}
			if n := len(f.srv.ChatRequests()); n != tt.wantCalls {
				t.Errorf("agent calls = %d, want %d", n, tt.wantCalls)
			}
		})
	}
}

func TestUnknownUserRetrievesNoMemories(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	v, _ := nadine.EmbedOne(ctx, f.emb, "Hello")
	if _, err := f.store.AddMemory(ctx, nadine.Memory{UserID: nadine.UnknownUser, Type: nadine.MemoryConversation, Text: "Hello from unknown", Time: time.Now(), Embedder: f.emb.Name(), Embedding: v}); err != nil {
		t.Fatal(err)
	}
	f.srv.On(llmtest.MatchModel("agent-model")).Reply(final("greeting", "joy", 5, "human", "Hello!"))
	_, err := f.engine.Respond(ctx, nadine.Request{Turn: nadine.Turn{Text: "Hello", UserID: nadine.UnknownUser}, Emit: func(nadine.Event) {}})
	if err != nil {
		t.Fatal(err)
	}
	last, _ := f.srv.LastChat()
	if strings.Contains(last.LastUser(), "Hello from unknown") || !strings.Contains(last.LastUser(), "(no memories)") {
		t.Errorf("memories retrieved for the unknown user")
	}
}

// TestStreamingSpeaksBeforeTheAnswerIsComplete streams a slow answer and
// checks that the first sentence was emitted while the model call was
// still running (its trace step had not ended).
func TestStreamingSpeaksBeforeTheAnswerIsComplete(t *testing.T) {
	f := newFixture(t)
	f.srv.On(llmtest.MatchModel("agent-model")).Delay(5 * time.Millisecond).
		Reply(final("greeting", "joy", 7, "Alex", "Hello Alex, how nice to see you again. I remember you love skiing, and the snow is great this year."))
	tr := nadine.NewTrace("t", "Hi", time.Now())
	ctx := nadine.WithTrace(context.Background(), tr)
	var firstWhileRunning, gotAffectFirst bool
	var seen []nadine.EventKind
	var mu sync.Mutex
	emit := func(e nadine.Event) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, e.Kind)
		if e.Kind == nadine.EventSpeech && !firstWhileRunning && len(seen) <= 2 {
			running := true
			for _, s := range tr.Snapshot().Steps {
				if s.Name == "agent:1" {
					running = false
				}
			}
			firstWhileRunning = running
			gotAffectFirst = seen[0] == nadine.EventAffect
		}
	}
	r, err := f.engine.Respond(ctx, nadine.Request{Turn: nadine.Turn{Text: "Hi", UserID: "alex-1", UserName: "Alex"}, Emit: emit})
	if err != nil {
		t.Fatal(err)
	}
	if !firstWhileRunning {
		t.Errorf("first sentence was not spoken before the answer was complete (events %v)", seen)
	}
	if !gotAffectFirst {
		t.Errorf("emotion was not announced before the first sentence (events %v)", seen)
	}
	if r.Category != nadine.CategoryGreeting || len(r.Gestures) != 1 || r.Gestures[0] != nadine.Wave {
		t.Errorf("greeting should wave: %+v", r)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// answer is a final answer in the order the prompt asks for: emotion, the
// reply, then category and causing_person.
func answer(emotion string, intensity int, text, category, person string) string {
	return "```json\n{\"action\": \"Final Answer\", \"action_input\": \"" + text + "\", \"emotion\": \"" + emotion +
		"\", \"emotion_intensity\": " + itoa(intensity) + ", \"category\": \"" + category + "\", \"causing_person\": \"" + person + "\"}\n```"
}

// deltaModel records what a streamed call has delivered so far.
type deltaModel struct {
	nadine.ChatModel
	mu  sync.Mutex
	got strings.Builder
}

func (d *deltaModel) ChatStream(ctx context.Context, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
	return d.ChatModel.ChatStream(ctx, req, func(s string) {
		d.mu.Lock()
		d.got.WriteString(s)
		d.mu.Unlock()
		onDelta(s)
	})
}

func (d *deltaModel) received() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.got.String()
}

// TestReplyIsSpokenBeforeItsCategory streams answers in the prompt's order.
// The first sentence is spoken before category and causing_person arrive;
// once spoken, a reply is never retried: invalid trailing fields are
// coerced and noted in the trace.
func TestReplyIsSpokenBeforeItsCategory(t *testing.T) {
	tests := []struct {
		name         string
		category     string
		person       string
		wantCategory nadine.Category
		wantPerson   string
		wantGestures []nadine.Gesture
		wantNotes    []string
	}{
		{"valid", "greeting", "Alex", nadine.CategoryGreeting, "Alex", []nadine.Gesture{nadine.Wave}, nil},
		{"unusual after the text", "question", "Bob", nadine.CategoryInformation, "Bob", nil,
			[]string{`category "question" read as information request`}},
		{"unknown after the text", "banter", "", nadine.CategoryOther, "Alex", nil,
			[]string{`category "banter" unknown`, `causing_person "" unusable`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var agent *deltaModel
			f := newFixture(t, func(o *react.Options) {
				agent = &deltaModel{ChatModel: o.Agent}
				o.Agent = agent
			})
			f.srv.On(llmtest.MatchModel("agent-model")).Reply(answer("joy", 7, "Hello Alex, how nice to see you. Did you ski this week?", tt.category, tt.person))
			var heardBefore []string
			emit := func(e nadine.Event) {
				if e.Kind == nadine.EventSpeech {
					heardBefore = append(heardBefore, agent.received())
				}
			}
			tr := nadine.NewTrace("t", "Hi", time.Now())
			r, err := f.engine.Respond(nadine.WithTrace(context.Background(), tr), nadine.Request{
				Turn: nadine.Turn{Text: "Hi", UserID: "alex-1", UserName: "Alex"}, Emit: emit})
			if err != nil {
				t.Fatal(err)
			}
			if len(heardBefore) != 2 {
				t.Fatalf("speech events = %d, want 2", len(heardBefore))
			}
			if strings.Contains(heardBefore[0], "category") {
				t.Errorf("first sentence spoken only once the model had written %q", heardBefore[0])
			}
			if r.Text != "Hello Alex, how nice to see you. Did you ski this week?" || r.Emotion != nadine.Joy || r.EmotionIntensity != 7 ||
				r.Category != tt.wantCategory || r.CausingPerson != tt.wantPerson || !slices.Equal(r.Gestures, tt.wantGestures) {
				t.Errorf("reply = %+v", r)
			}
			if n := len(f.srv.ChatRequests()); n != 1 {
				t.Errorf("agent calls = %d, want 1 (a spoken reply is never retried)", n)
			}
			notes := tr.Snapshot().Notes
			if len(notes) != len(tt.wantNotes) {
				t.Fatalf("notes = %q, want %q", notes, tt.wantNotes)
			}
			for i, want := range tt.wantNotes {
				if !strings.Contains(notes[i], want) {
					t.Errorf("note %q lacks %q", notes[i], want)
				}
			}
		})
	}
}

// TestUnstreamedAnswerIsNotRetriedOverAField checks that a final answer
// whose emotion does not come before the text is parsed at the end by the
// same rules as a streamed one: an unknown category gets a default (never
// a retry); an unknown tool is fed back and nothing of it is spoken.
func TestUnstreamedAnswerIsNotRetriedOverAField(t *testing.T) {
	f := newFixture(t)
	f.srv.On(llmtest.MatchModel("agent-model")).Once().Reply(`{"action": "Launch Rocket", "action_input": "Never said."}`)
	f.srv.On(llmtest.MatchModel("agent-model")).Once().
		Reply(`{"action": "Final Answer", "action_input": "Hello again.", "emotion": "joy", "emotion_intensity": 5, "category": "banter", "causing_person": "Alex"}`)
	r, ev, tr := f.respond(t, "Hi", nil)
	if r.Text != "Hello again." || r.Category != nadine.CategoryOther || r.Emotion != nadine.Joy {
		t.Errorf("reply = %+v", r)
	}
	for _, e := range ev.kinds(nadine.EventSpeech) {
		if strings.Contains(e.Text, "Never said") {
			t.Errorf("the rejected answer was spoken: %q", e.Text)
		}
	}
	if n := len(f.srv.ChatRequests()); n != 2 {
		t.Errorf("agent calls = %d, want 2", n)
	}
	if !contains(tr.Snapshot().Notes, `agent answer: category "banter" unknown: other`) {
		t.Errorf("notes = %q", tr.Snapshot().Notes)
	}
}

// TestNoContextualizerWithoutRetrieval: the standalone question only
// serves retrieval, so without retrieval the turn does not wait for it.
func TestNoContextualizerWithoutRetrieval(t *testing.T) {
	f := newFixture(t, func(o *react.Options) { o.Embedder, o.Memories, o.Knowledge = nil, nil, nil })
	f.srv.On(llmtest.MatchModel("ctx-model")).Reply("What is the weather like in Geneva?")
	f.srv.On(llmtest.MatchModel("agent-model")).Reply(final("other", "joy", 3, "human", "It is mild today."))
	history := []nadine.Message{{Role: nadine.RoleUser, Content: "I live in Geneva."}, {Role: nadine.RoleAssistant, Content: "Lovely city!"}}
	reply, _, _ := f.respond(t, "And the weather?", history)
	if reply.Text != "It is mild today." {
		t.Errorf("reply %q", reply.Text)
	}
	for _, r := range f.srv.ChatRequests() {
		if r.Model == "ctx-model" {
			t.Error("the contextualizer was asked although nothing is retrieved")
		}
	}
}
