package robot

import (
	"context"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
)

// Preemptive turns (see dialogue.Manager.Preempt): while the person still
// speaks, speech-to-text sends interim transcripts. Once one is stable
// (marked so, or the same words for Options.PreemptAfter), and no turn
// runs or waits, the runtime starts an early turn on it; the final
// transcript's turn then adopts it when the words match, and the robot
// speaks at once; otherwise the early turn is cancelled, with nothing
// spoken or stored, and the final runs as usual. A newer interim with
// other words replaces the early turn, at most Options.PreemptAttempts
// times per utterance. The cancelled early turns' costs go into the trace
// of the turn that answers the utterance.

// Defaults of Options.PreemptAfter and Options.PreemptAttempts.
const (
	DefaultPreemptAfter    = 300 * time.Millisecond
	DefaultPreemptAttempts = 3
)

// preemption is the runtime's early-turn state; guarded by Runtime.mu.
type preemption struct {
	early     *dialogue.EarlyTurn
	text      string    // the latest interim transcript's text
	since     time.Time // when those words first came
	timer     *time.Timer
	attempts  int                  // early turns started for this utterance
	pending   *nadine.Transcript   // a ready interim that came while a job ran: started once the queue is empty
	discarded []nadine.Speculation // cancelled ones, for the answering turn's trace

	warmTimer *time.Timer // tells Options.WarmWords the words once they held
}

// interim warms up on new words held for half of PreemptAfter and starts an
// early turn once they held for all of it (at once when stable).
func (r *Runtime) interim(ctx context.Context, t nadine.Transcript) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	p := &r.pre
	now := r.opts.Now()
	same := p.text != "" && dialogue.SameUtterance(p.text, t.Text)
	if !same {
		p.text, p.since = t.Text, now
	}
	warmNow := false
	if r.opts.WarmWords != nil && !same {
		r.stopTimerOf(&p.warmTimer)
		if warmNow = t.Stable; !warmNow {
			r.whenHeld(&p.warmTimer, r.opts.PreemptAfter/2, t, func() { r.opts.WarmWords(t.Text) })
		}
	}
	ready := false
	if r.opts.Preempt {
		ready = t.Stable || (same && now.Sub(p.since) >= r.opts.PreemptAfter)
		r.stopTimer()
		if !ready {
			r.whenHeld(&p.timer, r.opts.PreemptAfter-now.Sub(p.since), t, func() { r.startEarly(ctx, t) })
		}
	}
	r.mu.Unlock()
	if warmNow {
		r.opts.WarmWords(t.Text)
	}
	if ready {
		r.startEarly(ctx, t)
	}
}

// whenHeld arms *tm to run fn after d if the interim words are still t's.
// Run waits for the timer's function (timers); r.mu is held.
func (r *Runtime) whenHeld(tm **time.Timer, d time.Duration, t nadine.Transcript, fn func()) {
	r.stopTimerOf(tm)
	r.timers.Add(1)
	*tm = time.AfterFunc(d, func() {
		defer r.timers.Done()
		r.mu.Lock()
		still := dialogue.SameUtterance(r.pre.text, t.Text) && !r.closed
		r.mu.Unlock()
		if still {
			fn()
		}
	})
}

// startEarly starts an early turn on t when idle. Starts are serialized
// (startMu): an early turn may answer before its start has recorded it.
func (r *Runtime) startEarly(ctx context.Context, t nadine.Transcript) {
	r.startMu.Lock()
	defer r.startMu.Unlock()
	r.mu.Lock()
	p := &r.pre
	if r.closed || p.attempts >= r.opts.PreemptAttempts ||
		(p.early != nil && dialogue.SameUtterance(p.early.Text(), t.Text)) {
		r.mu.Unlock()
		return
	}
	if r.busy || len(r.queue) > 0 {
		// The job goes first; the early turn starts when it is done, if
		// the final transcript has not come by then (see resumeEarly).
		p.pending = &t
		r.mu.Unlock()
		return
	}
	p.pending = nil
	old := p.early
	p.early = nil
	p.attempts++
	r.mu.Unlock()
	if old != nil {
		r.discard(old, "newer words came")
	}
	e := r.m.Preempt(ctx, nadine.Turn{ID: t.ID, Text: t.Text, Language: t.Language, Time: heardAt(t)})
	if e == nil {
		return
	}
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		r.discard(e, "shutting down")
		return
	}
	// A job that came meanwhile finds it (takeEarly waits for this start):
	// the final transcript of these words adopts it, any other job cancels
	// it, as a job does that comes later.
	p.early = e
	r.mu.Unlock()
	r.log.Debug("early turn started on an interim transcript", "id", t.ID, "chars", len(t.Text), "stable", t.Stable)
}

// resumeEarly starts a ready interim's early turn once no job runs or waits;
// the worker calls it after each job.
func (r *Runtime) resumeEarly(ctx context.Context) {
	r.mu.Lock()
	t := r.pre.pending
	r.pre.pending = nil
	idle := !r.busy && len(r.queue) == 0
	r.mu.Unlock()
	if t != nil && idle {
		r.startEarly(ctx, *t)
	}
}

// discard cancels an early turn and keeps what it cost for the trace of
// the turn that answers the utterance.
func (r *Runtime) discard(e *dialogue.EarlyTurn, why string) {
	e.Cancel()
	sp, ok := e.Discarded()
	if !ok {
		return
	}
	if sp.Reason == "cancelled" {
		sp.Reason = why
	}
	r.mu.Lock()
	r.pre.discarded = append(r.pre.discarded, sp)
	r.mu.Unlock()
}

// takeEarly returns the early turn waiting for its final transcript, if
// any, and the cancelled ones' records, and starts a new utterance.
func (r *Runtime) takeEarly() (*dialogue.EarlyTurn, []nadine.Speculation) {
	r.startMu.Lock() // a start in progress records its early turn first
	defer r.startMu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	p := &r.pre
	e, d := p.early, p.discarded
	r.stopTimer()
	r.stopTimerOf(&p.warmTimer)
	*p = preemption{}
	return e, d
}

// stopTimer stops the interim's timer (r.mu is held); one that already fired
// is done when its function returns.
func (r *Runtime) stopTimer() { r.stopTimerOf(&r.pre.timer) }

// stopTimerOf stops the interim timer in *tm, if any (r.mu is held).
func (r *Runtime) stopTimerOf(tm **time.Timer) {
	if *tm != nil {
		if (*tm).Stop() {
			r.timers.Done()
		}
		*tm = nil
	}
}

// stopEarly cancels the early turn, if any, and its timer (shutdown, and
// every job that is not its final transcript).
func (r *Runtime) stopEarly(why string) []nadine.Speculation {
	e, d := r.takeEarly()
	if e == nil {
		return d
	}
	e.Cancel()
	if sp, ok := e.Discarded(); ok {
		if sp.Reason == "cancelled" {
			sp.Reason = why
		}
		d = append(d, sp)
	}
	return d
}

// answerEarly has early turn e answer t when it is the same utterance; false,
// with nothing published, when e was not adopted (e is then cancelled).
func (r *Runtime) answerEarly(ctx context.Context, e *dialogue.EarlyTurn, t nadine.Turn, seq int64, emit nadine.EmitFunc) (nadine.Reply, bool) {
	out := newOutput(r, nadine.WithTrace(ctx, e.Trace()), t.ID, emit)
	out.inbox = seq
	return e.Adopt(ctx, t, out.emit)
}
