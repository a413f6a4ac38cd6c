package dialogue_test

import (
	"context"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/agents"
)

// The turn a context case runs in: a visitor Nadine knows, with a profile,
// an episode and a past conversation stored, a turn before this one in the
// window, an appraisal of joy and a knowledge passage the orchestrator asks
// for, so that the graph's response prompt holds every per-turn block an
// echo of it can quote.
const (
	contextUser       = "Alex"
	contextUserID     = "alex-1"
	contextBefore     = "Hello Nadine, it's Alex again, I'm back from my chess tournament!"
	contextSay        = "Do you remember what we talked about last time?"
	contextEpisode    = "Observation: Alex came to the lab after a chess tournament in Lausanne. Thought: Alex was proud of winning the third game. Action: Nadine congratulated Alex and asked about the openings. Result: Alex promised to teach Nadine the Sicilian defence."
	contextTranscript = "[2026-11-20 14:02] Alex: I teach mathematics at the Collège Calvin and I love chess.\n[2026-11-20 14:02] Nadine: Chess is a wonderful game, I would love to learn it from you.\n[2026-11-20 14:03] Alex: My cat Pixel sleeps on the chessboard every evening."
	contextKnowledge  = "Nadine's hands were built by a team in Singapore; each hand has fourteen motors and can hold a cup or shake hands gently."
	contextAppraisal  = "joy 3"
	contextPlan       = `{"plan": [{"agent": "knowledge", "message": "Nadine hands motors"}]}`
)

// contextProfile is what the graph knows of the visitor.
var contextProfile = nadine.Profile{UserID: contextUserID, UserName: contextUser, CurrentCompany: "Collège Calvin",
	CurrentPosition: "mathematics teacher", Location: "Carouge", Hobbies: []string{"chess", "cycling"}, Interests: []string{"robots", "astronomy"}}

// runHostileInContext runs a case like runHostileCase, in the context turn:
// what the case's output quotes of the prompt was in the prompt sent.
func runHostileInContext(t *testing.T, c hostileCase, engine string) hostileResult {
	t.Helper()
	ctx := context.Background()
	role := roleAgent
	if engine == "graph" {
		role = agents.RoleResponse
	}
	lang, _ := nadine.ParseLanguage(c.Language)
	answers := map[string][]string{role: {c.Output, retryReplies[engine]}}
	if engine == "graph" {
		answers[agents.RoleAppraisal] = []string{contextAppraisal}
		answers[agents.RoleOrchestrator] = []string{contextPlan}
	}
	rig := newAnswerRig(t, answerCase{Engine: engine, Lang: lang, User: contextUser, Answers: answers})
	if err := rig.store.SaveProfile(ctx, contextProfile); err != nil {
		t.Fatal(err)
	}
	for _, m := range []nadine.Memory{
		{UserID: contextUserID, Type: nadine.MemoryEpisode, Text: contextEpisode},
		{UserID: contextUserID, Type: nadine.MemoryConversation, Text: contextTranscript},
	} {
		v, err := nadine.EmbedOne(ctx, rig.emb, m.Text)
		if err != nil {
			t.Fatal(err)
		}
		m.Embedding, m.Embedder, m.Time = v, rig.emb.Name(), time.Date(2026, 11, 20, 14, 5, 0, 0, time.UTC)
		if _, err := rig.store.AddMemory(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	v, err := nadine.EmbedOne(ctx, rig.emb, contextKnowledge)
	if err != nil {
		t.Fatal(err)
	}
	if err := rig.store.AddKnowledge(ctx, []nadine.KnowledgeChunk{{Source: "hands.md", Title: "Nadine's hands", Text: contextKnowledge, Embedder: rig.emb.Name(), Embedding: v}}); err != nil {
		t.Fatal(err)
	}
	if _, err := rig.mgr.Stream(ctx, nadine.Turn{Text: contextBefore, Language: lang}, nil); err != nil {
		t.Fatal(err)
	}
	rig.wait()
	said, fallback := speakHostile(t, rig, ctx, nadine.Turn{Text: contextSay, Language: lang}, c.ID+" on "+engine)
	return scoreHostile(c, engine, said, fallback)
}

// TestHostileOutputsProbe8 runs the eighth probe table, written before the
// gate changed for it (issue 27), in the context turn: the graph's response
// prompt echoed as it was sent (its per-turn blocks — the visitor's profile,
// an episode, a past conversation, a knowledge passage, the window's lines,
// her feelings, the other agents' labels — and its own instructions), a
// model's assistant-isms in the graph's plain text, and replies that only
// look like them (her memories of the visitor in her words).
func TestHostileOutputsProbe8(t *testing.T) {
	probeScore(t, "probe8", probe8MostLeaks, probe8MostLost)
}

// probe8MostLeaks and probe8MostLost are the eighth probe's counts (when it
// was written, on main before any change it led to: graph 25 of 114 and
// react 2 of 16 leaks, good parts lost graph 2 of 71 and react 0 of 12;
// with this turn's records read — quoted, labelled, a data section or a
// block named as the source, the other agents' labels and intensities as a
// record — and a model's frames around a plain-text reply: graph 1, react
// 0, the same good parts lost). The mechanisms were chosen after reading
// its leaks: count the gains as tuned (docs/speech.md, Figures). The one
// left, "Ce que vous savez de lui : …", a label of the prompt translated,
// goes with the packet's labels read in four languages (probe10's round,
// after reading it: tuned).
var (
	probe8MostLeaks = map[string]int{"graph": 0, "react": 0}
	probe8MostLost  = map[string]int{"graph": 2, "react": 0}
)
