// Package intents understands short utterances by learning from examples
// instead of matching phrases: what the offline engine knows of an intent is
// a list of things visitors say for it, in each language. Two multinomial
// logistic regressions, one for the intent and one for the language, share
// sparse word and character features; "none" is a label like the others.
// Training is deterministic. See docs/architecture.md#intents.
package intents
