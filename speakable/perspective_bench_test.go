package speakable

import (
	"math"
	"testing"

	"github.com/nadine-robot/nadine"
)

// BenchmarkPersonaMargin measures reading one statement in the first
// person and comparing it with what Nadine says (the perspective alone).
func BenchmarkPersonaMargin(b *testing.B) {
	c, err := backstageModel()
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("references: self %d, visitor %d (French)", len(c.persona.self[nadine.French]), len(c.persona.visitor[nadine.French]))
	for b.Loop() {
		c.persona.told("Tu reconnais les visages grâce à un réseau de neurones.", nadine.French, math.Inf(-1))
	}
}

// BenchmarkAttributes measures weighing a statement about the listener by
// her attributes (a tokenization and a lookup per term).
func BenchmarkAttributes(b *testing.B) {
	c, err := backstageModel()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c.attrs.told("Tu reconnais les visages grâce à un réseau de neurones.", nadine.French)
	}
}
