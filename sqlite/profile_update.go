package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/nadine-robot/nadine"
)

// UpdateProfile runs fn on the user's stored profile and stores its result
// in one write transaction. Writes of one store go through its one writer
// connection and SQLite takes the database's write lock at BEGIN IMMEDIATE,
// so a concurrent UpdateProfile, of this process or another, waits and then
// sees this one's result.
func (s *Store) UpdateProfile(ctx context.Context, userID string, fn func(nadine.Profile, bool) (nadine.Profile, error)) (nadine.Profile, error) {
	if err := needUser("update profile", userID); err != nil {
		return nadine.Profile{}, err
	}
	var out nadine.Profile
	err := s.write(ctx, func(tx *sql.Tx) error {
		cur, err := readProfile(ctx, tx, userID)
		found := err == nil
		switch {
		case nadine.ErrorCode(err) == nadine.ENOTFOUND:
			cur = nadine.Profile{UserID: userID}
		case err != nil:
			return err
		}
		p, err := fn(cur, found)
		if err != nil {
			return &fnError{err}
		}
		p.UserID = userID
		if p.LastUpdated.IsZero() {
			p.LastUpdated = s.now()
		}
		if err := writeProfile(ctx, tx, p); err != nil {
			return err
		}
		out = p
		return nil
	})
	var fe *fnError
	if errors.As(err, &fe) {
		return nadine.Profile{}, fe.err
	}
	if err != nil {
		return nadine.Profile{}, wrap("update profile", err)
	}
	return out, nil
}

// fnError carries the error of a caller's function out of a transaction,
// to be returned as it is.
type fnError struct{ err error }

func (e *fnError) Error() string { return e.err.Error() }
