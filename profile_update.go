package nadine

import (
	"context"
	"time"
)

// ProfileUpdater changes a profile without losing another writer's update:
// two robots of a fleet learning something about the same person at once
// each keep what the other learned. Store includes it.
type ProfileUpdater interface {
	// UpdateProfile reads the user's profile (found false, and a Profile
	// with only UserID, when there is none), passes it to fn, and stores
	// what fn returns as the whole profile (recording its name in the
	// id → name map, as SaveProfile does), all in one transaction that
	// other writers of the same profile wait for. It returns the stored
	// profile. The stored UserID is always userID; a zero LastUpdated is
	// set to the store's Now. fn may be called more than once (when the
	// store retries) and must have no side effects; an error from fn
	// aborts the update and is returned as it is. An empty userID is
	// EINVALID.
	UpdateProfile(ctx context.Context, userID string, fn func(p Profile, found bool) (Profile, error)) (Profile, error)
}

// CreateProfile gives a new person (u, with a new id) a profile holding
// their name, through UpdateProfile: should a profile with that id exist
// already (another robot of the fleet made it meanwhile), it is kept as it
// is, never overwritten.
func CreateProfile(ctx context.Context, s ProfileUpdater, u UserRef, now time.Time) error {
	_, err := s.UpdateProfile(ctx, u.ID, func(p Profile, found bool) (Profile, error) {
		if !found {
			p.UserName, p.LastUpdated = u.Name, now
		}
		return p, nil
	})
	return err
}
