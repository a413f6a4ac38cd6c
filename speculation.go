package nadine

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Speculation kinds, as a trace records them.
const (
	// SpeculateResponse: the graph's response agent, started while the
	// orchestrator plans, with the inputs an empty plan gives.
	SpeculateResponse = "response"
	// SpeculateAgent: the ReAct agent's first call, started on the raw
	// input's retrieval while the contextualizer rewrites it.
	SpeculateAgent = "agent"
	// SpeculateTurn: a whole turn started on an interim transcript,
	// before the final one.
	SpeculateTurn = "turn"
)

// Speculation is work a turn started before it was known to be wanted:
// kept (said as if started on time) or discarded, why, and what it cost.
type Speculation struct {
	Kind     string        `json:"kind"`
	Start    time.Time     `json:"start"`
	Duration time.Duration `json:"duration_ns"` // until the verdict
	Kept     bool          `json:"kept"`
	Reason   string        `json:"reason,omitempty"` // why it was discarded, or what a kept one let pass
	// PromptTokens and CompletionTokens are what a discarded speculation's
	// model calls cost: the server's counts when it gave them, else
	// estimated at four bytes a token (a cancelled stream has no counts).
	PromptTokens     int `json:"prompt_tokens,omitempty"`
	CompletionTokens int `json:"completion_tokens,omitempty"`
}

// AddSpeculation records a speculation's verdict.
func (t *Trace) AddSpeculation(s Speculation) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.Speculations = append(t.Speculations, s)
	t.mu.Unlock()
}

// Branch is part of a turn's output held for speculative work until
// Release lets it out in order or Drop discards it.
type Branch interface {
	Emit(Event)
	// Release lets the branch's events out; false when it was dropped.
	Release() bool
	// Drop discards them; false when it was released.
	Drop() bool
}

// Speculative is work started before the turn knows it wants it, its
// events held until the verdict (docs/architecture.md, Speculation).
type Speculative struct {
	kind   string
	tr     *Trace
	start  time.Time
	branch Branch
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	settled bool
	kept    bool
}

// StartSpeculation runs run on its own goroutine, its events held in a
// branch from hold; nil without a hold. Keep or Discard it before the turn ends.
func StartSpeculation(ctx context.Context, hold func() Branch, kind string, run func(ctx context.Context, emit EmitFunc)) *Speculative {
	if hold == nil {
		return nil
	}
	tr := TraceFrom(ctx)
	ctx, cancel := context.WithCancel(ctx)
	s := &Speculative{kind: kind, tr: tr, start: tr.Now(), branch: hold(), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		run(ctx, s.branch.Emit)
	}()
	return s
}

// Keep releases the held events; why says what it let pass. False means the
// turn's output was dropped meanwhile, so the speculation counts as discarded.
func (s *Speculative) Keep(why string) bool {
	if s == nil || !s.settle(true) {
		return s != nil && s.wasKept()
	}
	if !s.branch.Release() {
		s.mu.Lock()
		s.kept = false
		s.mu.Unlock()
		s.cancel()
		<-s.done
		s.record(false, "the turn's output was dropped", 0, 0)
		return false
	}
	s.tr.Notef("speculative %s kept", speculationNoun(s.kind))
	s.record(true, why, 0, 0)
	return true
}

// Discard drops the held events and waits for the work; cost is asked only
// once the work has ended. A settled speculation is left as it is.
func (s *Speculative) Discard(reason string, cost func() (prompt, completion int)) {
	if s == nil || !s.settle(false) {
		return
	}
	s.branch.Drop()
	s.cancel()
	<-s.done
	var p, c int
	if cost != nil {
		p, c = cost()
	}
	s.tr.Notef("speculative %s discarded: %s", speculationNoun(s.kind), reason)
	s.record(false, reason, p, c)
}

// speculationNoun names what a speculation of kind started, for the
// trace's notes.
func speculationNoun(kind string) string {
	if kind == SpeculateAgent {
		return "agent call"
	}
	return kind
}

// Wait returns once the speculative work has returned.
func (s *Speculative) Wait() {
	if s != nil {
		<-s.done
	}
}

// Started is when the speculation started, on the turn's clock.
func (s *Speculative) Started() time.Time { return s.start }

// Settled reports whether the verdict was given.
func (s *Speculative) Settled() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settled
}

// settle marks the verdict given, once; it reports false when it was
// given before.
func (s *Speculative) settle(keep bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.settled {
		return false
	}
	s.settled, s.kept = true, keep
	return true
}

func (s *Speculative) wasKept() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.kept
}

func (s *Speculative) record(kept bool, reason string, prompt, completion int) {
	s.tr.AddSpeculation(Speculation{Kind: s.kind, Start: s.start, Duration: s.tr.Now().Sub(s.start), Kept: kept,
		Reason: reason, PromptTokens: prompt, CompletionTokens: completion})
}

// EstimateTokens estimates the tokens of text at four bytes a token (at
// least one for a non-empty text), for a call the server did not count.
func EstimateTokens(text string) int {
	if text == "" {
		return 0
	}
	return max(1, (len(text)+3)/4)
}

// PromptText returns the text a request's messages send, for
// EstimateTokens.
func PromptText(msgs []ChatMessage) string {
	n := 0
	for _, m := range msgs {
		n += len(m.Content) + 1
	}
	b := make([]byte, 0, n)
	for _, m := range msgs {
		b = append(append(b, m.Content...), '\n')
	}
	return string(b)
}

// SameMessages reports whether two requests send the very same messages, so a
// speculation can check it saw the prompt it would have been given.
func SameMessages(a, b []ChatMessage) bool {
	return slices.EqualFunc(a, b, func(x, y ChatMessage) bool {
		return x.Role == y.Role && x.Content == y.Content && x.Name == y.Name && x.ToolCallID == y.ToolCallID &&
			slices.Equal(x.Images, y.Images) && slices.Equal(x.ToolCalls, y.ToolCalls)
	})
}
