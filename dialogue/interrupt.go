package dialogue

import (
	"context"
	"errors"
	"strings"

	"github.com/nadine-robot/nadine"
)

// Interruptions (docs/interruptions.md). The robot runtime decides that a
// person talked over Nadine and tells the manager what she really said of
// the turn's reply (Amend). A turn still running is cancelled with
// ErrInterrupted: it ends with what was said, committed as said. A reply
// already committed is amended in the history before anything reads it
// again: the next turn's prompt, the end of the interaction.

// ErrInterrupted is the cause of a turn's cancellation when the person
// talked over Nadine.
var ErrInterrupted = errors.New("dialogue: the person interrupted Nadine")

// InterruptedMark ends a reply the person cut short, in the history, so
// that the next prompt knows the rest was not heard.
const InterruptedMark = "[interrupted]"

// amendment is what the history is to hold of a turn's reply.
type amendment struct {
	turnID string
	text   string // what was said, with the mark when it was cut
}

// committed is the last reply put in the history, which an amendment may
// change.
type committed struct {
	turnID, userID, convID string
	text                   string
}

// interruptible is the turn running now, which an interruption cancels.
type interruptible struct {
	turnID string
	cancel context.CancelCauseFunc
}

// Amend makes the history hold what Nadine really said of turn turnID (cut: the
// person interrupted her). It returns at once; the next turn reads it written.
func (m *Manager) Amend(turnID, said string, cut bool) {
	text := strings.TrimSpace(said)
	if cut {
		text = strings.TrimSpace(text + " " + InterruptedMark)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.amend = &amendment{turnID: turnID, text: text}
	if cut && m.current != nil && m.current.turnID == turnID {
		m.current.cancel(ErrInterrupted)
	}
}

// interruptibleTurn registers the turn starting now as the one an
// interruption cancels, and returns its context.
func (m *Manager) interruptibleTurn(ctx context.Context, turnID string) context.Context {
	ctx, cancel := context.WithCancelCause(ctx)
	m.mu.Lock()
	m.current = &interruptible{turnID: turnID, cancel: cancel}
	m.mu.Unlock()
	return ctx
}

// renameTurn changes the id of the running turn (an early turn adopted by
// its final transcript takes the final's id).
func (m *Manager) renameTurn(old, id string) {
	m.mu.Lock()
	if m.current != nil && m.current.turnID == old && id != "" {
		m.current.turnID = id
	}
	m.mu.Unlock()
}

// turnDone unregisters the running turn.
func (m *Manager) turnDone(turnID string) {
	m.mu.Lock()
	if m.current != nil && m.current.turnID == turnID {
		m.current.cancel(nil)
		m.current = nil
	}
	m.mu.Unlock()
}

// interrupted reports whether ctx was cancelled by an interruption.
func interrupted(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), ErrInterrupted)
}

// amendedText returns the text the history keeps for turn turnID's reply:
// the amendment's when there is one (taken), else text.
func (m *Manager) amendedText(turnID, text string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if a := m.amend; a != nil && a.turnID == turnID {
		m.amend = nil
		return a.text
	}
	return text
}

// settleAmendment writes a pending amendment of the last committed reply
// into the history. The caller holds turnMu.
func (m *Manager) settleAmendment(ctx context.Context) {
	m.mu.Lock()
	a, last := m.amend, m.lastReply
	if a == nil || a.turnID != last.turnID {
		m.mu.Unlock()
		return
	}
	m.amend = nil
	m.mu.Unlock()
	if a.text == last.text {
		return
	}
	if err := m.opts.History.AmendLast(ctx, last.userID, last.convID, last.text, a.text); err != nil {
		m.log.Warn("history: the interrupted reply not amended", "err", err)
		return
	}
	m.mu.Lock()
	if m.lastReply.turnID == a.turnID {
		m.lastReply.text = a.text
	}
	m.mu.Unlock()
	nadine.TraceFrom(ctx).Notef("the previous reply is remembered as it was said")
}

// SettleAmendment writes Amend's change when no turn runs; a running turn (or
// an early turn waiting for its final transcript) settles it before it commits.
func (m *Manager) SettleAmendment(ctx context.Context) {
	if !m.turnMu.TryLock() {
		return
	}
	defer m.turnMu.Unlock()
	m.settleAmendment(ctx)
}
