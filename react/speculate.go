package react

import (
	"context"
	"slices"
	"time"

	"github.com/nadine-robot/nadine"
)

// Speculation. A follow-up turn waits on the contextualizer before it can
// retrieve and call the agent, yet the standalone question the
// contextualizer writes is only the retrieval query: the agent's prompt
// carries the raw input and the history. So while the contextualizer runs,
// the engine retrieves with the raw input, builds the prompt and starts the
// agent's first call, holding back everything that call emits. If the
// standalone question gives the very same prompt (the same memories and
// knowledge in the same order), the call is kept: its held events go out
// in order and it goes on as if it had started then. Otherwise it is
// cancelled and nothing of it is heard. A tool call it asks for runs only
// once it is kept, because only the loop runs tools and the loop gets the
// call after the verdict.

// speculation is the first agent call started on the raw input's retrieval;
// its methods do nothing on nil, the turn without speculation.
type speculation struct {
	*nadine.Speculative
	query string        // the raw input it retrieved with
	step  nadine.Step   // the speculate step its work hangs from
	ready chan struct{} // closed once msgs is set
	msgs  []nadine.ChatMessage
	agent *pendingCall
}

// speculate starts the branch only when the contextualizer runs and the turn's
// output can hold it; nil otherwise.
func (e *Engine) speculate(ctx context.Context, req nadine.Request, now time.Time, rewrite bool) *speculation {
	if !e.opts.Speculate || !rewrite {
		return nil
	}
	ctx = nadine.OpenStep(ctx)
	s := &speculation{query: req.Turn.Text, step: nadine.StepOf(ctx), ready: make(chan struct{}), agent: newPendingCall()}
	s.Speculative = nadine.StartSpeculation(ctx, req.Hold, nadine.SpeculateAgent, func(ctx context.Context, emit nadine.EmitFunc) {
		knowledge, memories := e.retrieve(ctx, req, s.query, "speculate:retrieve")
		s.msgs = e.messages(req, knowledge, memories, now)
		close(s.ready)
		if err := ctx.Err(); err != nil { // discarded before the call started
			s.agent.end(agentCall{start: nadine.TraceFrom(ctx).Now(), st: &streamer{}, err: err})
			return
		}
		e.runAgent(ctx, req, s.msgs, emit, s.agent)
	})
	if s.Speculative == nil {
		return nil
	}
	return s
}

// prompt reuses the speculation's prompt when question is the query it
// retrieved with: retrieving again would find the same texts.
func (s *speculation) prompt(question string) ([]nadine.ChatMessage, bool) {
	if s == nil || question != s.query {
		return nil, false
	}
	<-s.ready
	return slices.Clone(s.msgs), true
}

// confirm keeps the speculation when its prompt equals msgs (the standalone
// question's) and returns its call; otherwise it discards it and returns nil.
func (s *speculation) confirm(ctx context.Context, msgs []nadine.ChatMessage) *pendingCall {
	if s == nil {
		return nil
	}
	<-s.ready
	tr := nadine.TraceFrom(ctx)
	kept := nadine.SameMessages(s.msgs, msgs) && s.Keep("")
	verdict := "kept"
	if !kept {
		verdict = "discarded: retrieval differed"
		s.Discard("the standalone question retrieved other texts", s.cost)
	}
	start := s.Started()
	st := s.step
	st.Name, st.Start, st.Duration, st.Detail = "speculate", start, tr.Now().Sub(start), verdict
	tr.AddStep(st)
	if !kept {
		return nil
	}
	return s.agent
}

// cost is what the discarded call cost: the server's counts, else its
// prompt and what it wrote before it was cancelled, estimated.
func (s *speculation) cost() (prompt, completion int) {
	c := s.agent.wait()
	prompt, completion = c.resp.PromptTokens, c.resp.CompletionTokens
	if prompt == 0 {
		prompt = nadine.EstimateTokens(nadine.PromptText(s.msgs))
	}
	if completion == 0 && c.st != nil {
		completion = nadine.EstimateTokens(c.st.buf.String())
	}
	return prompt, completion
}

// stop ends the speculation so nothing of it outlives the turn; a call
// detached by an early reply is owned by the engine's calls (late.go).
func (s *speculation) stop(c *calls) {
	if s == nil {
		return
	}
	if !s.Settled() {
		s.Discard("the turn ended before its verdict", s.cost)
		return
	}
	if !c.isDetached(s.agent) {
		<-s.agent.done
	}
}
