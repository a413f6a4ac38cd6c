// Package offline is Nadine's rule-based engine: what a newcomer meets with no
// model, what an exhibition runs on when the network fails, and the last
// fallback. Intents are learned from examples, not matched against phrases
// (docs/offline.md, docs/architecture.md#offline).
package offline
