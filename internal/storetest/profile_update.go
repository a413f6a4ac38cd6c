package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/nadine-robot/nadine"
)

func testUpdateProfile(t *testing.T, s nadine.Store) {
	ctx := t.Context()
	var calls []bool
	p, err := s.UpdateProfile(ctx, "alice", func(p nadine.Profile, found bool) (nadine.Profile, error) {
		calls = append(calls, found)
		if p.UserID != "alice" || p.UserName != "" || len(p.Hobbies) != 0 {
			t.Errorf("UpdateProfile of an unknown user passed %+v, want only the user id", p)
		}
		p.UserName, p.Hobbies, p.LastUpdated = "Alice", []string{"chess"}, t0
		return p, nil
	})
	must(t, "UpdateProfile of a new user", err)
	if len(calls) == 0 || calls[len(calls)-1] {
		t.Errorf("UpdateProfile of a new user: found = %v, want false", calls)
	}
	want := nadine.Profile{UserID: "alice", UserName: "Alice", Hobbies: []string{"chess"}, LastUpdated: t0}
	equalProfile(t, p, want)
	got, err := s.Profile(ctx, "alice")
	must(t, "Profile", err)
	equalProfile(t, got, want)

	// The function sees what is stored; the user id cannot change.
	p, err = s.UpdateProfile(ctx, "alice", func(p nadine.Profile, found bool) (nadine.Profile, error) {
		if !found {
			t.Error("UpdateProfile of a stored profile: found = false")
		}
		equalProfile(t, p, want)
		p.UserID, p.Location = "mallory", "Geneva"
		p.Hobbies = append(p.Hobbies, "sailing")
		return p, nil
	})
	must(t, "UpdateProfile", err)
	want.Location, want.Hobbies = "Geneva", []string{"chess", "sailing"}
	equalProfile(t, p, want)
	got, err = s.Profile(ctx, "alice")
	must(t, "Profile", err)
	equalProfile(t, got, want)
	_, err = s.Profile(ctx, "mallory")
	wantCode(t, "Profile of the id a function tried to set", err, nadine.ENOTFOUND)

	// An error from the function is returned as it is and stores nothing.
	boom := errors.New("boom")
	_, err = s.UpdateProfile(ctx, "alice", func(p nadine.Profile, _ bool) (nadine.Profile, error) {
		p.Location = "Paris"
		return p, boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("UpdateProfile with a failing function = %v, want %v", err, boom)
	}
	got, err = s.Profile(ctx, "alice")
	must(t, "Profile", err)
	equalProfile(t, got, want)
	_, err = s.UpdateProfile(ctx, "bob", func(p nadine.Profile, _ bool) (nadine.Profile, error) {
		p.UserName = "Bob"
		return p, boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("UpdateProfile of a new user with a failing function = %v, want %v", err, boom)
	}
	_, err = s.Profile(ctx, "bob")
	wantCode(t, "Profile after a failed first update", err, nadine.ENOTFOUND)

	// The name goes to the id → name map; a zero LastUpdated is filled in.
	p, err = s.UpdateProfile(ctx, "carol", func(p nadine.Profile, _ bool) (nadine.Profile, error) {
		p.UserName = "Carol"
		return p, nil
	})
	must(t, "UpdateProfile", err)
	if p.LastUpdated.IsZero() {
		t.Errorf("UpdateProfile with a zero LastUpdated stored %+v, want it set", p)
	}
	users, err := s.Users(ctx)
	must(t, "Users", err)
	if w := []nadine.UserRef{{ID: "alice", Name: "Alice"}, {ID: "carol", Name: "Carol"}}; !slices.Equal(users, w) {
		t.Errorf("Users = %v, want %v", users, w)
	}
	_, err = s.UpdateProfile(ctx, "", func(p nadine.Profile, _ bool) (nadine.Profile, error) { return p, nil })
	wantCode(t, "UpdateProfile with an empty user id", err, nadine.EINVALID)
}

// addHobbies has writers goroutines per store add hobbies to one profile at
// once through UpdateProfile, and checks that none is lost.
func addHobbies(t *testing.T, stores []nadine.Store, user string, writers, each int) {
	t.Helper()
	ctx := t.Context()
	var wg sync.WaitGroup
	errs := make(chan error, len(stores)*writers*each)
	var want []string
	for si, s := range stores {
		for w := range writers {
			for i := range each {
				want = append(want, fmt.Sprintf("hobby %d.%d.%d", si, w, i))
			}
			wg.Go(func() {
				for i := range each {
					h := fmt.Sprintf("hobby %d.%d.%d", si, w, i)
					_, err := s.UpdateProfile(ctx, user, func(p nadine.Profile, _ bool) (nadine.Profile, error) {
						p.UserName = "Alice"
						p.Hobbies = append(slices.Clone(p.Hobbies), h)
						return p, nil
					})
					if err != nil {
						errs <- fmt.Errorf("store %d, writer %d: %w", si, w, err)
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for si, s := range stores {
		p, err := s.Profile(ctx, user)
		must(t, "Profile", err)
		got := slices.Clone(p.Hobbies)
		sort.Strings(got)
		sort.Strings(want)
		if !slices.Equal(got, want) {
			t.Errorf("store %d: after %d concurrent updates the profile has %d hobbies, want %d: %q",
				si, len(want), len(got), len(want), got)
		}
	}
}

func testUpdateProfileConcurrent(t *testing.T, s nadine.Store) {
	addHobbies(t, []nadine.Store{s}, "alice", 8, 3)
}

// Shared checks two stores on one database, as a fleet's processes have them:
// no profile update is lost, and what one writes the other reads.
func Shared(t *testing.T, a, b nadine.Store) {
	addHobbies(t, []nadine.Store{a, b}, "shared-alice", 4, 3)
	ctx := t.Context()
	must(t, "SetUserName", a.SetUserName(ctx, "shared-bob", "Bob"))
	users, err := b.Users(ctx)
	must(t, "Users", err)
	if u, ok := nadine.FindUser(users, "Bob"); !ok || u.ID != "shared-bob" {
		t.Errorf("Users through the other store = %v, want shared-bob named Bob", users)
	}
}
