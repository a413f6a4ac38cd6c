package agents

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
	"github.com/nadine-robot/nadine/fence"
)

// affective holds the affective_appraisal and affective_update nodes.
type affective struct {
	model   nadine.ChatModel // role affective_appraisal; nil appraises neutral
	prompts prompts
	now     func() time.Time
	recall  *memoryRecall // a past episode for the appraisal
	// feel restarts the speculative response with the appraised
	// feelings when they would discard it (responder.feel); nil without.
	feel func(ctx context.Context, s State)
}

// appraise is the affective_appraisal node: the model names the emotion the
// latest message causes, and the moved PAD state is emitted for the bus.
func (a *affective) appraise(ctx context.Context, s State) (State, error) {
	msg := s.latest()
	var episode string
	// A message that introduces a name may come from someone other than the
	// recognized user: their episodes stay out of the prompt.
	// Without a stored episode there is nothing to look up: the appraisal
	// then waits on no embedding.
	if a.recall.on && s.UserInfo.Known() && !hasNameIntroduction(msg) && a.recall.has(ctx, s.live, s.UserInfo.ID, nadine.MemoryEpisode) {
		if hit, err := a.recall.best(ctx, s.live, s.UserInfo.ID, nadine.MemoryEpisode, msg); err == nil && hit.ok {
			episode = hit.m.Text
		}
	}
	label, intensity, err := appraiseMessage(ctx, a.model, a.prompts, msg, s.UserEmotion, episode)
	if err != nil {
		nadine.TraceFrom(ctx).Fail("affective_appraisal", err)
		label, intensity = nadine.Neutral, 0
	}
	s.Affect = affect.Appraise(s.Affect, label, intensity, a.now())
	s.live.setAppraised(s.Affect.Emotion)
	bus := affect.ToBus(s.Affect)
	s.live.send(nadine.Event{Kind: nadine.EventAffect, Affect: &bus})
	if s.Intent == "" && a.feel != nil { // in the parallel group
		a.feel(ctx, s)
	}
	return s, nil
}

// appraisalInput fills the appraisal's user message: the message, and the
// facial expression and a past episode as data sections (package fence).
type appraisalInput struct{ Message, Facial, Episode string }

func newAppraisalInput(msg, facial, episode string) appraisalInput {
	in := appraisalInput{Message: msg}
	if facial != "" {
		in.Facial, _ = fence.Block(fence.Person, []string{"Facial expression: " + fence.Clean(facial)}, 0)
	}
	if episode != "" {
		in.Episode = fence.Text(fence.Episode, episode)
	}
	return in
}

// appraiseMessage asks for the emotion msg causes; an answer that names none
// is EBADOUTPUT.
func appraiseMessage(ctx context.Context, m nadine.ChatModel, p prompts, msg, facial, episode string) (nadine.Emotion, float64, error) {
	if facial == "neutral" {
		facial = ""
	}
	content, err := ask(ctx, m, nadine.ChatRequest{Role: RoleAppraisal, MaxTokens: 20, Format: appraisalFormat, Messages: []nadine.ChatMessage{
		{Role: nadine.RoleSystem, Content: p.render("appraisal", nil)},
		{Role: nadine.RoleUser, Content: p.render("appraisal_input", newAppraisalInput(msg, facial, episode))},
	}})
	if err != nil {
		return nadine.Neutral, 0, err
	}
	e, x, err := parseAppraisal(content)
	if err == nil {
		if compact := fmt.Sprintf("%s %d", e, int(math.Round(x*10))); strings.TrimSpace(content) != compact {
			nadine.TraceFrom(ctx).Notef("appraisal: %q read as %s", nadine.Shorten(content, 60), compact)
		}
	}
	return e, x, err
}

// affectUpdate is the affective_update node, after the response: the mood
// decays toward the personality's baseline and the turn is counted.
func (a *affective) update(_ context.Context, s State) (State, error) {
	s.Affect = affect.Update(s.Affect, a.now())
	return s, nil
}
