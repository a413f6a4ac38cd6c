// Package dialogue holds the dialogue manager: the one path from a final
// transcript to a reply, its session, history and fallbacks
// (docs/architecture.md, Design notes by package).
package dialogue
