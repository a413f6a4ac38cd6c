package agents

import (
	"strings"
)

// Fallback results of the tool agents, for the response agent to word.
const (
	SearchUnavailable    = "Search is unavailable right now: Nadine cannot look anything up on the web."
	VisionUnavailable    = "Nadine's camera is switched off right now, so she cannot see anything."
	KnowledgeUnavailable = "Nadine's knowledge base is not available right now."
	KnowledgeNotFound    = "Nadine's knowledge base has nothing about this."
)

// popStep takes the plan's first step for agent (the tool agents'
// contract: the query is plan_steps[0].message, the step is popped).
func popStep(s State, agent string) (PlanStep, State) {
	step := PlanStep{Agent: agent, Message: s.latest()}
	if len(s.PlanSteps) > 0 {
		step = s.PlanSteps[0]
		s.PlanSteps = append([]PlanStep(nil), s.PlanSteps[1:]...)
	}
	if strings.TrimSpace(step.Message) == "" {
		step.Message = s.latest()
	}
	s.Dispatched = append(append([]string(nil), s.Dispatched...), agent)
	return step, s
}

// appendResult adds a result to a field that may hold an earlier one (two
// steps of the same agent).
func appendResult(field, result string) string {
	if field == "" {
		return result
	}
	return field + "\n" + result
}
