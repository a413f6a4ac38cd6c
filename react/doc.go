// Package react is the ReAct dialogue engine of seed 000: each turn it
// rewrites the input into a standalone question with the chat history
// (contextualize), retrieves the user's long-term memories and the
// knowledge base with that question, then runs the agent: the model either
// calls a tool and sees its observation, or gives a final answer as one JSON
// code block carrying the reply and Nadine's emotion.
//
// The final answer streams: the prompt asks for the answer's metadata
// (category, emotion, intensity, causing person) before the reply text, so
// the metadata is validated first and each sentence of the reply is spoken
// as soon as it is complete.
package react
