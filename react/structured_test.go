package react_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/openai"
	"github.com/nadine-robot/nadine/react"
)

// structuredFixture is a ReAct engine whose agent runs in a structured
// mode on its own scripted server (with its options), over the real
// OpenAI client, with the weather and behaviour tools.
func structuredFixture(t *testing.T, mode nadine.StructuredMode, opts ...llmtest.Option) (*fixture, *openai.Client) {
	t.Helper()
	srv := llmtest.New(t, opts...)
	agent, err := openai.New(openai.Config{Profile: "default", BaseURL: srv.URL(), Model: "agent-model", Timeout: 5 * time.Second,
		Structured: mode})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, func(o *react.Options) { o.Agent, o.Contextualizer, o.Embedder = agent, nil, nil })
	f.srv = srv
	return f, agent
}

// schemaActions is the action enum of the schema a request carried,
// checked strict with every member required.
func schemaActions(t *testing.T, r llmtest.Request) []string {
	t.Helper()
	var s struct {
		Properties struct {
			Action struct {
				Enum []string `json:"enum"`
			} `json:"action"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(r.Schema, &s); err != nil {
		t.Fatalf("schema %s: %v", r.Schema, err)
	}
	if len(s.Required) != 6 || !r.Strict {
		t.Errorf("schema not strict with every member required: %s", r.Schema)
	}
	return s.Properties.Action.Enum
}

// TestNativeToolCalling: in tools mode the agent's requests carry the
// tools and the final answer's schema; a tool call streamed as tool_calls
// deltas runs the tool, whose result goes back as a tool message; the
// final answer in the schema is spoken.
func TestNativeToolCalling(t *testing.T) {
	f, _ := structuredFixture(t, nadine.StructuredTools)
	f.srv.On(llmtest.MatchToolResult("12 degrees")).Reply(answer("joy", 4, "It is 12 degrees and rainy in Geneva.", "information request", "Alex"))
	f.srv.On(llmtest.MatchModel("agent-model")).Once().ReplyToolCall("Weather App", `{"input": "Geneva,CH"}`)
	r, ev, tr := f.respond(t, "What is the weather in Geneva?", nil)
	if r.Text != "It is 12 degrees and rainy in Geneva." || r.Emotion != nadine.Joy {
		t.Errorf("reply %+v (notes %q, failures %+v)", r, tr.Snapshot().Notes, tr.Snapshot().Failures)
	}
	if got := f.tools[0].inputs; len(got) != 1 || got[0] != "Geneva,CH" {
		t.Errorf("weather inputs %q", got)
	}
	if sp := ev.kinds(nadine.EventSpeech); len(sp) != 1 {
		t.Errorf("speech %+v", sp)
	}
	reqs := f.srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	first, second := reqs[0], reqs[1]
	if !first.Stream || !first.HasTool("Weather_App") || !first.HasTool("Nadine_behaviour") || first.ResponseFormat != "json_schema" {
		t.Errorf("first request: stream %v tools %v format %q", first.Stream, first.Tools, first.ResponseFormat)
	}
	if got := schemaActions(t, first); len(got) != 1 || got[0] != "Final Answer" {
		t.Errorf("the final answer's schema allows actions %v", got)
	}
	if !strings.Contains(first.LastUser(), "Option 1: to use a tool, call it with its input.") {
		t.Error("the prompt asks for tool calls in text in tools mode")
	}
	msgs := second.Messages
	asked, result := msgs[len(msgs)-2], msgs[len(msgs)-1]
	if len(asked.ToolCalls) != 1 || asked.ToolCalls[0].Name != "Weather_App" || result.Role != "tool" ||
		result.ToolCallID != asked.ToolCalls[0].ID || !strings.Contains(result.Content, "TOOL RESULT (Weather App)") {
		t.Errorf("the tool round trip went as %+v then %+v", asked, result)
	}
}

// TestSchemaMode: in json_schema mode the agent's requests carry the
// step's schema (the tools' names among its actions) and no tools.
func TestSchemaMode(t *testing.T) {
	f, _ := structuredFixture(t, nadine.StructuredJSONSchema)
	f.srv.On(llmtest.MatchModel("agent-model")).Reply(answer("joy", 5, "Hello Alex!", "greeting", "Alex"))
	if r, _, _ := f.respond(t, "Hello!", nil); r.Text != "Hello Alex!" {
		t.Errorf("reply %q", r.Text)
	}
	req, _ := f.srv.LastChat()
	if len(req.Tools) != 0 || req.ResponseFormat != "json_schema" {
		t.Errorf("tools %v, format %q", req.Tools, req.ResponseFormat)
	}
	got := schemaActions(t, req)
	if len(got) != 3 || got[0] != "Final Answer" || got[1] != "Weather App" {
		t.Errorf("actions %v, want the final answer and the tools", got)
	}
	if !strings.Contains(req.LastUser(), `{"action": "<one of: Weather App, Nadine behaviour>"`) {
		t.Error("the text format is not in the prompt")
	}
}

// TestFormatRefusedKeepsTheTurn: a server that refuses response_format
// with HTTP 400 answers the same turn in text, and the profile asks in
// text from then on.
func TestFormatRefusedKeepsTheTurn(t *testing.T) {
	f, agent := structuredFixture(t, nadine.StructuredJSONSchema, llmtest.RejectFormat(llmtest.LlamaCppFormatRefusal))
	f.srv.On(llmtest.MatchModel("agent-model")).Reply(answer("joy", 5, "Hello Alex!", "greeting", "Alex"))
	r, _, tr := f.respond(t, "Hello!", nil)
	if r.Text != "Hello Alex!" {
		t.Fatalf("reply %q (failures %+v)", r.Text, tr.Snapshot().Failures)
	}
	reqs := f.srv.ChatRequests()
	if len(reqs) != 2 || reqs[0].ResponseFormat != "json_schema" || reqs[1].ResponseFormat != "" {
		t.Errorf("%d requests, want the refused one then one in text", len(reqs))
	}
	if agent.StructuredMode() != nadine.StructuredText {
		t.Errorf("mode after the refusal: %s", agent.StructuredMode())
	}
	f.respond(t, "Hello again!", nil)
	if reqs := f.srv.ChatRequests(); len(reqs) != 3 || reqs[2].ResponseFormat != "" {
		t.Error("the next turn asked for the schema again")
	}
}

// TestToolsRefusedFallsBackToText: a server without tool calling (vLLM
// started without it) is asked the same turn without tools; the next turn
// renders the text format.
func TestToolsRefusedFallsBackToText(t *testing.T) {
	f, agent := structuredFixture(t, nadine.StructuredTools, llmtest.RejectTools(llmtest.VLLMToolsRefusal))
	f.srv.On(llmtest.MatchModel("agent-model")).Reply(answer("joy", 5, "Hello Alex!", "greeting", "Alex"))
	if r, _, _ := f.respond(t, "Hello!", nil); r.Text != "Hello Alex!" {
		t.Fatalf("reply %q", r.Text)
	}
	if agent.StructuredMode() != nadine.StructuredJSONSchema {
		t.Errorf("mode after the refusal: %s", agent.StructuredMode())
	}
	f.respond(t, "Hello again!", nil)
	last, _ := f.srv.LastChat()
	if len(last.Tools) != 0 || !strings.Contains(last.LastUser(), `{"action": "<one of: Weather App, Nadine behaviour>"`) {
		t.Error("the next turn still offers native tools")
	}
}

// TestToolLoopGuard: a model that asks for the same call again and again
// (natively or in text) gets it run once; the next request offers no tool
// and asks for the final answer, which is spoken.
func TestToolLoopGuard(t *testing.T) {
	for _, mode := range []nadine.StructuredMode{nadine.StructuredTools, nadine.StructuredJSONSchema} {
		t.Run(string(mode), func(t *testing.T) {
			f, _ := structuredFixture(t, mode)
			if mode == nadine.StructuredTools {
				f.srv.On(func(r llmtest.Request) bool { return len(r.Tools) > 0 }).ReplyToolCall("Nadine_behaviour", `{"input": "smile"}`)
			} else {
				f.srv.On(func(r llmtest.Request) bool { return len(schemaEnum(r)) > 1 }).Reply(`{"action": "Nadine behaviour", "action_input": "smile"}`)
			}
			f.srv.Default().Reply(answer("joy", 6, "I am smiling for you.", "other", "Alex"))
			r, _, tr := f.respond(t, "Smile please!", nil)
			if r.Text != "I am smiling for you." {
				t.Errorf("reply %q (notes %q)", r.Text, tr.Snapshot().Notes)
			}
			if got := f.tools[1].inputs; len(got) != 1 {
				t.Errorf("the behaviour tool ran %d times, want once", len(got))
			}
			if n := len(f.srv.ChatRequests()); n != 3 {
				t.Errorf("%d agent calls, want 3 (the call, the same call again, the answer)", n)
			}
			last, _ := f.srv.LastChat()
			if len(last.Tools) != 0 || len(schemaEnum(last)) != 1 {
				t.Errorf("the last request still allows tools: %v, %v", last.Tools, schemaEnum(last))
			}
		})
	}
}

// TestToolCallCap: after MaxToolCalls different calls the agent answers
// with what it has.
func TestToolCallCap(t *testing.T) {
	f, _ := structuredFixture(t, nadine.StructuredJSONSchema)
	n := 0
	f.srv.On(func(r llmtest.Request) bool { return len(schemaEnum(r)) > 1 }).ReplyFunc(func(llmtest.Request) string {
		n++ // matchers and replies run under the server's lock
		return `{"action": "Weather App", "action_input": "City` + string(rune('A'+n)) + `"}`
	})
	f.srv.Default().Reply(answer("joy", 4, "It rains everywhere today.", "information request", "Alex"))
	r, _, _ := f.respond(t, "Weather everywhere?", nil)
	if r.Text != "It rains everywhere today." {
		t.Errorf("reply %q", r.Text)
	}
	if got := len(f.tools[0].inputs); got != 4 {
		t.Errorf("%d weather calls, want 4 (the default cap)", got)
	}
}

func schemaEnum(r llmtest.Request) []string {
	var s struct {
		Properties struct {
			Action struct {
				Enum []string `json:"enum"`
			} `json:"action"`
		} `json:"properties"`
	}
	_ = json.Unmarshal(r.Schema, &s)
	return s.Properties.Action.Enum
}
