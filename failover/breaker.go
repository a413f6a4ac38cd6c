package failover

import (
	"fmt"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
)

// Defaults of BreakerConfig.
const (
	DefaultFailures       = 3
	DefaultServerFailures = 8
	DefaultCooldown       = 5 * time.Second
	DefaultProbeTimeout   = 5 * time.Second
)

// BreakerConfig sets when a profile is skipped and how it is probed. Zero
// values are the defaults.
type BreakerConfig struct {
	// Failures is how many consecutive failed calls open the circuit
	// (DefaultFailures). A call is one Chat, ChatStream or Embed on the
	// profile, its retries included; a success resets the count.
	Failures int
	// ServerFailures failed attempts in a row on one server's profiles open
	// all their circuits (DefaultServerFailures; docs/operations.md).
	ServerFailures int
	// Cooldown is how long an open circuit waits before each probe
	// (DefaultCooldown): the profile is used again at most about Cooldown
	// plus ProbeTimeout after it recovers.
	Cooldown time.Duration
	// ProbeTimeout bounds one probe (DefaultProbeTimeout).
	ProbeTimeout time.Duration
}

func (c BreakerConfig) withDefaults() BreakerConfig {
	if c.Failures <= 0 {
		c.Failures = DefaultFailures
	}
	if c.ServerFailures <= 0 {
		c.ServerFailures = DefaultServerFailures
	}
	if c.Cooldown <= 0 {
		c.Cooldown = DefaultCooldown
	}
	if c.ProbeTimeout <= 0 {
		c.ProbeTimeout = DefaultProbeTimeout
	}
	return c
}

// BreakerState is the state of a profile's circuit.
type BreakerState string

// The states of a Breaker. Closed lets calls through; Open skips them until
// a probe is due; Probing skips them while the probe runs.
const (
	Closed  BreakerState = "closed"
	Open    BreakerState = "open"
	Probing BreakerState = "probing"
)

// BreakerStatus is a snapshot of a Breaker, for the monitor and the logs.
type BreakerStatus struct {
	State     BreakerState `json:"state"`
	Failures  int          `json:"failures"`             // consecutive failed calls
	Since     time.Time    `json:"since,omitzero"`       // when the circuit opened
	NextProbe time.Time    `json:"next_probe,omitzero"`  // when an open circuit is probed
	LastError string       `json:"last_error,omitempty"` // the failure that opened it, or the last probe's
}

// Breaker is one profile's circuit breaker over an injected clock, safe for
// concurrent use; the Pool runs its probes (docs/architecture.md#failover).
type Breaker struct {
	name string
	cfg  BreakerConfig
	now  func() time.Time

	mu       sync.Mutex
	state    BreakerState
	failures int
	since    time.Time
	next     time.Time
	last     string // the failure that opened the circuit, or the last probe's
	code     string // its error code
}

// NewBreaker returns a closed breaker for the named profile. now is the
// clock (time.Now when nil).
func NewBreaker(name string, cfg BreakerConfig, now func() time.Time) *Breaker {
	if now == nil {
		now = time.Now
	}
	return &Breaker{name: name, cfg: cfg.withDefaults(), now: now, state: Closed}
}

// Allow returns nil when a call may go to the profile, or an EUNAVAILABLE
// error saying since when it is skipped and when it is probed next.
func (b *Breaker) Allow() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == Closed {
		return nil
	}
	now := b.now()
	what := "next probe in " + max(b.next.Sub(now), 0).Round(time.Millisecond).String()
	if b.state == Probing {
		what = "a probe is running"
	}
	return nadine.Errorf(nadine.EUNAVAILABLE, "failover: profile %s skipped: circuit open for %s (last failure: %s); %s",
		b.name, now.Sub(b.since).Round(time.Millisecond), b.code, what)
}

// Success records a call that got an answer: the profile works, whatever
// the state, and the count of failures restarts.
func (b *Breaker) Success() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.reset()
}

// reset closes the circuit; it runs under b.mu.
func (b *Breaker) reset() {
	b.state, b.failures, b.last, b.code = Closed, 0, "", ""
	b.since, b.next = time.Time{}, time.Time{}
}

// Failure records a failed call and reports whether it opened the circuit;
// calls already under way when it opened change nothing.
func (b *Breaker) Failure(err error) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state != Closed {
		return false
	}
	b.failures++
	if b.failures < b.cfg.Failures {
		return false
	}
	b.open(err)
	return true
}

// Trip opens a closed circuit at once because its server failed too many
// attempts in a row; it reports whether it opened it.
func (b *Breaker) Trip(err error) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state != Closed {
		return false
	}
	b.open(err)
	return true
}

// open opens the circuit after err; it runs under b.mu.
func (b *Breaker) open(err error) {
	now := b.now()
	b.state, b.since, b.next = Open, now, now.Add(b.cfg.Cooldown)
	b.last, b.code = err.Error(), nadine.ErrorCode(err)
}

// ProbeDue reports whether the circuit is open and, if so, how long until
// its probe is due (0 or less: now).
func (b *Breaker) ProbeDue() (time.Duration, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state != Open {
		return 0, false
	}
	return b.next.Sub(b.now()), true
}

// StartProbe moves an open circuit whose probe is due to Probing and
// reports whether it did.
func (b *Breaker) StartProbe() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state != Open || b.now().Before(b.next) {
		return false
	}
	b.state = Probing
	return true
}

// EndProbe closes the circuit when err is nil, else keeps it open another
// Cooldown; without a started probe it does nothing.
func (b *Breaker) EndProbe(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state != Probing {
		return
	}
	if err == nil {
		b.reset()
		return
	}
	b.state, b.next = Open, b.now().Add(b.cfg.Cooldown)
	b.last, b.code = "probe: "+err.Error(), nadine.ErrorCode(err)
}

// State returns the current state.
func (b *Breaker) State() BreakerState {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state
}

// Status returns a snapshot of the breaker.
func (b *Breaker) Status() BreakerStatus {
	b.mu.Lock()
	defer b.mu.Unlock()
	return BreakerStatus{State: b.state, Failures: b.failures, Since: b.since, NextProbe: b.next, LastError: b.last}
}

// String describes the breaker for logs: "small: open (3 failures)".
func (b *Breaker) String() string {
	s := b.Status()
	return fmt.Sprintf("%s: %s (%d failures)", b.name, s.State, s.Failures)
}
