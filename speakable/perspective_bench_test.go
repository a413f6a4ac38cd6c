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
