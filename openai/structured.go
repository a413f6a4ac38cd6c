package openai

import (
	"context"
	"net/http"
	"strings"

	"github.com/nadine-robot/nadine"
)

// Structured outputs. A request says what it would like: a JSON schema for
// a role whose answer is JSON (ChatRequest.Format), tools for the ReAct
// loop (ChatRequest.Tools). The profile's mode says what the server gets:
//
//	text         neither: the prompt alone asks for the format
//	json_schema  response_format {type: json_schema, json_schema: {strict, schema}}
//	tools        response_format and tools
//
// The prompts ask for the same format in words in every mode, so that a
// request the server cannot constrain still gets a readable answer. A
// server that answers HTTP 400 (or 422) naming response_format, or tools,
// is asked again at once without the field, and
// the client never sends it again: the turn loses one round trip, not its
// answer.

// resolveStructured makes auto tools on api.openai.com, json_schema elsewhere,
// where tool calling depends on the model's template (docs/speech.md).
func resolveStructured(m nadine.StructuredMode, host string) nadine.StructuredMode {
	if m != nadine.StructuredAuto {
		return m
	}
	if host == "api.openai.com" {
		return nadine.StructuredTools
	}
	return nadine.StructuredJSONSchema
}

// StructuredMode implements nadine.StructuredModel: the configured mode,
// less what the server refused.
func (c *Client) StructuredMode() nadine.StructuredMode {
	format, tools := c.sends()
	switch {
	case tools:
		return nadine.StructuredTools
	case format:
		return nadine.StructuredJSONSchema
	}
	return nadine.StructuredText
}

// sends reports whether requests carry their response format and their tools.
func (c *Client) sends() (format, tools bool) {
	switch c.structured {
	case nadine.StructuredTools:
		return !c.noFormat.Load(), !c.noTools.Load()
	case nadine.StructuredJSONSchema:
		return !c.noFormat.Load(), false
	}
	return false, false
}

// rejectsFormat reports a 400 or 422 naming response_format or json_schema,
// as llama.cpp and OpenAI send for a format they cannot apply.
func (e *statusError) rejectsFormat() bool {
	if e.status != http.StatusBadRequest && e.status != http.StatusUnprocessableEntity {
		return false
	}
	return e.param == "response_format" || strings.Contains(e.raw, "response_format") || strings.Contains(e.raw, "json_schema")
}

// rejectsTools reports a 400 or 422 naming tools, as Ollama, vLLM and
// llama.cpp send when tool calling is not enabled.
func (e *statusError) rejectsTools() bool {
	if e.status != http.StatusBadRequest && e.status != http.StatusUnprocessableEntity {
		return false
	}
	return e.param == "tools" || e.param == "tool_choice" || strings.Contains(e.raw, "tool")
}

// refused records a refusal in the log and trace and reports whether the
// request changes (the field had been sent).
func (c *Client) refused(ctx context.Context, se *statusError, format, tools *bool, req nadine.ChatRequest) bool {
	switch {
	case *tools && len(req.Tools) > 0 && se.rejectsTools():
		*tools = false
		c.noTools.Store(true)
		c.log.Info("openai: server rejected tools; the profile runs tools in text from now on", "profile", c.profile, "model", c.model, "error", se.message)
		nadine.TraceFrom(ctx).Notef("profile %s refused tools (HTTP %d): asked again in text", c.profile, se.status)
		return true
	case *format && req.Format.Type != nadine.FormatText && se.rejectsFormat():
		*format = false
		c.noFormat.Store(true)
		c.log.Info("openai: server rejected response_format; the profile asks for JSON in the prompt only from now on", "profile", c.profile, "model", c.model, "error", se.message)
		nadine.TraceFrom(ctx).Notef("profile %s refused response_format (HTTP %d): asked again in text", c.profile, se.status)
		return true
	}
	return false
}

// textToolMessages turns tool calls into text for a request without tools,
// since servers refuse tool messages without them.
func textToolMessages(msgs []nadine.ChatMessage) []nadine.ChatMessage {
	out := make([]nadine.ChatMessage, len(msgs))
	for i, m := range msgs {
		switch {
		case m.Role == nadine.RoleAssistant && len(m.ToolCalls) > 0:
			var b strings.Builder
			b.WriteString(m.Content)
			for _, tc := range m.ToolCalls {
				if b.Len() > 0 {
					b.WriteString("\n")
				}
				b.WriteString(`{"action": "` + tc.Name + `", "action_input": ` + orEmptyObject(tc.Arguments) + `}`)
			}
			m.Content, m.ToolCalls = b.String(), nil
		case m.Role == nadine.RoleTool:
			m.Role, m.ToolCallID = nadine.RoleUser, ""
		}
		out[i] = m
	}
	return out
}

func orEmptyObject(s string) string {
	if strings.TrimSpace(s) == "" {
		return "{}"
	}
	return s
}
