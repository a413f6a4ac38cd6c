package dialogue

import (
	"context"
	"time"

	"github.com/nadine-robot/nadine"
)

// Defaults of ManagerOptions.
const (
	// DefaultTurnTimeout bounds the model engine's turn: beyond it a person
	// repeats themself or walks away, and the offline engine answers.
	DefaultTurnTimeout = 10 * time.Second
	// DefaultFirstSpeech is how long a turn may stay silent before a
	// filler line is said.
	DefaultFirstSpeech = 2 * time.Second
)

// abandonGrace is how long past the turn's budget the manager waits for an
// engine to return before it gives up on it and asks the next one.
const abandonGrace = 250 * time.Millisecond

// respond asks eng for the turn. A bounded engine still running abandonGrace
// after ctx ended is given up on; its goroutine is the manager's (goOwned).
func (m *Manager) respond(ctx context.Context, eng nadine.Engine, req nadine.Request, bounded bool) (nadine.Reply, error) {
	if !bounded {
		return eng.Respond(ctx, req)
	}
	type result struct {
		r   nadine.Reply
		err error
	}
	done := make(chan result, 1)
	if !m.goOwned(func() {
		r, err := eng.Respond(ctx, req)
		done <- result{r, err}
	}) {
		return nadine.Reply{}, errClosed
	}
	select {
	case res := <-done:
		return res.r, res.err
	case <-ctx.Done():
	}
	grace := time.NewTimer(abandonGrace)
	defer grace.Stop()
	select {
	case res := <-done:
		return res.r, res.err
	case <-grace.C:
		return nadine.Reply{}, nadine.Errorf(nadine.EUNAVAILABLE, "dialogue: engine %s still busy %s after the turn's budget ran out: abandoned", eng.Name(), abandonGrace)
	}
}

// fallbackReason is told to the next engine; an engine skipped because the
// budget ran out was unavailable.
func fallbackReason(err error) string {
	if err == nil {
		return nadine.EUNAVAILABLE
	}
	return nadine.ErrorCode(err)
}

// fillSilence says a filler once if no reply sentence is ready FirstSpeech
// after origin; the Output's End stops it.
func (m *Manager) fillSilence(out *Output, origin time.Time) {
	if m.opts.Filler == nil {
		return
	}
	out.Silence(m.opts.FirstSpeech-m.opts.Now().Sub(origin), m.opts.FirstSpeech.String())
}

// fillerOrigin is when a turn's silence starts: the turn's start, or the
// trace's when the runtime took the transcript before the manager.
func fillerOrigin(trace *nadine.Trace, start time.Time) time.Time {
	if s := trace.Start; !s.IsZero() && s.Before(start) {
		return s
	}
	return start
}
