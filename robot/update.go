package robot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/dialogue"
)

// UpdateKind says what an Update carries.
type UpdateKind string

// Kinds of updates sent to subscribers.
const (
	UpdateEvent   UpdateKind = "event"   // one event of a turn in flight
	UpdateTurn    UpdateKind = "turn"    // a finished turn: input, reply and trace
	UpdateSession UpdateKind = "session" // who is there, language, mood
	UpdateEnded   UpdateKind = "ended"   // an interaction ended: who, why, how long
	UpdateExpired UpdateKind = "expired" // a heard transcript too old to answer (Reason "expired")
	UpdateDropped UpdateKind = "dropped" // a heard transcript not answered (Reason says why)
	// UpdateInterrupted: the person talked over Nadine (Reason "interrupted",
	// "speech" for voice alone, "resumed" after a false interruption).
	UpdateInterrupted UpdateKind = "interrupted"
	// UpdateFailed is a turn the manager refused (Reason: its error
	// code); only Options.Observe receives it.
	UpdateFailed UpdateKind = "failed"
)

// Why a heard transcript was not answered (Update.Reason).
const (
	ReasonExpired     = "expired"     // older than Options.MaxAge when its turn came
	ReasonQueueFull   = "queue_full"  // the oldest of a full queue
	ReasonSpeaking    = "speaking"    // heard while Nadine spoke (her own voice)
	ReasonInterrupted = "interrupted" // its turn had spoken when the process stopped
	ReasonSuperseded  = "superseded"  // a newer one came while the turn queue was overloaded (see Options.Backlog)
)

// Update is what the monitor sees of the runtime.
type Update struct {
	Kind    UpdateKind             `json:"kind"`
	TurnID  string                 `json:"turn_id,omitempty"`
	Input   string                 `json:"input,omitempty"`
	Event   *nadine.Event          `json:"event,omitempty"`
	Reply   *nadine.Reply          `json:"reply,omitempty"`
	Session *dialogue.SessionState `json:"session,omitempty"`
	Ending  *dialogue.Ending       `json:"ending,omitempty"`
	Reason  string                 `json:"reason,omitempty"` // UpdateExpired, UpdateDropped, UpdateInterrupted
	// Said is, for UpdateInterrupted by words, what Nadine said of the
	// reply before she was stopped.
	Said string `json:"said,omitempty"`
}

// keep broadcasts a finished turn or an end of interaction and keeps it
// among the recent ones the monitor shows on page load.
func (r *Runtime) keep(u Update) {
	r.mu.Lock()
	r.recent = append(r.recent, u)
	if n := len(r.recent) - r.opts.Recent; n > 0 {
		r.recent = append([]Update(nil), r.recent[n:]...)
	}
	r.mu.Unlock()
	r.broadcast(u)
}

// Recent returns the last finished turns and ends of interaction, oldest first.
func (r *Runtime) Recent() []Update {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Update(nil), r.recent...)
}

var _ nadine.UserEraser = (*Runtime)(nil)

// EraseUser drops the erased person's recent turns and has face recognition
// forget their face (nadine.Forgetter); the manager erases the session.
func (r *Runtime) EraseUser(ctx context.Context, userID string) error {
	r.mu.Lock()
	kept := r.recent[:0]
	for _, u := range r.recent {
		if (u.Reply != nil && u.Reply.UserID == userID) || (u.Ending != nil && u.Ending.User.ID == userID) {
			continue
		}
		kept = append(kept, u)
	}
	r.recent = kept
	r.mu.Unlock()
	// The monitor shows the session as it is now (the manager, erased
	// before the runtime, may have made it a stranger's).
	r.broadcastSession()
	if r.opts.Body == nil || userID == "" || userID == nadine.UnknownUser {
		return nil
	}
	if err := r.opts.Body.ForgetFace(ctx, userID); err != nil {
		return fmt.Errorf("robot: tell face recognition to forget: %w", err)
	}
	return nil
}

// Subscribe returns updates until the returned func is called. A slow
// subscriber loses updates rather than slowing Nadine down.
func (r *Runtime) Subscribe(buffer int) (<-chan Update, func()) {
	if buffer <= 0 {
		buffer = 256
	}
	ch := make(chan Update, buffer)
	r.mu.Lock()
	id := r.nextSub
	r.nextSub++
	r.subs[id] = ch
	r.mu.Unlock()
	return ch, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if c, ok := r.subs[id]; ok {
			delete(r.subs, id)
			close(c)
		}
	}
}

// observe hands an update to Options.Observe.
func (r *Runtime) observe(u Update) {
	if r.opts.Observe != nil {
		r.opts.Observe(u)
	}
}

func (r *Runtime) broadcast(u Update) {
	r.observe(u)
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ch := range r.subs {
		select {
		case ch <- u:
		default:
		}
	}
}

func (r *Runtime) broadcastSession() {
	s := r.m.Session()
	r.broadcast(Update{Kind: UpdateSession, Session: &s})
}

func (r *Runtime) closeSubscribers() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, ch := range r.subs {
		delete(r.subs, id)
		close(ch)
	}
}

// Session returns the current session state.
func (r *Runtime) Session() dialogue.SessionState { return r.m.Session() }

func newTurnID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
