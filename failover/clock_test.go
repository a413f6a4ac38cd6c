package failover_test

import (
	"sync"
	"testing"
	"time"
)

// fakeClock is a Clock that moves only when the test advances it. Timers
// due by then fire, each in its own goroutine as time.AfterFunc does.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
	added  chan struct{} // signaled when a timer is added
}

type fakeTimer struct {
	at   time.Time
	f    func()
	done bool
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC), added: make(chan struct{}, 1)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	t := &fakeTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	c.mu.Unlock()
	select {
	case c.added <- struct{}{}:
	default:
	}
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.done
		t.done = true
		return was
	}
}

// Advance moves the clock and fires the timers that are due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []func()
	for _, t := range c.timers {
		if !t.done && !t.at.After(c.now) {
			t.done = true
			due = append(due, t.f)
		}
	}
	c.mu.Unlock()
	for _, f := range due {
		go f()
	}
}

// pending counts the timers that have not fired nor been stopped, and that
// are due at or after the current time plus within.
func (c *fakeClock) pending(within time.Duration) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if !t.done && !t.at.After(c.now.Add(within)) {
			n++
		}
	}
	return n
}

// waitTimer blocks until a timer due within d of now is pending (a
// goroutine went to sleep on the clock), failing the test after a while.
func (c *fakeClock) waitTimer(t *testing.T, within time.Duration) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for c.pending(within) == 0 {
		select {
		case <-c.added:
		case <-time.After(5 * time.Millisecond):
		case <-deadline:
			t.Fatalf("no timer due within %v was set", within)
		}
	}
}
