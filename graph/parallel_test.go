package graph_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/graph"
)

// mergeVisited appends each result's new visits, in the order given.
func mergeVisited(base state, results []state) state {
	n := len(base.Visited)
	for _, r := range results {
		base.Visited = slices.Concat(base.Visited, r.Visited[n:])
		base.Count += r.Count
	}
	return base
}

// parallel builds start → in → p{members} → out → End.
func parallel(members map[string]graph.NodeFunc[state], order ...string) *graph.Graph[state] {
	g := graph.New[state]().AddNode("in", node("in")).AddNode("out", node("out"))
	for _, name := range order {
		g.AddNode(name, members[name])
	}
	return g.AddParallel("p", mergeVisited, order...).
		AddEdge(graph.Start, "in").AddEdge("in", "p").AddEdge("p", "out").AddEdge("out", graph.End)
}

func TestParallelMergeOrder(t *testing.T) {
	// Each run, the members finish in a chosen order, enforced with
	// channels: a member waits until the one before it in the finishing
	// order is done.
	finishing := [][]string{
		{"a", "b", "c"},
		{"c", "b", "a"},
		{"b", "c", "a"},
		{"c", "a", "b"},
	}
	for _, order := range finishing {
		t.Run(strings.Join(order, ""), func(t *testing.T) {
			done := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{}), "c": make(chan struct{})}
			var mu sync.Mutex
			var finished []string
			member := func(name string) graph.NodeFunc[state] {
				return func(ctx context.Context, s state) (state, error) {
					if i := slices.Index(order, name); i > 0 {
						select {
						case <-done[order[i-1]]:
						case <-ctx.Done():
							return s, ctx.Err()
						case <-time.After(10 * time.Second):
							return s, errors.New(name + ": members do not run concurrently")
						}
					}
					s = visit(s, name)
					s.Count = 1
					mu.Lock()
					finished = append(finished, name)
					mu.Unlock()
					close(done[name])
					return s, nil
				}
			}
			members := map[string]graph.NodeFunc[state]{"a": member("a"), "b": member("b"), "c": member("c")}
			r := compile(t, parallel(members, "a", "b", "c"), graph.Options[state]{})
			got, err := r.Run(context.Background(), "", state{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(finished, order) {
				t.Fatalf("setup: members finished %v, want %v", finished, order)
			}
			if want := []string{"in", "a", "b", "c", "out"}; !slices.Equal(got.Visited, want) || got.Count != 3 {
				t.Errorf("visited %v count %d, want %v count 3 (declaration order)", got.Visited, got.Count, want)
			}
		})
	}
}

func TestParallelConcurrent(t *testing.T) {
	// Every member waits until all have started: this only finishes if
	// they run at the same time. The timeout turns a failure into an error
	// instead of a hang.
	const n = 3
	var wg sync.WaitGroup
	wg.Add(n)
	all := make(chan struct{})
	go func() { wg.Wait(); close(all) }()
	member := func(name string) graph.NodeFunc[state] {
		return func(ctx context.Context, s state) (state, error) {
			wg.Done()
			select {
			case <-all:
				return visit(s, name), nil
			case <-time.After(10 * time.Second):
				return s, errors.New(name + ": the other members never started")
			}
		}
	}
	members := map[string]graph.NodeFunc[state]{"x": member("x"), "y": member("y"), "z": member("z")}
	got, err := compile(t, parallel(members, "x", "y", "z"), graph.Options[state]{}).Run(context.Background(), "", state{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"in", "x", "y", "z", "out"}; !slices.Equal(got.Visited, want) {
		t.Errorf("visited %v, want %v", got.Visited, want)
	}
}

func TestParallelErrors(t *testing.T) {
	errA, errB := errors.New("a failed"), nadine.Errorf(nadine.EUNAVAILABLE, "b failed")
	tests := []struct {
		name    string
		members func() map[string]graph.NodeFunc[state]
		want    error
	}{
		{
			// a blocks until b's failure cancels its context: b's error is
			// reported, not a's cancellation.
			name: "sibling cancelled",
			members: func() map[string]graph.NodeFunc[state] {
				return map[string]graph.NodeFunc[state]{
					"a": func(ctx context.Context, s state) (state, error) {
						<-ctx.Done()
						return s, ctx.Err()
					},
					"b": func(_ context.Context, s state) (state, error) { return s, errB },
				}
			},
			want: errB,
		},
		{
			// Both fail with their own errors, b first: the first in
			// declaration order wins.
			name: "declaration order",
			members: func() map[string]graph.NodeFunc[state] {
				bFailing := make(chan struct{})
				return map[string]graph.NodeFunc[state]{
					"a": func(_ context.Context, s state) (state, error) {
						<-bFailing
						return s, errA
					},
					"b": func(_ context.Context, s state) (state, error) {
						close(bFailing)
						return s, errB
					},
				}
			},
			want: errA,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var groupErr error
			hook := graph.Hook[state]{OnNodeEnd: func(_ context.Context, ev graph.NodeEvent, _ state) {
				if ev.Group {
					groupErr = ev.Err
				}
			}}
			r := compile(t, parallel(tt.members(), "a", "b"), graph.Options[state]{Hooks: []graph.Hook[state]{hook}})
			got, err := r.Run(context.Background(), "", state{})
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), `parallel group "p"`) {
				t.Errorf("error %q does not name the group", err)
			}
			if want := []string{"in"}; !slices.Equal(got.Visited, want) {
				t.Errorf("visited %v, want %v", got.Visited, want)
			}
			if !errors.Is(groupErr, tt.want) {
				t.Errorf("hook saw group error %v, want %v", groupErr, tt.want)
			}
		})
	}
}

func TestParallelInterruptRejected(t *testing.T) {
	members := map[string]graph.NodeFunc[state]{
		"a": node("a"),
		"b": func(_ context.Context, s state) (state, error) { return s, graph.Interrupt("no") },
	}
	cps := &graph.MemoryCheckpointer{}
	_, err := compile(t, parallel(members, "a", "b"), graph.Options[state]{Checkpoints: cps}).Run(context.Background(), "k", state{})
	if err == nil || errors.Is(err, graph.ErrInterrupted) || nadine.ErrorCode(err) != nadine.EINVALID {
		t.Fatalf("err = %v, want an invalid-use error", err)
	}
	if _, err := cps.LoadCheckpoint(context.Background(), "k"); nadine.ErrorCode(err) != nadine.ENOTFOUND {
		t.Errorf("a checkpoint was saved: %v", err)
	}
}

func TestParallelMergePanic(t *testing.T) {
	g := graph.New[state]().AddNode("a", node("a")).
		AddParallel("p", func(state, []state) state { panic("bad merge") }, "a").
		AddEdge(graph.Start, "p").AddEdge("p", graph.End)
	_, err := compile(t, g, graph.Options[state]{}).Run(context.Background(), "", state{})
	if nadine.ErrorCode(err) != nadine.EINTERNAL {
		t.Errorf("err = %v, want an internal error", err)
	}
}
