package failover_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/failover"
)

// TestServerFailuresOpenEveryProfileOfTheServer: failed attempts in a row
// on the profiles of one server, retries included, open every profile of
// that server, the ones never called too; another server's profiles stay
// closed; each opened profile is probed and comes back on its own.
func TestServerFailuresOpenEveryProfileOfTheServer(t *testing.T) {
	clock := newFakeClock()
	agent := &fakeModel{answer: failing(err500)}
	classifier := &fakeModel{answer: failing(err500), calls: make(chan string, 16)}
	elsewhere := &fakeModel{}
	p := newPool(t, failover.Options{Clock: clock, Backoff: func(int) time.Duration { return 0 }, Breaker: failover.BreakerConfig{Failures: 10, ServerFailures: 6, Cooldown: 5 * time.Second}},
		failover.Profile{Name: "agent", Chat: agent, Retries: 2, Server: "http://proxy:4000"},
		failover.Profile{Name: "classifier", Chat: classifier, Retries: 2, Server: "http://proxy:4000"},
		failover.Profile{Name: "local", Chat: elsewhere, Retries: 2, Server: "http://127.0.0.1:11434"})
	m := p.Chat("react_agent", failover.Timeouts{Attempt: time.Minute}, "agent")
	if _, err := m.Chat(context.Background(), nadine.ChatRequest{}); nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
		t.Fatalf("first call: %v", err)
	}
	if p.Breaker("agent").State() != failover.Closed || p.Breaker("classifier").State() != failover.Closed {
		t.Fatalf("3 failed attempts opened a circuit: %v", p.Status())
	}
	ctx, tr := traced()
	if _, err := m.Chat(ctx, nadine.ChatRequest{}); nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
		t.Fatalf("second call: %v", err)
	}
	for _, name := range []string{"agent", "classifier"} {
		if s := p.Breaker(name).State(); s != failover.Open {
			t.Errorf("profile %s after 6 failed attempts on its server: %s, want open", name, s)
		}
	}
	if s := p.Breaker("local").State(); s != failover.Closed {
		t.Errorf("the other server's profile: %s, want closed", s)
	}
	if agent.count() != 6 || classifier.count() != 0 {
		t.Errorf("calls: agent %d, classifier %d; want 6 and 0", agent.count(), classifier.count())
	}
	if len(steps(tr, "react_agent")) == 0 {
		t.Error("no failover steps in the trace")
	}
	// The classifier, never called, is skipped at once.
	if _, err := p.Chat("intent_classifier", failover.Timeouts{}, "classifier").Chat(context.Background(), nadine.ChatRequest{}); nadine.ErrorCode(err) != nadine.EUNAVAILABLE {
		t.Errorf("classifier: err = %v, want a skip", err)
	}
	if classifier.count() != 0 {
		t.Errorf("the skipped classifier was called")
	}
	// Probed like any open profile: back, it closes.
	classifier.setAnswer(nil)
	clock.waitTimer(t, 5*time.Second)
	clock.Advance(5 * time.Second)
	if role := <-classifier.calls; role != "probe" {
		t.Fatalf("classifier called for %q, want a probe", role)
	}
	waitState(t, p.Breaker("classifier"), failover.Closed)
}

// TestServerRunEndsOnAnAnswer: an answer from any profile of the server
// ends the run; errors that say nothing of the server (a refused request,
// the caller giving up) neither count nor end it.
func TestServerRunEndsOnAnAnswer(t *testing.T) {
	flaky := &fakeModel{answer: failing(err500)}
	healthy := &fakeModel{}
	refused := &fakeModel{answer: failing(nadine.Errorf(nadine.EINVALID, "openai: request rejected (HTTP 400)"))}
	p := newPool(t, failover.Options{Breaker: failover.BreakerConfig{Failures: 100, ServerFailures: 4}},
		failover.Profile{Name: "flaky", Chat: flaky, Retries: 2, Server: "s"},
		failover.Profile{Name: "healthy", Chat: healthy, Server: "s"},
		failover.Profile{Name: "refused", Chat: refused, Server: "s"})
	call := func(name string) {
		_, _ = p.Chat("r", failover.Timeouts{Attempt: time.Minute}, name).Chat(context.Background(), nadine.ChatRequest{})
	}
	for range 5 {
		call("flaky")   // 3 failed attempts
		call("refused") // says nothing of the server
		call("healthy") // ends the run
	}
	for _, name := range []string{"flaky", "healthy", "refused"} {
		if s := p.Breaker(name).State(); s != failover.Closed {
			t.Errorf("profile %s: %s, want closed (never 4 failed attempts in a row)", name, s)
		}
	}
	// A caller giving up mid-attempt says nothing either.
	ctx, cancel := context.WithCancel(context.Background())
	hang := &fakeModel{answer: func(ctx context.Context, n int, _ nadine.ChatRequest, _ func(string)) (nadine.ChatResponse, error) {
		if n == 1 {
			cancel()
		}
		<-ctx.Done()
		return nadine.ChatResponse{}, &nadine.Error{Code: nadine.EUNAVAILABLE, Message: "canceled", Err: ctx.Err()}
	}}
	if err := p.Add(failover.Profile{Name: "hang", Chat: hang, Server: "s"}); err != nil {
		t.Fatal(err)
	}
	call("flaky")
	_, _ = p.Chat("r", failover.Timeouts{Attempt: time.Minute}, "hang").Chat(ctx, nadine.ChatRequest{})
	if s := p.Breaker("flaky").State(); s != failover.Closed {
		t.Errorf("a cancelled call counted: flaky %s", s)
	}
	call("flaky") // 3 more: 6 in a row
	if s := p.Breaker("healthy").State(); s != failover.Open {
		t.Errorf("after 6 failed attempts in a row: healthy %s, want open", s)
	}
}

// TestServerFailuresUnderRandomFaults: the trade-off on generated
// sequences. With every request failing, the server opens within the
// first calls; with 30% of requests failing at random (independent draws,
// several seeds), 2,000 calls of 3 attempts at most rarely string the
// default's failed attempts together. It prints what it measured.
func TestServerFailuresUnderRandomFaults(t *testing.T) {
	for _, rate := range []float64{1, 0.3} {
		opened, calls, failedCalls := 0, 0, 0
		for seed := range uint64(5) {
			rng := rand.New(rand.NewPCG(seed, 28))
			model := &fakeModel{answer: func(context.Context, int, nadine.ChatRequest, func(string)) (nadine.ChatResponse, error) {
				if rng.Float64() < rate {
					return nadine.ChatResponse{}, err500
				}
				return nadine.ChatResponse{Content: "ok"}, nil
			}}
			p := failover.New(failover.Options{Backoff: func(int) time.Duration { return 0 }, Breaker: failover.BreakerConfig{Failures: 1 << 20}})
			if err := p.Add(failover.Profile{Name: "m", Chat: model, Retries: 2, Server: "s"}); err != nil {
				t.Fatal(err)
			}
			m := p.Chat("r", failover.Timeouts{Attempt: time.Minute}, "m")
			for i := range 2000 {
				calls++
				if _, err := m.Chat(context.Background(), nadine.ChatRequest{}); err != nil {
					failedCalls++
				}
				if p.Breaker("m").State() != failover.Closed {
					opened++
					if rate == 1 && i > 2 {
						t.Errorf("seed %d: every request failing opened the server after %d calls, want 3 at most", seed, i+1)
					}
					break
				}
			}
			p.Close()
		}
		t.Logf("%.0f%% of requests failing: the server opened in %d of 5 runs (%d calls, %d failed)", rate*100, opened, calls, failedCalls)
		if rate == 1 && opened != 5 {
			t.Errorf("every request failing: opened in %d of 5 runs", opened)
		}
		if rate < 1 && opened > 1 {
			t.Errorf("30%% failing at random: opened in %d of 5 runs of 2,000 calls, want at most 1", opened)
		}
	}
}
