// Package graph is a small typed graph runner, in the spirit of LangGraph, for
// the multi-agent engine: nodes, edges, routers, parallel groups merged in
// declaration order, and checkpoints so a node can interrupt and resume after
// a restart (docs/architecture.md#graph).
//
// State is copied by assignment: nodes must copy maps, slices and pointers
// before changing them, or parallel members race.
package graph
