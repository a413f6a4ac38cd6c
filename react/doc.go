// Package react is the ReAct dialogue engine: a standalone question, the
// person's memories and the knowledge base, then tool calls until a
// streamed final answer (docs/architecture.md, react).
package react
