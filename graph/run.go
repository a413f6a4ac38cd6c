package graph

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/nadine-robot/nadine"
)

// ErrStepLimit is wrapped by the error of a run that exceeded Options.MaxSteps.
var ErrStepLimit = errors.New("graph: step limit exceeded")

// Runnable is a compiled graph. It is immutable and safe for concurrent use.
type Runnable[S any] struct {
	nodes   map[string]NodeFunc[S]
	groups  map[string]group[S]
	edges   map[string]string
	routers map[string]route[S]
	opts    Options[S]
}

// Run runs the graph from Start; key names the thread for checkpoints. Run
// never reads or deletes an earlier checkpoint of key (see Resume).
func (r *Runnable[S]) Run(ctx context.Context, key string, s S) (S, error) {
	next, err := r.successor(ctx, Start, s)
	if err != nil {
		return s, err
	}
	return r.loop(ctx, key, next, s)
}

// loop runs nodes from node until End.
func (r *Runnable[S]) loop(ctx context.Context, key, node string, s S) (S, error) {
	const remember = 8
	var last []string // the last nodes run, for the step limit's message
	for step := 1; node != End; step++ {
		if err := ctx.Err(); err != nil {
			return s, fmt.Errorf("graph: before node %q: %w", node, err)
		}
		if step > r.opts.MaxSteps {
			return s, fmt.Errorf("%w: %d steps run, the last ones %s, next %q (a loop without exit?)",
				ErrStepLimit, r.opts.MaxSteps, strings.Join(last, " → "), node)
		}
		out, err := r.exec(ctx, node, step, s)
		var ie *InterruptError
		if errors.As(err, &ie) {
			return r.interrupt(ctx, key, ie, out)
		}
		if err != nil {
			return s, err
		}
		s = out
		if last = append(last, node); len(last) > remember {
			last = last[1:]
		}
		if node, err = r.successor(ctx, node, s); err != nil {
			return s, err
		}
	}
	return s, nil
}

// successor returns the node that follows from.
func (r *Runnable[S]) successor(ctx context.Context, from string, s S) (to string, err error) {
	if to, ok := r.edges[from]; ok {
		return to, nil
	}
	rt := r.routers[from]
	defer func() {
		if p := recover(); p != nil {
			err = nadine.Errorf(nadine.EINTERNAL, "graph: router after %q panicked: %v", from, p)
		}
	}()
	to, err = rt.fn(ctx, s)
	if err != nil {
		return "", fmt.Errorf("graph: router after %q: %w", from, err)
	}
	if !slices.Contains(rt.possible, to) {
		return "", nadine.Errorf(nadine.EINTERNAL, "graph: router after %q chose %q, not one of %q", from, to, rt.possible)
	}
	return to, nil
}

// exec runs one step: a node or a parallel group.
func (r *Runnable[S]) exec(ctx context.Context, name string, step int, s S) (S, error) {
	if g, ok := r.groups[name]; ok {
		return r.execGroup(ctx, name, g, step, s)
	}
	return r.execNode(ctx, name, "", step, s)
}

// execNode runs one node between its hooks. It returns an interrupt as an
// *InterruptError naming the node, and wraps any other error.
func (r *Runnable[S]) execNode(ctx context.Context, name, parallel string, step int, s S) (S, error) {
	ev := NodeEvent{Name: name, Parallel: parallel, Step: step, Start: r.opts.Now()}
	ctx = r.enter(ctx, ev)
	r.start(ctx, ev, s)
	out, err := call(ctx, r.nodes[name], s)
	ev.Duration, ev.Err = r.opts.Now().Sub(ev.Start), err
	var ie *InterruptError
	switch {
	case errors.As(err, &ie):
		cp := *ie
		cp.Node = name
		ev.Err = &cp
		r.end(ctx, ev, out)
		return out, &cp
	case err != nil:
		r.end(ctx, ev, s)
		if parallel != "" {
			return s, fmt.Errorf("graph: parallel group %q: node %q: %w", parallel, name, err)
		}
		return s, fmt.Errorf("graph: node %q: %w", name, err)
	}
	r.end(ctx, ev, out)
	return out, nil
}

func call[S any](ctx context.Context, fn NodeFunc[S], s S) (out S, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = s, nadine.Errorf(nadine.EINTERNAL, "panic: %v", p)
		}
	}()
	return fn(ctx, s)
}

// execGroup runs a parallel group's members concurrently and merges them.
func (r *Runnable[S]) execGroup(ctx context.Context, name string, g group[S], step int, s S) (out S, err error) {
	ev := NodeEvent{Name: name, Group: true, Step: step, Start: r.opts.Now()}
	ctx = r.enter(ctx, ev)
	r.start(ctx, ev, s)
	defer func() {
		ev.Duration, ev.Err = r.opts.Now().Sub(ev.Start), err
		r.end(ctx, ev, out)
	}()

	mctx, cancel := context.WithCancel(ctx)
	defer cancel()
	results := make([]S, len(g.members))
	errs := make([]error, len(g.members))
	var wg sync.WaitGroup
	for i, m := range g.members {
		wg.Go(func() {
			res, err := r.execNode(mctx, m, name, step, s)
			if errors.Is(err, ErrInterrupted) {
				err = nadine.Errorf(nadine.EINVALID, "graph: parallel group %q: node %q: interrupts are not supported in parallel groups", name, m)
			}
			results[i], errs[i] = res, err
			if err != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	if err := firstError(ctx, errs); err != nil {
		return s, err
	}
	defer func() {
		if p := recover(); p != nil {
			out, err = s, nadine.Errorf(nadine.EINTERNAL, "graph: parallel group %q: merge panicked: %v", name, p)
		}
	}()
	return g.merge(s, slices.Clone(results)), nil
}

// firstError returns the first error in declaration order, skipping the
// cancellations caused by a sibling's failure (ctx itself still live).
func firstError(ctx context.Context, errs []error) error {
	var first error
	for _, err := range errs {
		if err == nil {
			continue
		}
		if ctx.Err() == nil && errors.Is(err, context.Canceled) {
			if first == nil {
				first = err
			}
			continue
		}
		return err
	}
	return first
}

// enter returns the context a node (or group) runs in: ctx as each hook's
// Enter makes it.
func (r *Runnable[S]) enter(ctx context.Context, ev NodeEvent) context.Context {
	for _, h := range r.opts.Hooks {
		if h.Enter != nil {
			ctx = h.Enter(ctx, ev)
		}
	}
	return ctx
}

func (r *Runnable[S]) start(ctx context.Context, ev NodeEvent, s S) {
	for _, h := range r.opts.Hooks {
		if h.OnNodeStart != nil {
			h.OnNodeStart(ctx, ev, s)
		}
	}
}

func (r *Runnable[S]) end(ctx context.Context, ev NodeEvent, s S) {
	for _, h := range r.opts.Hooks {
		if h.OnNodeEnd != nil {
			h.OnNodeEnd(ctx, ev, s)
		}
	}
}
