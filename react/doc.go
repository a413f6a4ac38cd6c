// Package react is the ReAct dialogue engine: each turn it
// rewrites the input into a standalone question with the chat history
// (contextualize), retrieves the user's long-term memories and the
// knowledge base with that question, then runs the agent: the model either
// calls a tool and sees its observation, or gives a final answer as one JSON
// code block carrying the reply and Nadine's emotion.
//
// The final answer streams: the prompt asks for Nadine's emotion and its
// intensity before the reply text and the category and causing person
// after it, so the emotion is validated first and each sentence of the
// reply is spoken as soon as it is complete; a reply already spoken is never
// retried, and invalid trailing fields are coerced ("other", "human").
//
// With Options.Speculate the agent's first call starts on the raw input's
// retrieval while the contextualizer runs; it is kept only if the
// standalone question yields the same prompt, so the reply is the one the
// sequential order would give, one model latency sooner. With
// Options.SkipStandalone (a change from the seed) an input whose words
// refer to nothing in the history is not rewritten at all (standalone.go).
//
// A reply that ends as soon as its text closes leaves its model stream
// running for the fields after it; the engine owns every such stream
// (late.go) and Close cancels and waits for those still running.
package react
