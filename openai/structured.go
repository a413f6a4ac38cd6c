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

// resolveStructured turns auto into the default of the server at host:
// tools on OpenAI's API (strict structured outputs and function calling
// on every current chat model), json_schema elsewhere (Ollama, vLLM and
// llama.cpp's server accept response_format with a JSON schema, while
// their tool calling depends on the model's template and the server's
// flags). docs/speech.md records what was checked.
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

// sends reports whether requests carry their response format and their
// tools.
func (c *Client) sends() (format, tools bool) {
	switch c.structured {
	case nadine.StructuredTools:
		return !c.noFormat.Load(), !c.noTools.Load()
	case nadine.StructuredJSONSchema:
		return !c.noFormat.Load(), false
	}
	return false, false
}

// rejectsFormat reports whether a server refused the response format: a
// 400 or 422 that names response_format or json_schema (llama.cpp:
// `Either "json_schema" or "grammar" can be specified, but not both`;
// OpenAI: "Invalid parameter: 'response_format' of type 'json_schema' is
// not supported with this model").
func (e *statusError) rejectsFormat() bool {
	if e.status != http.StatusBadRequest && e.status != http.StatusUnprocessableEntity {
		return false
	}
	return e.param == "response_format" || strings.Contains(e.raw, "response_format") || strings.Contains(e.raw, "json_schema")
}

// rejectsTools reports whether a server refused the tools: a 400 or 422
// that names them (Ollama: "model does not support tools"; vLLM: `"auto"
// tool choice requires --enable-auto-tool-choice and --tool-call-parser to
// be set`; llama.cpp: "tools param requires --jinja flag").
func (e *statusError) rejectsTools() bool {
	if e.status != http.StatusBadRequest && e.status != http.StatusUnprocessableEntity {
		return false
	}
	return e.param == "tools" || e.param == "tool_choice" || strings.Contains(e.raw, "tool")
}

// refused records that the server refused what was sent and says so in the
// log and the turn's trace. It reports whether the request changes (the
// field was sent).
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

// textToolMessages rewrites the tool calls of a conversation for a request
// that carries no tools (servers refuse tool messages without them): an
// assistant's calls become its text, a tool's result a user message.
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
