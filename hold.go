package nadine

import (
	"slices"
	"sync"
)

// Hold keeps the events of speculative work (started before it was known
// to be wanted) until it is released, when they go out in order and the
// later ones straight through, or dropped, when none of them ever does.
// Events are passed on under its lock, so that a release and the events
// that follow it cannot interleave. Its methods are safe for concurrent
// use; the zero value holds for a nil To, which drops everything.
type Hold struct {
	// To receives the events once the hold is released.
	To EmitFunc

	mu    sync.Mutex
	held  []Event
	state holdState
}

type holdState int

const (
	holding holdState = iota
	released
	dropped
)

// NewHold returns a hold that releases into to.
func NewHold(to EmitFunc) *Hold { return &Hold{To: to} }

// Emit holds ev, passes it on once released, or drops it once dropped.
func (h *Hold) Emit(ev Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch h.state {
	case holding:
		h.held = append(h.held, ev)
	case released:
		if h.To != nil {
			h.To(ev)
		}
	}
}

// Release passes on the held events, in order, and every later one. It
// reports false when the hold was dropped (nothing is passed on).
func (h *Hold) Release() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch h.state {
	case dropped:
		return false
	case holding:
		if h.To != nil {
			for _, ev := range h.held {
				h.To(ev)
			}
		}
		h.held, h.state = nil, released
	}
	return true
}

// Drop discards the held events and every later one. It reports false
// when the hold was released before (then its events went out).
func (h *Hold) Drop() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.state == released {
		return false
	}
	h.held, h.state = nil, dropped
	return true
}

// Held returns a copy of the events held so far.
func (h *Hold) Held() []Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.held)
}
