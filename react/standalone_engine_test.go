package react_test

import (
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/react"
)

var genevaHistory = []nadine.Message{
	{Role: nadine.RoleUser, Content: "Hello Nadine!", Name: "Alex"},
	{Role: nadine.RoleAssistant, Content: "Hello Alex, it is good to see you again! How are you today?", Name: "Nadine"},
}

// TestStandaloneInputSkipsTheContextualizer: with SkipStandalone, a turn
// with history whose input refers to nothing in it retrieves with the
// input as said and waits on one model call in sequence (the agent); a
// follow-up still goes to the contextualizer and retrieves with its
// rewrite; without the option every input with history is rewritten, as
// the contextualizer always did.
func TestStandaloneInputSkipsTheContextualizer(t *testing.T) {
	tests := []struct {
		name      string
		skip      bool
		input     string
		rewritten bool
	}{
		{"standalone", true, "Tell me about Geneva.", false},
		{"follow-up", true, "And what about the lake?", true},
		{"standalone, seed behaviour", false, "Tell me about Geneva.", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, func(o *react.Options) { o.SkipStandalone, o.Speculate = tt.skip, true })
			const rewrite = "What is there to see at Lake Geneva?"
			f.srv.On(llmtest.MatchModel("ctx-model")).Reply(rewrite)
			f.srv.On(llmtest.MatchModel("agent-model")).Reply(answer("joy", 5, "Geneva is a lovely city by the lake.", "information request", "Alex"))
			r, _, tr := f.respond(t, tt.input, genevaHistory)
			if r.Text != "Geneva is a lovely city by the lake." {
				t.Errorf("reply = %+v", r)
			}
			tr.Finish(time.Now())
			d := tr.Snapshot()
			var ctxCalls, agentCalls int
			for _, c := range d.ModelCalls {
				switch c.Role {
				case "contextualizer":
					ctxCalls++
				case "react_agent":
					agentCalls++
				}
			}
			var queries []string
			for _, e := range f.srv.EmbeddingRequests() {
				queries = append(queries, e.Input...)
			}
			if tt.rewritten {
				if ctxCalls != 1 || !contains(queries, rewrite) {
					t.Errorf("contextualizer calls %d, embedded %q: want the rewrite retrieved", ctxCalls, queries)
				}
				return
			}
			if ctxCalls != 0 || agentCalls != 1 {
				t.Errorf("contextualizer calls %d, agent calls %d, want 0 and 1", ctxCalls, agentCalls)
			}
			if len(queries) != 1 || queries[0] != tt.input {
				t.Errorf("embedded %q, want one query, the input as said", queries)
			}
			if d.CriticalPath != 2 {
				t.Errorf("critical path = %d calls in sequence, want 2 (the query's embedding, the agent)", d.CriticalPath)
			}
			if _, ok := step(d, "speculate"); ok {
				t.Errorf("speculated on an input that is not rewritten")
			}
			if !strings.Contains(strings.Join(d.Notes, "\n"), "contextualize: skipped") {
				t.Errorf("notes %q: the skipped rewrite is not in the trace", d.Notes)
			}
		})
	}
}
