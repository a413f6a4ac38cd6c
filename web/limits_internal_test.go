package web

import (
	"fmt"
	"testing"
	"time"
)

// TestFailureLimiterPerClient: each client address has its own budget, it
// refills at the configured rate and never above it, and the limiter's
// memory stays bounded however many addresses fail.
func TestFailureLimiterPerClient(t *testing.T) {
	now := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	l := newFailureLimiter(2, func() time.Time { return now })
	for range 2 {
		l.fail("10.0.0.1")
	}
	if b, wait := l.blocked("10.0.0.1"); !b || wait != 30*time.Second {
		t.Errorf("after 2 failures: blocked %v, wait %v; want blocked for 30s", b, wait)
	}
	if b, _ := l.blocked("10.0.0.2"); b {
		t.Error("another client is blocked too")
	}
	now = now.Add(45 * time.Second)
	if b, _ := l.blocked("10.0.0.1"); b {
		t.Error("still blocked after one attempt came back")
	}
	now = now.Add(time.Hour)
	l.fail("10.0.0.1")
	if b, _ := l.blocked("10.0.0.1"); b {
		t.Error("an hour of quiet gave no more than the budget: one failure blocks")
	}
	for i := range maxTrackedClients + 100 {
		l.fail(fmt.Sprintf("10.1.%d.%d", i/256, i%256))
	}
	if n := len(l.clients); n > maxTrackedClients {
		t.Errorf("%d clients tracked, want at most %d", n, maxTrackedClients)
	}
}
