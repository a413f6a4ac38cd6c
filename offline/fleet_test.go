package offline_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/offline"
	"github.com/nadine-robot/nadine/sqlite"
)

// otherRobot is a store on which another robot of the fleet updates a
// person's profile right after this robot read it.
type otherRobot struct {
	*sqlite.Store
	t      *testing.T
	wrote  int
	userID string
}

func (o *otherRobot) Profile(ctx context.Context, id string) (nadine.Profile, error) {
	p, err := o.Store.Profile(ctx, id)
	if id == o.userID && o.wrote == 0 {
		o.wrote++
		if _, uerr := o.Store.UpdateProfile(ctx, id, func(p nadine.Profile, _ bool) (nadine.Profile, error) {
			p.Location = "Geneva"
			p.Hobbies = append(slices.Clone(p.Hobbies), "sailing")
			return p, nil
		}); uerr != nil {
			o.t.Error(uerr)
		}
	}
	return p, err
}

// TestNameKeepsAnotherRobotsUpdate: a face recognized without a name gives
// it at this robot while another robot records the person's city and a
// hobby; the stored profile has the name and both facts.
func TestNameKeepsAnotherRobotsUpdate(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "nadine.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if err := st.SaveProfile(ctx, nadine.Profile{UserID: "face-7", Hobbies: []string{"chess"}}); err != nil {
		t.Fatal(err)
	}
	store := &otherRobot{Store: st, t: t, userID: "face-7"}
	r := respond(t, testEngine(offline.Options{Store: store}), nadine.Turn{Text: "My name is Alex.", Language: nadine.English, UserID: "face-7"})
	if store.wrote == 0 {
		t.Fatal("the profile was never read: the other robot never wrote")
	}
	var named bool
	for _, e := range r.events {
		named = named || (e.Kind == nadine.EventUser && e.User != nil && e.User.ID == "face-7" && e.User.Name == "Alex")
	}
	if !named {
		t.Errorf("no user event names face-7 Alex: %+v", r.events)
	}
	p, err := st.Profile(ctx, "face-7")
	if err != nil {
		t.Fatal(err)
	}
	if p.UserName != "Alex" || p.Location != "Geneva" || !slices.Equal(p.Hobbies, []string{"chess", "sailing"}) {
		t.Errorf("profile after both robots' updates = %+v, want Alex, Geneva, chess and sailing", p)
	}
}
