package nadine_test

import (
	"context"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
)

// profiles is a ProfileUpdater over a map.
type profiles map[string]nadine.Profile

func (m profiles) UpdateProfile(_ context.Context, id string, fn func(nadine.Profile, bool) (nadine.Profile, error)) (nadine.Profile, error) {
	cur, found := m[id]
	if !found {
		cur = nadine.Profile{UserID: id}
	}
	p, err := fn(cur, found)
	if err != nil {
		return nadine.Profile{}, err
	}
	p.UserID = id
	m[id] = p
	return p, nil
}

// TestCreateProfile: a new person gets a profile with their name; a
// profile another robot made under the same id meanwhile is kept as it is.
func TestCreateProfile(t *testing.T) {
	now := time.Date(2025, 3, 3, 14, 5, 0, 0, time.UTC)
	m := profiles{"alex-1": {UserID: "alex-1", UserName: "Alex", Location: "Geneva"}}
	for _, u := range []nadine.UserRef{{ID: "alex-1", Name: "Alexander"}, {ID: "maria-2", Name: "Maria"}} {
		if err := nadine.CreateProfile(context.Background(), m, u, now); err != nil {
			t.Fatal(err)
		}
	}
	if p := m["alex-1"]; p.UserName != "Alex" || p.Location != "Geneva" {
		t.Errorf("the existing profile became %+v", p)
	}
	if p := m["maria-2"]; p.UserName != "Maria" || !p.LastUpdated.Equal(now) {
		t.Errorf("the new profile is %+v", p)
	}
}
