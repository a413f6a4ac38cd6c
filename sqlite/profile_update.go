package sqlite

import (
	"context"
	"database/sql"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/records"
)

// UpdateProfile runs under BEGIN IMMEDIATE's write lock, so a concurrent
// update, of this process or another, waits and then sees this one's result.
func (s *Store) UpdateProfile(ctx context.Context, userID string, fn func(nadine.Profile, bool) (nadine.Profile, error)) (nadine.Profile, error) {
	if err := needUser("update profile", userID); err != nil {
		return nadine.Profile{}, err
	}
	var out nadine.Profile
	err := s.write(ctx, func(tx *sql.Tx) error {
		cur, err := readProfile(ctx, tx, userID)
		if err != nil && nadine.ErrorCode(err) != nadine.ENOTFOUND {
			return err
		}
		p, err := records.UpdateProfile(userID, cur, err == nil, fn, s.now)
		if err != nil {
			return err
		}
		if err := writeProfile(ctx, tx, p); err != nil {
			return err
		}
		out = p
		return nil
	})
	if fe := records.FnCause(err); fe != nil {
		return nadine.Profile{}, fe
	}
	if err != nil {
		return nadine.Profile{}, s.wrap("update profile", err)
	}
	return out, nil
}
