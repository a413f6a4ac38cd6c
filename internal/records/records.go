// Package records holds what every nadine.Store does to a record before
// writing it, so that the stores agree: a memory's checks and the metadata
// keys it gets, and a profile update's function.
package records

import (
	"maps"
	"strconv"
	"time"

	"github.com/nadine-robot/nadine"
)

// Memory checks m as a memory of userID (m.UserID empty or equal, a known
// type) and returns it with UserID set, a zero Time set to now(), and a new
// Metadata map holding m's keys plus, when absent, "date" (2006-01-02),
// "time" (15:04:05), "timestamp" (Unix seconds) and, when it has one,
// "conversation_id". A bad memory is an EINVALID error whose message starts
// with "pkg: op: ".
func Memory(pkg, op, userID string, m nadine.Memory, now func() time.Time) (nadine.Memory, error) {
	if userID == "" {
		return m, nadine.Errorf(nadine.EINVALID, "%s: %s: empty user id", pkg, op)
	}
	if m.UserID != "" && m.UserID != userID {
		return m, nadine.Errorf(nadine.EINVALID, "%s: %s: memory of user %q given for user %q", pkg, op, m.UserID, userID)
	}
	switch m.Type {
	case nadine.MemoryConversation, nadine.MemoryEpisode, nadine.MemoryFact:
	default:
		return m, nadine.Errorf(nadine.EINVALID, "%s: %s: unknown memory type %q", pkg, op, m.Type)
	}
	m.UserID = userID
	if m.Time.IsZero() {
		m.Time = now()
	}
	md := make(map[string]string, len(m.Metadata)+4)
	maps.Copy(md, m.Metadata)
	setDefault(md, "date", m.Time.Format("2006-01-02"))
	setDefault(md, "time", m.Time.Format("15:04:05"))
	setDefault(md, "timestamp", strconv.FormatInt(m.Time.Unix(), 10))
	if m.ConversationID != "" {
		setDefault(md, "conversation_id", m.ConversationID)
	}
	m.Metadata = md
	return m, nil
}

func setDefault(m map[string]string, k, v string) {
	if _, ok := m[k]; !ok {
		m[k] = v
	}
}

// UpdateProfile runs a nadine.ProfileUpdater's fn on cur (the stored
// profile of userID, or a Profile with only UserID when found is false)
// and returns the profile to store: UserID forced to userID, a zero
// LastUpdated set to now(). An error of fn comes back as a *FnError, for
// the store to return as it is once its transaction is rolled back.
func UpdateProfile(userID string, cur nadine.Profile, found bool, fn func(nadine.Profile, bool) (nadine.Profile, error),
	now func() time.Time) (nadine.Profile, error) {
	if !found {
		cur = nadine.Profile{UserID: userID}
	}
	p, err := fn(cur, found)
	if err != nil {
		return nadine.Profile{}, &FnError{Err: err}
	}
	p.UserID = userID
	if p.LastUpdated.IsZero() {
		p.LastUpdated = now()
	}
	return p, nil
}

// FnError carries the error of a caller's function out of a store's
// transaction.
type FnError struct{ Err error }

// Error implements error.
func (e *FnError) Error() string { return e.Err.Error() }

// Unwrap returns the function's error.
func (e *FnError) Unwrap() error { return e.Err }

// NeedUser returns an EINVALID error ("pkg: op: empty user id") when
// userID is empty: every store method on personal data takes one.
func NeedUser(pkg, op, userID string) error {
	if userID == "" {
		return nadine.Errorf(nadine.EINVALID, "%s: %s: empty user id", pkg, op)
	}
	return nil
}

// NeedConversation is NeedUser, then an EINVALID error when convID is
// empty.
func NeedConversation(pkg, op, userID, convID string) error {
	if err := NeedUser(pkg, op, userID); err != nil {
		return err
	}
	if convID == "" {
		return nadine.Errorf(nadine.EINVALID, "%s: %s: empty conversation id", pkg, op)
	}
	return nil
}
