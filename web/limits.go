package web

import (
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// Defaults of the limits at the edge.
const (
	// DefaultMaxStreams caps the open event streams (GET /api/events):
	// each holds a subscription of the runtime and its buffer.
	DefaultMaxStreams = 64
	// DefaultMaxTokenFailures is how many wrong or missing tokens a client
	// may send per minute before it is refused with 429.
	DefaultMaxTokenFailures = 10
	// MinTokenChars: the right token is never refused, so only its length
	// stops a guesser (16 random characters: 2^64 tries and more).
	MinTokenChars = 16
	// maxTrackedClients bounds the memory of the failure limiter: beyond,
	// the clients whose failures are the oldest are forgotten.
	maxTrackedClients = 4096
)

// TokenWarning says why a token is too short to stop a guesser, or "" when
// it is long enough (or unset).
func TokenWarning(token string) string {
	if n := utf8.RuneCountInString(token); n > 0 && n < MinTokenChars {
		return fmt.Sprintf("web: the API token has %d characters: the right token is never locked out, so only its length stops guessing; use %d or more random characters (openssl rand -hex 16)", n, MinTokenChars)
	}
	return ""
}

// streamSlots counts open event streams against a cap.
type streamSlots struct {
	mu   sync.Mutex
	open int
	max  int
}

// take reserves a slot; it reports false when every slot is taken.
func (s *streamSlots) take() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.open >= s.max {
		return false
	}
	s.open++
	return true
}

func (s *streamSlots) release() {
	s.mu.Lock()
	s.open--
	s.mu.Unlock()
}

// failureLimiter counts failed token attempts only, so a right token is always
// served and nobody sharing the address is locked out.
type failureLimiter struct {
	mu      sync.Mutex
	max     float64
	refill  time.Duration // time for one attempt to come back
	clients map[string]*bucket
	now     func() time.Time
}

type bucket struct {
	tokens float64
	at     time.Time // when tokens was computed
	failed time.Time // the last failure
}

func newFailureLimiter(perMinute int, now func() time.Time) *failureLimiter {
	return &failureLimiter{
		max:     float64(perMinute),
		refill:  time.Minute / time.Duration(perMinute),
		clients: map[string]*bucket{},
		now:     now,
	}
}

// level returns the client's bucket brought up to now; the caller holds mu.
func (l *failureLimiter) level(client string, now time.Time) *bucket {
	b := l.clients[client]
	if b == nil {
		return &bucket{tokens: l.max, at: now}
	}
	b.tokens = math.Min(l.max, b.tokens+float64(now.Sub(b.at))/float64(l.refill))
	b.at = now
	return b
}

// blocked also says how long until the client has an attempt again.
func (l *failureLimiter) blocked(client string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.level(client, now)
	if b.tokens >= 1 {
		return false, 0
	}
	return true, time.Duration((1 - b.tokens) * float64(l.refill))
}

// fail records a failed attempt of the client.
func (l *failureLimiter) fail(client string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	b := l.level(client, now)
	b.tokens = math.Max(0, b.tokens-1)
	b.failed = now
	if _, ok := l.clients[client]; !ok {
		if len(l.clients) >= maxTrackedClients {
			l.prune(now)
		}
		l.clients[client] = b
	}
}

// prune forgets the clients whose bucket is full again, and when none is,
// the one that failed longest ago. The caller holds mu.
func (l *failureLimiter) prune(now time.Time) {
	var oldest string
	for c, b := range l.clients {
		if l.level(c, now).tokens >= l.max {
			delete(l.clients, c)
			continue
		}
		if oldest == "" || b.failed.Before(l.clients[oldest].failed) {
			oldest = c
		}
	}
	if len(l.clients) >= maxTrackedClients && oldest != "" {
		delete(l.clients, oldest)
	}
}

// clientKey is the address a request comes from, without its port.
func clientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// retryAfter writes the Retry-After header in whole seconds (at least 1).
func retryAfter(w http.ResponseWriter, d time.Duration) {
	w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(d.Seconds())))))
}
