package react_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/react"
)

// heldModel holds its first streamed answer once it has delivered after,
// until its context ends, as a model still writing the fields after the
// reply text when the turn is cancelled. It counts the calls in progress
// and reports how the held call ended.
type heldModel struct {
	nadine.ChatModel
	after  string
	calls  atomic.Int32
	active atomic.Int32
	held   chan struct{} // closed once the first call holds
	ended  chan error    // the held call's context error, once it returns
}

func newHeldModel(m nadine.ChatModel, after string) *heldModel {
	return &heldModel{ChatModel: m, after: after, held: make(chan struct{}), ended: make(chan error, 1)}
}

func (m *heldModel) ChatStream(ctx context.Context, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
	m.active.Add(1)
	defer m.active.Add(-1)
	first := m.calls.Add(1) == 1
	if !first {
		return m.ChatModel.ChatStream(ctx, req, onDelta)
	}
	var (
		got    strings.Builder
		paused bool
	)
	resp, err := m.ChatModel.ChatStream(ctx, req, func(s string) {
		got.WriteString(s)
		onDelta(s)
		if !paused && strings.Contains(got.String(), m.after) {
			paused = true
			close(m.held)
			<-ctx.Done()
		}
	})
	m.ended <- ctx.Err()
	return resp, err
}

// earlyReply answers one turn whose reply ends early, with its deferred
// work queued and never run, as the dialogue manager drops it when it
// cancels an early turn whose final transcript differs; the turn's
// context ends with the engine's return.
func earlyReply(t *testing.T, eng *react.Engine, text string) {
	t.Helper()
	var later []func(context.Context)
	ctx, endTurn := context.WithCancel(nadine.WithTrace(context.Background(), nadine.NewTrace("t", text, time.Now())))
	defer endTurn()
	r, err := eng.Respond(ctx, nadine.Request{
		Turn: nadine.Turn{Text: text, UserID: "alex-1", UserName: "Alex"}, Emit: func(nadine.Event) {},
		AfterReply: func(fn func(context.Context)) { later = append(later, fn) }})
	if err != nil {
		t.Fatal(err)
	}
	if r.Text == "" || len(later) != 1 {
		t.Fatalf("reply %+v with %d deferred functions, want a reply that ended early", r, len(later))
	}
}

const heldReply = "Hello Alex, how nice to see you. Did you ski this week?"

// heldFixture answers a turn "Hi" whose reply ends early and whose stream
// is then held, its deferred reading never run.
func heldFixture(t *testing.T) (*fixture, *heldModel) {
	t.Helper()
	var agent *heldModel
	f := newFixture(t, func(o *react.Options) {
		agent = newHeldModel(o.Agent, heldReply+`", "emotion": "joy", "emotion_intensity": 7, "category":`)
		o.Agent = agent
	})
	f.srv.On(llmtest.MatchModel("agent-model")).Reply(answer("joy", 7, heldReply, "greeting", "Alex"))
	earlyReply(t, f.engine, "Hi")
	await(t, agent.held, "the held stream")
	return f, agent
}

// TestCancelledTurnsStreamEndsWithTheNextTurn: a turn that replied early
// and whose deferred reading never ran (a cancelled early turn) leaves its
// stream to the engine, which cancels it when the next turn starts rather
// than letting it run unowned to its end.
func TestCancelledTurnsStreamEndsWithTheNextTurn(t *testing.T) {
	f, agent := heldFixture(t)
	select {
	case err := <-agent.ended:
		t.Fatalf("the stream ended (%v) before the next turn: a reply's late fields would be lost", err)
	default:
	}
	if agent.active.Load() != 1 {
		t.Fatalf("%d calls in progress, want the held stream", agent.active.Load())
	}

	r, _, tr := f.respond(t, "Hello again", nil)
	select {
	case err := <-agent.ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the held stream ended with %v, want it cancelled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the next turn did not cancel the cancelled turn's stream")
	}
	if r.Text != heldReply {
		t.Errorf("next turn's reply = %+v", r)
	}
	if notes := tr.Snapshot().Notes; !slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, "cancelled 1 agent stream") }) {
		t.Errorf("notes %q: the cancelled stream is not in the next turn's trace", notes)
	}
}

// TestCloseEndsTheReplyStreams: Close cancels a stream that outlived its
// turn and returns once it has ended; a turn after Close is refused.
func TestCloseEndsTheReplyStreams(t *testing.T) {
	f, agent := heldFixture(t)
	closed := make(chan struct{})
	go func() {
		if err := f.engine.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		close(closed)
	}()
	await(t, closed, "Close")
	if n := agent.active.Load(); n != 0 {
		t.Errorf("Close returned with %d agent calls in progress", n)
	}
	if err := <-agent.ended; !errors.Is(err, context.Canceled) {
		t.Errorf("the held stream ended with %v, want it cancelled by Close", err)
	}
	_, err := f.engine.Respond(context.Background(), nadine.Request{Turn: nadine.Turn{Text: "Hi again", UserID: "alex-1"}, Emit: func(nadine.Event) {}})
	if nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
		t.Errorf("Respond after Close: %v, want EUNAVAILABLE", err)
	}
	if n := agent.calls.Load(); n != 1 {
		t.Errorf("agent calls = %d, want none after Close", n)
	}
}

// TestKeptSpeculationRepliesEarly: a kept speculative call whose reply
// text is complete ends the turn like any other (Respond does not wait for
// the fields after the text); its stream is then the engine's, ended by
// Close.
func TestKeptSpeculationRepliesEarly(t *testing.T) {
	f := newSpecFixture(t)
	f.addMemory(t, "[2026-11-29 10:00:00] Alex: I love skiing in Verbier.")
	f.addKnowledge(t, "Geneva weather is mild in autumn.")
	f.ctxSrv.On(nil).Reply(standalone)
	f.srv.On(llmtest.MatchModel("agent-model")).Reply(answer("joy", 6, heldReply, "information request", "Alex"))
	agent := newHeldModel(f.agent, heldReply+`", "emotion": "joy", "emotion_intensity": 6, "category":`)
	eng, err := react.New(react.Options{Agent: agent, Contextualizer: f.ctxModel, Memories: f.store, Knowledge: f.store,
		Embedder: f.emb, Speculate: true})
	if err != nil {
		t.Fatal(err)
	}
	tr := nadine.NewTrace("t", "And tomorrow?", time.Now())
	returned := make(chan nadine.Reply, 1)
	go func() {
		ctx := nadine.WithTrace(context.Background(), tr)
		req, _ := withOutput(ctx, func(nadine.Event) {}, nadine.Request{
			Turn:    nadine.Turn{Text: "And tomorrow?", Language: nadine.English, UserID: "alex-1", UserName: "Alex"},
			History: specHistory, AfterReply: func(func(context.Context)) {}})
		r, err := eng.Respond(ctx, req)
		if err != nil {
			t.Error(err)
		}
		returned <- r
	}()
	await(t, agent.held, "the held stream")
	select {
	case r := <-returned:
		if r.Text != heldReply {
			t.Errorf("reply = %+v", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Respond waits for the kept speculation's stream to end")
	}
	if !contains(tr.Snapshot().Notes, "speculative agent call kept") {
		t.Errorf("notes = %q, want the speculation kept", tr.Snapshot().Notes)
	}
	if err := eng.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-agent.ended; !errors.Is(err, context.Canceled) {
		t.Errorf("the held stream ended with %v, want it cancelled by Close", err)
	}
}
