package failover_test

import (
	"context"
	"errors"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/failover"
)

// fakeModel is a chat model and embedder whose answers a function scripts;
// it records the roles it was asked for.
type fakeModel struct {
	mu     sync.Mutex
	roles  []string
	answer func(ctx context.Context, n int, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error)
	calls  chan string // receives each call's role when not nil
}

func (f *fakeModel) Chat(ctx context.Context, req nadine.ChatRequest) (nadine.ChatResponse, error) {
	return f.do(ctx, req, nil)
}

func (f *fakeModel) ChatStream(ctx context.Context, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
	return f.do(ctx, req, onDelta)
}

func (f *fakeModel) Name() string { return "fake-embedder" }

func (f *fakeModel) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	_, err := f.do(ctx, nadine.ChatRequest{Role: "embed"}, nil)
	if err != nil {
		return nil, err
	}
	return [][]float32{{1, 0}}, nil
}

func (f *fakeModel) do(ctx context.Context, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
	f.mu.Lock()
	f.roles = append(f.roles, req.Role)
	n := len(f.roles)
	answer := f.answer
	f.mu.Unlock()
	if f.calls != nil {
		f.calls <- req.Role
	}
	if answer == nil {
		return nadine.ChatResponse{Content: "ok"}, nil
	}
	return answer(ctx, n, req, onDelta)
}

func (f *fakeModel) setAnswer(a func(ctx context.Context, n int, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error)) {
	f.mu.Lock()
	f.answer = a
	f.mu.Unlock()
}

func (f *fakeModel) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.roles)
}

// failing answers every call with err.
func failing(err error) func(context.Context, int, nadine.ChatRequest, func(string)) (nadine.ChatResponse, error) {
	return func(context.Context, int, nadine.ChatRequest, func(string)) (nadine.ChatResponse, error) {
		return nadine.ChatResponse{}, err
	}
}

// errRefused is what the openai client returns when nothing listens.
var errRefused = &nadine.Error{Code: nadine.EUNAVAILABLE, Message: "openai: connection failed: connection refused",
	Err: &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}}

var err500 = nadine.Errorf(nadine.EUNAVAILABLE, "openai: server error (HTTP 500): boom")

func newPool(t *testing.T, opts failover.Options, profiles ...failover.Profile) *failover.Pool {
	t.Helper()
	if opts.Backoff == nil {
		opts.Backoff = func(int) time.Duration { return time.Millisecond }
	}
	p := failover.New(opts)
	for _, pr := range profiles {
		if err := p.Add(pr); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// traced returns a context with a new trace.
func traced() (context.Context, *nadine.Trace) {
	tr := nadine.NewTrace("t1", "hello", time.Now())
	return nadine.WithTrace(context.Background(), tr), tr
}

// steps returns the details of the trace's failover steps of role.
func steps(tr *nadine.Trace, role string) []string {
	var out []string
	for _, s := range tr.Snapshot().Steps {
		if s.Name == "failover:"+role {
			out = append(out, s.Detail)
		}
	}
	return out
}

func hasStep(tr *nadine.Trace, role, substr string) bool {
	for _, d := range steps(tr, role) {
		if strings.Contains(d, substr) {
			return true
		}
	}
	return false
}

// TestPoolProbesAnOpenProfile: an open profile is skipped without being
// called; every Cooldown a probe asks it; a failed probe keeps it open, a
// probe that answers brings it back.
func TestPoolProbesAnOpenProfile(t *testing.T) {
	clock := newFakeClock()
	small := &fakeModel{answer: failing(errRefused), calls: make(chan string, 16)}
	p := newPool(t, failover.Options{Clock: clock, Breaker: failover.BreakerConfig{Failures: 2, Cooldown: 5 * time.Second, ProbeTimeout: time.Second}},
		failover.Profile{Name: "small", Chat: small})
	m := p.Chat("intent_classifier", failover.Timeouts{Attempt: time.Hour}, "small")
	for range 2 {
		if _, err := m.Chat(context.Background(), nadine.ChatRequest{Role: "intent_classifier"}); nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
			t.Fatalf("err = %v, want unavailable", err)
		}
		<-small.calls
	}
	if s := p.Breaker("small").State(); s != failover.Open {
		t.Fatalf("state after 2 failures = %s, want open", s)
	}
	// Skipped: fails at once, the model is not asked.
	ctx, tr := traced()
	if _, err := m.Chat(ctx, nadine.ChatRequest{Role: "intent_classifier"}); nadine.ErrorCode(err) != nadine.EUNAVAILABLE || !strings.Contains(err.Error(), "skipped") {
		t.Errorf("call on an open profile: err = %v, want a skip", err)
	}
	if small.count() != 2 {
		t.Errorf("the open profile was called: %d calls", small.count())
	}
	if !hasStep(tr, "intent_classifier", "profile small skipped: circuit open") {
		t.Errorf("no skip in the trace: %q", steps(tr, "intent_classifier"))
	}

	// The first probe, after the cooldown, fails.
	clock.waitTimer(t, 5*time.Second)
	clock.Advance(5 * time.Second)
	if role := <-small.calls; role != "probe" {
		t.Fatalf("called for %q, want a probe", role)
	}
	// Open again (waited for: until the probe's end the pending probe
	// timeout is a timer within the cooldown too), then back to sleep for
	// another cooldown.
	waitState(t, p.Breaker("small"), failover.Open)
	clock.waitTimer(t, 5*time.Second)

	// The model is back: the next probe closes the circuit.
	small.setAnswer(nil)
	clock.Advance(5 * time.Second)
	if role := <-small.calls; role != "probe" {
		t.Fatalf("called for %q, want a probe", role)
	}
	waitState(t, p.Breaker("small"), failover.Closed)
	if _, err := m.Chat(context.Background(), nadine.ChatRequest{Role: "intent_classifier"}); err != nil {
		t.Errorf("call after the profile came back: %v", err)
	}
	<-small.calls
}

// TestPoolCloseStopsProbes: Close returns once the probe of an open
// profile has stopped, without the clock moving.
func TestPoolCloseStopsProbes(t *testing.T) {
	clock := newFakeClock()
	small := &fakeModel{answer: failing(errRefused)}
	p := failover.New(failover.Options{Clock: clock, Breaker: failover.BreakerConfig{Failures: 1}})
	if err := p.Add(failover.Profile{Name: "small", Chat: small}); err != nil {
		t.Fatal(err)
	}
	m := p.Chat("response", failover.Timeouts{}, "small")
	_, _ = m.Chat(context.Background(), nadine.ChatRequest{Role: "response"})
	clock.waitTimer(t, failover.DefaultCooldown)
	done := make(chan struct{})
	go func() { p.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not stop the probe")
	}
	if small.count() != 1 {
		t.Errorf("calls = %d, want 1 (no probe ran)", small.count())
	}
}

func waitState(t *testing.T, b *failover.Breaker, want failover.BreakerState) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for b.State() != want {
		if time.Now().After(deadline) {
			t.Fatalf("state = %s, want %s", b.State(), want)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestChainAsksTheNextProfile: a failing profile gives way to the next one
// of the chain, and once its circuit is open it is skipped without a call.
func TestChainAsksTheNextProfile(t *testing.T) {
	small := &fakeModel{answer: failing(err500)}
	big := &fakeModel{}
	p := newPool(t, failover.Options{Breaker: failover.BreakerConfig{Failures: 2}},
		failover.Profile{Name: "small", Chat: small}, failover.Profile{Name: "big", Chat: big})
	m := p.Chat("orchestrator", failover.Timeouts{Attempt: time.Minute}, "small", "big", "small", "missing")
	for i := range 3 {
		ctx, tr := traced()
		resp, err := m.Chat(ctx, nadine.ChatRequest{Role: "orchestrator"})
		if err != nil || resp.Content != "ok" {
			t.Fatalf("call %d: %q, %v", i, resp.Content, err)
		}
		want := "profile small failed (unavailable); asking profile big"
		if i == 2 {
			want = "profile small skipped"
		}
		if !hasStep(tr, "orchestrator", want) {
			t.Errorf("call %d: trace steps %q, want %q", i, steps(tr, "orchestrator"), want)
		}
	}
	if small.count() != 2 || big.count() != 3 {
		t.Errorf("calls: small %d, big %d; want 2 and 3 (small skipped once open)", small.count(), big.count())
	}
}

// TestChainFailsWithTheLastCode: when no profile answers, the error keeps
// the code of the last failure and names every profile's.
func TestChainFailsWithTheLastCode(t *testing.T) {
	p := newPool(t, failover.Options{},
		failover.Profile{Name: "small", Chat: &fakeModel{answer: failing(err500)}},
		failover.Profile{Name: "big", Chat: &fakeModel{answer: failing(nadine.Errorf(nadine.ERATELIMIT, "openai: rate limited (HTTP 429)"))}})
	_, err := p.Chat("response", failover.Timeouts{}, "small", "big").Chat(context.Background(), nadine.ChatRequest{})
	if nadine.ErrorCode(err) != nadine.ERATELIMIT || !strings.Contains(err.Error(), "HTTP 500") || !strings.Contains(err.Error(), "HTTP 429") {
		t.Errorf("err = %v (code %s)", err, nadine.ErrorCode(err))
	}
	if p.Chat("response", failover.Timeouts{}, "missing") != nil {
		t.Errorf("a chain of unknown profiles gave a model")
	}
}

// TestRetries: what is retried on the same profile, and how the failures
// count against its breaker.
func TestRetries(t *testing.T) {
	tests := []struct {
		name     string
		err      error
		calls    int // with 2 retries allowed
		counted  int // failures on the breaker
		noRetry  string
		deadline time.Duration // 0: none
	}{
		{name: "HTTP 500 is retried", err: err500, calls: 3, counted: 1},
		{name: "rate limit is retried", err: nadine.Errorf(nadine.ERATELIMIT, "openai: rate limited (HTTP 429)"), calls: 3, counted: 1},
		{name: "a refused connection is not", err: errRefused, calls: 1, counted: 1, noRetry: "the connection was refused"},
		{name: "a timeout is not", err: &nadine.Error{Code: nadine.EUNAVAILABLE, Message: "openai: timed out after 2s", Err: context.DeadlineExceeded},
			calls: 1, counted: 1, noRetry: "it timed out"},
		{name: "bad output is not", err: nadine.Errorf(nadine.EBADOUTPUT, "openai: undecodable answer"), calls: 1, counted: 1, noRetry: "the answer was unusable"},
		{name: "a refused request is not, and does not count", err: nadine.Errorf(nadine.EINVALID, "openai: request rejected (HTTP 400)"), calls: 1, counted: 0, noRetry: "the request was refused"},
		{name: "a bug is not, and does not count", err: errors.New("boom"), calls: 1, counted: 0, noRetry: "an internal error"},
		{name: "no retry past the turn's budget", err: err500, calls: 1, counted: 1, deadline: 2 * time.Second, noRetry: "the deadline leaves"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := &fakeModel{answer: failing(tt.err)}
			p := newPool(t, failover.Options{Breaker: failover.BreakerConfig{Failures: 5}}, failover.Profile{Name: "small", Chat: model, Retries: 2})
			ctx, tr := traced()
			if tt.deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.deadline)
				defer cancel()
			}
			_, err := p.Chat("intent_classifier", failover.Timeouts{Attempt: 5 * time.Second}, "small").Chat(ctx, nadine.ChatRequest{})
			if err == nil || nadine.ErrorCode(err) != nadine.ErrorCode(tt.err) {
				t.Errorf("err = %v, want code %s", err, nadine.ErrorCode(tt.err))
			}
			if model.count() != tt.calls {
				t.Errorf("calls = %d, want %d", model.count(), tt.calls)
			}
			if got := p.Breaker("small").Status().Failures; got != tt.counted {
				t.Errorf("breaker failures = %d, want %d", got, tt.counted)
			}
			if tt.noRetry != "" && !hasStep(tr, "intent_classifier", "not retried: "+tt.noRetry) {
				t.Errorf("trace steps %q, want not retried: %s", steps(tr, "intent_classifier"), tt.noRetry)
			}
			if tt.calls == 3 && (!hasStep(tr, "intent_classifier", "attempt 1 failed") || !hasStep(tr, "intent_classifier", "retrying in")) {
				t.Errorf("trace steps %q, want the retries", steps(tr, "intent_classifier"))
			}
		})
	}
}

// TestRetrySucceeds: an attempt that fails and then answers leaves the
// breaker closed with no failure, and the trace says which attempt
// answered.
func TestRetrySucceeds(t *testing.T) {
	model := &fakeModel{answer: func(_ context.Context, n int, _ nadine.ChatRequest, _ func(string)) (nadine.ChatResponse, error) {
		if n == 1 {
			return nadine.ChatResponse{}, err500
		}
		return nadine.ChatResponse{Content: "joy 4"}, nil
	}}
	p := newPool(t, failover.Options{Breaker: failover.BreakerConfig{Failures: 1}}, failover.Profile{Name: "small", Chat: model, Retries: 1})
	ctx, tr := traced()
	resp, err := p.Chat("appraisal", failover.Timeouts{Attempt: time.Second}, "small").Chat(ctx, nadine.ChatRequest{})
	if err != nil || resp.Content != "joy 4" {
		t.Fatalf("%q, %v", resp.Content, err)
	}
	if s := p.Breaker("small").Status(); s.State != failover.Closed || s.Failures != 0 {
		t.Errorf("breaker = %+v, want closed with no failure", s)
	}
	if !hasStep(tr, "appraisal", "profile small answered on attempt 2") {
		t.Errorf("steps = %q", steps(tr, "appraisal"))
	}
}

// retryAfterError is a server's 429 with Retry-After, as the openai client
// reports it.
type retryAfterError struct{ d time.Duration }

func (e retryAfterError) Error() string                     { return "HTTP 429" }
func (e retryAfterError) RetryAfter() (time.Duration, bool) { return e.d, true }

// TestRetryAfter: the server's Retry-After replaces the backoff, and a
// wait the budget cannot afford means no retry.
func TestRetryAfter(t *testing.T) {
	rate := &nadine.Error{Code: nadine.ERATELIMIT, Message: "openai: rate limited (HTTP 429)", Err: retryAfterError{20 * time.Millisecond}}
	backoffs := 0
	model := &fakeModel{answer: failing(rate)}
	p := newPool(t, failover.Options{Backoff: func(int) time.Duration { backoffs++; return time.Millisecond }},
		failover.Profile{Name: "small", Chat: model, Retries: 1})
	ctx, tr := traced()
	_, _ = p.Chat("search_router", failover.Timeouts{Attempt: time.Second}, "small").Chat(ctx, nadine.ChatRequest{})
	if model.count() != 2 || backoffs != 0 || !hasStep(tr, "search_router", "retrying in 20ms") {
		t.Errorf("calls %d, backoffs %d, steps %q; want 2 calls waiting the server's 20ms", model.count(), backoffs, steps(tr, "search_router"))
	}

	long := &nadine.Error{Code: nadine.ERATELIMIT, Message: "openai: rate limited (HTTP 429)", Err: retryAfterError{time.Minute}}
	model2 := &fakeModel{answer: failing(long)}
	p2 := newPool(t, failover.Options{}, failover.Profile{Name: "small", Chat: model2, Retries: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _ = p2.Chat("search_router", failover.Timeouts{Attempt: time.Second}, "small").Chat(ctx, nadine.ChatRequest{})
	if model2.count() != 1 {
		t.Errorf("a minute's Retry-After within a 10s budget: %d calls, want 1", model2.count())
	}
}

// TestCallerCancelDoesNotCount: a call the caller abandons (the turn's
// budget ran out, a speculation was dropped) is no failure of the profile.
func TestCallerCancelDoesNotCount(t *testing.T) {
	model := &fakeModel{answer: func(ctx context.Context, _ int, _ nadine.ChatRequest, _ func(string)) (nadine.ChatResponse, error) {
		<-ctx.Done()
		return nadine.ChatResponse{}, &nadine.Error{Code: nadine.EUNAVAILABLE, Message: "openai: canceled", Err: ctx.Err()}
	}, calls: make(chan string, 1)}
	p := newPool(t, failover.Options{Breaker: failover.BreakerConfig{Failures: 1}}, failover.Profile{Name: "small", Chat: model, Retries: 2})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-model.calls; cancel() }()
	if _, err := p.Chat("react_agent", failover.Timeouts{Attempt: time.Minute}, "small").Chat(ctx, nadine.ChatRequest{}); err == nil {
		t.Fatal("no error")
	}
	if s := p.Breaker("small").Status(); s.State != failover.Closed || s.Failures != 0 || model.count() != 1 {
		t.Errorf("breaker %+v after %d calls, want closed, no failure, one call", s, model.count())
	}
}

// TestCallerDeadlinePastTheAttemptsOwnCounts: when the caller's deadline
// ends an attempt that had already outlived its own timeout (the two were
// due together), the profile is blamed as if the pool had cut it.
func TestCallerDeadlinePastTheAttemptsOwnCounts(t *testing.T) {
	clock := newFakeClock()
	model := &fakeModel{answer: hanging}
	p := newPool(t, failover.Options{Clock: clock, Breaker: failover.BreakerConfig{Failures: 1}}, failover.Profile{Name: "big", Chat: model})
	ctx, cancel := context.WithCancel(context.Background())
	ctx = nadine.WithTrace(ctx, nadine.NewTrace("t", "hi", time.Now()))
	done := make(chan error, 1)
	go func() {
		_, err := p.Chat("response", failover.Timeouts{Attempt: time.Minute, FirstToken: 4 * time.Second}, "big").ChatStream(ctx, nadine.ChatRequest{}, nil)
		done <- err
	}()
	clock.waitTimer(t, 4*time.Second)
	clock.mu.Lock()
	clock.now = clock.now.Add(4 * time.Second) // the cut is due, but the caller ends first
	clock.mu.Unlock()
	cancel()
	<-done
	if s := p.Breaker("big").State(); s != failover.Open {
		t.Errorf("state = %s, want open: the attempt was past its first-token deadline", s)
	}
	if !hasStep(nadine.TraceFrom(ctx), "response", "ended by the caller's deadline, past its own 4s") {
		t.Errorf("steps = %q", steps(nadine.TraceFrom(ctx), "response"))
	}
}

// hanging waits for its context, as a model that never answers.
func hanging(ctx context.Context, _ int, _ nadine.ChatRequest, _ func(string)) (nadine.ChatResponse, error) {
	<-ctx.Done()
	return nadine.ChatResponse{}, &nadine.Error{Code: nadine.EUNAVAILABLE, Message: "openai: canceled", Err: ctx.Err()}
}

// TestAttemptTimeout: an attempt that does not answer within its role's
// Attempt timeout is cut, counted against the profile, not retried there,
// and the next profile is asked.
func TestAttemptTimeout(t *testing.T) {
	clock := newFakeClock()
	slow := &fakeModel{answer: hanging}
	spare := &fakeModel{}
	p := newPool(t, failover.Options{Clock: clock}, failover.Profile{Name: "small", Chat: slow, Retries: 3},
		failover.Profile{Name: "big", Chat: spare})
	ctx, tr := traced()
	type result struct {
		resp nadine.ChatResponse
		err  error
	}
	done := make(chan result, 1)
	go func() {
		r, err := p.Chat("intent_classifier", failover.Timeouts{Attempt: 3 * time.Second}, "small", "big").Chat(ctx, nadine.ChatRequest{})
		done <- result{r, err}
	}()
	clock.waitTimer(t, 3*time.Second)
	clock.Advance(3 * time.Second)
	r := <-done
	if r.err != nil || r.resp.Content != "ok" {
		t.Fatalf("%q, %v; want big's answer", r.resp.Content, r.err)
	}
	if slow.count() != 1 || p.Breaker("small").Status().Failures != 1 {
		t.Errorf("small: %d calls, %d failures; want 1 and 1", slow.count(), p.Breaker("small").Status().Failures)
	}
	if !hasStep(tr, "intent_classifier", "profile small, attempt 1 cut at its 3s attempt timeout") {
		t.Errorf("steps = %q", steps(tr, "intent_classifier"))
	}
}

// TestFirstTokenDeadline: a streamed attempt whose first piece does not
// come within FirstToken is cut; one whose first piece came in time runs
// on, past that deadline, until it ends.
func TestFirstTokenDeadline(t *testing.T) {
	timeouts := failover.Timeouts{Attempt: 30 * time.Second, FirstToken: 2 * time.Second}
	t.Run("no first token", func(t *testing.T) {
		clock := newFakeClock()
		p := newPool(t, failover.Options{Clock: clock}, failover.Profile{Name: "big", Chat: &fakeModel{answer: hanging}})
		ctx, tr := traced()
		done := make(chan error, 1)
		go func() {
			_, err := p.Chat("response", timeouts, "big").ChatStream(ctx, nadine.ChatRequest{}, nil)
			done <- err
		}()
		clock.waitTimer(t, 2*time.Second)
		clock.Advance(2 * time.Second)
		err := <-done
		if nadine.ErrorCode(err) != nadine.EUNAVAILABLE || !strings.Contains(err.Error(), "cut at its 2s first-token deadline") {
			t.Errorf("err = %v", err)
		}
		if !hasStep(tr, "response", "attempt 1 cut at its 2s first-token deadline; not retried: 0 retries allowed") {
			t.Errorf("steps = %q", steps(tr, "response"))
		}
	})
	t.Run("no first token, then another attempt answers", func(t *testing.T) {
		clock := newFakeClock()
		model := &fakeModel{answer: func(ctx context.Context, n int, req nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
			if n == 1 {
				return hanging(ctx, n, req, onDelta)
			}
			onDelta("Hello Robin.")
			return nadine.ChatResponse{Content: "Hello Robin."}, nil
		}}
		p := newPool(t, failover.Options{Clock: clock}, failover.Profile{Name: "big", Chat: model, Retries: 1})
		ctx, tr := traced()
		done := make(chan error, 1)
		go func() {
			_, err := p.Chat("response", timeouts, "big").ChatStream(ctx, nadine.ChatRequest{}, nil)
			done <- err
		}()
		clock.waitTimer(t, 2*time.Second)
		clock.Advance(2 * time.Second) // cut: no first token
		clock.waitTimer(t, time.Millisecond)
		clock.Advance(time.Millisecond) // the backoff
		if err := <-done; err != nil || model.count() != 2 {
			t.Fatalf("err %v after %d calls, want the second attempt's answer", err, model.count())
		}
		if !hasStep(tr, "response", "attempt 1 cut at its 2s first-token deadline; retrying in 1ms") || !hasStep(tr, "response", "answered on attempt 2") {
			t.Errorf("steps = %q", steps(tr, "response"))
		}
		if s := p.Breaker("big").Status(); s.Failures != 0 {
			t.Errorf("breaker %+v, want no failure: the call answered", s)
		}
	})
	t.Run("first token in time", func(t *testing.T) {
		clock := newFakeClock()
		delivered, release := make(chan struct{}), make(chan struct{})
		model := &fakeModel{answer: func(ctx context.Context, _ int, _ nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
			onDelta("Hello ")
			close(delivered)
			<-release
			onDelta("Robin.")
			return nadine.ChatResponse{Content: "Hello Robin."}, ctx.Err()
		}}
		p := newPool(t, failover.Options{Clock: clock}, failover.Profile{Name: "big", Chat: model})
		var pieces []string
		done := make(chan error, 1)
		go func() {
			_, err := p.Chat("response", timeouts, "big").ChatStream(context.Background(), nadine.ChatRequest{}, func(d string) { pieces = append(pieces, d) })
			done <- err
		}()
		<-delivered
		clock.Advance(10 * time.Second) // past the first-token deadline, within the attempt's
		close(release)
		if err := <-done; err != nil || strings.Join(pieces, "") != "Hello Robin." {
			t.Errorf("%q, %v", pieces, err)
		}
	})
}

// TestDeliveredIsFinal: once a streamed answer delivered text, its failure
// is returned as it is: no retry, no other profile.
func TestDeliveredIsFinal(t *testing.T) {
	broken := &fakeModel{answer: func(_ context.Context, _ int, _ nadine.ChatRequest, onDelta func(string)) (nadine.ChatResponse, error) {
		onDelta("Geneva is ")
		return nadine.ChatResponse{}, nadine.Errorf(nadine.EUNAVAILABLE, "openai: stream broke off")
	}}
	spare := &fakeModel{}
	p := newPool(t, failover.Options{}, failover.Profile{Name: "big", Chat: broken, Retries: 3}, failover.Profile{Name: "small", Chat: spare})
	_, err := p.Chat("response", failover.Timeouts{}, "big", "small").ChatStream(context.Background(), nadine.ChatRequest{}, nil)
	if err == nil || broken.count() != 1 || spare.count() != 0 {
		t.Errorf("err %v; calls %d and %d, want 1 and 0", err, broken.count(), spare.count())
	}
}

// TestEmbedderSharesTheBreaker: a profile's embedder and chat model open
// and skip together, and the embedder keeps its vector space's name.
func TestEmbedderSharesTheBreaker(t *testing.T) {
	model := &fakeModel{answer: failing(errRefused)}
	p := newPool(t, failover.Options{Breaker: failover.BreakerConfig{Failures: 2}}, failover.Profile{Name: "default", Chat: model, Embedder: model})
	emb := p.Embedder("embeddings", failover.Timeouts{Attempt: time.Second}, "default")
	if emb.Name() != "fake-embedder" {
		t.Errorf("name = %q", emb.Name())
	}
	_, _ = emb.Embed(context.Background(), []string{"a"})
	_, _ = p.Chat("response", failover.Timeouts{}, "default").Chat(context.Background(), nadine.ChatRequest{})
	if s := p.Breaker("default").State(); s != failover.Open {
		t.Fatalf("state = %s, want open after an embedding and a chat failure", s)
	}
	if _, err := emb.Embed(context.Background(), []string{"a"}); nadine.ErrorCode(err) != nadine.EUNAVAILABLE || model.count() != 2 {
		t.Errorf("embedding on an open profile: %v after %d calls", err, model.count())
	}
	if p.Embedder("embeddings", failover.Timeouts{}, "missing") != nil {
		t.Error("an embedder for an unknown profile")
	}
}

// TestEmbedderBatchTimeout: the attempt timeout bounds one text; a batch
// of n texts gets n times as long, so an ingest is not cut like a query.
func TestEmbedderBatchTimeout(t *testing.T) {
	clock := newFakeClock()
	model := &fakeModel{answer: hanging}
	p := newPool(t, failover.Options{Clock: clock}, failover.Profile{Name: "embed", Embedder: model})
	emb := p.Embedder("embeddings", failover.Timeouts{Attempt: time.Second}, "embed")
	done := make(chan error, 1)
	go func() {
		_, err := emb.Embed(context.Background(), []string{"a", "b", "c", "d"})
		done <- err
	}()
	clock.waitTimer(t, 4*time.Second)
	clock.Advance(time.Second)
	select {
	case err := <-done:
		t.Fatalf("a batch of 4 was cut after one text's timeout: %v", err)
	default:
	}
	clock.Advance(3 * time.Second)
	if err := <-done; err == nil || !strings.Contains(err.Error(), "cut at its 4s attempt timeout") {
		t.Errorf("err = %v, want the batch cut at 4s", err)
	}
}

func TestAddRejects(t *testing.T) {
	p := newPool(t, failover.Options{}, failover.Profile{Name: "small", Chat: &fakeModel{}})
	for _, pr := range []failover.Profile{{Name: "", Chat: &fakeModel{}}, {Name: "big"}, {Name: "small", Chat: &fakeModel{}}} {
		if err := p.Add(pr); nadine.ErrorCode(err) != nadine.EINVALID {
			t.Errorf("Add(%q) = %v, want invalid", pr.Name, err)
		}
	}
}
