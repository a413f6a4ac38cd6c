package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/llmtest"
	"github.com/nadine-robot/nadine/openai"
)

// realisticRequest is a ReAct-sized request: a long system prompt, 20
// history messages (including a tool round trip) and 6 tools.
func realisticRequest() nadine.ChatRequest {
	params := json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"what to look up"}},"required":["query"]}`)
	tools := make([]nadine.ToolSpec, 6)
	for i, name := range []string{"Search", "News", "Weather App", "Nadine behaviour", "Singing", "Languages Switcher"} {
		tools[i] = nadine.ToolSpec{Name: name, Description: "Use " + name + " when the human asks for it; the answer is an instruction to Nadine.", Parameters: params}
	}
	msgs := []nadine.ChatMessage{{Role: nadine.RoleSystem, Content: "You are Nadine, a social humanoid robot at NTU Singapore. " +
		"Answer briefly and warmly in the language of the latest input. Use the tools when they help. " +
		"Reply with a JSON object holding answer, emotion, emotion_intensity, category and causing_person."}}
	for i := 0; i < 18; i++ {
		role := nadine.RoleUser
		if i%2 == 1 {
			role = nadine.RoleAssistant
		}
		msgs = append(msgs, nadine.ChatMessage{Role: role, Name: "Alex", Content: fmt.Sprintf("Message %d of the conversation about robots, the weather in Singapore and the news of the day.", i)})
	}
	msgs = append(msgs,
		nadine.ChatMessage{Role: nadine.RoleAssistant, ToolCalls: []nadine.ToolCall{{ID: "call_1", Name: "Weather App", Arguments: `{"query":"Singapore"}`}}},
		nadine.ChatMessage{Role: nadine.RoleTool, ToolCallID: "call_1", Content: "Tell the human: 31 degrees and sunny in Singapore."},
	)
	return nadine.ChatRequest{Role: "react_agent", Messages: msgs, Tools: tools, Format: nadine.ResponseFormat{Type: nadine.FormatJSONObject}}
}

func BenchmarkChatRequestBuild(b *testing.B) {
	c, err := openai.New(openai.Config{Model: "bench", BaseURL: "http://localhost:1/v1", Structured: nadine.StructuredTools})
	if err != nil {
		b.Fatal(err)
	}
	req := realisticRequest()
	if n := len(req.Messages); n != 21 {
		b.Fatalf("request has %d messages", n)
	}
	b.ReportAllocs()
	for b.Loop() {
		body, err := openai.BuildChatBody(c, req)
		if err != nil || len(body) == 0 {
			b.Fatal(err)
		}
	}
}

func BenchmarkChatRoundTrip(b *testing.B) {
	srv := llmtest.New(b)
	srv.Default().ReplyJSON(map[string]any{"answer": "It is sunny in Singapore today.", "emotion": "joy", "emotion_intensity": 5})
	c := newClient(b, srv, nil)
	req := realisticRequest()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Chat(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
