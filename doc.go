// Package nadine holds the domain of the interaction layer of the Nadine
// social humanoid robot: what a user turn is (Turn), what Nadine answers
// (Reply, streamed as Events), what a turn did (Trace), and the interfaces
// that the adapters implement (ChatModel, Embedder, Store, Camera) and that
// the engines implement (Engine, Tool).
//
// The package depends on the standard library only. Engines and agents
// depend on it; adapters (openai, sqlite, postgres, mqtt, web) implement its
// interfaces; cmd/nadine wires everything together.
package nadine
