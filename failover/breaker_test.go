package failover_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/failover"
)

var errDown = nadine.Errorf(nadine.EUNAVAILABLE, "openai: profile small, model m: connection failed: connection refused")

// TestBreakerStateMachine walks the breaker through its transitions on an
// injected clock: each step is an action at a time, and the state (and
// what Allow and ProbeDue say) after it.
func TestBreakerStateMachine(t *testing.T) {
	cfg := failover.BreakerConfig{Failures: 3, Cooldown: 5 * time.Second}
	type step struct {
		name      string
		advance   time.Duration
		do        func(b *failover.Breaker) bool // returns what the action reported
		reported  bool
		state     failover.BreakerState
		failures  int
		probeIn   time.Duration // when open
		allowedOK bool
	}
	fail := func(b *failover.Breaker) bool { return b.Failure(errDown) }
	success := func(b *failover.Breaker) bool { b.Success(); return false }
	startProbe := func(b *failover.Breaker) bool { return b.StartProbe() }
	endProbe := func(err error) func(b *failover.Breaker) bool {
		return func(b *failover.Breaker) bool { b.EndProbe(err); return false }
	}
	steps := []step{
		{name: "one failure stays closed", do: fail, state: failover.Closed, failures: 1, allowedOK: true},
		{name: "a success resets the count", do: success, state: failover.Closed, failures: 0, allowedOK: true},
		{name: "failure 1", do: fail, state: failover.Closed, failures: 1, allowedOK: true},
		{name: "failure 2", do: fail, state: failover.Closed, failures: 2, allowedOK: true},
		{name: "failure 3 opens", advance: time.Second, do: fail, reported: true, state: failover.Open, failures: 3, probeIn: 5 * time.Second},
		{name: "a late failure changes nothing", advance: time.Second, do: fail, state: failover.Open, failures: 3, probeIn: 4 * time.Second},
		{name: "no probe before the cooldown", advance: 3 * time.Second, do: startProbe, state: failover.Open, failures: 3, probeIn: time.Second},
		{name: "probe once due", advance: time.Second, do: startProbe, reported: true, state: failover.Probing, failures: 3},
		{name: "a second probe is refused", do: startProbe, state: failover.Probing, failures: 3},
		{name: "a failed probe: another cooldown", advance: 2 * time.Second, do: endProbe(errDown), state: failover.Open, failures: 3, probeIn: 5 * time.Second},
		{name: "probe again", advance: 5 * time.Second, do: startProbe, reported: true, state: failover.Probing, failures: 3},
		{name: "a probe that answers closes", do: endProbe(nil), state: failover.Closed, failures: 0, allowedOK: true},
		{name: "ending a probe never started does nothing", do: endProbe(errDown), state: failover.Closed, failures: 0, allowedOK: true},
		{name: "open again", do: func(b *failover.Breaker) bool { fail(b); fail(b); return fail(b) }, reported: true, state: failover.Open, failures: 3, probeIn: 5 * time.Second},
		{name: "a call that answers closes at once", advance: time.Second, do: success, state: failover.Closed, failures: 0, allowedOK: true},
	}
	clock := newFakeClock()
	b := failover.NewBreaker("small", cfg, clock.Now)
	for _, s := range steps {
		clock.Advance(s.advance)
		if got := s.do(b); got != s.reported {
			t.Errorf("%s: action reported %v, want %v", s.name, got, s.reported)
		}
		st := b.Status()
		if st.State != s.state || st.Failures != s.failures {
			t.Errorf("%s: state %s with %d failures, want %s with %d", s.name, st.State, st.Failures, s.state, s.failures)
		}
		err := b.Allow()
		if (err == nil) != s.allowedOK {
			t.Errorf("%s: Allow = %v, want allowed %v", s.name, err, s.allowedOK)
		}
		if err != nil && nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
			t.Errorf("%s: Allow's error has code %q, want %q", s.name, nadine.ErrorCode(err), nadine.EUNAVAILABLE)
		}
		d, open := b.ProbeDue()
		if open != (s.state == failover.Open) || (open && d != s.probeIn) {
			t.Errorf("%s: ProbeDue = %v, %v; want %v, %v", s.name, d, open, s.probeIn, s.state == failover.Open)
		}
	}
}

// TestBreakerSaysWhy: a skipped call's error names the profile, how long it
// has been skipped, the code of the failure that opened it and when it is
// probed next.
func TestBreakerSaysWhy(t *testing.T) {
	clock := newFakeClock()
	b := failover.NewBreaker("small", failover.BreakerConfig{Failures: 1, Cooldown: 5 * time.Second}, clock.Now)
	b.Failure(nadine.Errorf(nadine.ERATELIMIT, "openai: rate limited (HTTP 429)"))
	clock.Advance(2 * time.Second)
	err := b.Allow()
	for _, want := range []string{"profile small skipped", "open for 2s", "rate_limited", "next probe in 3s"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Allow = %v, want it to say %q", err, want)
		}
	}
	var ne *nadine.Error
	if !errors.As(err, &ne) || ne.Code != nadine.EUNAVAILABLE {
		t.Errorf("Allow's error is not an EUNAVAILABLE *nadine.Error: %#v", err)
	}
	if s := b.Status(); s.Since.IsZero() || !s.NextProbe.Equal(s.Since.Add(5*time.Second)) || !strings.Contains(s.LastError, "429") {
		t.Errorf("status = %+v", s)
	}
}

// TestBreakerDefaults: a zero configuration opens after DefaultFailures
// failures and probes after DefaultCooldown.
func TestBreakerDefaults(t *testing.T) {
	clock := newFakeClock()
	b := failover.NewBreaker("default", failover.BreakerConfig{}, clock.Now)
	for i := 1; i < failover.DefaultFailures; i++ {
		if b.Failure(errDown) {
			t.Fatalf("opened after %d failures", i)
		}
	}
	if !b.Failure(errDown) {
		t.Fatalf("not open after %d failures", failover.DefaultFailures)
	}
	if d, _ := b.ProbeDue(); d != failover.DefaultCooldown {
		t.Errorf("probe due in %v, want %v", d, failover.DefaultCooldown)
	}
}
