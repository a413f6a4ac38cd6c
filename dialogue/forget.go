package dialogue

import (
	"context"

	"github.com/nadine-robot/nadine"
)

var _ nadine.UserEraser = (*Manager)(nil)

// EraseUser forgets a person in the session, for nadine.Forgetter: it
// waits for the turn in flight (whose history is written before the turn
// ends), drops the person's conversation, and when the person is the one in
// front of the robot the session goes back to the unknown user, so that
// nothing more is stored under the forgotten id unless they are named
// again. The store's data is erased by the Forgetter after this.
func (m *Manager) EraseUser(_ context.Context, userID string) error {
	m.turnMu.Lock()
	defer m.turnMu.Unlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.convs, userID)
	if m.user.ID == userID {
		m.user = nadine.UserRef{ID: nadine.UnknownUser}
	}
	return nil
}
