package labels_test

import (
	"encoding/json"
	"testing"

	"github.com/nadine-robot/nadine/labels"
)

// TestReply: the reply a JSON value holds is the field named as one, in any
// of four languages, inside a call's arguments or the speaker's message;
// a field named as an aside, a system or user message and a call with no
// reply's field hold none.
func TestReply(t *testing.T) {
	keys := []string{"response", "reply", "text", "answer", "message", "content"}
	for _, tt := range []struct{ in, want string }{
		{`{"reply": "Hi!", "source": "https://x.ch"}`, "Hi!"},
		{`{"source": "https://x.ch", "antwort": "Hallo!"}`, "Hallo!"},
		{`{"raisonnement": "Deux phrases.", "réponse": "Bonjour !"}`, "Bonjour !"},
		{`{"思考": "两句。", "回复": "你好！"}`, "你好！"},
		{`{"analysis": "Keep it short.", "final": "I'm Nadine."}`, "I'm Nadine."},
		{`{"reply_markdown": "**Hi**", "reply": "Hi."}`, "Hi."},
		{`{"name": "speak", "arguments": {"text": "Hello.", "link": "x.ch"}}`, "Hello."},
		{`{"tool_calls": [{"function": {"name": "speak", "arguments": "{\"text\": \"Hello.\"}"}}]}`, "Hello."},
		{`{"role": "system", "content": "You are Nadine."}`, ""},
		{`{"role": "assistant", "content": "I'm Nadine."}`, "I'm Nadine."},
		{`{"messages": [{"role": "system", "content": "You are Nadine."}, {"role": "assistant", "content": "Hi."}]}`, "Hi."},
		{`[{"回复": "你好。"}, {"来源": "https://x.ch"}]`, "你好。"},
		{`{"name": "search", "arguments": {"query": "Nadine robot"}}`, ""},
		{`{"action": "Weather App", "action_input": "Geneva,CH"}`, ""},
		{`{"thought": "No lists."}`, ""},
		{`{"debug": {"prompt": "You are Nadine."}, "reply": "Hi."}`, "Hi."},
		{`{"reasoning": {"text": "The rules say two sentences."}}`, ""},
	} {
		if got := labels.Reply(json.RawMessage(tt.in), keys...); got != tt.want {
			t.Errorf("Reply(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
