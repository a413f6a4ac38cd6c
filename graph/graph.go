package graph

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nadine-robot/nadine"
)

// Reserved node names: the entry of the graph and its exit.
const (
	Start = "__start__"
	End   = "__end__"
)

// DefaultMaxSteps is the step limit when Options.MaxSteps is zero.
const DefaultMaxSteps = 25

// NodeFunc is one node; returning Interrupt or InterruptAfter stops the run
// with a checkpoint.
type NodeFunc[S any] func(ctx context.Context, s S) (S, error)

// Router chooses the node that follows another: it returns the next node's
// name, or End. It must return one of the targets declared with AddRouter.
type Router[S any] func(ctx context.Context, s S) (string, error)

// MergeFunc merges a parallel group: results are in declaration order,
// whatever order the members finished in, so merges are deterministic.
type MergeFunc[S any] func(base S, results []S) S

// Graph is a graph under construction. Its methods record mistakes instead
// of failing, so that calls chain; Compile reports them all.
type Graph[S any] struct {
	nodes   map[string]NodeFunc[S]
	groups  map[string]group[S]
	order   []string // node and group names in declaration order
	edges   map[string]string
	routers map[string]route[S]
	errs    []error
}

type group[S any] struct {
	merge   MergeFunc[S]
	members []string
}

type route[S any] struct {
	fn       Router[S]
	possible []string
}

// New returns an empty graph.
func New[S any]() *Graph[S] {
	return &Graph[S]{
		nodes:   map[string]NodeFunc[S]{},
		groups:  map[string]group[S]{},
		edges:   map[string]string{},
		routers: map[string]route[S]{},
	}
}

func (g *Graph[S]) errorf(format string, args ...any) {
	g.errs = append(g.errs, fmt.Errorf(format, args...))
}

// checkName records a mistake and reports false when name cannot name a new
// node or group.
func (g *Graph[S]) checkName(name string) bool {
	switch {
	case name == "":
		g.errorf("empty node name")
	case name == Start || name == End:
		g.errorf("node name %q is reserved", name)
	case g.known(name):
		g.errorf("duplicate node name %q", name)
	default:
		return true
	}
	return false
}

func (g *Graph[S]) known(name string) bool {
	_, n := g.nodes[name]
	_, p := g.groups[name]
	return n || p
}

// AddNode adds a node.
func (g *Graph[S]) AddNode(name string, fn NodeFunc[S]) *Graph[S] {
	if !g.checkName(name) {
		return g
	}
	if fn == nil {
		g.errorf("node %q: nil function", name)
		return g
	}
	g.nodes[name] = fn
	g.order = append(g.order, name)
	return g
}

// AddParallel adds a group whose members run concurrently on copies of its
// input; the first failure in declaration order wins. Members cannot interrupt.
func (g *Graph[S]) AddParallel(name string, merge MergeFunc[S], members ...string) *Graph[S] {
	if !g.checkName(name) {
		return g
	}
	switch {
	case merge == nil:
		g.errorf("parallel group %q: nil merge function", name)
		return g
	case len(members) == 0:
		g.errorf("parallel group %q: no members", name)
		return g
	}
	for i, m := range members {
		if slices.Contains(members[:i], m) {
			g.errorf("parallel group %q: member %q listed twice", name, m)
			return g
		}
	}
	g.groups[name] = group[S]{merge: merge, members: slices.Clone(members)}
	g.order = append(g.order, name)
	return g
}

// checkFrom records a mistake and reports false when from cannot get a
// successor.
func (g *Graph[S]) checkFrom(from string) bool {
	if from == End {
		g.errorf("no edge can leave %s", End)
		return false
	}
	_, e := g.edges[from]
	_, r := g.routers[from]
	if e || r {
		g.errorf("node %q has more than one outgoing edge or router (use AddParallel to fan out)", from)
		return false
	}
	return true
}

// AddEdge adds a fixed edge: after from, run to. Use Start as from for the
// entry and End as to for the exit. A node has one edge or one router.
func (g *Graph[S]) AddEdge(from, to string) *Graph[S] {
	if !g.checkFrom(from) {
		return g
	}
	if to == Start {
		g.errorf("edge %q → %s: no edge can enter %s", from, Start, Start)
		return g
	}
	g.edges[from] = to
	return g
}

// AddRouter adds a conditional edge after from; possible lists r's targets
// so Compile can check them.
func (g *Graph[S]) AddRouter(from string, r Router[S], possible ...string) *Graph[S] {
	if !g.checkFrom(from) {
		return g
	}
	switch {
	case r == nil:
		g.errorf("router after %q: nil function", from)
		return g
	case len(possible) == 0:
		g.errorf("router after %q: no possible targets", from)
		return g
	case slices.Contains(possible, Start):
		g.errorf("router after %q: %s is not a target", from, Start)
		return g
	}
	g.routers[from] = route[S]{fn: r, possible: slices.Clone(possible)}
	return g
}

// successors returns the declared targets that may follow name.
func (g *Graph[S]) successors(name string) []string {
	if to, ok := g.edges[name]; ok {
		return []string{to}
	}
	return g.routers[name].possible
}

// Options configures a Runnable. The zero value is valid.
type Options[S any] struct {
	// MaxSteps bounds the nodes one Run or Resume executes (a parallel
	// group counts as one step). Zero means DefaultMaxSteps.
	MaxSteps int
	// Hooks are told about every node start and end, in order.
	Hooks []Hook[S]
	// Checkpoints stores the checkpoints of interrupted runs; without it an
	// interrupt is returned but not saved, and Resume fails.
	Checkpoints Checkpointer
	// Now is the clock for hook times and checkpoint stamps (time.Now when
	// nil).
	Now func() time.Time
}

// Compile reports every mistake at once (nadine.EINVALID), so a miswired
// graph fails at start, never mid-turn.
func (g *Graph[S]) Compile(opts Options[S]) (*Runnable[S], error) {
	errs := slices.Clone(g.errs)
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	if _, ok := g.edges[Start]; !ok && g.routers[Start].fn == nil {
		fail("no entry: add an edge or router from graph.Start")
	}
	// Edges and routers, in a stable order for stable messages.
	for _, from := range append([]string{Start}, g.order...) {
		for _, to := range g.successors(from) {
			if to != End && !g.known(to) {
				fail("edge %q → %q: unknown node %q", from, to, to)
			}
		}
	}
	for from := range g.edges {
		if from != Start && !g.known(from) {
			fail("edge from unknown node %q", from)
		}
	}
	for from := range g.routers {
		if from != Start && !g.known(from) {
			fail("router after unknown node %q", from)
		}
	}
	memberOf := map[string]string{}
	for _, name := range g.order {
		for _, m := range g.groups[name].members {
			switch _, isGroup := g.groups[m]; {
			case isGroup:
				fail("parallel group %q: member %q is a parallel group", name, m)
			case g.nodes[m] == nil:
				fail("parallel group %q: unknown member %q", name, m)
			case memberOf[m] != "":
				fail("node %q is a member of parallel groups %q and %q", m, memberOf[m], name)
			default:
				memberOf[m] = name
			}
		}
	}
	// Reachability: direct steps from Start, and members of reached groups.
	direct := map[string]bool{}
	queue := []string{Start}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, to := range g.successors(n) {
			if to != End && g.known(to) && !direct[to] {
				direct[to] = true
				queue = append(queue, to)
			}
		}
	}
	for _, name := range g.order {
		_, hasEdge := g.edges[name]
		_, hasRouter := g.routers[name]
		group, isMember := memberOf[name]
		switch {
		case direct[name] && !hasEdge && !hasRouter:
			fail("node %q leads nowhere: add an edge or router (to graph.End to finish)", name)
		case !direct[name] && !isMember:
			fail("node %q is unreachable from graph.Start", name)
		case !direct[name] && !direct[group]:
			fail("node %q is unreachable: its parallel group %q is unreachable", name, group)
		case !direct[name] && (hasEdge || hasRouter):
			fail("the edge from %q is never taken: it runs only as a member of parallel group %q", name, group)
		}
	}
	if len(errs) > 0 {
		return nil, nadine.Errorf(nadine.EINVALID, "graph: compile: %w", errors.Join(errs...))
	}
	if opts.MaxSteps <= 0 {
		opts.MaxSteps = DefaultMaxSteps
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	opts.Hooks = slices.Clone(opts.Hooks)
	r := &Runnable[S]{
		nodes:   map[string]NodeFunc[S]{},
		groups:  map[string]group[S]{},
		edges:   map[string]string{},
		routers: map[string]route[S]{},
		opts:    opts,
	}
	for k, v := range g.nodes {
		r.nodes[k] = v
	}
	for k, v := range g.groups {
		r.groups[k] = v
	}
	for k, v := range g.edges {
		r.edges[k] = v
	}
	for k, v := range g.routers {
		r.routers[k] = v
	}
	return r, nil
}
