package agents

import (
	"context"
	"sync"
	"time"
)

// work owns the goroutines beside and after turns: Close waits for saves (they
// write the person's memory) and cancels precomputations; none starts after.
type work struct {
	bg sync.WaitGroup // saves and precomputations

	saves       context.Context // cancelled once Close has waited
	cancelSaves context.CancelFunc
	spare       context.Context // cancelled as Close begins
	cancelSpare context.CancelFunc

	mu     sync.Mutex
	closed bool
}

func newWork() *work {
	w := &work{}
	w.saves, w.cancelSaves = context.WithCancel(context.Background())
	w.spare, w.cancelSpare = context.WithCancel(context.Background())
	return w
}

func (w *work) start(wg *sync.WaitGroup, fn func()) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	wg.Go(fn)
	return true
}

// save runs fn (reporting false when the engine is closing, see start) to its end (bounded by timeout) even when the engine
// closes.
func (w *work) save(timeout time.Duration, fn func(ctx context.Context)) bool {
	return w.under(w.saves, timeout, fn)
}

// precompute runs fn (see save) until its timeout or until the engine closes.
func (w *work) precompute(timeout time.Duration, fn func(ctx context.Context)) bool {
	return w.under(w.spare, timeout, fn)
}

func (w *work) under(parent context.Context, timeout time.Duration, fn func(ctx context.Context)) bool {
	return w.start(&w.bg, func() {
		ctx, cancel := context.WithTimeout(parent, timeout)
		defer cancel()
		fn(ctx)
	})
}

// wait blocks until the saves and precomputations started so far are done.
func (w *work) wait() { w.bg.Wait() }

// close refuses new goroutines, cancels the precomputations, and waits
// for everything started (the saves to their end).
func (w *work) close() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	w.cancelSpare()
	w.bg.Wait()
	w.cancelSaves()
}
