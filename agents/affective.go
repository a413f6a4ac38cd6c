package agents

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
	"github.com/nadine-robot/nadine/fence"
)

// appraise is the affective_appraisal node: the model names the emotion the
// latest message causes, the PAD state moves, and the new state is emitted
// for the bus.
func (e *Engine) appraise(ctx context.Context, s State) (State, error) {
	msg := s.latest()
	var episode string
	// A message that introduces a name may come from someone other than the
	// recognized user: their episodes stay out of the prompt.
	// Without a stored episode there is nothing to look up: the appraisal
	// then waits on no embedding.
	if e.memoryOn() && s.UserInfo.Known() && !hasNameIntroduction(msg) && e.hasEpisodes(ctx, s.UserInfo.ID) {
		if hit, err := e.bestMemory(ctx, s.UserInfo.ID, nadine.MemoryEpisode, msg); err == nil && hit.ok {
			episode = hit.m.Text
		}
	}
	label, intensity, err := appraiseMessage(ctx, e.model(RoleAppraisal), e.prompts, msg, s.UserEmotion, episode)
	if err != nil {
		nadine.TraceFrom(ctx).Fail("affective_appraisal", err)
		label, intensity = nadine.Neutral, 0
	}
	s.Affect = affect.Appraise(s.Affect, label, intensity, e.opts.Now())
	sc := scopeFrom(ctx)
	sc.setAppraised(s.Affect.Emotion)
	bus := affect.ToBus(s.Affect)
	sc.send(nadine.Event{Kind: nadine.EventAffect, Affect: &bus})
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

// appraiseMessage asks the appraisal model for the emotion msg causes, read
// by parseAppraisal. An answer that names no emotion is an EBADOUTPUT
// error.
func appraiseMessage(ctx context.Context, m nadine.ChatModel, p prompts, msg, facial, episode string) (nadine.Emotion, float64, error) {
	if facial == "neutral" {
		facial = ""
	}
	content, err := ask(ctx, m, nadine.ChatRequest{Role: RoleAppraisal, MaxTokens: 20, Messages: []nadine.ChatMessage{
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

// hasEpisodes reports whether the store holds an episode of the user.
func (e *Engine) hasEpisodes(ctx context.Context, userID string) bool {
	return e.hasMemories(ctx, userID, nadine.MemoryEpisode)
}

// affectUpdate is the affective_update node, after the response: the mood
// decays toward the personality's baseline and the turn is counted.
func (e *Engine) affectUpdate(_ context.Context, s State) (State, error) {
	s.Affect = affect.Update(s.Affect, e.opts.Now())
	return s, nil
}
