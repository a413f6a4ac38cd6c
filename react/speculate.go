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

// speculation is the agent's first call started on the raw input's
// retrieval. Its methods do nothing on a nil *speculation, the turn
// without speculation.
type speculation struct {
	tr     *nadine.Trace
	start  time.Time
	cancel context.CancelFunc
	hold   *nadine.Hold
	query  string        // the raw input it retrieved with
	ready  chan struct{} // closed once msgs is set
	msgs   []nadine.ChatMessage
	agent  *pendingCall
}

// speculate starts the speculative branch when it can save time: the
// contextualizer runs (rewrite: the turn has history, retrieval is
// configured so its question matters, and the input may refer back). It
// returns nil otherwise.
func (e *Engine) speculate(ctx context.Context, req nadine.Request, now time.Time, rewrite bool) *speculation {
	if !e.opts.Speculate || !rewrite {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &speculation{
		tr: nadine.TraceFrom(ctx), start: time.Now(), cancel: cancel,
		hold: nadine.NewHold(req.Emit), query: req.Turn.Text,
		ready: make(chan struct{}), agent: newPendingCall(),
	}
	go func() {
		knowledge, memories := e.retrieve(ctx, req, s.query, "speculate:retrieve")
		s.msgs = e.messages(req, knowledge, memories, now)
		close(s.ready)
		if err := ctx.Err(); err != nil { // discarded before the call started
			s.agent.end(agentCall{start: time.Now(), st: &streamer{}, err: err})
			return
		}
		e.runAgent(ctx, req, s.msgs, s.hold.Emit, s.agent)
	}()
	return s
}

// prompt returns the speculation's prompt when question is the query it
// retrieved with (the contextualizer failed or left the input as it was):
// retrieving again would find the same texts.
func (s *speculation) prompt(question string) ([]nadine.ChatMessage, bool) {
	if s == nil || question != s.query {
		return nil, false
	}
	<-s.ready
	return slices.Clone(s.msgs), true
}

// confirm compares the speculation's prompt with msgs, the prompt of the
// standalone question. When they are equal the speculation is kept: its
// held events are released and its call is returned for the loop to use.
// Otherwise it is cancelled, its events are dropped, and confirm returns
// nil.
func (s *speculation) confirm(msgs []nadine.ChatMessage) *pendingCall {
	if s == nil {
		return nil
	}
	<-s.ready
	kept := nadine.SameMessages(s.msgs, msgs)
	verdict := "kept"
	if kept {
		s.hold.Release()
	} else {
		s.hold.Drop()
		s.cancel()
		verdict = "discarded: retrieval differed"
	}
	s.tr.AddStep(nadine.Step{Name: "speculate", Start: s.start, Duration: time.Since(s.start), Detail: verdict})
	s.tr.Notef("speculative agent call %s", verdict)
	rec := nadine.Speculation{Kind: nadine.SpeculateAgent, Start: s.start, Duration: time.Since(s.start), Kept: kept}
	if !kept {
		// What the discarded call cost: its prompt, and what it wrote
		// before it was cancelled.
		c := s.agent.wait()
		rec.Reason = "the standalone question retrieved other texts"
		rec.PromptTokens, rec.CompletionTokens = c.resp.PromptTokens, c.resp.CompletionTokens
		if rec.PromptTokens == 0 {
			rec.PromptTokens = nadine.EstimateTokens(nadine.PromptText(s.msgs))
		}
		if rec.CompletionTokens == 0 {
			rec.CompletionTokens = nadine.EstimateTokens(c.st.buf.String())
		}
	}
	s.tr.AddSpeculation(rec)
	if !kept {
		return nil
	}
	return s.agent
}

// stop ends the speculation and waits for its goroutine, so that nothing of
// it outlives the turn. A kept call has ended by then (the loop waited for
// it) unless the turn replied early, when the call is detached and owned by
// the engine's calls (late.go) like any reply that ended early; anything
// else is cancelled and never heard.
func (s *speculation) stop(c *calls) {
	if s == nil {
		return
	}
	s.hold.Drop()
	s.cancel()
	if !c.isDetached(s.agent) {
		<-s.agent.done
	}
}
