package react

import (
	"strings"
	"testing"
)

// TestCleanRewrite reads contextualizer answers as models write them.
func TestCleanRewrite(t *testing.T) {
	const input = "What else is there to see?"
	tests := []struct{ answer, want string }{
		{"What else is there to see in Geneva?", "What else is there to see in Geneva?"},
		{"  What else is there to see in Geneva?\n", "What else is there to see in Geneva?"},
		{`"What else is there to see in Geneva?"`, "What else is there to see in Geneva?"},
		{"“What else is there to see in Geneva?”", "What else is there to see in Geneva?"},
		{"Standalone question: What else is there to see in Geneva?", "What else is there to see in Geneva?"},
		{"**Standalone question:** What else is there to see in Geneva?", "What else is there to see in Geneva?"},
		{"Rewritten question: \"What else is there to see in Geneva?\"", "What else is there to see in Geneva?"},
		{"Question autonome : Qu'y a-t-il d'autre à voir à Genève ?", "Qu'y a-t-il d'autre à voir à Genève ?"},
		{"Frage: Was gibt es in Genf sonst noch zu sehen?", "Was gibt es in Genf sonst noch zu sehen?"},
		{"What else is there to see in Geneva?\n\n(I added the city from the chat history.)", "What else is there to see in Geneva?"},
		{"```\nWhat else is there to see in Geneva?\n```", "What else is there to see in Geneva?"},
		{"<think>The user talks about Geneva.</think>\nWhat else is there to see in Geneva?", "What else is there to see in Geneva?"},
		// The input returned as it was, give or take case and punctuation.
		{"What else is there to see?", input},
		{"what else is there to see", input},
		{"\"What else is there to see?\"", input},
		{"Standalone question: What else is there to see?", input},
		// Nothing.
		{"", ""},
		{"   \n ", ""},
		{"Standalone question:", ""},
		{"```\n```", ""},
	}
	for _, tt := range tests {
		if got := cleanRewrite(tt.answer, input); got != tt.want {
			t.Errorf("cleanRewrite(%q) = %q, want %q", tt.answer, got, tt.want)
		}
	}
}

// FuzzCleanRewrite: any answer gives one line or nothing, and the input
// itself whenever its words are the input's.
func FuzzCleanRewrite(f *testing.F) {
	for _, s := range []string{"What else is there to see in Geneva?", "Standalone question: \"Is Geneva a good place to live?\"",
		"<think>x</think>\nAnd tomorrow?", "```json\n{\"question\": \"x\"}\n```", "Frage: Und morgen?", "«Et demain ?»", "**", "\n\n", ""} {
		f.Add(s, "And tomorrow?")
	}
	f.Fuzz(func(t *testing.T, answer, input string) {
		got := cleanRewrite(answer, input)
		if strings.Contains(got, "\n") && got != input {
			t.Fatalf("cleanRewrite(%q) = %q: more than one line", answer, got)
		}
		if got != "" && got != input && wordKey(got) == wordKey(input) {
			t.Fatalf("cleanRewrite(%q, %q) = %q: the input's words, not the input", answer, input, got)
		}
	})
}
