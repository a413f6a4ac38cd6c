// Package speakable decides what of a model's reply may be said aloud to a
// visitor, sentence by sentence: the one gate every reply sentence of both
// engines goes through, built from the prompts the turn actually sent, so
// that an echo of the instructions, the prompt's voice, format labels, code
// or an address is never read out. The package is pure: no I/O.
// See docs/architecture.md#speakable for what it drops and why.
package speakable
