package react_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/react"
	"github.com/nadine-robot/nadine/sqlite"
)

// recordingTool is a tool that records its inputs and answers with an
// instruction, as seed 000's tools do.
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

func newFixture(t *testing.T) *fixture {
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
	eng, err := react.New(react.Options{
		Agent: agent, Contextualizer: ctxModel, Tools: []nadine.Tool{weather, behaviour},
		Memories: st, Knowledge: st, Embedder: emb,
	})
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

func (f *fixture) respond(t *testing.T, text string, history []nadine.Message) (nadine.Reply, *events, *nadine.Trace) {
	t.Helper()
	ev := &events{}
	tr := nadine.NewTrace("t", text, time.Now())
	ctx := nadine.WithTrace(context.Background(), tr)
	r, err := f.engine.Respond(ctx, nadine.Request{
		Turn: nadine.Turn{Text: text, Language: nadine.English, UserID: "alex-1", UserName: "Alex", UserEmotion: "Happy",
			Time: time.Date(2026, 11, 30, 14, 5, 0, 0, time.UTC)},
		History: history, Emit: ev.emit,
	})
	if err != nil {
		t.Fatalf("Respond(%q): %v", text, err)
	}
	return r, ev, tr
}

func TestConversation(t *testing.T) {
	f := newFixture(t)
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
	// the rewritten question. The agent first answers garbage, then an
	// invalid emotion, then calls the behaviour tool, then answers.
	history := []nadine.Message{
		{Role: nadine.RoleUser, Content: "What is the weather in Geneva?", Name: "Alex"},
		{Role: nadine.RoleAssistant, Content: r1.Text, Name: "Nadine"},
	}
	f.srv.On(llmtest.MatchModel("ctx-model")).Once().Reply("What will the weather be in Geneva tomorrow?")
	f.srv.On(llmtest.MatchAll(llmtest.MatchModel("agent-model"), llmtest.MatchLastUser("HUMAN'S INPUT\nAnd tomorrow? Smile please"))).Once().Reply("I think it will rain.")
	f.srv.On(llmtest.MatchLastUser("no JSON object")).Once().Reply(final("information request", "happiness", 5, "Alex", "Rain again."))
	f.srv.On(llmtest.MatchLastUser(`invalid emotion "happiness"`)).Once().Reply(`{"action": "Nadine behaviour", "action_input": "smile"}`)
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
	// The agent saw the history between the system message and the human turn.
	last, _ := f.srv.LastChat()
	if last.Messages[0].Role != "system" || last.Messages[1].Content != "What is the weather in Geneva?" || last.Messages[2].Role != "assistant" {
		t.Errorf("history not threaded into the agent prompt: %+v", last.Messages[:3])
	}
}

func TestParseRetriesAreBounded(t *testing.T) {
	f := newFixture(t)
	f.srv.On(llmtest.MatchModel("agent-model")).Reply("no json here")
	_, err := f.engine.Respond(context.Background(), nadine.Request{Turn: nadine.Turn{Text: "Hi", UserID: nadine.UnknownUser}, Emit: func(nadine.Event) {}})
	if nadine.ErrorCode(err) != nadine.EBADOUTPUT {
		t.Fatalf("err = %v, want bad output", err)
	}
	if n := len(f.srv.ChatRequests()); n != 4 {
		t.Errorf("agent calls = %d, want 1 + 3 retries", n)
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
