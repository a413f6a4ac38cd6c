package dialogue_test

import (
	"testing"

	"github.com/nadine-robot/nadine/dialogue"
)

// TestReadAnswerFormalRefusals checks the one-word formal refusals of
// French and German (round frde12) read as a no, and that they still give
// way to a question.
func TestReadAnswerFormalRefusals(t *testing.T) {
	for _, tc := range []struct {
		text string
		want dialogue.Answer
	}{
		{"Keinesfalls.", dialogue.AnswerNo},
		{"Keineswegs!", dialogue.AnswerNo},
		{"Mitnichten.", dialogue.AnswerNo},
		{"Nix da.", dialogue.AnswerNo},
		{"Aucunement.", dialogue.AnswerNo},
		{"Nullement, gardez tout.", dialogue.AnswerNo},
		{"nenni", dialogue.AnswerNo},
		{"Keinesfalls? Wieso fragen Sie?", dialogue.AnswerUnclear},
	} {
		if got := dialogue.ReadAnswer(tc.text); got != tc.want {
			t.Errorf("ReadAnswer(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
