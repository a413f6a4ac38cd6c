package nadine

import (
	"context"
	"time"
)

// ProfileUpdater changes a profile without losing another writer's update:
// two robots of a fleet learning about one person at once keep both.
type ProfileUpdater interface {
	// UpdateProfile stores what fn makes of the profile in one transaction
	// (docs/architecture.md#stores); fn may run again on a retry: no side effects.
	UpdateProfile(ctx context.Context, userID string, fn func(p Profile, found bool) (Profile, error)) (Profile, error)
}

// CreateProfile gives a new person a profile with their name, never
// overwriting one another robot of the fleet made meanwhile.
func CreateProfile(ctx context.Context, s ProfileUpdater, u UserRef, now time.Time) error {
	_, err := s.UpdateProfile(ctx, u.ID, func(p Profile, found bool) (Profile, error) {
		if !found {
			p.UserName, p.LastUpdated = u.Name, now
		}
		return p, nil
	})
	return err
}
