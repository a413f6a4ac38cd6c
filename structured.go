package nadine

import "fmt"

// StructuredMode says how a model profile's server constrains answers
// (schema, native tools, or the prompt's words only; docs/speech.md).
type StructuredMode string

// The structured modes. Auto chooses per server (see the openai package).
const (
	StructuredAuto       StructuredMode = "auto"
	StructuredJSONSchema StructuredMode = "json_schema" // response_format json_schema, strict
	StructuredTools      StructuredMode = "tools"       // json_schema, and tools / tool_calls / tool messages
	StructuredText       StructuredMode = "text"        // the prompt's format only
)

// ParseStructuredMode reads a configured mode; "" is auto.
func ParseStructuredMode(s string) (StructuredMode, error) {
	switch m := StructuredMode(s); m {
	case "":
		return StructuredAuto, nil
	case StructuredAuto, StructuredJSONSchema, StructuredTools, StructuredText:
		return m, nil
	}
	return "", Errorf(EINVALID, "structured mode %q: want auto, json_schema, tools or text", s)
}

// StructuredModel says how its server constrains answers now: what was
// configured, less what the server refused with a 400.
type StructuredModel interface {
	StructuredMode() StructuredMode
}

// StructuredOf returns how m constrains answers now; a model that does not
// say is text.
func StructuredOf(m ChatModel) StructuredMode {
	if s, ok := m.(StructuredModel); ok {
		switch mode := s.StructuredMode(); mode {
		case StructuredJSONSchema, StructuredTools, StructuredText:
			return mode
		}
	}
	return StructuredText
}

// Prompt is what an engine wrote into one model call, kept on the trace for
// the echo check of every sentence spoken; never serialized or shown.
type Prompt struct {
	// Role is the caller ("react_agent", "response").
	Role string
	// Instructions are the system message, the fenced human turn and any
	// feedback; the chat history is not in them.
	Instructions []string
	// Persona are the texts describing Nadine: facts she may say in her own
	// words (first person), not in the prompt's (second).
	Persona []string
	// Said are texts inside Instructions that are the person's own words
	// (the turn's input), first, then what tools returned: repeating them
	// is no echo, and only the first, said back whole, restates the input.
	Said []string
}

// AddPrompt records a prompt of the turn (texts already recorded are not
// kept twice).
func (t *Trace) AddPrompt(p Prompt) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.promptSeen == nil {
		t.promptSeen = map[string]bool{}
	}
	key := fmt.Sprintf("%s\x00%q\x00%q\x00%q", p.Role, p.Instructions, p.Persona, p.Said)
	if t.promptSeen[key] {
		return
	}
	t.promptSeen[key] = true
	t.prompts = append(t.prompts, p)
}

// Prompts returns the prompts recorded for the turn, in order, and a
// version that grows with each new one (to cache what is built from them).
func (t *Trace) Prompts() ([]Prompt, int) {
	if t == nil {
		return nil, 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]Prompt(nil), t.prompts...), len(t.prompts)
}
