package agents

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/affect"
)

// Speculative response. A plain turn would wait on two model calls in
// sequence: the parallel group (whose slowest member is a model call:
// intent, appraisal or the plan), then the response. Yet the response of
// most turns is the one the group's inputs can be guessed to give: so the
// response agent starts beside the group on a guess, its sentences held
// (nadine.Speculative), and when the response node is reached the prompt
// the turn's real state gives is compared with the one the speculation
// sent: the same prompt releases the held sentences and the call goes on
// as if it had started then (the turn waited on one model call); any
// other cancels it, and nothing of it is ever said. The rules (see
// docs/output.md for what they measure):
//
//   - When: as soon as the person is known (their profile read), before
//     the memory search's embedding. The guess has the memories the
//     person's previous message finds when its vector is still in the
//     query cache (memoryRecall.predict), else none; a memory the window
//     already holds is not shown (heldInWindow). When the search finds
//     memories that change the packet, the speculation is restarted with
//     them, as soon as they are known.
//   - The intent: a greeting or farewell alone is guessed as the
//     classifier would label it after the intent agent's corrections (guessIntent);
//     anything else as continue_conversation with an empty plan. A plan
//     with tools, a name question or a new name discard it.
//   - The feelings: the speculation cannot wait for the appraisal, so it
//     describes how Nadine felt when the person spoke; it is kept when the
//     appraisal leaves the mood pleasant (or unpleasant) and the emotion
//     in its family (friendly or negative), or changes only its intensity
//     (sameFeelings), and the comparison then reads the real state with
//     the speculation's feelings. Otherwise it is restarted with the
//     appraised feelings as soon as the appraisal is known (feel), without
//     waiting for the rest of the group; a later restart for the memories
//     keeps them.
//
// The trace records each verdict (nadine.Speculation), what a kept one let
// pass, and what a discarded one cost.

// speculation is the response agent started before the plan was known.
type speculation struct {
	*nadine.Speculative
	state State     // the state it answered
	now   time.Time // the clock reading its packet was dated with
	msgs  []nadine.ChatMessage
	felt  bool // its feelings are the turn's appraisal, not a guess

	mu       sync.Mutex
	streamed strings.Builder // what the model wrote, for the cost estimate
	text     string
	err      error
}

// speculates reports whether the engine starts speculative responses.
func (r *responder) speculates() bool { return r.speculating }

// speculate starts the speculative response unless it will surely differ (a
// name question or introduction); a restart only when its prompt changed.
func (r *responder) speculate(ctx context.Context, s State) {
	r.restart(ctx, s, "the person's memories change the prompt: restarted with them")
}

// feel restarts the speculation as soon as the appraisal is known when its
// feelings would discard it, waiting on no other member of the group.
func (r *responder) feel(ctx context.Context, s State) {
	t := s.live
	if !r.speculates() || t == nil {
		return
	}
	t.setFeelings(s.Affect)
	r.refeel(ctx, t)
}

// refeel restarts the turn's speculation with the appraised feelings
// when they would discard it.
func (r *responder) refeel(ctx context.Context, t *turn) {
	felt, ok := t.feelings()
	old := t.speculation()
	if !ok || old == nil || old.felt {
		return
	}
	same, why := sameFeelings(old.state.Affect, felt)
	if same {
		return
	}
	next := old.state
	next.Affect = felt
	r.restart(ctx, next, why+": restarted with them")
}

// restart (re)starts the speculation when its prompt would differ; once
// appraised, s carries its feelings unless the running guess suits them.
func (r *responder) restart(ctx context.Context, s State, reason string) {
	t := s.live
	msg := s.latest()
	if !r.speculates() || t == nil || s.confirmationPending() || hasNameIntroduction(msg) {
		return
	}
	s.Intent, s.PlanSteps = guessIntent(s, msg), nil
	now := r.now()
	old := t.speculation()
	felt, use := t.feelings()
	if old != nil {
		now = old.now
		if use && !old.felt {
			// Feelings the speculation's guess suits stay the guess.
			same, _ := sameFeelings(old.state.Affect, felt)
			use = !same
		}
	}
	if use {
		s.Affect = felt
	}
	sp := &speculation{state: s, now: now, msgs: r.responseMessagesAt(t.ctx, s, now), felt: use}
	if old != nil {
		if nadine.SameMessages(old.msgs, sp.msgs) {
			return // the change leaves everything the response reads as it was
		}
		if !t.dropSpeculation(old) {
			return // the response node took it meanwhile
		}
		old.settle(false, reason)
	}
	if !t.setSpeculation(sp) {
		return
	}
	sp.Speculative = nadine.StartSpeculation(t.ctx, t.out.Hold, nadine.SpeculateResponse, func(ctx context.Context, emit nadine.EmitFunc) {
		text, err := r.speakResponse(ctx, emit, s.Language, nadine.ChatRequest{Role: RoleResponse, Messages: sp.msgs}, sp.write)
		sp.mu.Lock()
		sp.text, sp.err = text, err
		sp.mu.Unlock()
	})
	if sp.Speculative == nil { // no output to hold it: the response node answers itself
		t.takeSpeculation()
		return
	}
	if !sp.felt {
		r.refeel(ctx, t) // the appraisal may have come while it started
	}
}

// write records what the model streamed.
func (sp *speculation) write(delta string) {
	sp.mu.Lock()
	sp.streamed.WriteString(delta)
	sp.mu.Unlock()
}

// wait returns the speculation's reply once its call has ended.
func (sp *speculation) wait() (string, error) {
	sp.Wait()
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return sp.text, sp.err
}

// cost estimates what a discarded speculation's call cost: its prompt, and
// what it wrote before it was cancelled.
func (sp *speculation) cost() (prompt, completion int) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	return nadine.EstimateTokens(nadine.PromptText(sp.msgs)), nadine.EstimateTokens(sp.streamed.String())
}

// guessIntent answers a lone greeting or farewell as Override would label it,
// anything else as continue_conversation.
func guessIntent(s State, msg string) Intent {
	if !looksLikeGreetingOnly(msg) {
		return IntentContinue
	}
	guess := IntentFirstGreeting
	if HasFarewell(msg) {
		guess = IntentEndConversation
	}
	label, _, _ := Override(guess, msg, s)
	return label
}

// matches reports whether s gives the prompt the speculation sent, and why:
// what a kept one let pass, or why it is discarded.
func (r *responder) matches(ctx context.Context, sp *speculation, s State) (bool, string) {
	switch {
	case s.confirmationPending():
		return false, "a name question"
	case s.Intent != sp.state.Intent && (s.Intent.fastPath() || sp.state.Intent.fastPath()):
		// A greeting or farewell answers otherwise (the packet says so).
		return false, "intent " + string(s.Intent) + ", not " + string(sp.state.Intent)
	case len(s.Dispatched) > 0:
		return false, "the plan ran " + strings.Join(s.Dispatched, ", ")
	}
	same, why := sameFeelings(sp.state.Affect, s.Affect)
	if !same {
		return false, why
	}
	real := s
	real.Affect = sp.state.Affect
	if !nadine.SameMessages(r.responseMessagesAt(ctx, real, sp.now), sp.msgs) {
		return false, "the turn's inputs differ"
	}
	return true, why
}

// mildIntensity is where a negative emotion stops being mild: a reply feeling
// nothing in particular suits it, and the other way round.
const mildIntensity = 0.5

// sameFeelings reports whether a reply written before the appraisal suits
// the appraised feelings, and why (docs/architecture.md, agents).
func sameFeelings(before, after affect.State) (bool, string) {
	b, a := affect.ToBus(before), affect.ToBus(after)
	vb, va := affect.Valence(b.Label), affect.Valence(a.Label)
	why := ""
	switch {
	case b.Label == a.Label:
	case vb >= 0 && va >= 0:
		why = "feelings " + string(b.Label) + " → " + string(a.Label) + ", the friendly family"
	case vb < 0 && va < 0:
		why = "feelings " + string(b.Label) + " → " + string(a.Label) + ", the negative family"
	case vb == 0 && a.Intensity < mildIntensity, va == 0 && b.Intensity < mildIntensity:
		why = "feelings " + string(b.Label) + " → " + string(a.Label) + ", mild"
	default:
		return false, "the appraisal changed Nadine's feelings from " + string(b.Label) + " to " + string(a.Label)
	}
	if (before.Mood.P < 0) != (after.Mood.P < 0) {
		return false, "the appraisal changed Nadine's feelings: her mood from " + affect.MoodLabel(before.Mood) + " to " + affect.MoodLabel(after.Mood)
	}
	return true, why
}

// settle gives the verdict once: a kept one's held sentences go out; a
// discarded one is cancelled and waited for, its sentences dropped.
func (sp *speculation) settle(keep bool, reason string) {
	if keep && sp.Keep(reason) {
		return
	}
	sp.Discard(reason, sp.cost)
}
