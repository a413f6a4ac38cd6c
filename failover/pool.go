package failover

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
)

// DefaultAttempt bounds an attempt of a role whose Timeouts give none.
const DefaultAttempt = 30 * time.Second

// Backoff is full-jitter from backoffBase doubling to backoffMax: a robot
// cannot wait long, so the first retry comes within a fifth of a second.
const (
	backoffBase = 200 * time.Millisecond
	backoffMax  = 2 * time.Second
)

// probeText is what a probe asks a chat model (with a tiny token limit).
const probeText = "Hi"

// Timeouts bound the attempts of one role.
type Timeouts struct {
	// Attempt bounds one attempt, the whole answer (DefaultAttempt when
	// zero): seconds for a classifier, more for a streamed reply.
	Attempt time.Duration
	// FirstToken bounds, for a streamed call, the wait for the answer's
	// first piece; after it, Attempt still bounds the whole. Zero: Attempt
	// only.
	FirstToken time.Duration
}

// limit is the bound of a whole attempt.
func (t Timeouts) limit() time.Duration {
	if t.Attempt <= 0 {
		return DefaultAttempt
	}
	return t.Attempt
}

// first is the first-token deadline of a streamed attempt, or 0.
func (t Timeouts) first() time.Duration {
	if t.FirstToken > 0 && t.FirstToken < t.limit() {
		return t.FirstToken
	}
	return 0
}

// least is the time another attempt needs to be worth starting: its
// first-token deadline for a streamed call, else its attempt timeout.
func (t Timeouts) least(stream bool) time.Duration {
	if f := t.first(); stream && f > 0 {
		return f
	}
	return t.limit()
}

// Options configures a Pool. Zero values are defaults.
type Options struct {
	// Breaker sets when a profile is skipped and how it is probed.
	Breaker BreakerConfig
	// Clock is the time (SystemClock).
	Clock Clock
	// Backoff returns the wait before retry n (1-based) of a failed
	// attempt when the server gave no Retry-After (default: full jitter
	// under 200 ms, doubling up to 2 s). Tests inject a fixed wait.
	Backoff func(n int) time.Duration
	// Logger receives circuits opening and closing (discarded when nil).
	Logger *slog.Logger
}

// Profile is one model profile a Pool guards (chat model, embedder or both)
// and how often a failed attempt is retried on it.
type Profile struct {
	Name     string
	Chat     nadine.ChatModel // nil when the profile serves no chat role
	Embedder nadine.Embedder  // nil when it serves no embeddings
	// Retries is how many times a failed attempt is retried on this
	// profile, while the caller's deadline allows (0: never).
	Retries int
	// Server names the profile's server (scheme and host); its profiles share
	// the run of failed attempts. Empty: a server of its own.
	Server string
}

// Pool guards profiles with a Breaker each, probing each open circuit in the
// background until it answers or the pool closes. Safe for concurrent use.
type Pool struct {
	opts  Options
	clock Clock
	log   *slog.Logger

	ctx    context.Context // ends with Close: stops the probes
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	profiles map[string]*profile
	servers  map[string]*server // by Profile.Server
	closed   bool
}

// profile is a Profile with its breaker.
type profile struct {
	Profile
	breaker *Breaker
	srv     *server
	probing bool // a probe loop runs for it (under Pool.mu)
}

// server is the run of failed attempts its profiles share (under Pool.mu),
// so a dead server is skipped within a turn or two rather than a few per role.
type server struct {
	name     string
	run      int
	profiles []*profile
}

// New returns an empty pool.
func New(opts Options) *Pool {
	if opts.Clock == nil {
		opts.Clock = SystemClock{}
	}
	if opts.Backoff == nil {
		opts.Backoff = jitter
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	opts.Breaker = opts.Breaker.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	return &Pool{opts: opts, clock: opts.Clock, log: opts.Logger, ctx: ctx, cancel: cancel,
		profiles: map[string]*profile{}, servers: map[string]*server{}}
}

// jitter is the default backoff: a random wait under 200 ms × 2^(n-1),
// capped at 2 s.
func jitter(n int) time.Duration {
	ceil := backoffBase << (n - 1)
	if ceil > backoffMax || ceil <= 0 {
		ceil = backoffMax
	}
	return time.Duration(rand.Int64N(int64(ceil) + 1))
}

// Add registers a profile; it returns an EINVALID error for a profile
// without a name or without a model, or a name already added.
func (p *Pool) Add(pr Profile) error {
	if pr.Name == "" || (pr.Chat == nil && pr.Embedder == nil) {
		return nadine.Errorf(nadine.EINVALID, "failover: profile %q needs a name and a chat model or an embedder", pr.Name)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.profiles[pr.Name]; ok {
		return nadine.Errorf(nadine.EINVALID, "failover: profile %q added twice", pr.Name)
	}
	pr.Retries = max(pr.Retries, 0)
	if pr.Server == "" {
		pr.Server = "profile " + pr.Name
	}
	s := p.servers[pr.Server]
	if s == nil {
		s = &server{name: pr.Server}
		p.servers[pr.Server] = s
	}
	added := &profile{Profile: pr, breaker: NewBreaker(pr.Name, p.opts.Breaker, p.clock.Now), srv: s}
	s.profiles = append(s.profiles, added)
	p.profiles[pr.Name] = added
	return nil
}

// Breaker returns the breaker of a profile, or nil for a profile not added.
func (p *Pool) Breaker(name string) *Breaker {
	p.mu.Lock()
	defer p.mu.Unlock()
	if pr, ok := p.profiles[name]; ok {
		return pr.breaker
	}
	return nil
}

// Status returns the state of every profile's breaker, by profile name.
func (p *Pool) Status() map[string]BreakerStatus {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[string]BreakerStatus, len(p.profiles))
	for n, pr := range p.profiles {
		out[n] = pr.breaker.Status()
	}
	return out
}

// Chat returns role's chat model over its chain, skipping unknown, chatless
// or repeated names; nil when none has a chat model.
func (p *Pool) Chat(role string, t Timeouts, chain ...string) nadine.ChatModel {
	var links []*profile
	p.mu.Lock()
	seen := map[string]bool{}
	for _, n := range chain {
		if pr, ok := p.profiles[n]; ok && pr.Chat != nil && !seen[n] {
			seen[n] = true
			links = append(links, pr)
		}
	}
	p.mu.Unlock()
	if len(links) == 0 {
		return nil
	}
	return &chatModel{pool: p, role: role, t: t, chain: links}
}

// Embedder returns a profile's guarded embedder, or nil. No fallback chain:
// another model's vectors are not comparable.
func (p *Pool) Embedder(role string, t Timeouts, name string) nadine.Embedder {
	p.mu.Lock()
	pr, ok := p.profiles[name]
	p.mu.Unlock()
	if !ok || pr.Embedder == nil {
		return nil
	}
	return &embedder{pool: p, role: role, t: t, pr: pr}
}

// Close stops the probes and waits for them. The models handed out still
// work, without probes: a circuit that is open stays open.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.cancel()
	p.wg.Wait()
	return nil
}

// cutError is the cause of an attempt the pool cut at one of its deadlines.
type cutError struct {
	what  string // "attempt timeout", "first-token deadline"
	limit time.Duration
	whole bool // the attempt timeout, not the first-token deadline
}

// cutRetry marks an attempt cut at its first-token deadline: unlike other
// timeouts, it may be retried (see noRetry).
type cutRetry struct{ err error }

func (e *cutRetry) Error() string { return e.err.Error() }
func (e *cutRetry) Unwrap() error { return e.err }

func (e *cutError) Error() string {
	return fmt.Sprintf("failover: attempt cut at its %s %s", e.limit, e.what)
}

// try is one attempt of a call on one profile. first must be called when
// the first piece of a streamed answer reaches the caller.
type try func(ctx context.Context, first func()) error

// call makes a call on one profile with retries while the error and ctx's
// deadline allow; once delivered, nothing may be retried or asked elsewhere.
func (p *Pool) call(ctx context.Context, role string, t Timeouts, pr *profile, stream bool, attempt try) (delivered bool, err error) {
	for n := 1; ; n++ {
		if err := pr.breaker.Allow(); err != nil {
			p.step(ctx, role, p.clock.Now(), err, "profile %s skipped: circuit %s", pr.Name, pr.breaker.State())
			return false, err
		}
		start := p.clock.Now()
		delivered, cut, err := p.attempt(ctx, t, stream, attempt)
		// The caller giving up says nothing of the server, unless the
		// attempt had outlived its own deadline.
		gaveUp := ctx.Err() != nil && (delivered || p.clock.Now().Sub(start) < t.least(stream))
		switch {
		case err == nil:
			p.attempted(pr, nil)
		case !gaveUp:
			p.attempted(pr, err)
		}
		switch {
		case err == nil:
			pr.breaker.Success()
			if n > 1 {
				p.step(ctx, role, start, nil, "profile %s answered on attempt %d", pr.Name, n)
			}
			return delivered, nil
		case ctx.Err() != nil:
			// The caller gave up (the turn's budget, a dropped
			// speculation): it says nothing about the profile, unless
			// the attempt had already outlived its own deadline (the
			// budget ended at the moment the cut was due).
			if !gaveUp {
				p.failed(pr, err)
				p.step(ctx, role, start, err, "profile %s, attempt %d ended by the caller's deadline, past its own %s", pr.Name, n, t.least(stream))
			}
			return delivered, err
		case cut != nil && (cut.whole || delivered):
			err = &nadine.Error{Code: nadine.EUNAVAILABLE, Err: err,
				Message: fmt.Sprintf("failover: %s: profile %s: attempt %d cut at its %s %s", role, pr.Name, n, cut.limit, cut.what)}
			p.failed(pr, err)
			p.step(ctx, role, start, err, "profile %s, attempt %d cut at its %s %s; not retried there", pr.Name, n, cut.limit, cut.what)
			return delivered, err
		case cut != nil:
			// No first token: the reply may come on another attempt, if
			// the budget leaves one (below).
			err = &nadine.Error{Code: nadine.EUNAVAILABLE, Err: &cutRetry{err},
				Message: fmt.Sprintf("failover: %s: profile %s: attempt %d cut at its %s %s", role, pr.Name, n, cut.limit, cut.what)}
		case delivered:
			p.failed(pr, err)
			p.step(ctx, role, start, err, "profile %s, attempt %d broke off after delivering text; not retried", pr.Name, n)
			return true, err
		}
		what := fmt.Sprintf("attempt %d failed (%s)", n, nadine.ErrorCode(err))
		if cut != nil {
			what = fmt.Sprintf("attempt %d cut at its %s %s", n, cut.limit, cut.what)
		}
		why := noRetry(err)
		if why == "" && n > pr.Retries {
			why = fmt.Sprintf("%d retries allowed", pr.Retries)
		}
		var wait time.Duration
		if why == "" {
			wait = p.wait(err, n)
			if dl, ok := ctx.Deadline(); ok {
				if left := dl.Sub(p.clock.Now()); left < wait+t.least(stream) {
					why = fmt.Sprintf("the deadline leaves %s, under the %s wait and a %s attempt",
						left.Round(time.Millisecond), wait.Round(time.Millisecond), t.least(stream))
				}
			}
		}
		if why != "" {
			p.failed(pr, err)
			p.step(ctx, role, start, err, "profile %s, %s; not retried: %s", pr.Name, what, why)
			return false, err
		}
		p.step(ctx, role, start, err, "profile %s, %s; retrying in %s", pr.Name, what, wait.Round(time.Millisecond))
		if sleep(ctx, p.clock, wait) != nil {
			return false, err
		}
	}
}

// attempt runs one attempt under t's deadlines. cut is the deadline that
// ended it, if one did.
func (p *Pool) attempt(ctx context.Context, t Timeouts, stream bool, attempt try) (delivered bool, cut *cutError, err error) {
	actx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	limit := t.limit()
	stopAttempt := p.clock.AfterFunc(limit, func() { cancel(&cutError{what: "attempt timeout", limit: limit, whole: true}) })
	defer stopAttempt()
	var (
		mu        sync.Mutex
		got       bool
		stopFirst = func() bool { return false }
	)
	if f := t.first(); stream && f > 0 {
		stopFirst = p.clock.AfterFunc(f, func() {
			mu.Lock()
			defer mu.Unlock()
			if !got {
				cancel(&cutError{what: "first-token deadline", limit: f})
			}
		})
	}
	err = attempt(actx, func() {
		mu.Lock()
		defer mu.Unlock()
		if !got {
			got = true
			stopFirst()
		}
	})
	stopFirst()
	if err != nil {
		errors.As(context.Cause(actx), &cut)
	}
	mu.Lock()
	defer mu.Unlock()
	return got, cut, err
}

// counts reports whether an error says something about the profile's
// health (rather than about the request, or a bug).
func counts(err error) bool {
	switch nadine.ErrorCode(err) {
	case nadine.EUNAVAILABLE, nadine.ERATELIMIT, nadine.EBADOUTPUT:
		return true
	}
	return false
}

// failed records a failed call on the profile's breaker, and starts the
// probe when it opened the circuit.
func (p *Pool) failed(pr *profile, err error) {
	if !counts(err) || !pr.breaker.Failure(err) {
		return
	}
	p.log.Warn("failover: profile skipped until a probe succeeds", "profile", pr.Name,
		"failures", p.opts.Breaker.Failures, "code", nadine.ErrorCode(err), "err", err)
	p.startProbe(pr)
}

// attempted records an attempt in its server's run; ServerFailures failures
// in a row skip and probe every profile of the server.
func (p *Pool) attempted(pr *profile, err error) {
	if err != nil && !counts(err) {
		return
	}
	p.mu.Lock()
	s := pr.srv
	if err == nil {
		s.run = 0
		p.mu.Unlock()
		return
	}
	s.run++
	if s.run < p.opts.Breaker.ServerFailures {
		p.mu.Unlock()
		return
	}
	s.run = 0
	profiles := append([]*profile(nil), s.profiles...)
	p.mu.Unlock()
	var opened []string
	for _, o := range profiles {
		if o.breaker.Trip(err) {
			opened = append(opened, o.Name)
			p.startProbe(o)
		}
	}
	if len(opened) > 0 {
		p.log.Warn("failover: every profile of a server skipped until probes succeed", "server", s.name,
			"failed_attempts", p.opts.Breaker.ServerFailures, "profiles", opened, "code", nadine.ErrorCode(err), "err", err)
	}
}

// startProbe starts the probe loop of an open profile, unless one runs or
// the pool is closed.
func (p *Pool) startProbe(pr *profile) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || pr.probing {
		return
	}
	pr.probing = true
	p.wg.Go(func() { p.probeLoop(pr) })
}

// wait is how long to wait before retry n: the server's Retry-After, when
// its error carries one, else the backoff.
func (p *Pool) wait(err error, n int) time.Duration {
	var ra interface{ RetryAfter() (time.Duration, bool) }
	if errors.As(err, &ra) {
		if d, ok := ra.RetryAfter(); ok {
			return d
		}
	}
	return p.opts.Backoff(n)
}

// step records what the pool decided in the turn's trace, in the step
// that made the call.
func (p *Pool) step(ctx context.Context, role string, start time.Time, err error, format string, args ...any) {
	s := nadine.Step{Parent: nadine.StepOf(ctx).ID, Name: "failover:" + role, Start: start, Duration: p.clock.Now().Sub(start),
		Detail: fmt.Sprintf(format, args...)}
	if err != nil {
		s.Error = err.Error()
	}
	nadine.TraceFrom(ctx).AddStep(s)
}

// probeLoop probes an open profile every Cooldown until it answers (or a
// call succeeds), or the pool closes.
func (p *Pool) probeLoop(pr *profile) {
	for {
		p.mu.Lock()
		d, open := pr.breaker.ProbeDue()
		if !open {
			pr.probing = false
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		if d > 0 {
			if sleep(p.ctx, p.clock, d) != nil {
				return
			}
			continue
		}
		if !pr.breaker.StartProbe() {
			continue
		}
		err := p.probe(pr)
		if p.ctx.Err() != nil {
			return
		}
		pr.breaker.EndProbe(err)
		if err == nil {
			p.attempted(pr, nil)
			p.log.Info("failover: profile answers again", "profile", pr.Name)
		} else {
			p.log.Debug("failover: probe failed", "profile", pr.Name, "code", nadine.ErrorCode(err), "err", err)
		}
	}
}

// probe asks the profile a tiny question under the probe timeout.
func (p *Pool) probe(pr *profile) error {
	ctx, cancel := context.WithCancelCause(p.ctx)
	defer cancel(nil)
	limit := p.opts.Breaker.ProbeTimeout
	stop := p.clock.AfterFunc(limit, func() { cancel(&cutError{what: "probe timeout", limit: limit}) })
	defer stop()
	var err error
	if pr.Chat != nil {
		_, err = pr.Chat.Chat(ctx, nadine.ChatRequest{Role: "probe", MaxTokens: 8,
			Messages: []nadine.ChatMessage{{Role: nadine.RoleUser, Content: probeText}}})
	} else {
		_, err = nadine.EmbedOne(ctx, pr.Embedder, probeText)
	}
	if err != nil && context.Cause(ctx) != nil {
		return errors.Join(err, context.Cause(ctx))
	}
	return err
}
