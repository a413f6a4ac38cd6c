package offline

import (
	"testing"

	"github.com/nadine-robot/nadine/intents"
)

// BenchmarkTrain measures what the first engine of a process pays to train
// the classifier on the examples.
func BenchmarkTrain(b *testing.B) {
	s, err := Examples()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := intents.Train(s, trainOptions); err != nil {
			b.Fatal(err)
		}
	}
}

// TestExamplesTrain: the embedded examples parse, every slot has values,
// and every label is one the engine understands.
func TestExamplesTrain(t *testing.T) {
	s, err := Examples()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range s.Labels() {
		if _, ok := parseLabel(l); !ok && l != "share" {
			t.Errorf("label %q of the examples is no intent", l)
		}
	}
	for _, lang := range []string{"en", "fr", "de", "zh"} {
		n := 0
		for _, ex := range s.Examples {
			if string(ex.Lang) == lang {
				n++
			}
		}
		if n < 1000 {
			t.Errorf("%s: %d examples", lang, n)
		}
	}
	if m, err := trainedModel(); err != nil || len(m.Labels()) != len(s.Labels()) {
		t.Errorf("trained model: %v", err)
	}
}
