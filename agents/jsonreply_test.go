package agents

import "testing"

// TestJSONReply: the reply a response model wrote in JSON, in the forms a
// model gives it; a tool's call or a lone label holds none. Two members
// are read by what their names say: "antwort" names the reply (round
// gate13; before, two members under keys of another language gave none),
// "hallo" and "gefuehl" name none.
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
		{`{"hallo": "Hallo du!", "gefuehl": "Freude pur"}`, ""},
		{`{"antwort": "Hallo du!", "gefuehl": "Freude pur"}`, "Hallo du!"},
		{`{"reponse": "Je suis Nadine.", "source": "http://www.unige.ch"}`, "Je suis Nadine."},
		{"{\"thought\": \"Rule: no lists.\"}\n{\"reply\": \"I love talking with people.\"}", "I love talking with people."},
		{`{"thought": "Rule: no lists."}`, ""},
		{`["TIME: 10:05", "YOUR FEELINGS: calm", "I'm in a calm mood today."]`, "I'm in a calm mood today."},
		{`{"name": "speak", "arguments": {"text": "Hello, I'm Nadine.", "link": "https://miralab.ch"}}`, "Hello, I'm Nadine."},
		{`{"role": "system", "content": "You are Nadine."}` + "\n" + `{"role": "assistant", "content": "Hi! I'm Nadine."}`, "Hi! I'm Nadine."},
	}
	for _, tt := range tests {
		if got := jsonReply(tt.in); got != tt.want {
			t.Errorf("jsonReply(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
