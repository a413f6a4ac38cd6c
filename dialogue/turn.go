package dialogue

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/spoken"
)

// turnRun is one turn on its one path: prepare, answer, complete. The caller
// holds turnMu.
type turnRun struct {
	m      *Manager
	ctx    context.Context
	trace  *nadine.Trace
	text   string
	start  time.Time
	out    *Output
	held   bool // an early turn's: its output held until adopted
	req    nadine.Request
	change func()

	laterMu sync.Mutex
	later   []func(context.Context) // the engines' work for after the reply

	// The spoken forget (forget.go): whether the engine asked to forget the person,
	// and how the turn answered a pending confirmation.
	forgetAsked   bool
	answered      Answer
	answerObjects bool // the answer holds a negation, a hesitation or a question

	// The exchange as committed to the history: at the reply's speech end
	// (before its marker goes out), else by complete.
	commitMu  sync.Mutex
	committed *committedTurn
}

// committedTurn is what commit returned, and the reply text it recorded.
type committedTurn struct {
	user nadine.UserRef
	conv string
	keep bool
	text string
}

// prepare starts a turn: its trace (the context's, else a new one), its
// Output (held when held is set) and its request.
func (m *Manager) prepare(ctx context.Context, turn nadine.Turn, text string, truncated bool, start time.Time, emit nadine.EmitFunc, held bool) *turnRun {
	m.ensureRestored(ctx)
	// A caller that publishes the turn's events (the robot runtime) may
	// start the trace itself, so that what it does is recorded too.
	trace := nadine.TraceFrom(ctx)
	if trace == nil {
		if turn.ID == "" {
			turn.ID = m.opts.NewID()
		}
		trace = nadine.NewTrace(turn.ID, text, start)
		ctx = nadine.WithTrace(ctx, trace)
	} else {
		trace.SetInput(text)
	}
	trace.SetClock(m.opts.Now)
	if truncated {
		trace.Notef("input cut to %d characters", m.opts.MaxInputChars)
	}
	if m.checkForgotten(ctx) {
		trace.Notef("the person in front of the robot was erased: the session is a stranger's")
	}
	// What Nadine really said of the last reply, when the person cut it
	// short, is in the history before this turn reads it.
	m.settleAmendment(ctx)
	ctx = m.interruptibleTurn(ctx, trace.TurnID())
	t := &turnRun{m: m, ctx: ctx, trace: trace, text: text, start: start, held: held}
	t.out = NewOutput(ctx, OutputOptions{To: emit, Held: held, Language: m.Language(), Apply: t.apply,
		Check: m.sentenceCheck(), Filler: m.opts.Filler, Budget: m.opts.Speech, Now: m.opts.Now})
	t.req, t.change = m.request(ctx, turn, text, start, t.out)
	// Work the reply does not need (memory and state writes, the next
	// turn's context summary) runs once the reply is published.
	t.req.AfterReply = func(fn func(context.Context)) {
		t.laterMu.Lock()
		t.later = append(t.later, fn)
		t.laterMu.Unlock()
	}
	return t
}

// apply applies an event as it goes out; the speech end commits the exchange,
// so the turn is in the history before its final marker (docs/mqtt.md).
func (t *turnRun) apply(e nadine.Event) {
	if e.Kind != nadine.EventSpeechEnd {
		t.m.applyEvent(e)
		return
	}
	t.commit(context.WithoutCancel(t.ctx), t.out.saidReply())
}

// commit commits the exchange once, the previous reply's amendment first.
func (t *turnRun) commit(ctx context.Context, reply nadine.Reply) committedTurn {
	t.commitMu.Lock()
	defer t.commitMu.Unlock()
	if t.committed == nil {
		t.m.settleAmendment(ctx)
		user, conv, keep := t.m.commit(ctx, t.req, reply)
		t.committed = &committedTurn{user: user, conv: conv, keep: keep, text: reply.Text}
	}
	return *t.committed
}

// answer asks the engines in order until one answers, and returns its
// reply, or the apology when none did.
func (t *turnRun) answer() nadine.Reply {
	m, ctx, trace, req, out := t.m, t.ctx, t.trace, t.req, t.out
	if r, ok := t.confirmationAnswer(); ok {
		return r // a yes or no to "shall I forget you?": the manager's
	}
	if !t.held {
		// An early turn says nothing before its final transcript, not
		// even a filler: Adopt starts its silence timer.
		m.fillSilence(out, fillerOrigin(trace, t.start))
	}
	budget, cancelBudget := context.WithDeadline(ctx, t.start.Add(m.opts.TurnTimeout))
	defer cancelBudget()
	var lastErr error
	for i, eng := range m.opts.Engines {
		engCtx, last := budget, i == len(m.opts.Engines)-1
		if last {
			engCtx = ctx // the last engine always gets its chance
		} else if budget.Err() != nil {
			continue
		}
		if i > 0 {
			req.FallbackReason = fallbackReason(lastErr)
		}
		// The engine's work hangs from its attempt's step.
		engCtx, stepDone := nadine.BeginStep(engCtx, "engine:"+eng.Name())
		if a, ok := eng.(AuthoredEngine); ok && a.Authored() {
			req = out.BindAuthored(req)
		} else {
			req = out.Bind(req)
		}
		r, err := m.respond(engCtx, eng, req, !last)
		// An engine that heard "forget me" may say nothing: the
		// manager's line is the reply (settleForget).
		asked := err == nil && out.forgetAsked()
		if err == nil && strings.TrimSpace(r.Text) == "" && !asked {
			err = nadine.Errorf(nadine.EBADOUTPUT, "engine %s returned an empty reply", eng.Name())
		} else if _, _, serr := spoken.Reply(r.Text); err == nil && serr != nil && !out.spokeThisAttempt() && !asked {
			err = fmt.Errorf("dialogue: engine %s: %w", eng.Name(), serr) // only speech reaches speak
		}
		stepDone(err)
		if err != nil && out.speechOver() {
			// Its reply's speech ended before it failed (say, while the model
			// wrote the emotion): the reply is what was said.
			trace.Fail("engine:"+eng.Name(), err)
			trace.SetEngine(eng.Name())
			return out.saidReply() // finish adds the emotion the engine gave
		}
		if err != nil {
			lastErr = err
			trace.Fail("engine:"+eng.Name(), err)
			if ctx.Err() == nil { // not a cancelled early turn
				m.log.Warn("engine failed", "engine", eng.Name(), "code", nadine.ErrorCode(err), "err", err, "next", i+1 < len(m.opts.Engines))
			}
			if out.spoke() {
				trace.Notef("engine %s failed after speaking part of its reply", eng.Name())
			}
			if ctx.Err() != nil {
				break
			}
			req.FallbackReason = nadine.ErrorCode(err) // what the next engine says about why is true
			if budget.Err() != nil {
				req.FallbackReason = nadine.EUNAVAILABLE
			}
			continue
		}
		r.Fallback = i > 0
		t.forgetAsked = asked
		trace.SetEngine(eng.Name())
		return r
	}
	if interrupted(ctx) {
		// The person talked over Nadine: the reply is what she said of it.
		trace.Notef("interrupted by the person: the reply is what was said")
		r := out.saidReply()
		r.Emotion = nadine.Neutral
		return r
	}
	trace.SetEngine("apology")
	return nadine.Reply{Text: apology(req.Turn.Language), Language: req.Turn.Language, Emotion: nadine.Sadness, EmotionIntensity: 3,
		Category: nadine.CategoryOther, Fallback: true}
}

// complete commits the turn: speaks an unstreamed reply, commits the exchange,
// sends done, then runs deferred work and saves the session.
func (t *turnRun) complete(reply nadine.Reply) nadine.Reply {
	m, trace, out := t.m, t.trace, t.out
	defer m.turnDone(trace.TurnID())
	out.Wait()                                      // a speech end being applied has committed the exchange
	m.settleAmendment(context.WithoutCancel(t.ctx)) // the previous reply's, before this one is added
	reply = t.settleForget(context.WithoutCancel(t.ctx), reply)
	reply = m.finish(reply, out)
	out.End() // no filler after the reply
	bg := context.WithoutCancel(t.ctx)
	c := t.commit(bg, reply)
	user, conv, keep := c.user, c.conv, c.keep
	if reply.Text != c.text {
		trace.Notef("the reply is what the history has, as said before its speech ended")
		reply.Text = c.text
	}
	trace.Finish(m.opts.Now())
	reply.Trace = trace

	// The done event carries its own copy: its consumers (the monitor's
	// stream) read it while the late fields are added to reply below.
	done := reply
	out.Emit(nadine.Event{Kind: nadine.EventDone, Reply: &done})
	out.Wait() // the reply is out before what runs after it
	m.translateForMonitor(bg, t.text, reply)
	t.laterMu.Lock()
	queued := t.later
	t.later = nil
	t.laterMu.Unlock()
	for _, fn := range queued {
		fn(bg)
	}
	out.Close() // what the deferred work emitted (a gesture read late) is out; nothing after
	reply = out.lateFields(reply)
	if keep {
		m.opts.History.StoreDue(bg, user.ID, user.Name, conv)
		m.save(bg)
	}
	d := trace.Snapshot()
	m.log.Info("turn", "user", nadine.PersonID(reply.UserID), "language", reply.Language, "engine", d.Engine,
		"input", nadine.Content(t.text), "reply", nadine.Content(reply.Text), "elapsed", d.Duration.Round(time.Millisecond),
		"model_calls", len(d.ModelCalls), "critical_path", d.CriticalPath, "fallback", reply.Fallback)
	return reply
}

// lockTurn takes turnMu, first cancelling an early turn waiting for its final
// transcript: an early turn never keeps the manager from anything else.
func (m *Manager) lockTurn() {
	m.mu.Lock()
	m.waiters++
	early := m.early
	m.mu.Unlock()
	if early != nil {
		early.cancelFor("another turn or change of the session came first")
	}
	m.turnMu.Lock()
	m.mu.Lock()
	m.waiters--
	m.mu.Unlock()
}
