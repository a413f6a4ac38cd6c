package graph_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/graph"
)

// state is the test graphs' state. Nodes copy Visited before appending, as
// the package documentation asks.
type state struct {
	Visited []string `json:"visited"`
	Count   int      `json:"count"`
	Answer  string   `json:"answer,omitempty"`
}

func visit(s state, name string) state {
	s.Visited = slices.Concat(s.Visited, []string{name})
	return s
}

// node returns a node that records its name.
func node(name string) graph.NodeFunc[state] {
	return func(_ context.Context, s state) (state, error) { return visit(s, name), nil }
}

func compile(t *testing.T, g *graph.Graph[state], opts graph.Options[state]) *graph.Runnable[state] {
	t.Helper()
	r, err := g.Compile(opts)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return r
}

func TestLinear(t *testing.T) {
	g := graph.New[state]().
		AddNode("a", node("a")).
		AddNode("b", node("b")).
		AddNode("c", node("c")).
		AddEdge(graph.Start, "a").
		AddEdge("a", "b").
		AddEdge("b", "c").
		AddEdge("c", graph.End)
	got, err := compile(t, g, graph.Options[state]{}).Run(context.Background(), "", state{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "c"}; !slices.Equal(got.Visited, want) {
		t.Errorf("visited %v, want %v", got.Visited, want)
	}
}

func TestRouter(t *testing.T) {
	g := graph.New[state]().
		AddNode("classify", node("classify")).
		AddNode("search", node("search")).
		AddNode("respond", node("respond")).
		AddEdge(graph.Start, "classify").
		AddRouter("classify", func(_ context.Context, s state) (string, error) {
			if s.Answer == "search" {
				return "search", nil
			}
			return "respond", nil
		}, "search", "respond").
		AddEdge("search", "respond").
		AddEdge("respond", graph.End)
	r := compile(t, g, graph.Options[state]{})
	tests := []struct {
		answer string
		want   []string
	}{
		{"search", []string{"classify", "search", "respond"}},
		{"chat", []string{"classify", "respond"}},
	}
	for _, tt := range tests {
		got, err := r.Run(context.Background(), "", state{Answer: tt.answer})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Visited, tt.want) {
			t.Errorf("%s: visited %v, want %v", tt.answer, got.Visited, tt.want)
		}
	}
}

func TestRouterFromStart(t *testing.T) {
	g := graph.New[state]().
		AddNode("a", node("a")).
		AddNode("b", node("b")).
		AddRouter(graph.Start, func(_ context.Context, s state) (string, error) {
			if s.Count > 0 {
				return "b", nil
			}
			return "a", nil
		}, "a", "b").
		AddEdge("a", graph.End).
		AddEdge("b", graph.End)
	got, err := compile(t, g, graph.Options[state]{}).Run(context.Background(), "", state{Count: 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"b"}; !slices.Equal(got.Visited, want) {
		t.Errorf("visited %v, want %v", got.Visited, want)
	}
}

// loop builds orchestrator → tool → orchestrator ... until Count reaches
// limit (never when limit < 0).
func loop(limit int) *graph.Graph[state] {
	return graph.New[state]().
		AddNode("orchestrator", node("orchestrator")).
		AddNode("tool", func(_ context.Context, s state) (state, error) {
			s = visit(s, "tool")
			s.Count++
			return s, nil
		}).
		AddNode("respond", node("respond")).
		AddEdge(graph.Start, "orchestrator").
		AddRouter("orchestrator", func(_ context.Context, s state) (string, error) {
			if limit >= 0 && s.Count >= limit {
				return "respond", nil
			}
			return "tool", nil
		}, "tool", "respond").
		AddEdge("tool", "orchestrator").
		AddEdge("respond", graph.End)
}

func TestLoopEnds(t *testing.T) {
	got, err := compile(t, loop(2), graph.Options[state]{}).Run(context.Background(), "", state{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"orchestrator", "tool", "orchestrator", "tool", "orchestrator", "respond"}
	if !slices.Equal(got.Visited, want) || got.Count != 2 {
		t.Errorf("visited %v count %d, want %v count 2", got.Visited, got.Count, want)
	}
}

func TestStepLimit(t *testing.T) {
	tests := []struct {
		name      string
		maxSteps  int
		wantSteps int
	}{
		{"explicit", 5, 5},
		{"default", 0, graph.DefaultMaxSteps},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := compile(t, loop(-1), graph.Options[state]{MaxSteps: tt.maxSteps})
			got, err := r.Run(context.Background(), "", state{})
			if !errors.Is(err, graph.ErrStepLimit) {
				t.Fatalf("err = %v, want ErrStepLimit", err)
			}
			if len(got.Visited) != tt.wantSteps {
				t.Errorf("ran %d nodes, want %d", len(got.Visited), tt.wantSteps)
			}
			if msg := err.Error(); !strings.Contains(msg, "orchestrator → tool") {
				t.Errorf("error %q does not name the loop's nodes", msg)
			}
		})
	}
}

func TestNodeError(t *testing.T) {
	boom := nadine.Errorf(nadine.EUNAVAILABLE, "model down")
	var ended []string
	var endErr error
	hook := graph.Hook[state]{OnNodeEnd: func(_ context.Context, ev graph.NodeEvent, _ state) {
		ended = append(ended, ev.Name)
		if ev.Err != nil {
			endErr = ev.Err
		}
	}}
	g := graph.New[state]().
		AddNode("a", node("a")).
		AddNode("b", func(context.Context, state) (state, error) { return state{}, boom }).
		AddNode("c", node("c")).
		AddEdge(graph.Start, "a").AddEdge("a", "b").AddEdge("b", "c").AddEdge("c", graph.End)
	got, err := compile(t, g, graph.Options[state]{Hooks: []graph.Hook[state]{hook}}).Run(context.Background(), "", state{})
	if !errors.Is(err, boom) || nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
		t.Fatalf("err = %v (code %q), want the node's error", err, nadine.ErrorCode(err))
	}
	if !strings.Contains(err.Error(), `node "b"`) {
		t.Errorf("error %q does not name the node", err)
	}
	if want := []string{"a"}; !slices.Equal(got.Visited, want) {
		t.Errorf("state after failure visited %v, want %v (the state before the failing node)", got.Visited, want)
	}
	if want := []string{"a", "b"}; !slices.Equal(ended, want) || endErr != boom {
		t.Errorf("hook saw ends %v with error %v, want %v with %v", ended, endErr, want, boom)
	}
}

func TestNodePanic(t *testing.T) {
	g := graph.New[state]().
		AddNode("a", func(context.Context, state) (state, error) { panic("oops") }).
		AddEdge(graph.Start, "a").AddEdge("a", graph.End)
	_, err := compile(t, g, graph.Options[state]{}).Run(context.Background(), "", state{})
	if nadine.ErrorCode(err) != nadine.EINTERNAL || !strings.Contains(err.Error(), "oops") {
		t.Errorf("err = %v, want an internal error naming the panic", err)
	}
}

func TestRouterErrors(t *testing.T) {
	routeErr := errors.New("no idea")
	tests := []struct {
		name   string
		router graph.Router[state]
		want   string
	}{
		{"undeclared target", func(context.Context, state) (string, error) { return "elsewhere", nil }, `chose "elsewhere"`},
		{"error", func(context.Context, state) (string, error) { return "", routeErr }, "no idea"},
		{"panic", func(context.Context, state) (string, error) { panic("lost") }, "lost"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := graph.New[state]().
				AddNode("a", node("a")).
				AddNode("b", node("b")).
				AddEdge(graph.Start, "a").
				AddRouter("a", tt.router, "b", graph.End).
				AddEdge("b", graph.End)
			got, err := compile(t, g, graph.Options[state]{}).Run(context.Background(), "", state{})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), `router after "a"`) {
				t.Fatalf("err = %v, want one naming the router and %q", err, tt.want)
			}
			if want := []string{"a"}; !slices.Equal(got.Visited, want) {
				t.Errorf("visited %v, want %v", got.Visited, want)
			}
		})
	}
}

type ctxKey struct{}

func TestContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), ctxKey{}, "hello"))
	defer cancel()
	g := graph.New[state]().
		AddNode("a", func(ctx context.Context, s state) (state, error) {
			s.Answer, _ = ctx.Value(ctxKey{}).(string) // the run's context reaches nodes
			cancel()
			return visit(s, "a"), nil
		}).
		AddNode("b", node("b")).
		AddEdge(graph.Start, "a").AddEdge("a", "b").AddEdge("b", graph.End)
	got, err := compile(t, g, graph.Options[state]{}).Run(ctx, "", state{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if want := []string{"a"}; !slices.Equal(got.Visited, want) || got.Answer != "hello" {
		t.Errorf("visited %v answer %q, want %v and the context's value", got.Visited, got.Answer, want)
	}
}

func TestCompileErrors(t *testing.T) {
	noop := node("x")
	route := func(context.Context, state) (string, error) { return graph.End, nil }
	merge := func(base state, _ []state) state { return base }
	tests := []struct {
		name string
		g    *graph.Graph[state]
		want string
	}{
		{"no entry", graph.New[state]().AddNode("a", noop).AddEdge("a", graph.End), "no entry"},
		{"duplicate node", graph.New[state]().AddNode("a", noop).AddNode("a", noop).AddEdge(graph.Start, "a").AddEdge("a", graph.End), `duplicate node name "a"`},
		{"duplicate group", graph.New[state]().AddNode("a", noop).AddParallel("a", merge, "a"), `duplicate node name "a"`},
		{"reserved name", graph.New[state]().AddNode(graph.End, noop), "reserved"},
		{"empty name", graph.New[state]().AddNode("", noop), "empty node name"},
		{"nil node", graph.New[state]().AddNode("a", nil), "nil function"},
		{"unknown target", graph.New[state]().AddNode("a", noop).AddEdge(graph.Start, "a").AddEdge("a", "b"), `unknown node "b"`},
		{"unknown source", graph.New[state]().AddNode("a", noop).AddEdge(graph.Start, "a").AddEdge("a", graph.End).AddEdge("z", "a"), `edge from unknown node "z"`},
		{"unknown router target", graph.New[state]().AddNode("a", noop).AddEdge(graph.Start, "a").AddRouter("a", route, graph.End, "nowhere"), `unknown node "nowhere"`},
		{"router without targets", graph.New[state]().AddNode("a", noop).AddEdge(graph.Start, "a").AddRouter("a", route), "no possible targets"},
		{"nil router", graph.New[state]().AddNode("a", noop).AddEdge(graph.Start, "a").AddRouter("a", nil, graph.End), "nil function"},
		{"two edges", graph.New[state]().AddNode("a", noop).AddNode("b", noop).AddEdge(graph.Start, "a").AddEdge("a", "b").AddEdge("a", graph.End).AddEdge("b", graph.End), "more than one outgoing"},
		{"edge and router", graph.New[state]().AddNode("a", noop).AddEdge(graph.Start, "a").AddEdge("a", graph.End).AddRouter("a", route, graph.End), "more than one outgoing"},
		{"edge from End", graph.New[state]().AddNode("a", noop).AddEdge(graph.Start, "a").AddEdge("a", graph.End).AddEdge(graph.End, "a"), "no edge can leave"},
		{"edge to Start", graph.New[state]().AddNode("a", noop).AddEdge(graph.Start, "a").AddEdge("a", graph.Start), "no edge can enter"},
		{"unreachable", graph.New[state]().AddNode("a", noop).AddNode("b", noop).AddEdge(graph.Start, "a").AddEdge("a", graph.End).AddEdge("b", graph.End), `node "b" is unreachable`},
		{"dead end", graph.New[state]().AddNode("a", noop).AddEdge(graph.Start, "a"), `node "a" leads nowhere`},
		{"unknown member", graph.New[state]().AddParallel("p", merge, "a").AddEdge(graph.Start, "p").AddEdge("p", graph.End), `unknown member "a"`},
		{"nil merge", graph.New[state]().AddNode("a", noop).AddParallel("p", nil, "a"), "nil merge"},
		{"no members", graph.New[state]().AddParallel("p", merge), "no members"},
		{"member twice", graph.New[state]().AddNode("a", noop).AddParallel("p", merge, "a", "a"), "listed twice"},
		{"group as member", graph.New[state]().AddNode("a", noop).AddParallel("p", merge, "a").AddParallel("q", merge, "p").AddEdge(graph.Start, "q").AddEdge("q", graph.End), "is a parallel group"},
		{"member of two groups", graph.New[state]().AddNode("a", noop).AddParallel("p", merge, "a").AddParallel("q", merge, "a").AddEdge(graph.Start, "p").AddEdge("p", "q").AddEdge("q", graph.End), "member of parallel groups"},
		{"member edge never taken", graph.New[state]().AddNode("a", noop).AddNode("b", noop).AddParallel("p", merge, "a").AddEdge(graph.Start, "p").AddEdge("p", "b").AddEdge("b", graph.End).AddEdge("a", "b"), `edge from "a" is never taken`},
		{"unreachable group", graph.New[state]().AddNode("a", noop).AddNode("b", noop).AddParallel("p", merge, "a").AddEdge(graph.Start, "b").AddEdge("b", graph.End).AddEdge("p", graph.End), `parallel group "p" is unreachable`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := tt.g.Compile(graph.Options[state]{})
			if err == nil {
				t.Fatalf("Compile succeeded, want an error containing %q", tt.want)
			}
			if r != nil {
				t.Errorf("Compile returned a Runnable with its error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
			if got := nadine.ErrorCode(err); got != nadine.EINVALID {
				t.Errorf("code %q, want %q", got, nadine.EINVALID)
			}
		})
	}
}

func TestCompileReportsAll(t *testing.T) {
	g := graph.New[state]().AddNode("a", nil).AddNode("b", node("b")).AddEdge("b", "c")
	_, err := g.Compile(graph.Options[state]{})
	for _, want := range []string{"nil function", "no entry", `unknown node "c"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not contain %q", err, want)
		}
	}
}

// recorder is a hook that records events as "start:name" and "end:name".
type recorder struct {
	mu     sync.Mutex
	events []string
	steps  map[string]int
}

func (r *recorder) hook() graph.Hook[state] {
	rec := func(kind string) func(context.Context, graph.NodeEvent, state) {
		return func(_ context.Context, ev graph.NodeEvent, _ state) {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.events = append(r.events, kind+":"+ev.Name)
			if r.steps == nil {
				r.steps = map[string]int{}
			}
			r.steps[ev.Name] = ev.Step
		}
	}
	return graph.Hook[state]{OnNodeStart: rec("start"), OnNodeEnd: rec("end")}
}

func TestHookOrder(t *testing.T) {
	var rec recorder
	var second []string
	other := graph.Hook[state]{OnNodeStart: func(_ context.Context, ev graph.NodeEvent, _ state) {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		second = append(second, ev.Name)
		// Hooks run in order: the first has already seen this start (not
		// necessarily as its latest event: the parallel members m1 and m2
		// start side by side).
		if !slices.Contains(rec.events, "start:"+ev.Name) {
			t.Errorf("second hook saw %s before the first", ev.Name)
		}
	}}
	g := graph.New[state]().
		AddNode("a", node("a")).
		AddNode("m1", node("m1")).
		AddNode("m2", node("m2")).
		AddParallel("p", func(base state, rs []state) state { return base }, "m1", "m2").
		AddNode("b", node("b")).
		AddEdge(graph.Start, "a").AddEdge("a", "p").AddEdge("p", "b").AddEdge("b", graph.End)
	r := compile(t, g, graph.Options[state]{Hooks: []graph.Hook[state]{rec.hook(), other}})
	if _, err := r.Run(context.Background(), "", state{}); err != nil {
		t.Fatal(err)
	}
	got := rec.events
	if len(got) != 10 {
		t.Fatalf("events %v, want 10", got)
	}
	// Members' events may interleave; each member starts before it ends.
	members := slices.Clone(got[3:7])
	if slices.Index(members, "start:m1") > slices.Index(members, "end:m1") ||
		slices.Index(members, "start:m2") > slices.Index(members, "end:m2") {
		t.Errorf("member events out of order: %v", members)
	}
	slices.Sort(members)
	got = slices.Concat(got[:3], members, got[7:])
	want := []string{"start:a", "end:a", "start:p", "end:m1", "end:m2", "start:m1", "start:m2", "end:p", "start:b", "end:b"}
	if !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	if wantSteps := map[string]int{"a": 1, "p": 2, "m1": 2, "m2": 2, "b": 3}; !mapsEqual(rec.steps, wantSteps) {
		t.Errorf("steps %v, want %v", rec.steps, wantSteps)
	}
	if want := []string{"a", "p", "m1", "m2", "b"}; len(second) != 5 || second[0] != "a" || second[1] != "p" || second[4] != "b" {
		t.Errorf("second hook saw %v, want %v (members in any order)", second, want)
	}
}

func mapsEqual(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if bv, ok := b[k]; !ok || bv != v {
			return false
		}
	}
	return true
}

// clock is a fake clock advancing one second per reading.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Second)
	return c.now
}

// TestTraceHook: each node is a step of the trace, named, timed, with its
// error or interrupt, and hangs from the step the run was in (a group's
// members from their group's), as does what a node records.
func TestTraceHook(t *testing.T) {
	boom := errors.New("boom")
	g := graph.New[state]().
		AddNode("a", node("a")).
		AddNode("m1", func(ctx context.Context, s state) (state, error) {
			nadine.TraceFrom(ctx).AddToolCall(nadine.ToolCallRecord{Tool: "tool", Step: nadine.StepOf(ctx).ID})
			return node("m1")(ctx, s)
		}).
		AddNode("m2", node("m2")).
		AddParallel("p", func(base state, rs []state) state { return base }, "m1", "m2").
		AddNode("ask", func(_ context.Context, s state) (state, error) {
			if s.Answer == "" {
				return s, graph.Interrupt("what is your name?")
			}
			return s, boom
		}).
		AddEdge(graph.Start, "a").AddEdge("a", "p").AddEdge("p", "ask").AddEdge("ask", graph.End)
	clk := &clock{now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	cps := &graph.MemoryCheckpointer{}
	r := compile(t, g, graph.Options[state]{Hooks: []graph.Hook[state]{graph.TraceHook[state]()}, Now: clk.Now, Checkpoints: cps})

	tr := nadine.NewTrace("t1", "hi", clk.now)
	ctx, engine := nadine.BeginStep(nadine.WithTrace(context.Background(), tr), "engine:test")
	_, err := r.Run(ctx, "k", state{})
	if !errors.Is(err, graph.ErrInterrupted) {
		t.Fatalf("err = %v, want an interrupt", err)
	}
	engine(nil)
	steps := tr.Snapshot().Steps
	engineID := steps[len(steps)-1].ID
	steps = steps[:len(steps)-1]
	var names []string
	for _, s := range steps {
		names = append(names, s.Name)
	}
	// Members finish in any order, before their group.
	if len(names) != 5 || names[0] != "a" || names[3] != "p" || names[4] != "ask" ||
		!slices.Contains(names[1:3], "m1") || !slices.Contains(names[1:3], "m2") {
		t.Fatalf("trace steps %v, want a, m1/m2, p, ask", names)
	}
	byName := map[string]nadine.Step{}
	for _, s := range steps {
		byName[s.Name] = s
	}
	if got := byName["a"]; got.Duration != time.Second || got.Error != "" || got.Start.IsZero() {
		t.Errorf("step a = %+v, want 1s, no error", got)
	}
	if got := byName["p"]; got.Detail != "parallel group" || got.Duration < 4*time.Second {
		t.Errorf("step p = %+v, want a parallel group covering its members", got)
	}
	if got := byName["m1"]; got.Detail != "in parallel group p" {
		t.Errorf("step m1 detail %q", got.Detail)
	}
	if got := byName["ask"]; got.Error != "" || got.Detail != "interrupted: what is your name?" {
		t.Errorf("step ask = %+v, want an interrupt detail and no error", got)
	}
	ids := map[int]bool{}
	for _, s := range steps {
		want := engineID
		if s.Name == "m1" || s.Name == "m2" {
			want = byName["p"].ID
		}
		if s.ID == 0 || ids[s.ID] || s.ID == engineID || s.Parent != want {
			t.Errorf("step %s: id %d, parent %d; want a new id and parent %d", s.Name, s.ID, s.Parent, want)
		}
		ids[s.ID] = true
	}
	if calls := tr.Snapshot().ToolCalls; len(calls) != 1 || calls[0].Step != byName["m1"].ID {
		t.Errorf("tool calls %+v, want one under m1's step %d", calls, byName["m1"].ID)
	}

	tr2 := nadine.NewTrace("t2", "Ann", clk.now)
	_, err = r.Resume(nadine.WithTrace(context.Background(), tr2), "k", func(s state) state { s.Answer = "Ann"; return s })
	if !errors.Is(err, boom) {
		t.Fatalf("resume err = %v, want boom", err)
	}
	if steps := tr2.Snapshot().Steps; len(steps) != 1 || steps[0].Name != "ask" || steps[0].Error != "boom" {
		t.Errorf("resume trace steps %+v, want ask failing with boom", steps)
	}
	// Without a trace in the context the hook does nothing.
	if _, err := r.Run(context.Background(), "", state{}); !errors.Is(err, graph.ErrInterrupted) {
		t.Errorf("err = %v", err)
	}
}

func TestConcurrentRuns(t *testing.T) {
	r := compile(t, loop(3), graph.Options[state]{})
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			got, err := r.Run(context.Background(), fmt.Sprint(i), state{})
			if err == nil && got.Count != 3 {
				err = fmt.Errorf("count %d, want 3", got.Count)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Error(err)
	}
}
