package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/web"
)

// TestForgetSeedUsers: people stored by plain name (their plain name is
// their id, with no row in the names map) are listed and erased through
// the API as through the CLI; an ambiguous name is refused with the
// candidates.
func TestForgetSeedUsers(t *testing.T) {
	f := newFixture(t, fixtureOptions{})
	var r turnResponse
	f.call("POST", "/api/turns", `{"text":"I love sailing","user_id":"Sam"}`, http.StatusOK, &r)
	if r.Reply.UserID != "Sam" {
		t.Fatalf("turn user = %q", r.Reply.UserID)
	}
	ctx := context.Background()
	for _, p := range []nadine.Profile{{UserID: "lee-1", UserName: "Lee"}, {UserID: "lee-2", UserName: "Lee"}} {
		if err := f.store.SaveProfile(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	var users []nadine.UserRef
	f.call("GET", "/api/users", "", http.StatusOK, &users)
	if len(users) != 3 || users[0] != (nadine.UserRef{ID: "Sam", Name: "Sam"}) {
		t.Fatalf("users = %+v, want Sam (known only from the history) and the two Lees", users)
	}
	var u web.UserResponse
	f.call("GET", "/api/users/sam", "", http.StatusOK, &u)
	if u.User.ID != "Sam" || u.Profile != nil {
		t.Errorf("GET /api/users/sam = %+v", u)
	}
	got, b := f.send(f.request("DELETE", "/api/users/Lee", ""))
	if e := decode[errorBody](t, string(b)); got != http.StatusBadRequest || !strings.Contains(e.Error, "lee-1, lee-2") {
		t.Errorf("DELETE of an ambiguous name: %d %s", got, b)
	}
	var d web.DeleteResponse
	f.call("DELETE", "/api/users/sam", "", http.StatusOK, &d)
	if d.UserID != "Sam" || d.Deleted != "user" {
		t.Errorf("forget = %+v", d)
	}
	if ids, err := f.store.UserIDs(ctx); err != nil || strings.Join(ids, ",") != "lee-1,lee-2" {
		t.Errorf("ids after forgetting Sam = %q, %v", ids, err)
	}
	f.call("DELETE", "/api/users/lee-2", "", http.StatusOK, &d)
	f.call("GET", "/api/users", "", http.StatusOK, &users)
	if len(users) != 1 || users[0].ID != "lee-1" {
		t.Errorf("users = %+v", users)
	}
}
