package nadine

import (
	"slices"
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
// whether it was kept (its output went out as if it had started when it
// was wanted) or discarded (nothing of it was said), why, and what a
// discarded one cost.
type Speculation struct {
	Kind     string        `json:"kind"`
	Start    time.Time     `json:"start"`
	Duration time.Duration `json:"duration_ns"` // until the verdict
	Kept     bool          `json:"kept"`
	Reason   string        `json:"reason,omitempty"` // why it was discarded
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

// SameMessages reports whether two requests send the very same messages
// (roles, texts, names, images and tool calls), as a speculation's check
// that it saw the prompt it would have been given.
func SameMessages(a, b []ChatMessage) bool {
	return slices.EqualFunc(a, b, func(x, y ChatMessage) bool {
		return x.Role == y.Role && x.Content == y.Content && x.Name == y.Name && x.ToolCallID == y.ToolCallID &&
			slices.Equal(x.Images, y.Images) && slices.Equal(x.ToolCalls, y.ToolCalls)
	})
}
