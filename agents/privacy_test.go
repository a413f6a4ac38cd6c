package agents_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
	"github.com/nadine-robot/nadine/fence"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/visual"
)

type person struct {
	id, name, company, episode, conversation, scene string
}

var (
	alexP = person{"alex-1", "Alex", "EPFL", "Observation: Alex told Nadine about his trip to Kyoto.",
		"Alex: I love the temples of Kyoto.", "Alex in a red jacket at the harbour of Geneva"}
	beaP = person{"bea-1", "Bea", "Conservatoire", "Observation: Bea told Nadine that she plays the cello.",
		"Bea: my cello teacher is strict.", "Bea wearing a yellow raincoat and holding a green umbrella"}
)

func (p person) secrets() []string {
	return []string{p.company, p.episode, p.conversation, p.scene}
}

// TestPrivacy checks that one user's memories (profile, episodes,
// conversations, scenes) never reach a prompt of another user's turn, and
// that the user's own reach the response with the recall rule.
func TestPrivacy(t *testing.T) {
	h := newHarness(t)
	h.opts.Visual = &visual.Retriever{Store: h.store, Description: h.emb, Threshold: -1}
	image := filepath.Join("testdata", "camera.jpg")
	for _, p := range []person{alexP, beaP} {
		h.saveProfile(nadine.Profile{UserID: p.id, UserName: p.name, CurrentCompany: p.company})
		h.addMemory(p.id, nadine.MemoryEpisode, p.episode)
		h.addMemory(p.id, nadine.MemoryConversation, p.conversation)
		err := h.store.UpsertScenes(context.Background(), []nadine.Scene{{UserID: p.id, SceneID: p.id + "-scene",
			Time: time.Date(2026, 10, 1, 10, 0, 0, 0, time.UTC), ImagePath: image, Description: p.scene,
			DescriptionEmbedding: h.emb.Vector(p.scene), DescriptionEmbedder: h.emb.Name()}})
		if err != nil {
			t.Fatal(err)
		}
	}
	h.srv.On(llmtest.MatchAll(llmtest.MatchModel(agents.RoleResponse), llmtest.MatchLastUser("VISUAL MEMORY"))).
		ReplyFunc(func(r llmtest.Request) string {
			if strings.Contains(r.LastUser(), "yellow raincoat") {
				return "Of course, Bea, you were wearing a yellow raincoat that day."
			}
			return "Of course, Alex, you wore a red jacket at the harbour."
		})
	h.start()

	for _, tt := range []struct {
		me, other person
		reply     string
	}{
		{beaP, alexP, "Of course, Bea, you were wearing a yellow raincoat that day."},
		{alexP, beaP, "Of course, Alex, you wore a red jacket at the harbour."},
	} {
		t.Run(tt.me.name, func(t *testing.T) {
			from := len(h.srv.ChatRequests())
			h.as(tt.me.id, tt.me.name)
			h.history, h.conv = nil, "conv-"+tt.me.id
			reply, tr := h.turn("Do you remember me?")
			if reply.Text != tt.reply {
				t.Errorf("reply %q", reply.Text)
			}
			var all strings.Builder
			for _, r := range h.srv.ChatRequests()[from:] {
				for _, m := range r.Messages {
					all.WriteString(m.Content + "\n")
				}
			}
			for _, s := range tt.other.secrets() {
				if strings.Contains(all.String(), s) {
					t.Errorf("%s's memory %q reached a prompt of %s's turn", tt.other.name, s, tt.me.name)
				}
			}
			req := h.lastRequest(agents.RoleResponse)
			packet := req.LastUser()
			for _, s := range tt.me.secrets() {
				if !strings.Contains(packet, s) {
					t.Errorf("packet lacks %s's own %q:\n%s", tt.me.name, s, packet)
				}
			}
			if !strings.Contains(packet, "VISUAL MEMORY (a scene you remember with them, 1 October 2026; the picture is attached):\n"+
				fence.Begin(fence.Visual)+"\n"+tt.me.scene+"\n"+fence.End(fence.Visual)) {
				t.Errorf("no VISUAL MEMORY block: %s", packet)
			}
			if imgs := req.Last().Images; len(imgs) != 1 || !strings.HasPrefix(imgs[0], "data:image/jpeg;base64,") {
				t.Errorf("visual memory image not attached: %.50q", imgs)
			}
			if !strings.Contains(req.System(), "without ever saying that you see an image") {
				t.Error("the recall rule is missing from the system prompt")
			}
			kinds := map[string]bool{}
			for _, r := range tr.Retrievals {
				kinds[r.Kind] = true
			}
			if !kinds["episode"] || !kinds["conversation"] || !kinds["visual"] {
				t.Errorf("retrievals in the trace: %v", kinds)
			}
		})
	}
}
