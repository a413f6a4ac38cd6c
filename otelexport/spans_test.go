package otelexport

import (
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
)

// TestNodesFollowTheRecordedTree: spans hang where the trace says the work
// ran, even where times alone would place them elsewhere: a node that
// starts within a clock tick of its parallel group's end and lasts less
// than a tick (once taken for a member of the group), a step of no
// duration, a call that outlives its step or whose clock read before it,
// and records whose step is unknown hang from the turn; parents that loop
// (a trace built by hand) are cut at the turn. Each parent comes before
// its children.
func TestNodesFollowTheRecordedTree(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	at := func(ms float64) time.Time { return t0.Add(time.Duration(ms * float64(time.Millisecond))) }
	ms := func(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }
	d := nadine.TraceData{ID: "t", Start: t0, Duration: ms(200),
		// Recorded as they end: members, their group, then the rest.
		Steps: []nadine.Step{
			{ID: 3, Parent: 2, Name: "intention_classifier", Start: at(1), Duration: ms(150), Detail: "in parallel group understand"},
			{ID: 4, Parent: 2, Name: "memory_retrieve_agent", Start: at(1), Duration: ms(1), Detail: "in parallel group understand"},
			{ID: 2, Parent: 1, Name: "understand", Start: at(1), Duration: ms(150.2), Detail: "parallel group"},
			{ID: 5, Parent: 1, Name: "orchestrator", Start: at(151.2), Duration: 0},
			{ID: 6, Parent: 1, Name: "response_agent", Start: at(151.3), Duration: ms(0.8)},
			{ID: 7, Parent: 6, Name: "failover:response", Start: at(151.4), Duration: ms(0.1)},
			{ID: 1, Name: "engine:graph", Start: at(0.5), Duration: ms(160)},
			{ID: 8, Parent: 9, Name: "loop a", Start: at(1), Duration: ms(1)},
			{ID: 9, Parent: 8, Name: "loop b", Start: at(1), Duration: ms(1)},
			{Name: "unnumbered", Start: at(170), Duration: ms(1)},
		},
		ModelCalls: []nadine.ModelCall{
			{Role: "intent_classifier", Model: "m", Start: at(1.5), Latency: ms(149), Step: 3},
			{Role: "response", Model: "m", Start: at(0.2), Latency: ms(190), Step: 1}, // started beside the group, kept
			{Role: "response", Model: "m", Start: at(151.35), Latency: ms(30), Step: 6},
			{Role: "memory_update", Model: "m", Start: at(180), Latency: ms(5)}, // after the reply
		},
		Retrievals: []nadine.Retrieval{{Kind: "memory", Start: at(1.2), Duration: ms(0.5), Step: 4}, {Kind: "knowledge", Start: at(2), Step: 42}},
		ToolCalls:  []nadine.ToolCallRecord{{Tool: "search", Start: at(151.5), Duration: ms(0.1), Step: 6}},
	}
	nodes := (&Exporter{}).nodes(d)
	children := map[int][]int{}
	for i, n := range nodes {
		if n.parent >= i {
			t.Errorf("%s comes before its parent %s", n.name, nodes[n.parent].name)
		}
		children[n.parent] = append(children[n.parent], i)
	}
	var b strings.Builder
	var draw func(p int, depth int)
	draw = func(p int, depth int) {
		for _, c := range children[p] {
			b.WriteString(strings.Repeat("  ", depth) + nodes[c].name + "\n")
			draw(c, depth+1)
		}
	}
	draw(-1, 0)
	want := `engine:graph
  understand
    intention_classifier
      chat m
    memory_retrieve_agent
      retrieve memory
  orchestrator
  response_agent
    failover:response
    chat m
    execute_tool search
  chat m
loop a
  loop b
unnumbered
chat m
retrieve knowledge
`
	if got := b.String(); got != want {
		t.Errorf("span tree:\n%s\nwant:\n%s", got, want)
	}
}
