package react

import (
	"encoding/json"

	"github.com/nadine-robot/nadine"
)

// The JSON schemas of the agent's answer (sent as a strict response
// format where the profile sends them, see nadine.StructuredMode). Their
// members are in the prompt's order, so that the reply text streams right
// after the action, Nadine's emotion right after it (docs/latency.md, What
// makes ReAct fast); strict mode needs every member required.

// stepFormat is an answer's schema; with final set (tools closed, or native
// calls) the action can only be the final answer.
func stepFormat(tools []string, final bool) nadine.ResponseFormat {
	actions := []string{finalAction}
	if !final {
		actions = append(actions, tools...)
	}
	enum := func(xs []string) json.RawMessage { b, _ := json.Marshal(xs); return b }
	type prop struct {
		Type        string          `json:"type"`
		Enum        json.RawMessage `json:"enum,omitempty"`
		Description string          `json:"description,omitempty"`
	}
	props := []struct {
		name string
		p    prop
	}{
		{"action", prop{Type: "string", Enum: enum(actions)}},
		{"action_input", prop{Type: "string", Description: "your reply, or the input for the tool"}},
		{"emotion", prop{Type: "string", Enum: enum([]string{"joy", "sadness", "fear", "disgust", "anger", "surprise"})}},
		{"emotion_intensity", prop{Type: "integer", Description: "0 to 10"}},
		{"category", prop{Type: "string", Enum: enum([]string{"greeting", "farewell", "insult", "complement", "information request", "other"})}},
		{"causing_person", prop{Type: "string"}},
	}
	// An ordered object: encoding/json sorts map keys.
	b := []byte(`{"type":"object","properties":{`)
	var names []string
	for i, p := range props {
		if i > 0 {
			b = append(b, ',')
		}
		pb, _ := json.Marshal(p.p)
		b = append(b, `"`+p.name+`":`...)
		b = append(b, pb...)
		names = append(names, p.name)
	}
	req, _ := json.Marshal(names)
	b = append(b, `},"required":`...)
	b = append(b, req...)
	b = append(b, `,"additionalProperties":false}`...)
	name := "react_step"
	if final {
		name = "final_answer"
	}
	return nadine.ResponseFormat{Type: nadine.FormatJSONSchema, Name: name, Schema: b, Strict: true}
}

// toolParameters is the schema of a native tool call's arguments: the
// tool's input as text, as in the text format.
var toolParameters = json.RawMessage(`{"type":"object","properties":{"input":{"type":"string","description":"the input for the tool, as its description says"}},"required":["input"],"additionalProperties":false}`)

// toolSpecs offers the tools as native tool calls.
func (e *Engine) toolSpecs() []nadine.ToolSpec {
	specs := make([]nadine.ToolSpec, len(e.opts.Tools))
	for i, t := range e.opts.Tools {
		specs[i] = nadine.ToolSpec{Name: t.Name(), Description: t.Description(), Parameters: toolParameters}
	}
	return specs
}
