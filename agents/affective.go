package agents

import (
	"context"
	"strconv"
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

// appraiseMessage asks the appraisal model for the emotion msg causes. An
// answer that is not a valid emotion is an EBADOUTPUT error.
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
	return parseAppraisal(content)
}

// parseAppraisal reads "<emotion> <intensity from 0 to 10>" ("joy 4", the
// prompt's compact answer: two tokens where JSON takes ten) or {"emotion",
// "intensity"} (0–1, or 0–10 brought to 0–1); synonyms of the emotions are
// accepted.
func parseAppraisal(text string) (nadine.Emotion, float64, error) {
	var v struct {
		Emotion   string   `json:"emotion"`
		Intensity *float64 `json:"intensity"`
	}
	if f := strings.Fields(strings.Trim(strings.TrimSpace(text), ".`")); len(f) >= 1 && len(f) <= 2 && !strings.ContainsAny(text, "{}") {
		v.Emotion = f[0]
		if len(f) == 2 {
			x, err := strconv.ParseFloat(strings.TrimSuffix(f[1], "/10"), 64)
			if err != nil || x < 0 || x > 10 {
				return nadine.Neutral, 0, nadine.Errorf(nadine.EBADOUTPUT, "agents: appraisal: %q is not an intensity from 0 to 10", shorten(f[1], 20))
			}
			x /= 10 // the prompt's scale
			v.Intensity = &x
		}
	} else if err := decodeJSON(text, &v); err != nil {
		return nadine.Neutral, 0, err
	}
	e := emotionSynonym(v.Emotion)
	if !e.Valid() {
		return nadine.Neutral, 0, nadine.Errorf(nadine.EBADOUTPUT, "agents: appraisal: %q is not an emotion", shorten(v.Emotion, 40))
	}
	x := 0.5
	if v.Intensity != nil {
		x = *v.Intensity
	}
	if x > 1 && x <= 10 {
		x /= 10
	}
	return e, min(1, max(0, x)), nil
}

// hasEpisodes reports whether the store holds an episode of the user (once
// per turn).
func (e *Engine) hasEpisodes(ctx context.Context, userID string) bool {
	sc := scopeFrom(ctx)
	hit, _ := once(sc, sc.memories, userID+"\x00has-episodes", func() (memoryHit, error) {
		ms, err := e.opts.Store.Memories(ctx, userID, nadine.MemoryEpisode)
		return memoryHit{ok: err != nil || len(ms) > 0}, nil // on error, look
	})
	return hit.ok
}

func emotionSynonym(s string) nadine.Emotion {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "happiness", "happy", "joyful", "delight":
		return nadine.Joy
	case "sad":
		return nadine.Sadness
	case "afraid", "scared", "fearful":
		return nadine.Fear
	case "disgusted":
		return nadine.Disgust
	case "angry", "anger", "annoyed":
		return nadine.Anger
	case "surprised":
		return nadine.Surprise
	case "none", "calm", "":
		return nadine.Neutral
	}
	return nadine.Emotion(s)
}

// affectUpdate is the affective_update node, after the response: the mood
// decays toward the personality's baseline and the turn is counted.
func (e *Engine) affectUpdate(_ context.Context, s State) (State, error) {
	s.Affect = affect.Update(s.Affect, e.opts.Now())
	return s, nil
}
