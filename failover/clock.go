package failover

import (
	"context"
	"time"
)

// Clock is the time the failover layer runs on. The zero Options use the
// system clock; tests inject one they advance by hand.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed and returns
	// a function that cancels the call, reporting whether it did (false
	// when f already ran or was canceled).
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// SystemClock is the Clock of the time package.
type SystemClock struct{}

// Now returns time.Now().
func (SystemClock) Now() time.Time { return time.Now() }

// AfterFunc is time.AfterFunc.
func (SystemClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, f).Stop
}

// sleep waits d on clock, or until ctx ends; it returns ctx's error then.
func sleep(ctx context.Context, clock Clock, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	done := make(chan struct{})
	stop := clock.AfterFunc(d, func() { close(done) })
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		stop()
		return ctx.Err()
	}
}
