package openai_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/openai"
)

var stepSchema = json.RawMessage(`{"type":"object","properties":{"action":{"type":"string"}},"required":["action"],"additionalProperties":false}`)

// structuredRequest is a ReAct step that would like both a schema and
// tools, after one native tool round trip.
func structuredRequest() nadine.ChatRequest {
	return nadine.ChatRequest{Role: "react_agent",
		Format: nadine.ResponseFormat{Type: nadine.FormatJSONSchema, Name: "react_step", Schema: stepSchema, Strict: true},
		Tools:  []nadine.ToolSpec{{Name: "Weather App", Description: "weather"}},
		Messages: []nadine.ChatMessage{
			{Role: nadine.RoleSystem, Content: "You are Nadine."},
			{Role: nadine.RoleUser, Content: "Weather in Geneva?"},
			{Role: nadine.RoleAssistant, ToolCalls: []nadine.ToolCall{{ID: "call_1", Name: "Weather App", Arguments: `{"input":"Geneva"}`}}},
			{Role: nadine.RoleTool, ToolCallID: "call_1", Content: "12 degrees"},
		}}
}

// TestStructuredModes: what each mode puts on the wire for the same
// request, and what auto means per server.
func TestStructuredModes(t *testing.T) {
	tests := []struct {
		mode       nadine.StructuredMode
		format     string
		tools      bool
		toolRole   bool // the tool round trip went as tool_calls and a tool message
		effective  nadine.StructuredMode
		baseURLSet bool
	}{
		{nadine.StructuredText, "", false, false, nadine.StructuredText, false},
		{nadine.StructuredJSONSchema, "json_schema", false, false, nadine.StructuredJSONSchema, false},
		{nadine.StructuredTools, "json_schema", true, true, nadine.StructuredTools, false},
		{nadine.StructuredAuto, "json_schema", false, false, nadine.StructuredJSONSchema, false}, // a local server
		{"", "json_schema", false, false, nadine.StructuredJSONSchema, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.mode), func(t *testing.T) {
			srv := llmtest.New(t)
			srv.Default().Reply(`{"action": "Final Answer"}`)
			c := newClient(t, srv, func(c *openai.Config) { c.Structured = tt.mode })
			if got := c.StructuredMode(); got != tt.effective {
				t.Errorf("StructuredMode = %q, want %q", got, tt.effective)
			}
			if _, err := c.ChatStream(context.Background(), structuredRequest(), nil); err != nil {
				t.Fatal(err)
			}
			r, _ := srv.LastChat()
			if r.ResponseFormat != tt.format || (tt.format != "" && (!r.Strict || r.SchemaName != "react_step" || string(r.Schema) != string(stepSchema))) {
				t.Errorf("response_format %q (strict %v, name %q), want %q", r.ResponseFormat, r.Strict, r.SchemaName, tt.format)
			}
			if got := len(r.Tools) > 0; got != tt.tools {
				t.Errorf("tools sent = %v, want %v", got, tt.tools)
			}
			hasToolRole := false
			for _, m := range r.Messages {
				hasToolRole = hasToolRole || m.Role == "tool" || len(m.ToolCalls) > 0
			}
			if hasToolRole != tt.toolRole {
				t.Errorf("tool messages on the wire = %v, want %v: %+v", hasToolRole, tt.toolRole, r.Messages)
			}
			if !tt.toolRole && !strings.Contains(r.Messages[2].Content, `"action": "Weather App"`) {
				t.Errorf("the tool call was not kept as text: %+v", r.Messages[2])
			}
		})
	}
	c, err := openai.New(openai.Config{Model: "gpt-5.4-mini"})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.StructuredMode(); got != nadine.StructuredTools {
		t.Errorf("auto on api.openai.com = %q, want tools", got)
	}
	if _, err := openai.New(openai.Config{Model: "m", Structured: "yaml"}); nadine.ErrorCode(err) != nadine.EINVALID {
		t.Errorf("an unknown mode: %v, want EINVALID", err)
	}
}

// TestStructuredRefusalFallsBackToText: a server that refuses
// response_format or tools with HTTP 400, as real servers word it, is asked
// again at once without the field (one call, two attempts, no error), and
// the profile never sends it again.
func TestStructuredRefusalFallsBackToText(t *testing.T) {
	tests := []struct {
		name       string
		opt        llmtest.Option
		mode       nadine.StructuredMode
		after      nadine.StructuredMode
		wantFormat string // on the retry
		wantTools  bool
	}{
		{"openai format", llmtest.RejectFormat(llmtest.OpenAIFormatRefusal), nadine.StructuredJSONSchema, nadine.StructuredText, "", false},
		{"llama.cpp format", llmtest.RejectFormat(llmtest.LlamaCppFormatRefusal), nadine.StructuredJSONSchema, nadine.StructuredText, "", false},
		{"ollama tools", llmtest.RejectTools(llmtest.OllamaToolsRefusal), nadine.StructuredTools, nadine.StructuredJSONSchema, "json_schema", false},
		{"vllm tools", llmtest.RejectTools(llmtest.VLLMToolsRefusal), nadine.StructuredTools, nadine.StructuredJSONSchema, "json_schema", false},
		{"llama.cpp tools", llmtest.RejectTools(llmtest.LlamaCppToolsRefusal), nadine.StructuredTools, nadine.StructuredJSONSchema, "json_schema", false},
	}
	for _, tt := range tests {
		for _, stream := range []bool{false, true} {
			t.Run(tt.name+map[bool]string{false: "", true: " stream"}[stream], func(t *testing.T) {
				srv := llmtest.New(t, tt.opt)
				srv.Default().Reply(`{"action": "Final Answer"}`)
				c := newClient(t, srv, func(c *openai.Config) { c.Structured = tt.mode })
				ctx, tr := traced()
				var err error
				if stream {
					_, err = c.ChatStream(ctx, structuredRequest(), nil)
				} else {
					_, err = c.Chat(ctx, structuredRequest())
				}
				if err != nil {
					t.Fatalf("the refusal cost the call: %v", err)
				}
				if call := onlyCall(t, tr); call.Attempts != 2 {
					t.Errorf("attempts = %d, want 2 (the refused one, then text)", call.Attempts)
				}
				if d := tr.Snapshot(); len(d.Notes) != 1 || !strings.Contains(d.Notes[0], "asked again in text") {
					t.Errorf("trace notes %q, want the fallback", d.Notes)
				}
				if got := c.StructuredMode(); got != tt.after {
					t.Errorf("StructuredMode after = %q, want %q", got, tt.after)
				}
				if _, err := c.Chat(context.Background(), structuredRequest()); err != nil {
					t.Fatal(err)
				}
				rs := srv.ChatRequests()
				if len(rs) != 3 {
					t.Fatalf("%d requests, want 3 (refused, retried, next call at once)", len(rs))
				}
				for _, r := range rs[1:] {
					if r.ResponseFormat != tt.wantFormat || (len(r.Tools) > 0) != tt.wantTools {
						t.Errorf("after the refusal: format %q tools %v, want %q %v", r.ResponseFormat, r.Tools, tt.wantFormat, tt.wantTools)
					}
				}
			})
		}
	}
}

// TestToolsRefusalThenFormatRefusal: a server that refuses both loses both,
// one at a time, within one call.
func TestToolsRefusalThenFormatRefusal(t *testing.T) {
	srv := llmtest.New(t, llmtest.RejectTools(llmtest.VLLMToolsRefusal), llmtest.RejectFormat(llmtest.OpenAIFormatRefusal))
	srv.Default().Reply("Final Answer: Hello!")
	c := newClient(t, srv, func(c *openai.Config) { c.Structured = nadine.StructuredTools })
	resp, err := c.Chat(context.Background(), structuredRequest())
	if err != nil || resp.Content != "Final Answer: Hello!" {
		t.Fatalf("got %+v, %v", resp, err)
	}
	if n := len(srv.ChatRequests()); n != 3 || c.StructuredMode() != nadine.StructuredText {
		t.Errorf("%d requests, mode %q; want 3 and text", n, c.StructuredMode())
	}
}

// TestOtherBadRequestsAreNotFallbacks: a 400 about something else is an
// error, and the mode stays.
func TestOtherBadRequestsAreNotFallbacks(t *testing.T) {
	srv := llmtest.New(t)
	srv.On(nil).Fail(400).Message("This model's maximum context length is 8192 tokens.")
	c := newClient(t, srv, nil)
	_, err := c.Chat(context.Background(), structuredRequest())
	wantCode(t, err, nadine.EINVALID)
	if c.StructuredMode() != nadine.StructuredTools || len(srv.ChatRequests()) != 1 {
		t.Errorf("mode %q after %d requests, want tools after 1", c.StructuredMode(), len(srv.ChatRequests()))
	}
}
