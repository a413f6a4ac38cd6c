package nadine_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
)

// TestCriticalPath: the longest chain of calls each started after the
// previous ended; calls side by side count once; a call that started
// before the turn's end counts even when it is recorded after Finish (a
// streamed answer whose last fields come after the reply); one that
// started after the end does not.
func TestCriticalPath(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	call := func(start, latency int) nadine.ModelCall {
		return nadine.ModelCall{Role: "r", Start: t0.Add(ms(start)), Latency: ms(latency)}
	}
	tr := nadine.NewTrace("t", "hi", t0)
	tr.AddModelCall(call(0, 300))   // intent
	tr.AddModelCall(call(0, 350))   // orchestrator, beside it
	tr.AddModelCall(call(360, 100)) // a search router after the plan
	tr.Finish(t0.Add(ms(700)))
	if got := tr.Snapshot().CriticalPath; got != 2 {
		t.Errorf("critical path %d, want 2", got)
	}
	tr.AddModelCall(call(470, 900)) // the response, ending after the reply
	tr.AddModelCall(call(800, 100)) // started after the end: background
	if got := tr.Snapshot().CriticalPath; got != 3 {
		t.Errorf("critical path with the late call %d, want 3", got)
	}
}

// TestStepScopes: a step opened in a context is the parent of the steps
// and the records made with it, whatever their times; a context carrying
// another trace's step starts at the new trace's turn; without a trace
// nothing is opened.
func TestStepScopes(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	tr := nadine.NewTrace("t1", "hi", t0)
	tr.SetClock(func() time.Time { return t0 }) // every step lasts no time at all
	ctx := nadine.WithTrace(context.Background(), tr)
	if s := nadine.StepOf(ctx); s.ID != 0 || s.Parent != 0 {
		t.Errorf("the turn's context is in step %+v", s)
	}
	ectx, endEngine := nadine.BeginStep(ctx, "engine")
	nctx, endNode := nadine.BeginStep(ectx, "node")
	tr.AddModelCall(nadine.ModelCall{Role: "r", Start: t0.Add(-time.Hour), Step: nadine.StepOf(nctx).ID}) // a clock read elsewhere
	endNode(nil)
	leaf := nadine.Step{Name: "leaf", Parent: nadine.StepOf(ectx).ID}
	tr.AddStep(leaf)
	endEngine(errors.New("engine: boom"))

	d := tr.Snapshot()
	by := map[string]nadine.Step{}
	for _, s := range d.Steps {
		by[s.Name] = s
	}
	e, n, l := by["engine"], by["node"], by["leaf"]
	if e.ID == 0 || e.Parent != 0 || e.Error != "engine: boom" || n.ID == 0 || n.Parent != e.ID || l.ID == 0 || l.Parent != e.ID ||
		l.ID == n.ID || l.ID == e.ID || n.ID == e.ID {
		t.Errorf("steps %+v: want engine at the turn, node and leaf in engine, distinct ids", d.Steps)
	}
	if len(d.ModelCalls) != 1 || d.ModelCalls[0].Step != n.ID {
		t.Errorf("model calls %+v, want one in the node's step %d", d.ModelCalls, n.ID)
	}
	other := nadine.NewTrace("t2", "hi", t0)
	if s := nadine.StepOf(nadine.WithTrace(nctx, other)); s.ID != 0 {
		t.Errorf("a new trace's context is in step %d of another trace", s.ID)
	}
	bare := context.Background()
	if got, end := nadine.BeginStep(bare, "x"); got != bare || nadine.StepOf(nadine.OpenStep(bare)).ID != 0 {
		t.Errorf("a context without a trace got a step")
	} else {
		end(nil)
	}
}
