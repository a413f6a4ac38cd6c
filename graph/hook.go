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

// Hook watches a run; nil functions are skipped. Parallel members call hooks
// from their own goroutines, so a hook must be safe for concurrent use.
type Hook[S any] struct {
	// Enter returns the context the node runs in (a group's members run
	// in their group's), which its OnNodeStart and OnNodeEnd receive too.
	Enter       func(ctx context.Context, ev NodeEvent) context.Context
	OnNodeStart func(ctx context.Context, ev NodeEvent, s S)
	OnNodeEnd   func(ctx context.Context, ev NodeEvent, s S)
}

// TraceHook records each node as a nadine.Step when it ends; a parallel
// group's step covers its members', which hang from it.
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
