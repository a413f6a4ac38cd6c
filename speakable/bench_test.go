package speakable_test

import (
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/speakable"
	"github.com/nadine-robot/nadine/spoken"
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
// sentence spoken waits for, by a turn's own checker (from the cache, as
// engines make it), which decides a sentence once.
func BenchmarkSentence(b *testing.B) {
	var k speakable.Cache
	ps := []nadine.Prompt{reactPrompt(&testing.T{})}
	if err := speakable.WarmUp(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		k.New(ps).Sentence("It's a sunny day in Geneva, about 18 degrees, perfect for a walk by the lake.", nadine.English)
	}
}

// BenchmarkStream measures a reply of four sentences streamed a word at a
// time, each sentence checked and confirmed by the reading of the reply so
// far (agents' response role); BenchmarkStreamAlone the same stream without
// that reading, as before stop 48.
func BenchmarkStream(b *testing.B) { benchmarkStream(b, true) }

func BenchmarkStreamAlone(b *testing.B) { benchmarkStream(b, false) }

func benchmarkStream(b *testing.B, whole bool) {
	var k speakable.Cache
	ps := []nadine.Prompt{reactPrompt(&testing.T{})}
	if err := speakable.WarmUp(); err != nil {
		b.Fatal(err)
	}
	reply := strings.Fields("Hello Robin, lovely to see you again! My favourite room is the motion capture studio. " +
		"The lake is beautiful in the morning. Would you like to hear about my creators?")
	for b.Loop() {
		c := k.New(ps)
		s := spoken.Stream{Check: c.Check(nadine.English)}
		if whole {
			s.Whole = c.Whole(nadine.English)
		}
		n := 0
		for _, w := range reply {
			n += len(s.Write(w + " "))
		}
		if n += len(s.Flush()); n != 4 {
			b.Fatalf("said %d sentences, want 4", n)
		}
	}
}

// BenchmarkSentenceSecondPerson measures the check of a statement about
// the listener, which the classifier finds more likely backstage than not
// and the perspective then reads in the first person (two lexical vectors,
// compared with what Nadine says of herself and to visitors).
func BenchmarkSentenceSecondPerson(b *testing.B) {
	var k speakable.Cache
	ps := []nadine.Prompt{reactPrompt(&testing.T{})}
	if err := speakable.WarmUp(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		k.New(ps).Sentence("Tu reconnais les visages grâce à un réseau de neurones.", nadine.French)
	}
}
