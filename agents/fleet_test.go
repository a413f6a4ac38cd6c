package agents_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/internal/llmtest"
)

// TestProfileUpdateKeepsAnotherRobots learns a person's new company and
// hobby while another robot of the fleet, between this turn's read of the
// profile and its save after the reply, records the person's city and
// another hobby: the saved profile has both robots' facts.
func TestProfileUpdateKeepsAnotherRobots(t *testing.T) {
	h := newHarness(t)
	h.saveProfile(nadine.Profile{UserID: "alex-1", UserName: "Alex", Hobbies: []string{"skiing"}})
	intentFor(h, "CERN", "update_user_info")
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleMemoryUpdate), llmtest.MatchLastUser("CERN"))).
		Reply(`{"user_name":"","current_company":"CERN","current_position":"","location":"","hobbies":["chess"],"interests":[]}`)
	other := 0
	h.srv.On(llmtest.MatchModel(agents.RoleResponse)).ReplyFunc(func(r llmtest.Request) string {
		if !strings.Contains(r.LastUser(), "You will remember") {
			// The response started beside the plan, before the profile
			// update (and discarded once the update changes its inputs).
			return "Tell me more."
		}
		// The other robot, while this one answers.
		other++
		if _, err := h.store.UpdateProfile(context.Background(), "alex-1", func(p nadine.Profile, _ bool) (nadine.Profile, error) {
			p.Location = "Geneva"
			p.Hobbies = append(slices.Clone(p.Hobbies), "sailing")
			return p, nil
		}); err != nil {
			t.Error(err)
		}
		return `{"response": "CERN, how exciting!", "emotion": "happy"}`
	})
	h.start().as("alex-1", "Alex")

	h.turn("I work at CERN now, and I play chess.")
	if other == 0 {
		t.Fatal("the response model was not asked: the other robot never wrote")
	}
	p := h.profile("alex-1")
	if p.CurrentCompany != "CERN" || p.Location != "Geneva" || !slices.Equal(p.Hobbies, []string{"skiing", "sailing", "chess"}) {
		t.Errorf("profile after both robots' updates = %+v, want CERN, Geneva and skiing, sailing, chess", p)
	}
}
