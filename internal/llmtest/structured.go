package llmtest

import (
	"fmt"
	"net/http"
)

// How real servers refuse structured outputs and tools, word for word, for
// RejectFormat and RejectTools.
const (
	// OpenAIFormatRefusal is OpenAI's answer to json_schema on a model
	// without structured outputs.
	OpenAIFormatRefusal = "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model."
	// LlamaCppFormatRefusal is llama.cpp's server when a grammar is set as
	// well.
	LlamaCppFormatRefusal = `Either "json_schema" or "grammar" can be specified, but not both`
	// OllamaToolsRefusal is Ollama with a model whose template has no tools.
	OllamaToolsRefusal = "registry.ollama.ai/library/gemma:2b does not support tools"
	// VLLMToolsRefusal is vLLM started without tool calling.
	VLLMToolsRefusal = `"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`
	// LlamaCppToolsRefusal is llama.cpp's server started without --jinja.
	LlamaCppToolsRefusal = "tools param requires --jinja flag"
	// toolOrderRefusal is OpenAI's answer to a tool message that answers
	// no tool call of the assistant message before it.
	toolOrderRefusal = "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."
)

// RejectFormat answers HTTP 400 with message to any request with a response
// format, like a server or model without structured outputs.
func RejectFormat(message string) Option {
	return func(s *Server) { s.formatRefusal = message }
}

// RejectTools makes the server answer HTTP 400 with message to every
// request that offers tools, like a server or model without tool calling.
func RejectTools(message string) Option {
	return func(s *Server) { s.toolsRefusal = message }
}

// refuseStructured answers the refusals of RejectFormat, RejectTools and
// the tool messages that answer no call; it reports whether it answered.
func (s *Server) refuseStructured(w http.ResponseWriter, req Request) bool {
	if s.toolsRefusal != "" && len(req.Tools) > 0 {
		writeError(w, http.StatusBadRequest, s.toolsRefusal, "invalid_request_error", "", "")
		return true
	}
	if s.formatRefusal != "" && (req.ResponseFormat == "json_schema" || req.ResponseFormat == "json_object") {
		param := ""
		if containsFold(s.formatRefusal, "response_format") {
			param = "response_format"
		}
		writeError(w, http.StatusBadRequest, s.formatRefusal, "invalid_request_error", param, "")
		return true
	}
	if i, ok := unansweredToolMessage(req.Messages); !ok {
		writeError(w, http.StatusBadRequest, toolOrderRefusal, "invalid_request_error", fmt.Sprintf("messages.[%d].role", i), "")
		return true
	}
	return false
}

// unansweredToolMessage finds the first tool message that answers no call of
// the assistant message before it, which OpenAI refuses.
func unansweredToolMessage(msgs []Message) (int, bool) {
	var open map[string]bool // the ids of the last assistant message's calls
	for i, m := range msgs {
		switch m.Role {
		case "tool":
			if !open[m.ToolCallID] {
				return i, false
			}
		case "assistant":
			open = map[string]bool{}
			for _, tc := range m.ToolCalls {
				open[tc.ID] = true
			}
		default:
			open = nil
		}
	}
	return 0, true
}
