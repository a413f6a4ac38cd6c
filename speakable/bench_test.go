package speakable_test

import (
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/speakable"
)

// BenchmarkNew measures preparing a turn's prompts for the check (once
// per agent call, and per new prompt at the output).
func BenchmarkNew(b *testing.B) {
	p := reactPrompt(&testing.T{})
	for b.Loop() {
		speakable.New([]nadine.Prompt{p})
	}
}

// BenchmarkSentence measures the check of one reply sentence, which every
// sentence spoken waits for.
func BenchmarkSentence(b *testing.B) {
	c := speakable.New([]nadine.Prompt{reactPrompt(&testing.T{})})
	if err := speakable.WarmUp(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c.Sentence("It's a sunny day in Geneva, about 18 degrees, perfect for a walk by the lake.", nadine.English)
	}
}

// BenchmarkSentenceSecondPerson measures the check of a statement about
// the listener, which the classifier finds more likely backstage than not
// and the perspective then reads in the first person (two lexical vectors,
// compared with what Nadine says of herself and to visitors).
func BenchmarkSentenceSecondPerson(b *testing.B) {
	c := speakable.New([]nadine.Prompt{reactPrompt(&testing.T{})})
	if err := speakable.WarmUp(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c.Sentence("Tu reconnais les visages grâce à un réseau de neurones.", nadine.French)
	}
}
