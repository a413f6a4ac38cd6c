package react_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/react"
)

// pausedModel stops a streamed answer once it has delivered after (the
// rest waits until release is closed), as a model still writing the fields
// after the reply text.
type pausedModel struct {
	nadine.ChatModel
	after   string
	release chan struct{}
	mu      sync.Mutex
	got     strings.Builder
}

func (m *pausedModel) ChatStream(ctx context.Context, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
	paused := false
	return m.ChatModel.ChatStream(ctx, req, func(s string) {
		m.mu.Lock()
		m.got.WriteString(s)
		reached := strings.Contains(m.got.String(), m.after)
		m.mu.Unlock()
		onDelta(s)
		if reached && !paused {
			paused = true
			<-m.release
		}
	})
}

// TestReplyEndsWithItsText: with a dialogue manager to publish the reply
// before the turn's deferred work, the turn ends as soon as the reply text
// is known to be closed (the next member's key came after its quotation
// mark: an unescaped quote inside the text is text), while the model has
// not written category and causing_person yet: the final marker does not
// wait for them. They are read after the reply,
// the category's gesture goes out then, and the trace notes them.
func TestReplyEndsWithItsText(t *testing.T) {
	var agent *pausedModel
	f := newFixture(t, func(o *react.Options) {
		agent = &pausedModel{ChatModel: o.Agent, after: `this week?", "category":`, release: make(chan struct{})}
		o.Agent = agent
	})
	f.srv.On(llmtest.MatchModel("agent-model")).Reply(answer("joy", 7, "Hello Alex, how nice to see you. Did you ski this week?", "greeting", "Alex"))
	var (
		mu     sync.Mutex
		events []nadine.Event
		later  []func(context.Context)
	)
	emit := func(e nadine.Event) { mu.Lock(); events = append(events, e); mu.Unlock() }
	tr := nadine.NewTrace("t", "Hi", time.Now())
	ctx := nadine.WithTrace(context.Background(), tr)
	r, err := f.engine.Respond(ctx, nadine.Request{
		Turn: nadine.Turn{Text: "Hi", UserID: "alex-1", UserName: "Alex"}, Emit: emit,
		AfterReply: func(fn func(context.Context)) { later = append(later, fn) }})
	if err != nil {
		t.Fatal(err)
	}
	// The model is paused right after the text: the reply came without it.
	if r.Text != "Hello Alex, how nice to see you. Did you ski this week?" || r.Emotion != nadine.Joy || r.EmotionIntensity != 7 {
		t.Errorf("reply = %+v", r)
	}
	if r.Category != "" || len(r.Gestures) != 0 {
		t.Errorf("reply category %q, gestures %v before the model wrote them", r.Category, r.Gestures)
	}
	if len(later) != 1 {
		t.Fatalf("%d deferred functions, want the reading of the fields after the text", len(later))
	}
	close(agent.release)
	later[0](ctx)
	mu.Lock()
	defer mu.Unlock()
	if !slices.ContainsFunc(events, func(e nadine.Event) bool { return e.Kind == nadine.EventGesture && e.Gesture == nadine.Wave }) {
		t.Errorf("events %+v: the greeting's wave never went out", events)
	}
	notes := tr.Snapshot().Notes
	if !slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, `category "greeting", causing person "Alex"`) }) {
		t.Errorf("notes %q: the fields after the text were not read", notes)
	}
	if n := len(f.srv.ChatRequests()); n != 1 {
		t.Errorf("agent calls = %d, want 1", n)
	}
}

// TestReplyFieldsOutliveTheTurnContext: the dialogue manager ends the
// turn's context once the engine returned; the fields the model writes
// after the reply text still arrive and are read, instead of the stream
// being cut (a turn lost its category that way).
func TestReplyFieldsOutliveTheTurnContext(t *testing.T) {
	f := newFixture(t)
	// Every chunk 20 ms apart: the fields after the text come well after
	// the engine returned.
	f.srv.On(llmtest.MatchModel("agent-model")).Delay(20 * time.Millisecond).
		Reply(answer("joy", 7, "Hello Alex, how nice to see you. Did you ski this week?", "greeting", "Alex"))
	var (
		mu     sync.Mutex
		events []nadine.Event
		later  []func(context.Context)
	)
	emit := func(e nadine.Event) { mu.Lock(); events = append(events, e); mu.Unlock() }
	tr := nadine.NewTrace("t", "Hi", time.Now())
	turnCtx, endTurn := context.WithCancel(nadine.WithTrace(context.Background(), tr))
	_, err := f.engine.Respond(turnCtx, nadine.Request{
		Turn: nadine.Turn{Text: "Hi", UserID: "alex-1", UserName: "Alex"}, Emit: emit,
		AfterReply: func(fn func(context.Context)) { later = append(later, fn) }})
	if err != nil {
		t.Fatal(err)
	}
	endTurn() // as the manager's budget does when answer returns
	if len(later) != 1 {
		t.Fatalf("%d deferred functions, want the reading of the fields after the text", len(later))
	}
	later[0](context.WithoutCancel(turnCtx))
	mu.Lock()
	defer mu.Unlock()
	var fields *nadine.Reply
	for _, e := range events {
		if e.Kind == nadine.EventReplyFields {
			fields = e.Reply
		}
	}
	if fields == nil || fields.Category != nadine.CategoryGreeting || fields.CausingPerson != "Alex" {
		t.Errorf("reply fields %+v, want greeting by Alex (notes %q)", fields, tr.Snapshot().Notes)
	}
}
