// Package dialogue holds the dialogue manager, the one path from a final transcript
// to a reply, with its session, history and fallbacks (docs/architecture.md#dialogue).
package dialogue
