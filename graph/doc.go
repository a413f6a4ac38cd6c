// Package graph is a small typed graph runner, in the spirit of LangGraph,
// for the multi-agent graph engine (agents).
//
// A Graph[S] is built from nodes that take and return a state value of type
// S (typically a struct; a node returns a modified copy), fixed edges,
// conditional routers, and parallel groups whose members run side by side
// on copies of the same state and are merged in declaration order. Compile
// validates the graph and returns a Runnable, which is safe for concurrent
// use:
//
//	g := graph.New[State]().
//		AddNode("classify", classify).
//		AddNode("memory", retrieve).
//		AddNode("appraise", appraise).
//		AddParallel("understand", mergeUnderstanding, "classify", "memory", "appraise").
//		AddNode("respond", respond).
//		AddEdge(graph.Start, "understand").
//		AddRouter("understand", needsTool, "search", "respond").
//		...
//	r, err := g.Compile(graph.Options[State]{Checkpoints: store, Hooks: []graph.Hook[State]{graph.TraceHook[State]()}})
//	out, err := r.Run(ctx, "user-42", in)
//
// Loops are allowed and bounded by Options.MaxSteps. A node can stop the run
// by returning Interrupt (or InterruptAfter) as its error: the runner saves
// a Checkpoint (the node and the state, as JSON) under the run's key through
// the Checkpointer and returns an *InterruptError. Next turn, or after a
// restart, Resume loads the checkpoint, applies an update to the saved state
// (the user's answer) and continues. Hooks see every node start and end;
// TraceHook records each node as a nadine.Step in the turn's trace.
//
// State values are copied by assignment, so fields that are maps, slices or
// pointers are shared between copies: nodes must not change them in place
// (copy, then change), or parallel members race.
package graph
