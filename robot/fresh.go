package robot

import (
	"context"
	"time"

	"github.com/nadine-robot/nadine"
)

// Fresh first: what the person says now is heard now (docs/bus-limits.md).
//
// A heard transcript leaves the turn queue as soon as it is older than
// Options.MaxAge (expired), not only when its turn comes: a timer is set
// for the first one to expire.
//
// When a final transcript comes while Options.Backlog heard transcripts
// already wait, Nadine is overloaded (a burst, a replayed backlog): from
// then on each final transcript that comes supersedes the older ones, those
// waiting and the heard turn in flight if it has said nothing yet, so that
// the newest is answered next; and a heard turn starts only once no final
// transcript came for overloadSettle, so that a burst does not start and
// cancel a turn per transcript. The overload ends when a heard turn speaks
// (or is answered) with no heard transcript waiting. Operator turns (Submit), a
// person leaving and sightings keep their place and are never dropped.
//
// Every transcript taken out so ends in a state of the inbox (expired, or
// dropped with reason superseded), logged with its id, seq and age, never
// its text, and shown to subscribers.

// DefaultBacklog is Options.Backlog's default.
const DefaultBacklog = 3

// overloadSettle tells a burst from a person: a burst's transcripts come
// milliseconds apart, a person's sentences seconds apart.
const overloadSettle = 100 * time.Millisecond

// flight is the heard turn in flight, which a newer transcript may
// supersede while it has said nothing; guarded by Runtime.mu.
type flight struct {
	ctx        context.Context // the turn's, cancelled when superseded
	cancel     context.CancelFunc
	said       bool // a sentence (or a filler) went to the output
	superseded bool
}

// skipped is a heard transcript taken out of the queue unanswered.
type skipped struct {
	h     *nadine.Transcript
	state nadine.InboxState // expired or dropped
	kind  UpdateKind
	why   string // Update.Reason
}

// expired reports whether a heard transcript is too old to answer.
func (r *Runtime) expired(t nadine.Transcript, now time.Time) bool {
	return now.Sub(heardAt(t)) >= r.opts.MaxAge
}

// supersede drops queued heard transcripts and cancels a silent heard turn,
// unless it adopted a ready early turn (r.mu is held).
func (r *Runtime) supersede() []skipped {
	var out []skipped
	kept := make([]job, 0, len(r.queue))
	for _, j := range r.queue {
		if j.heard != nil {
			out = append(out, skipped{h: j.heard, state: nadine.InboxDropped, kind: UpdateDropped, why: ReasonSuperseded})
			continue
		}
		kept = append(kept, j)
	}
	r.queue = kept
	if f := r.flight; f != nil && !f.said && !f.superseded {
		f.superseded = true
		f.cancel() // the turn ends abandoned (see run), or answered if it spoke meanwhile
	}
	return out
}

// overloaded records a final transcript that found heard ones waiting and
// reports whether Nadine is overloaded (r.mu is held).
func (r *Runtime) overloaded(waiting int) bool {
	if !r.overload && waiting >= r.opts.Backlog {
		r.overload = true
		r.log.Warn("turn queue overloaded: the newest transcript is answered next, older ones are dropped as superseded",
			"waiting", waiting, "backlog", r.opts.Backlog)
	}
	return r.overload
}

// caughtUp ends the overload once a heard turn speaks with none waiting:
// Nadine is answering the newest (r.mu is held).
func (r *Runtime) caughtUp() {
	if !r.overload {
		return
	}
	for _, j := range r.queue {
		if j.heard != nil {
			return
		}
	}
	r.overload = false
	r.log.Info("turn queue caught up: transcripts are answered in order again")
}

// settling is how long the worker waits before heard turn j while
// overloaded, until no final transcript came for overloadSettle (r.mu held).
func (r *Runtime) settling(j job) time.Duration {
	if j.heard == nil || !r.overload {
		return 0
	}
	return r.lastHeard.Add(overloadSettle).Sub(r.opts.Now())
}

// scheduleExpiry sets the timer for the first heard transcript of the
// queue to expire, or stops it when none waits. r.mu is held.
func (r *Runtime) scheduleExpiry() {
	var next time.Time
	for _, j := range r.queue {
		if j.heard != nil {
			if d := heardAt(*j.heard).Add(r.opts.MaxAge); next.IsZero() || d.Before(next) {
				next = d
			}
		}
	}
	if r.expiry != nil && r.expiryAt.Equal(next) {
		return
	}
	r.stopTimerOf(&r.expiry)
	if next.IsZero() || r.closed {
		return
	}
	r.expiryGen++
	gen := r.expiryGen
	r.expiryAt = next
	r.timers.Add(1)
	r.expiry = time.AfterFunc(max(next.Sub(r.opts.Now()), 0), func() {
		defer r.timers.Done()
		r.expire(gen)
	})
}

// expire takes the expired heard transcripts out of the queue (the
// expiry timer's function; gen tells it from a timer replaced since).
func (r *Runtime) expire(gen uint64) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	if r.expiryGen == gen {
		r.expiry = nil
	}
	now := r.opts.Now()
	var out []skipped
	kept := make([]job, 0, len(r.queue))
	for _, j := range r.queue {
		if j.heard != nil && r.expired(*j.heard, now) {
			out = append(out, skipped{h: j.heard, state: nadine.InboxExpired, kind: UpdateExpired, why: ReasonExpired})
			continue
		}
		kept = append(kept, j)
	}
	r.queue = kept
	r.scheduleExpiry()
	r.mu.Unlock()
	r.report(out)
	r.flushMarks(context.Background())
}

// report logs the skipped transcripts (ids, seqs and ages, never their
// text), queues their inbox marks and tells subscribers.
func (r *Runtime) report(skips []skipped) {
	now := r.opts.Now()
	for _, s := range skips {
		h := s.h
		age := now.Sub(heardAt(*h)).Round(time.Millisecond)
		switch s.why {
		case ReasonExpired:
			r.log.Warn("transcript expired: too old to answer", "id", h.ID, "seq", h.Seq, "age", age, "max_age", r.opts.MaxAge)
		case ReasonSuperseded:
			r.log.Warn("transcript dropped: superseded by a newer one while the turn queue is overloaded", "id", h.ID, "seq", h.Seq, "age", age)
		}
		r.queueMark(s.state, h.Seq)
		r.broadcast(Update{Kind: s.kind, TurnID: h.ID, Input: h.Text, Reason: s.why})
	}
}

// watchSpeech passes the turn's events on to emit, noting when the first
// sentence (or filler) goes out: from then on the turn is not superseded.
func (r *Runtime) watchSpeech(f *flight, emit nadine.EmitFunc) nadine.EmitFunc {
	return func(e nadine.Event) {
		if e.Kind == nadine.EventSpeech {
			r.mu.Lock()
			if !f.said {
				f.said = true
				r.caughtUp()
			}
			r.mu.Unlock()
		}
		emit(e)
	}
}

// abandoned records a silent heard turn the manager abandoned: superseded,
// it is dropped; at shutdown it stays in the inbox for after the restart.
func (r *Runtime) abandoned(ctx context.Context, j job) {
	h := j.heard
	r.mu.Lock()
	superseded := j.flight != nil && j.flight.superseded
	r.mu.Unlock()
	if !superseded {
		r.log.Warn("turn abandoned at shutdown before it said anything; the transcript stays in the inbox", "id", h.ID, "seq", h.Seq)
		return
	}
	r.report([]skipped{{h: h, state: nadine.InboxDropped, kind: UpdateDropped, why: ReasonSuperseded}})
	r.flushMarks(ctx)
}
