package react_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/react"
)

// failingTool fails: at once with err, or, with hold, once its turn is
// cancelled (started is closed when it is called).
type failingTool struct {
	err     error
	hold    bool
	started chan struct{}
}

func (failingTool) Name() string        { return "Google Search" }
func (failingTool) Description() string { return "Use it for current events." }
func (f failingTool) Call(ctx context.Context, _ nadine.ToolInput) (string, error) {
	close(f.started)
	if f.hold {
		<-ctx.Done()
		return "", fmt.Errorf("tools: serper: %w", ctx.Err())
	}
	return "", f.err
}

// TestCancelledToolCallWarnsNothing: a tool that fails is a warning in the
// log, unless it failed because its turn was cancelled (an early turn
// replaced by newer words, a shutdown), which is no outage.
func TestCancelledToolCallWarnsNothing(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tool   failingTool
		warned bool
	}{
		{"tool down", failingTool{err: nadine.Errorf(nadine.EUNAVAILABLE, "tools: serper: 503")}, true},
		{"turn cancelled", failingTool{hold: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			tool := tc.tool
			tool.started = make(chan struct{})
			f := newFixture(t, func(o *react.Options) {
				o.Tools, o.Logger = []nadine.Tool{tool}, slog.New(slog.NewTextHandler(&logs, nil))
			})
			e, srv := f.engine, f.srv
			defer e.Close()
			srv.On(llmtest.MatchLastUser("TOOL RESULT (Google Search)")).Reply("```json\n" + `{"action": "Final Answer", "emotion": "sadness", "emotion_intensity": 3, "action_input": "I cannot look that up right now.", "category": "information request", "causing_person": "human"}` + "\n```")
			srv.On(llmtest.MatchModel("agent-model")).Reply("```json\n" + `{"action": "Google Search", "action_input": "Geneva news"}` + "\n```")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go func() {
				<-tool.started
				if tool.hold {
					cancel()
				}
			}()
			_, _ = e.Respond(ctx, nadine.Request{Turn: nadine.Turn{Text: "What is the news in Geneva?", Language: nadine.English}, Emit: func(nadine.Event) {}})
			select {
			case <-tool.started:
			default:
				t.Fatal("the tool was never called")
			}
			if warned := strings.Contains(logs.String(), "level=WARN"); warned != tc.warned {
				t.Errorf("warned %v, want %v; log:\n%s", warned, tc.warned, logs.String())
			}
		})
	}
}

// queueingTool queues work for after the reply, as the singing tool queues
// its composition.
type queueingTool struct{ ranInCall, ran *atomic.Bool }

func (queueingTool) Name() string        { return "Sing a song" }
func (queueingTool) Description() string { return "Use it when the user asks for a song." }
func (q queueingTool) Call(ctx context.Context, in nadine.ToolInput) (string, error) {
	in.RunAfterReply(ctx, func(context.Context) { q.ran.Store(true) })
	q.ranInCall.Store(q.ran.Load())
	return "You have started making up a new song.", nil
}

// TestToolWorkJoinsTheTurnsDeferredWork: what a tool queues for after the
// reply goes to the request's AfterReply, which the dialogue manager runs
// once the reply is out, and drops for an early turn never heard.
func TestToolWorkJoinsTheTurnsDeferredWork(t *testing.T) {
	tool := queueingTool{ranInCall: &atomic.Bool{}, ran: &atomic.Bool{}}
	f := newFixture(t, func(o *react.Options) { o.Tools = []nadine.Tool{tool} })
	e, srv := f.engine, f.srv
	defer e.Close()
	srv.On(llmtest.MatchLastUser("TOOL RESULT (Sing a song)")).Reply("```json\n" + `{"action": "Final Answer", "emotion": "joy", "emotion_intensity": 6, "action_input": "I am making up a song about cats for you.", "category": "other", "causing_person": "human"}` + "\n```")
	srv.On(llmtest.MatchModel("agent-model")).Reply("```json\n" + `{"action": "Sing a song", "action_input": "new|en|cats"}` + "\n```")
	var queue []func(context.Context)
	if _, err := e.Respond(context.Background(), nadine.Request{Turn: nadine.Turn{Text: "Make up a song about cats!", Language: nadine.English},
		Emit: func(nadine.Event) {}, AfterReply: func(fn func(context.Context)) { queue = append(queue, fn) }}); err != nil {
		t.Fatal(err)
	}
	if tool.ranInCall.Load() || tool.ran.Load() {
		t.Fatal("the tool's deferred work ran before the reply was out")
	}
	for _, fn := range queue {
		fn(context.Background())
	}
	if !tool.ran.Load() {
		t.Error("the tool's deferred work was not queued with the turn's")
	}
}
