package labels_test

import (
	"testing"

	"github.com/nadine-robot/nadine/labels"
)

// TestConclusion: a label is read as the model's conclusion.
func TestConclusion(t *testing.T) {
	table := labels.NewTable([]string{"first_greeting", "end_conversation", "continue_conversation"},
		map[string][]string{"first_greeting": {"greeting", "hello"}, "end_conversation": {"goodbye", "farewell"}, "continue_conversation": {"chat"}})
	tests := map[string]string{
		"first_greeting":           "first_greeting",
		"`END-CONVERSATION`.":      "end_conversation",
		"Intent: end_conversation": "end_conversation",
		"continue_conversation, because they ask a question, not a greeting.":             "continue_conversation",
		"It looks like a greeting, but they know each other: continue_conversation":       "continue_conversation",
		"first_greeting? No. The person says goodbye, so the answer is end_conversation.": "end_conversation",
		"They say hi.\n\nLabel: first_greeting\nReason: it is a greeting, not a chat":     "first_greeting",
		"It is not end_conversation here; they keep talking.":                             "",
		"This is a farewell.": "end_conversation",
		"Nothing to say.":     "",
	}
	for in, want := range tests {
		got, ok := table.Conclusion(in)
		if got != want || ok != (want != "") {
			t.Errorf("Conclusion(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// TestFindEmotionJoined: of emotions named together the first is meant;
// of emotions named in turn, the last.
func TestFindEmotionJoined(t *testing.T) {
	tests := map[string]string{
		"I feel joy and some surprise":                      "joy",
		"At first sadness, but mostly anger.":               "anger",
		"Not angry at all, rather happy.":                   "joy",
		"The insult makes Nadine angry; she is not afraid.": "anger",
	}
	for in, want := range tests {
		if got, _ := labels.FindEmotion(in); string(got) != want {
			t.Errorf("FindEmotion(%q) = %q, want %q", in, got, want)
		}
	}
}
