package answer_test

import (
	"testing"

	"github.com/nadine-robot/nadine/answer"
)

// BenchmarkRead measures reading a ReAct final answer with a defect.
func BenchmarkRead(b *testing.B) {
	in := "Sure! ```json\n{'action': 'Final Answer', 'emotion': 'joy', 'emotion_intensity': 6, 'action_input': 'Hello Alex!\nIt is \"sunny\" in Geneva.', 'category': 'greeting', 'causing_person': 'human',}\n```"
	for b.Loop() {
		answer.Read(in)
	}
}
