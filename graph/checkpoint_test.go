package graph_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine/internal/golden"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/graph"
)

// confirm builds the name-confirmation graph: classify → ask → (router)
// greet or End. ask interrupts until the state holds an answer; with after
// set, it interrupts after asking instead (resume continues at the router).
func confirm(after bool) *graph.Graph[state] {
	return graph.New[state]().
		AddNode("classify", node("classify")).
		AddNode("ask", func(_ context.Context, s state) (state, error) {
			s = visit(s, "ask")
			if after && s.Count == 0 {
				s.Count++
				return s, graph.InterruptAfter("is your name Alice?")
			}
			if !after && s.Answer == "" {
				return s, graph.Interrupt("is your name Alice?")
			}
			return s, nil
		}).
		AddNode("greet", node("greet")).
		AddEdge(graph.Start, "classify").
		AddEdge("classify", "ask").
		AddRouter("ask", func(_ context.Context, s state) (string, error) {
			if s.Answer == "yes" {
				return "greet", nil
			}
			return graph.End, nil
		}, "greet", graph.End).
		AddEdge("greet", graph.End)
}

func answer(a string) func(state) state {
	return func(s state) state { s.Answer = a; return s }
}

func TestInterruptResume(t *testing.T) {
	ctx := context.Background()
	cps := &graph.MemoryCheckpointer{}
	r := compile(t, confirm(false), graph.Options[state]{Checkpoints: cps})

	if _, ok, err := r.Pending(ctx, "u1"); ok || err != nil {
		t.Fatalf("Pending before any run = %v, %v; want none", ok, err)
	}
	got, err := r.Run(ctx, "u1", state{})
	var ie *graph.InterruptError
	if !errors.As(err, &ie) || !errors.Is(err, graph.ErrInterrupted) {
		t.Fatalf("Run err = %v, want an *InterruptError", err)
	}
	if want := (graph.InterruptError{Reason: "is your name Alice?", Node: "ask", Key: "u1", Saved: true}); *ie != want {
		t.Errorf("interrupt = %+v, want %+v", *ie, want)
	}
	if want := []string{"classify", "ask"}; !slices.Equal(got.Visited, want) {
		t.Errorf("state at the interrupt visited %v, want %v", got.Visited, want)
	}
	cp, ok, err := r.Pending(ctx, "u1")
	if err != nil || !ok || cp.Node != "ask" || cp.After || !slices.Equal(cp.State.Visited, got.Visited) {
		t.Fatalf("Pending = %+v, %v, %v; want the checkpoint at ask", cp, ok, err)
	}
	// Other keys are independent.
	if _, ok, _ := r.Pending(ctx, "u2"); ok {
		t.Error("Pending(u2) found a checkpoint")
	}

	// Next turn: the answer arrives; ask runs again and the run ends.
	got, err = r.Resume(ctx, "u1", answer("yes"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"classify", "ask", "ask", "greet"}; !slices.Equal(got.Visited, want) {
		t.Errorf("resumed run visited %v, want %v", got.Visited, want)
	}
	if _, ok, _ := r.Pending(ctx, "u1"); ok {
		t.Error("the checkpoint is still there after the resumed run ended")
	}
	if _, err := r.Resume(ctx, "u1", nil); nadine.ErrorCode(err) != nadine.ENOTFOUND {
		t.Errorf("second Resume err = %v, want ENOTFOUND", err)
	}
}

func TestInterruptAfter(t *testing.T) {
	ctx := context.Background()
	cps := &graph.MemoryCheckpointer{}
	r := compile(t, confirm(true), graph.Options[state]{Checkpoints: cps})
	if _, err := r.Run(ctx, "u1", state{}); !errors.Is(err, graph.ErrInterrupted) {
		t.Fatalf("Run err = %v, want an interrupt", err)
	}
	if cp, ok, _ := r.Pending(ctx, "u1"); !ok || !cp.After {
		t.Fatalf("Pending = %+v, %v; want a checkpoint after ask", cp, ok)
	}
	// The router after ask decides on the updated state; ask does not run
	// again.
	got, err := r.Resume(ctx, "u1", answer("yes"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"classify", "ask", "greet"}; !slices.Equal(got.Visited, want) {
		t.Errorf("resumed run visited %v, want %v", got.Visited, want)
	}
}

func TestResumeAfterRestart(t *testing.T) {
	ctx := context.Background()
	cps := &graph.MemoryCheckpointer{} // stands for the database
	before := compile(t, confirm(false), graph.Options[state]{Checkpoints: cps})
	if _, err := before.Run(ctx, "u1", state{Count: 7}); !errors.Is(err, graph.ErrInterrupted) {
		t.Fatalf("Run err = %v, want an interrupt", err)
	}
	// A new process builds the graph again and finds the checkpoint.
	after := compile(t, confirm(false), graph.Options[state]{Checkpoints: cps})
	got, err := after.Resume(ctx, "u1", answer("no"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"classify", "ask", "ask"}; !slices.Equal(got.Visited, want) || got.Count != 7 || got.Answer != "no" {
		t.Errorf("resumed state %+v, want visited %v, count 7, answer no", got, want)
	}
}

func TestResumeFailureKeepsCheckpoint(t *testing.T) {
	ctx := context.Background()
	cps := &graph.MemoryCheckpointer{}
	fail := true
	g := graph.New[state]().
		AddNode("ask", func(_ context.Context, s state) (state, error) {
			if s.Answer == "" {
				return s, graph.Interrupt("name?")
			}
			return visit(s, "ask"), nil
		}).
		AddNode("respond", func(_ context.Context, s state) (state, error) {
			if fail {
				return s, nadine.Errorf(nadine.EUNAVAILABLE, "model down")
			}
			return visit(s, "respond"), nil
		}).
		AddEdge(graph.Start, "ask").AddEdge("ask", "respond").AddEdge("respond", graph.End)
	r := compile(t, g, graph.Options[state]{Checkpoints: cps})
	if _, err := r.Run(ctx, "u1", state{}); !errors.Is(err, graph.ErrInterrupted) {
		t.Fatalf("Run err = %v", err)
	}
	if _, err := r.Resume(ctx, "u1", answer("Ann")); nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
		t.Fatalf("Resume err = %v, want the node's error", err)
	}
	cp, ok, err := r.Pending(ctx, "u1")
	if err != nil || !ok || cp.State.Answer != "" {
		t.Fatalf("after a failed resume: Pending = %+v, %v, %v; want the original checkpoint", cp, ok, err)
	}
	fail = false
	got, err := r.Resume(ctx, "u1", answer("Ann"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"ask", "respond"}; !slices.Equal(got.Visited, want) {
		t.Errorf("visited %v, want %v", got.Visited, want)
	}
}

func TestReinterruptReplacesCheckpoint(t *testing.T) {
	ctx := context.Background()
	cps := &graph.MemoryCheckpointer{}
	r := compile(t, confirm(false), graph.Options[state]{Checkpoints: cps})
	if _, err := r.Run(ctx, "u1", state{}); !errors.Is(err, graph.ErrInterrupted) {
		t.Fatal(err)
	}
	// The user did not answer: ask interrupts again.
	if _, err := r.Resume(ctx, "u1", nil); !errors.Is(err, graph.ErrInterrupted) {
		t.Fatalf("Resume err = %v, want another interrupt", err)
	}
	cp, ok, _ := r.Pending(ctx, "u1")
	if want := []string{"classify", "ask", "ask"}; !ok || !slices.Equal(cp.State.Visited, want) {
		t.Errorf("checkpoint state %v, want %v", cp.State.Visited, want)
	}
	if err := r.Discard(ctx, "u1"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := r.Pending(ctx, "u1"); ok {
		t.Error("Discard left the checkpoint")
	}
}

func TestInterruptNotSaved(t *testing.T) {
	tests := []struct {
		name string
		cps  graph.Checkpointer
		key  string
	}{
		{"no checkpointer", nil, "u1"},
		{"no key", &graph.MemoryCheckpointer{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := compile(t, confirm(false), graph.Options[state]{Checkpoints: tt.cps})
			_, err := r.Run(context.Background(), tt.key, state{})
			var ie *graph.InterruptError
			if !errors.As(err, &ie) || ie.Saved || !strings.Contains(err.Error(), "no checkpoint saved") {
				t.Fatalf("err = %v, want an unsaved interrupt", err)
			}
		})
	}
	r := compile(t, confirm(false), graph.Options[state]{})
	if _, err := r.Resume(context.Background(), "u1", nil); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("Resume without a checkpointer: err = %v, want EINVALID", err)
	}
}

func TestBadCheckpoints(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		data string
		want string
	}{
		{"not JSON", `{"version":`, "decode checkpoint"},
		{"other version", `{"version":2,"node":"ask","state":{}}`, "version 2"},
		{"node gone", `{"version":1,"node":"old_node","state":{}}`, `"old_node"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cps := &graph.MemoryCheckpointer{}
			if err := cps.SaveCheckpoint(ctx, "u1", []byte(tt.data)); err != nil {
				t.Fatal(err)
			}
			r := compile(t, confirm(false), graph.Options[state]{Checkpoints: cps})
			_, err := r.Resume(ctx, "u1", nil)
			if nadine.ErrorCode(err) != nadine.EINVALID || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want EINVALID containing %q", err, tt.want)
			}
		})
	}
}

// failingStore fails every call.
type failingStore struct{}

func (failingStore) SaveCheckpoint(context.Context, string, []byte) error {
	return nadine.Errorf(nadine.EUNAVAILABLE, "disk full")
}
func (failingStore) LoadCheckpoint(context.Context, string) ([]byte, error) {
	return nil, nadine.Errorf(nadine.EUNAVAILABLE, "disk gone")
}
func (failingStore) DeleteCheckpoint(context.Context, string) error { return nil }

func TestCheckpointStoreErrors(t *testing.T) {
	r := compile(t, confirm(false), graph.Options[state]{Checkpoints: failingStore{}})
	_, err := r.Run(context.Background(), "u1", state{})
	if errors.Is(err, graph.ErrInterrupted) || nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
		t.Errorf("Run err = %v, want the store's error", err)
	}
	if _, err := r.Resume(context.Background(), "u1", nil); nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
		t.Errorf("Resume err = %v, want the store's error", err)
	}
}

func TestCheckpointGolden(t *testing.T) {
	cps := &graph.MemoryCheckpointer{}
	stamp := time.Date(2025, 3, 14, 9, 26, 53, 0, time.FixedZone("SGT", 8*3600))
	r := compile(t, confirm(false), graph.Options[state]{
		Checkpoints: cps,
		Now:         func() time.Time { return stamp },
	})
	if _, err := r.Run(context.Background(), "u1", state{Count: 2}); !errors.Is(err, graph.ErrInterrupted) {
		t.Fatal(err)
	}
	got, err := cps.LoadCheckpoint(context.Background(), "u1")
	if err != nil {
		t.Fatal(err)
	}
	want := golden.Check(t, "checkpoint", got)
	// The golden checkpoint still resumes.
	if err := cps.SaveCheckpoint(context.Background(), "u2", want); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Resume(context.Background(), "u2", answer("yes")); err != nil {
		t.Errorf("resuming the golden checkpoint: %v", err)
	}
}

func TestMemoryCheckpointerCopies(t *testing.T) {
	ctx := context.Background()
	var c graph.MemoryCheckpointer
	data := []byte("abc")
	if err := c.SaveCheckpoint(ctx, "k", data); err != nil {
		t.Fatal(err)
	}
	data[0] = 'x'
	got, err := c.LoadCheckpoint(ctx, "k")
	if err != nil || string(got) != "abc" {
		t.Fatalf("Load = %q, %v; want abc", got, err)
	}
	got[0] = 'y'
	if again, _ := c.LoadCheckpoint(ctx, "k"); string(again) != "abc" {
		t.Errorf("stored data changed through a loaded copy: %q", again)
	}
	if err := c.DeleteCheckpoint(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.LoadCheckpoint(ctx, "k"); nadine.ErrorCode(err) != nadine.ENOTFOUND {
		t.Errorf("Load after delete err = %v, want ENOTFOUND", err)
	}
}
