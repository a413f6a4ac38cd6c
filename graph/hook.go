package graph

import (
	"context"
	"errors"
	"time"

	"github.com/nadine-robot/nadine"
)

// NodeEvent describes one node's run to hooks.
type NodeEvent struct {
	Name string
	// Group is true when the event is a parallel group's (as a whole).
	Group bool
	// Parallel names the parallel group the node runs in, or is "".
	Parallel string
	// Step is the 1-based step of the run (or resume) the node belongs
	// to; the members of a parallel group share their group's step.
	Step  int
	Start time.Time
	// Duration and Err are set in OnNodeEnd only. Err is the node's own
	// error (not wrapped by the runner), an *InterruptError, or nil; for a
	// parallel group, the error the group fails with.
	Duration time.Duration
	Err      error
}

// Hook watches a run. Any function may be nil. Hooks are called
// synchronously, in the order of Options.Hooks; the members of a parallel
// group call them from their own goroutines, so a hook must be safe for
// concurrent use. A parallel group's start comes before its members' and
// its end after theirs. OnNodeEnd receives the state the node returned (the
// state it received when it failed).
type Hook[S any] struct {
	// Enter returns the context the node runs in (a group's members run
	// in their group's), which its OnNodeStart and OnNodeEnd receive too.
	Enter       func(ctx context.Context, ev NodeEvent) context.Context
	OnNodeStart func(ctx context.Context, ev NodeEvent, s S)
	OnNodeEnd   func(ctx context.Context, ev NodeEvent, s S)
}

// TraceHook returns a hook that records each node as a nadine.Step in the
// trace carried by the context (nadine.TraceFrom), when it ends: steps
// appear in the order nodes finish, with their start times, so a parallel
// group's members (finishing in any order) come before the group's own
// step, whose Detail says "parallel group" and whose duration covers them;
// each member's Detail names its group. Each node runs in its step
// (nadine.OpenStep): what it records hangs from it, a member's step from
// its group's. A node's error goes to the step's Error; an interrupt is
// noted in Detail, as it is not a failure.
func TraceHook[S any]() Hook[S] {
	return Hook[S]{Enter: func(ctx context.Context, _ NodeEvent) context.Context {
		return nadine.OpenStep(ctx)
	}, OnNodeEnd: func(ctx context.Context, ev NodeEvent, _ S) {
		step := nadine.StepOf(ctx)
		step.Name, step.Start, step.Duration = ev.Name, ev.Start, ev.Duration
		switch {
		case ev.Group:
			step.Detail = "parallel group"
		case ev.Parallel != "":
			step.Detail = "in parallel group " + ev.Parallel
		}
		var ie *InterruptError
		switch {
		case errors.As(ev.Err, &ie):
			step.Detail = join(step.Detail, "interrupted: "+ie.Reason)
		case ev.Err != nil:
			step.Error = ev.Err.Error()
		}
		nadine.TraceFrom(ctx).AddStep(step)
	}}
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
