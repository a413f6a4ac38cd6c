package llmtest_test

import (
	"context"
	"testing"

	"github.com/nadine-robot/nadine/internal/llmtest"
)

// TestRejectStructured: the refusals of servers without structured outputs
// or tool calling are HTTP 400 in OpenAI's error format, and a request
// without the field goes through.
func TestRejectStructured(t *testing.T) {
	withFormat := chat("hi")
	withFormat["response_format"] = map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "x", "strict": true, "schema": map[string]any{"type": "object"}}}
	withTools := chat("hi")
	withTools["tools"] = []any{map[string]any{"type": "function", "function": map[string]any{"name": "f", "parameters": map[string]any{"type": "object"}}}}
	tests := []struct {
		name    string
		opt     llmtest.Option
		refused map[string]any
		param   string
		message string
	}{
		{"openai format", llmtest.RejectFormat(llmtest.OpenAIFormatRefusal), withFormat, "response_format", llmtest.OpenAIFormatRefusal},
		{"llama.cpp format", llmtest.RejectFormat(llmtest.LlamaCppFormatRefusal), withFormat, "", llmtest.LlamaCppFormatRefusal},
		{"vllm tools", llmtest.RejectTools(llmtest.VLLMToolsRefusal), withTools, "", llmtest.VLLMToolsRefusal},
	}
	for _, tt := range tests {
		srv := llmtest.New(t, tt.opt)
		srv.Default().Reply("ok")
		status, b, _ := post(t, context.Background(), srv.URL()+"/chat/completions", tt.refused, "")
		e := decode[apiError](t, b)
		param := ""
		if e.Error.Param != nil {
			param = *e.Error.Param
		}
		if status != 400 || e.Error.Message != tt.message || param != tt.param {
			t.Errorf("%s: got %d %s, want 400 %q (param %q)", tt.name, status, b, tt.message, tt.param)
		}
		if status, _, _ := post(t, context.Background(), srv.URL()+"/chat/completions", chat("hi"), ""); status != 200 {
			t.Errorf("%s: without the field: status %d, want 200", tt.name, status)
		}
	}
}

// TestToolMessagesAnswerCalls: as on OpenAI, a tool message must answer a
// call of the assistant message before it.
func TestToolMessagesAnswerCalls(t *testing.T) {
	srv := llmtest.New(t)
	srv.Default().Reply("ok")
	call := map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "call_1", "type": "function",
		"function": map[string]any{"name": "f", "arguments": "{}"}}}}
	tool := func(id string) map[string]any {
		return map[string]any{"role": "tool", "tool_call_id": id, "content": "done"}
	}
	user := map[string]any{"role": "user", "content": "hi"}
	tests := []struct {
		name string
		msgs []any
		ok   bool
	}{
		{"answered", []any{user, call, tool("call_1")}, true},
		{"unknown id", []any{user, call, tool("call_9")}, false},
		{"no call before", []any{user, tool("call_1")}, false},
		{"a user message between", []any{user, call, user, tool("call_1")}, false},
	}
	for _, tt := range tests {
		body := map[string]any{"model": "m1", "messages": tt.msgs}
		status, b, _ := post(t, context.Background(), srv.URL()+"/chat/completions", body, "")
		if (status == 200) != tt.ok {
			t.Errorf("%s: status %d %s, want ok=%v", tt.name, status, b, tt.ok)
		}
	}
}
