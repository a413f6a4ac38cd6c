package nadine

import "context"

// InboxState is where a transcript kept in an Inbox stands.
type InboxState string

// Pending, taken, spoken, answered; or expired (too old), dropped (queue full),
// interrupted (had spoken when the process stopped: never answered again).
const (
	InboxPending     InboxState = "pending"
	InboxTaken       InboxState = "taken"
	InboxSpoken      InboxState = "spoken"
	InboxAnswered    InboxState = "answered"
	InboxExpired     InboxState = "expired"
	InboxDropped     InboxState = "dropped"
	InboxInterrupted InboxState = "interrupted"
)

// Done reports whether a transcript in this state is finished: it will
// not be answered (again).
func (s InboxState) Done() bool {
	switch s {
	case InboxAnswered, InboxExpired, InboxDropped, InboxInterrupted:
		return true
	}
	return false
}

// InboxEntry is a transcript kept in an inbox, with its state.
type InboxEntry struct {
	Transcript
	State InboxState
}

// Inbox keeps one robot's transcripts on disk from the broker's acknowledgment
// to the end of their turn, so a crash loses none and answers none twice.
type Inbox interface {
	// Add returns once the transcripts are on disk, each with its Seq; a
	// redelivery (its non-empty ID already kept) comes back with Seq 0.
	Add(ctx context.Context, ts []Transcript) ([]Transcript, error)
	// Pending returns the transcripts not finished (pending, taken or
	// spoken), in arrival order.
	Pending(ctx context.Context) ([]InboxEntry, error)
	// Mark erases a finished transcript's text, keeping its id and times to
	// recognize a redelivery.
	Mark(ctx context.Context, state InboxState, seqs ...int64) error
}
