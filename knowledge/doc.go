// Package knowledge is Nadine's knowledge base: what she knows about herself
// and the world, shared by all users and kept apart from personal memory.
// Ingest splits Markdown, text and PDF folders into chunks, re-ingesting only
// changed files; Rebuild re-embeds it for a new embedder; Retrieve searches it
// and records the search in the turn's trace.
// See docs/architecture.md#knowledge.
package knowledge
