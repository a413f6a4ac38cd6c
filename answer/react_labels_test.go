package answer_test

import (
	"testing"

	"github.com/nadine-robot/nadine/answer"
)

// TestReActLabelsInFourLanguages: the format's action and input labels are
// read in the languages Nadine speaks, and "Question:" is one of its labels.
func TestReActLabelsInFourLanguages(t *testing.T) {
	for _, tt := range []struct{ in, action, input string }{
		{"Thought: short.\nAction: Final Answer\nAction Input: I'm Nadine.", "Final Answer", "I'm Nadine."},
		{"Gedanke: kurz.\nAktion: Final Answer\nAktionseingabe: Ich bin Nadine.", "Final Answer", "Ich bin Nadine."},
		{"思考：简短。\n行动：Final Answer\n行动输入：我是Nadine。", "Final Answer", "我是Nadine。"},
		{"Pensée : court.\nAction : Final Answer\nEntrée de l'action : Je suis Nadine.", "Final Answer", "Je suis Nadine."},
	} {
		st, ok := answer.ReAct(tt.in)
		if !ok || st.Action != tt.action || st.Input != tt.input {
			t.Errorf("ReAct(%q) = %+v, %v; want action %q input %q", tt.in, st, ok, tt.action, tt.input)
		}
	}
	for _, in := range []string{"Question: who are you?", "Frage: Wer bist du?", "问题：你是谁？", "Aktion: suchen"} {
		if label, _, ok := answer.FormatLabel(in); !ok || answer.IsFinalLabel(label) {
			t.Errorf("FormatLabel(%q) = %q, %v; want a label that is not the final answer's", in, label, ok)
		}
	}
}
