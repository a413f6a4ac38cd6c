// Package intents classifies short utterances by intent, learning from
// example utterances instead of matching phrases.
package intents
