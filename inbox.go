package nadine

import "context"

// InboxState is where a transcript kept in an Inbox stands.
type InboxState string

// The states of an inbox entry. A transcript starts pending; its turn
// takes it (taken), speaks (spoken) and ends (answered). One that is too
// old when its turn comes expires; one pushed out of a full queue is
// dropped; one whose turn had spoken when the process stopped is
// interrupted at the next start, and never answered again.
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

// Inbox keeps one robot's transcripts durably from the moment the bus
// acknowledges them to the broker until their turn is over, so that a
// crash or a restart loses none and answers none twice. A fleet process
// holds one inbox per robot.
type Inbox interface {
	// Add stores transcripts in arrival order and returns once they are on
	// disk, each with its Seq. A transcript whose non-empty ID is already
	// in the inbox is a redelivery: it is not stored again and comes back
	// with Seq 0.
	Add(ctx context.Context, ts []Transcript) ([]Transcript, error)
	// Pending returns the transcripts not finished (pending, taken or
	// spoken), in arrival order.
	Pending(ctx context.Context) ([]InboxEntry, error)
	// Mark moves transcripts (by Seq) to a state. A finished transcript's
	// text is erased: only its id and times are kept, to recognize a
	// redelivery.
	Mark(ctx context.Context, state InboxState, seqs ...int64) error
}
