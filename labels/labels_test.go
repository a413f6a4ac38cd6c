package labels_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/labels"
)

func TestKey(t *testing.T) {
	for in, want := range map[string]string{
		"Final Answer": "finalanswer", "final_answer": "finalanswer", "FINAL-ANSWER": "finalanswer",
		" action.input ": "actioninput", `"joy"`: "joy", "Élan": "élan",
	} {
		if got := labels.Key(in); got != want {
			t.Errorf("Key(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTable(t *testing.T) {
	tab := labels.NewTable([]string{"first_greeting", "continue_conversation"},
		map[string][]string{"first_greeting": {"greeting", "hello"}, "continue_conversation": {"other", "chat"}})
	tests := []struct {
		in         string
		lookup     string
		find       string
		lookupOK   bool
		findOK     bool
		skipLookup bool
	}{
		{in: "first_greeting", lookup: "first_greeting", lookupOK: true, find: "first_greeting", findOK: true},
		{in: "First Greeting", lookup: "first_greeting", lookupOK: true, find: "first_greeting", findOK: true},
		{in: "greeting", lookup: "first_greeting", lookupOK: true, find: "first_greeting", findOK: true},
		{in: "The intent of this message is first_greeting.", find: "first_greeting", findOK: true},
		{in: "It is chat, not a first greeting", find: "first_greeting", findOK: true},
		{in: "Intent: continue-conversation", find: "continue_conversation", findOK: true},
		{in: "order_pizza"},
	}
	for _, tt := range tests {
		got, ok := tab.Lookup(tt.in)
		if got != tt.lookup || ok != tt.lookupOK {
			t.Errorf("Lookup(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.lookup, tt.lookupOK)
		}
		got, ok = tab.Find(tt.in)
		if got != tt.find || ok != tt.findOK {
			t.Errorf("Find(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.find, tt.findOK)
		}
	}
}

func TestMatch(t *testing.T) {
	tools := []string{"Google Search", "Google News", "Weather App", "Nadine behaviour", "Sing a song", "Languages Switcher"}
	tests := map[string]string{
		"google_search": "Google Search", "GOOGLE NEWS": "Google News", "weather": "Weather App",
		"weather_app": "Weather App", "Nadine behavior": "Nadine behaviour", "behaviour": "Nadine behaviour",
		"sing": "Sing a song", "song": "Sing a song", "language switcher": "Languages Switcher", "google": "",
		"Launch Rocket": "", "": "",
	}
	for in, want := range tests {
		got, ok := labels.Match(in, tools)
		if got != want || ok != (want != "") {
			t.Errorf("Match(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestEmotionAndCategory(t *testing.T) {
	emotions := map[string]nadine.Emotion{
		"joy": nadine.Joy, "JOY": nadine.Joy, "Happy": nadine.Joy, "happiness": nadine.Joy, "neutral": nadine.Neutral,
		"angry": nadine.Anger, "surprised": nadine.Surprise, "none": nadine.Neutral, "fearful": nadine.Fear,
	}
	for in, want := range emotions {
		if got, ok := labels.Emotion(in); got != want || !ok {
			t.Errorf("Emotion(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if got, ok := labels.Emotion("purple"); ok {
		t.Errorf("Emotion(purple) = %q, want no emotion", got)
	}
	finds := map[string]nadine.Emotion{
		"The message makes Nadine feel happy, about 6 out of 10.": nadine.Joy,
		"Nadine would feel some sadness here.":                    nadine.Sadness,
		"I think anger, 7":                                        nadine.Anger,
	}
	for in, want := range finds {
		if got, ok := labels.FindEmotion(in); got != want || !ok {
			t.Errorf("FindEmotion(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if got, ok := labels.FindEmotion("The content of the message is a question."); ok {
		t.Errorf("FindEmotion found %q in a sentence with no emotion", got)
	}
	categories := map[string]nadine.Category{
		"greeting": nadine.CategoryGreeting, "Greeting": nadine.CategoryGreeting, "compliment": nadine.CategoryComplement,
		"information_request": nadine.CategoryInformation, "question": nadine.CategoryInformation,
		"small talk": nadine.CategoryOther, "goodbye": nadine.CategoryFarewell, "rude": nadine.CategoryInsult,
	}
	for in, want := range categories {
		if got, ok := labels.Category(in); got != want || !ok {
			t.Errorf("Category(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestCausingPerson(t *testing.T) {
	tests := []struct {
		in, user, want string
		ok             bool
	}{
		{"Alex", "Alex", "Alex", true},
		{"alex", "Alex", "Alex", true},
		{"SELF", "Alex", nadine.CausedBySelf, true},
		{"Nadine", "Alex", nadine.CausedBySelf, true},
		{"someone_else", "Alex", nadine.CausedBySomeoneElse, true},
		{"human", "Alex", nadine.CausedByHuman, true},
		{"the user", "Alex", "Alex", true},
		{"the user", "unknown", nadine.CausedByHuman, true},
		{"Sarah", "unknown", "Sarah", true},
		{"Bob", "Alex", "Bob", true},
		{"Jean-Pierre Dupont", "", "Jean-Pierre Dupont", true},
		{"", "Alex", "Alex", false},
		{"unknown", "", nadine.CausedByHuman, false},
		{"{\"name\": 1}", "", nadine.CausedByHuman, false},
		{"user42", "Alex", "Alex", false},
	}
	for _, tt := range tests {
		got, ok := labels.CausingPerson(tt.in, tt.user)
		if got != tt.want || ok != tt.ok {
			t.Errorf("CausingPerson(%q, %q) = %q, %v; want %q, %v", tt.in, tt.user, got, ok, tt.want, tt.ok)
		}
	}
}

func TestIntensity(t *testing.T) {
	tests := []struct {
		raw  string
		want int
		ok   bool
	}{
		{`7`, 7, true}, {`"7"`, 7, true}, {`6.5`, 7, true}, {`11`, 10, true}, {`-3`, 0, true}, {`0.7`, 7, true},
		{`"8/10"`, 8, true}, {`"3 out of 5"`, 6, true}, {`"70%"`, 7, true}, {`"high"`, 8, true}, {`"very high"`, 9, true},
		{`"seven"`, 7, true}, {`1`, 1, true}, {`"lots"`, 0, false}, {`null`, 0, false}, {`{}`, 0, false},
	}
	for _, tt := range tests {
		got, ok := labels.Intensity(json.RawMessage(tt.raw))
		if got != tt.want || ok != tt.ok {
			t.Errorf("Intensity(%s) = %d, %v; want %d, %v", tt.raw, got, ok, tt.want, tt.ok)
		}
	}
}

func TestExtractJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a": 1}`, `{"a": 1}`},
		{"Sure!\n```json\n{\"a\": 1}\n```\nDone.", `{"a": 1}`},
		{"<think>I could answer {\"b\": 2}.</think>\n{\"a\": 1}", `{"a": 1}`},
		{`Here you go: [{"a": 1}] and more`, `[{"a": 1}]`},
		{`{"a": 1, "b": [1, 2,],}`, `{"a": 1, "b": [1, 2]}`},
		{`{'action': 'Final Answer', 'ok': True}`, `{"action": "Final Answer", "ok": true}`},
		{`{smiles} then {"a": 1}`, `{"a": 1}`},
		{"no json", ""},
		{`{"cut": `, ""},
		{`{"reply": "Hello!", "cut": "x`, `{"reply": "Hello!"}`},
	}
	for _, tt := range tests {
		raw, ok := labels.ExtractJSON(tt.in)
		if compact(string(raw)) != compact(tt.want) || ok != (tt.want != "") {
			t.Errorf("ExtractJSON(%q) = %s, %v; want %s", tt.in, raw, ok, tt.want)
		}
	}
	if raw, ok := labels.ExtractCompleteJSON(`{"reply": "Hello!", "cut": "x`); ok {
		t.Errorf("ExtractCompleteJSON of a cut value = %s", raw)
	}
}

// compact removes the white space between JSON tokens.
func compact(s string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(s)) != nil {
		return s
	}
	return b.String()
}

func TestText(t *testing.T) {
	keys := []string{"reply", "text", "query"}
	tests := []struct{ raw, want string }{
		{`"Hello"`, "Hello"},
		{`{"reply": "Hello"}`, "Hello"},
		{`{"Reply": {"text": "Hello"}}`, "Hello"},
		{`{"city": "London", "country": "GB"}`, "London,GB"},
		{`{"location": "London,GB", "units": "metric"}`, "London,GB"},
		{`{"song": "Imagine"}`, "Imagine"},
		{`{"a": "x", "b": "y"}`, ""},
		{`["London", "GB"]`, "London,GB"},
		{`{"sentences": ["You talk with people by voice.", "I'm Nadine!"]}`, "You talk with people by voice. I'm Nadine!"},
		{`42`, "42"},
		{`"{\"reply\": \"Hi\"}"`, "Hi"},
		{`null`, ""},
	}
	for _, tt := range tests {
		if got := labels.Text(json.RawMessage(tt.raw), keys...); got != tt.want {
			t.Errorf("Text(%s) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

func TestAnswerText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"The user asked about Geneva.", "The user asked about Geneva."},
		{`{"summary": "They talked about Geneva."}`, "They talked about Geneva."},
		{"```\nBonjour\n```", "Bonjour"},
		{"<think>Summarize.</think>They talked.", "They talked."},
		{"```json\n{\"translation\": \"Bonjour\"}\n```", "Bonjour"},
	}
	for _, tt := range tests {
		if got := labels.AnswerText(tt.in, "summary", "translation"); got != tt.want {
			t.Errorf("AnswerText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestField(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`{"response": "Hello"}`, "Hello"},
		{`{"data": {"response": "Hello"}}`, ""},
		{`{"response": {"text": "Hello"}}`, "Hello"},
		{`{"role": "assistant", "content": null}`, ""},
		{`"Hello"`, "Hello"},
	}
	for _, tt := range tests {
		if got := labels.Field(json.RawMessage(tt.raw), "response", "text", "content"); got != tt.want {
			t.Errorf("Field(%s) = %q, want %q", tt.raw, got, tt.want)
		}
	}
	if got := labels.AnswerText(`{"role": "assistant", "content": null}`, "content"); got != "" {
		t.Errorf("AnswerText of a reply-less object = %q", got)
	}
}

func TestStrings(t *testing.T) {
	tests := []struct {
		raw  string
		want []string
	}{
		{`["skiing", "chess"]`, []string{"skiing", "chess"}},
		{`"skiing, chess and hiking"`, []string{"skiing", "chess and hiking"}},
		{`"none"`, nil},
		{`[]`, nil},
	}
	for _, tt := range tests {
		got := labels.Strings(json.RawMessage(tt.raw))
		if len(got) != len(tt.want) {
			t.Errorf("Strings(%s) = %q, want %q", tt.raw, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("Strings(%s) = %q, want %q", tt.raw, got, tt.want)
			}
		}
	}
}
