// Package nadine holds the domain of the Nadine robot's interaction layer:
// turns, replies, traces, and the interfaces the adapters and engines
// implement. It imports nothing of the module
// (docs/architecture.md#the-root-package-and-its-contracts).
package nadine
