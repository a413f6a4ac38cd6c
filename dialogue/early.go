package dialogue

import (
	"context"
	"strings"
	"sync"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/nadine-robot/nadine"
)

// Preemptive turns. Speech-to-text sends interim transcripts while the
// person still speaks; once one is stable, a turn can start on it, so that
// the reply is ready when the final transcript comes: preemptive
// generation. An early turn is the turn path (see turnRun) with its output
// held: it runs the engines on the interim text, but nothing of it is
// spoken, applied to the session or stored (history, memories, the
// engines' state and deferred work) until the final transcript adopts it.
// The final adopts it when its normalized text is the same utterance
// (SameUtterance) and the language it names, if any, is the one the early
// turn answered in; then the held events go out in order, the request's
// session changes apply, and the turn goes on exactly as a turn started
// then: committed, done, its deferred work run. Any other final, a newer
// interim, another use of the manager or DefaultEarlyWait without a final
// cancels it: its engines stop, its events and deferred work are dropped.

// DefaultEarlyWait is how long an early turn waits for its final
// transcript before it is cancelled (ManagerOptions.EarlyWait).
const DefaultEarlyWait = 10 * time.Second

// EarlyTurn is a turn started on an interim transcript (see Preempt).
type EarlyTurn struct {
	m     *Manager
	text  string // normalized
	start time.Time
	trace *nadine.Trace
	stop  context.CancelFunc

	prepared  chan struct{} // closed once run is set
	adopted   chan struct{}
	cancelled chan struct{}
	ended     chan struct{} // closed once turnMu is released
	result    chan nadine.Reply

	mu     sync.Mutex
	state  earlyState
	reason string   // why it was cancelled
	run    *turnRun // set before prepared is closed
	user   string   // the session's person and language it answered
	lang   nadine.Language
}

type earlyState int

const (
	earlyRunning earlyState = iota
	earlyAdopted
	earlyCancelled
)

// Preempt starts an early turn on an interim transcript, or returns nil when
// none can start. It holds the turn lock until adopted and done, or cancelled.
func (m *Manager) Preempt(ctx context.Context, turn nadine.Turn) *EarlyTurn {
	if turn.UserID != "" || turn.UserEmotion != "" {
		return nil
	}
	start := m.opts.Now()
	text, truncated, err := Normalize(turn.Text, m.opts.MaxInputChars)
	if err != nil || !m.turnMu.TryLock() {
		return nil
	}
	m.mu.Lock()
	if m.waiters > 0 || m.early != nil || m.closed {
		m.mu.Unlock()
		m.turnMu.Unlock()
		return nil
	}
	if turn.ID == "" {
		turn.ID = m.opts.NewID()
	}
	trace := nadine.NewTrace(turn.ID, text, start)
	ectx, stop := context.WithCancel(nadine.WithTrace(ctx, trace))
	trace.SetClock(m.opts.Now)
	e := &EarlyTurn{m: m, text: text, start: start, trace: trace, stop: stop,
		prepared: make(chan struct{}), adopted: make(chan struct{}), cancelled: make(chan struct{}),
		ended: make(chan struct{}), result: make(chan nadine.Reply, 1)}
	m.early = e
	m.mu.Unlock()
	// The manager's goroutine, under turnMu until it ends: cancelled by
	// Cancel, lockTurn (and so Close) or EarlyWait, waited by them.
	if !m.goOwned(func() { e.work(ectx, turn, text, truncated, start) }) {
		stop() // not reached: closed was checked under turnMu
		m.mu.Lock()
		m.early = nil
		m.mu.Unlock()
		m.turnMu.Unlock()
		return nil
	}
	return e
}

// work runs the early turn: prepared and answered with its output held,
// then, once adopted, completed; or dropped.
func (e *EarlyTurn) work(ctx context.Context, turn nadine.Turn, text string, truncated bool, start time.Time) {
	m := e.m
	defer func() {
		e.stop()
		m.mu.Lock()
		if m.early == e {
			m.early = nil
		}
		m.mu.Unlock()
		m.turnMu.Unlock()
		close(e.ended)
	}()
	t := m.prepare(ctx, turn, text, truncated, start, nil, true)
	s := m.Session() // as before the turn: an early turn's request changed nothing
	e.mu.Lock()
	e.run, e.user, e.lang = t, s.User.ID, s.Language
	e.mu.Unlock()
	close(e.prepared)
	reply := t.answer()
	wait := time.NewTimer(m.opts.EarlyWait)
	defer wait.Stop()
	select {
	case <-e.adopted:
	case <-e.cancelled:
	case <-wait.C:
		e.markCancelled("no final transcript came")
	}
	e.mu.Lock()
	adopted := e.state == earlyAdopted
	e.mu.Unlock()
	if !adopted {
		m.turnDone(t.trace.TurnID())
		t.out.Drop() // and the deferred work is never run
		return
	}
	e.result <- t.complete(reply)
}

// Text is the normalized text the early turn answers.
func (e *EarlyTurn) Text() string { return e.text }

// Trace is the early turn's trace, which becomes the adopted turn's.
func (e *EarlyTurn) Trace() *nadine.Trace { return e.trace }

// Adopt makes the early turn the answer to final when it is the same
// utterance, language and session; otherwise it cancels it and returns false.
func (e *EarlyTurn) Adopt(ctx context.Context, final nadine.Turn, emit nadine.EmitFunc) (reply nadine.Reply, ok bool) {
	arrived := e.m.opts.Now() // the final transcript's turn: its silence counts from now
	text, _, err := Normalize(final.Text, e.m.opts.MaxInputChars)
	if err != nil || !SameUtterance(text, e.text) {
		e.cancelFor("the final transcript differs")
		return nadine.Reply{}, false
	}
	select {
	case <-e.prepared:
	case <-e.ended:
		return nadine.Reply{}, false
	case <-ctx.Done():
		e.cancelFor("the final transcript's turn was cancelled")
		return nadine.Reply{}, false
	}
	e.mu.Lock()
	if e.state != earlyRunning {
		e.mu.Unlock()
		return nadine.Reply{}, false
	}
	s := e.m.Session()
	if s.User.ID != e.user || s.Language != e.lang {
		e.mu.Unlock()
		e.cancelFor("the session changed meanwhile")
		return nadine.Reply{}, false
	}
	t := e.run
	if heard, _ := e.m.turnLanguage(final, text); e.m.opts.Follow == FollowInput && heard != t.req.Turn.Language {
		// Speech-to-text named another language for the final than the
		// early turn answered in (often only finals carry one).
		e.mu.Unlock()
		e.cancelFor("the final transcript is in another language")
		return nadine.Reply{}, false
	}
	e.state = earlyAdopted
	if final.ID != "" {
		e.m.renameTurn(e.trace.TurnID(), final.ID)
		e.trace.SetID(final.ID)
	}
	waited := arrived.Sub(e.start)
	e.trace.Notef("early turn adopted: the final transcript is the interim one it answered, %v later", waited.Round(time.Millisecond))
	e.trace.AddSpeculation(nadine.Speculation{Kind: nadine.SpeculateTurn, Start: e.start, Duration: waited, Kept: true})
	t.change()
	t.out.Release(emit)
	// Held, the early turn said no filler; adopted, it is the final's turn,
	// whose silence is filled as any turn's, counted from the final's
	// arrival (a sentence already held leaves the filler nothing to do).
	// complete, after adopted, ends it.
	e.m.fillSilence(t.out, arrived)
	close(e.adopted)
	e.mu.Unlock()
	return <-e.result, true
}

// Cancel cancels the early turn unless it was adopted, and returns once
// nothing of it runs (its engines stopped, the turn lock released).
func (e *EarlyTurn) Cancel() { e.cancelFor("cancelled") }

// cancelFor cancels with a reason, kept for Discarded, and waits until
// nothing of the early turn runs.
func (e *EarlyTurn) cancelFor(reason string) {
	if e.markCancelled(reason) {
		<-e.ended
	}
}

// markCancelled cancels the early turn unless it was adopted, and reports
// whether it is cancelled.
func (e *EarlyTurn) markCancelled(reason string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.state == earlyRunning {
		e.state, e.reason = earlyCancelled, reason
		e.stop()
		close(e.cancelled)
	}
	return e.state == earlyCancelled
}

// Discarded returns what a cancelled early turn cost and why it was
// cancelled, for the trace of the turn that replaced it.
func (e *EarlyTurn) Discarded() (nadine.Speculation, bool) {
	e.mu.Lock()
	st, reason := e.state, e.reason
	e.mu.Unlock()
	if st != earlyCancelled {
		return nadine.Speculation{}, false
	}
	<-e.ended
	sp := nadine.Speculation{Kind: nadine.SpeculateTurn, Start: e.start, Kept: false, Reason: reason}
	d := e.trace.Snapshot()
	sp.Duration = d.Duration
	for _, c := range d.ModelCalls {
		sp.PromptTokens += c.PromptTokens
		sp.CompletionTokens += c.CompletionTokens
	}
	for _, s := range d.Speculations {
		sp.PromptTokens += s.PromptTokens
		sp.CompletionTokens += s.CompletionTokens
	}
	return sp, true
}

// SameUtterance reports whether two transcripts have the same words: a
// final result often only adds case and punctuation to the interim.
func SameUtterance(a, b string) bool { return utteranceKey(a) == utteranceKey(b) }

// utteranceKey is a transcript's words, accents composed (NFC),
// lowercased, separated by one space.
func utteranceKey(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(norm.NFC.String(s)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteRune(r)
			space = false
			continue
		}
		if r == '\'' || r == '’' {
			continue // "what's" and "whats" are one word
		}
		space = true
	}
	return b.String()
}
