package labels_test

import (
	"encoding/json"
	"testing"

	"github.com/nadine-robot/nadine/labels"
	"github.com/nadine-robot/nadine/spoken"
)

// FuzzExtractJSON: whatever the answer, what is found is one valid JSON
// value, and reading its fields and text never panics.
func FuzzExtractJSON(f *testing.F) {
	for _, s := range []string{
		`{"a": 1}`,
		"Sure!\n```json\n{\"action\": \"Final Answer\", \"action_input\": \"Hi\"}\n```\nDone.",
		"<think>I could answer {\"b\": 2}.</think>\n{\"a\": 1}",
		`Here you go: [{"agent": "search_agent", "message": "CERN"}] and more`,
		`{"a": 1, "b": [1, 2,],}`,
		`{'action': 'Final Answer', 'ok': True, 'none': None}`,
		`{"user_info": {"name": "Zoe", "hobbies": "skiing, chess"}}`,
		`{"cut": `,
		"no json at all",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		raw, ok := labels.ExtractJSON(answer)
		if !ok {
			return
		}
		if !json.Valid(raw) {
			t.Fatalf("ExtractJSON(%q) = %q: not valid JSON", answer, raw)
		}
		if fields, ok := labels.Fields(raw); ok {
			for _, v := range fields {
				_ = labels.Text(v, "text", "reply")
				_ = labels.Strings(v)
				_, _ = labels.Number(v)
			}
		}
		_ = labels.Text(raw, "text", "reply", "query")
		_ = labels.Field(raw, "text", "reply")
		_ = labels.AnswerText(answer, "text")
	})
}

// FuzzLabels: names, numbers and causing persons are read without panics
// and within their ranges.
func FuzzLabels(f *testing.F) {
	for _, s := range []string{"joy", "Happy", "final_answer", "Information Request", "7/10", "70%", "very high", "11",
		"Sarah", "the user", "SOMEONE_ELSE", "weather_app", "The intent of this message is first_greeting."} {
		f.Add(s, "Alex")
	}
	tools := []string{"Google Search", "Google News", "Weather App", "Nadine behaviour", "Sing a song", "Languages Switcher"}
	f.Fuzz(func(t *testing.T, s, user string) {
		if e, ok := labels.Emotion(s); ok && !e.Valid() {
			t.Fatalf("Emotion(%q) = %q", s, e)
		}
		if e, ok := labels.FindEmotion(s); ok && !e.Valid() {
			t.Fatalf("FindEmotion(%q) = %q", s, e)
		}
		if c, ok := labels.Category(s); ok && !c.Valid() {
			t.Fatalf("Category(%q) = %q", s, c)
		}
		if n, ok := labels.Intensity(json.RawMessage(`"` + jsonEscape(s) + `"`)); ok && (n < 0 || n > 10) {
			t.Fatalf("Intensity(%q) = %d", s, n)
		}
		if tool, ok := labels.Match(s, tools); ok && tool == "" {
			t.Fatalf("Match(%q) matched nothing", s)
		}
		if p, _ := labels.CausingPerson(s, user); p == "" {
			t.Fatalf("CausingPerson(%q, %q) is empty", s, user)
		}
		_ = spoken.Clean(s)
	})
}

func jsonEscape(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
