package dialogue

import (
	"context"

	"github.com/nadine-robot/nadine"
)

var _ nadine.UserEraser = (*Manager)(nil)

// EraseUser forgets a person in the session, for nadine.Forgetter: it
// waits for the turn in flight (whose history is written before the turn
// ends), and when the person is the one in front of the robot the session
// becomes a stranger's at once, so that nothing more is stored under the
// erased id unless they are named again. The store's data is erased by the
// Forgetter after this. (An erase by another process is noticed at the
// next turn: the person's session is gone from the store.)
func (m *Manager) EraseUser(_ context.Context, userID string) error {
	if !knownUser(userID) {
		return nil
	}
	m.lockTurn()
	defer m.turnMu.Unlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sess.User.ID == userID {
		m.sess = stranger(m.sess)
		m.personStored = false
	}
	return nil
}
