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
// most turns is the one an empty plan gives: so as soon as the person's
// memories are retrieved, the response agent starts beside the group on
// the inputs an empty plan gives (intent continue_conversation, no tool
// results), its sentences held. When the response node is reached, the
// prompt the turn's real state gives is compared with the one the
// speculation sent: the same prompt releases the held sentences and the
// call goes on as if it had started then (the turn waited on one model
// call); any other (a plan with tools, a greeting, a farewell, a name
// question or a new name, another language) cancels it, and nothing of it
// is ever said. The feelings in the prompt are the one exception: the
// speculation cannot wait for the appraisal, so it describes how Nadine
// felt when the person spoke; it is kept when the appraisal leaves the
// same emotion and mood (only their intensities moved), and the comparison
// then reads the real state with the speculation's feelings. The trace
// records the verdict (nadine.Speculation) and what a discarded
// speculation cost.

// speculation is the response agent started before the plan was known.
type speculation struct {
	*nadine.Speculative
	state State     // the state it answered
	now   time.Time // the clock reading its packet was dated with
	msgs  []nadine.ChatMessage

	mu       sync.Mutex
	streamed strings.Builder // what the model wrote, for the cost estimate
	text     string
	err      error
}

// speculates reports whether the engine starts speculative responses.
func (r *responder) speculates() bool { return r.speculating }

// speculate starts the speculative response of state s (the group's input
// with the person's memories), unless the turn is one whose response will
// surely differ: a pending name question, a name introduction, a greeting
// or farewell alone (which the orchestrator does not plan either). Called
// from the retrieval node of the parallel group.
func (r *responder) speculate(ctx context.Context, s State) {
	t := s.live
	msg := s.latest()
	if !r.speculates() || t == nil || s.confirmationPending() || hasNameIntroduction(msg) || looksLikeGreetingOnly(msg) {
		return
	}
	s.Intent, s.PlanSteps = IntentContinue, nil
	now := r.now()
	sp := &speculation{state: s, now: now, msgs: r.responseMessagesAt(t.ctx, s, now)}
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

// matches reports whether s, the state the response node received, gives
// the prompt the speculation sent (with the speculation's feelings and
// clock), and if not, why.
func (r *responder) matches(ctx context.Context, sp *speculation, s State) (bool, string) {
	switch {
	case s.confirmationPending():
		return false, "a name question"
	case s.Intent.fastPath():
		return false, "intent " + string(s.Intent)
	case len(s.Dispatched) > 0:
		return false, "the plan ran " + strings.Join(s.Dispatched, ", ")
	}
	if !closeFeelings(sp.state.Affect, s.Affect) {
		return false, "the appraisal changed Nadine's feelings"
	}
	real := s
	real.Affect = sp.state.Affect
	if !nadine.SameMessages(r.responseMessagesAt(ctx, real, sp.now), sp.msgs) {
		return false, "the turn's inputs differ"
	}
	return true, ""
}

// closeFeelings reports whether the feelings the speculation described
// (before the appraisal) and the appraised ones name the same emotion and
// the same mood: then only their intensities differ, and the reply written
// with the first suits the second.
func closeFeelings(before, after affect.State) bool {
	b, a := affect.ToBus(before), affect.ToBus(after)
	return b.Label == a.Label && b.MoodLabel == a.MoodLabel
}

// settle gives the speculation its verdict, once, and records it: a kept
// one's held sentences go out and the call goes on; a discarded one is
// cancelled and waited for, its sentences dropped.
func (sp *speculation) settle(keep bool, reason string) {
	if keep && sp.Keep(reason) {
		return
	}
	sp.Discard(reason, sp.cost)
}
