package agents

import "testing"

// TestJSONReply: the reply a response model wrote in JSON, in the forms a
// model gives it; a tool's call or a lone label holds none.
func TestJSONReply(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"reply": "Hello there!"}`, "Hello there!"},
		{"```json\n{\"action\": \"Final Answer\", \"action_input\": \"Hello, nice to meet you!\"}\n```", "Hello, nice to meet you!"},
		{`{"action": "Weather App", "action_input": "Geneva,CH"}`, ""},
		{`{"antwort": "Schön, Sie zu sehen!"}`, "Schön, Sie zu sehen!"},
		{`{"réponse": "Je suis Nadine."}`, "Je suis Nadine."},
		{`{"回答": "你好，很高兴认识你！"}`, "你好，很高兴认识你！"},
		{`{"role": "assistant"}`, ""},
		{"Action Input: {\"query\": \"Nadine robot\"}\nI'm a social robot.", ""},
		{`{"antwort": "Hallo du!", "gefuehl": "Freude pur"}`, ""},
	}
	for _, tt := range tests {
		if got := jsonReply(tt.in); got != tt.want {
			t.Errorf("jsonReply(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
