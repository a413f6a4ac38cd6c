package nadine

import "context"

// Filler says a short line ("Let me check that for you.") while a turn
// waits on something slow (a search, a camera capture): an EventSpeech
// event with Filler set, published but not part of the reply. The tools
// package implements it; the engines take it as an option.
type Filler interface {
	// Emit emits the next filler line in lang through emit, at most once
	// per turn (the turn is the trace of ctx), and reports whether it did.
	// A nil emit emits nothing.
	Emit(ctx context.Context, lang Language, emit EmitFunc) bool
}
