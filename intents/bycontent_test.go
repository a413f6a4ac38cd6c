package intents

import (
	"math"
	"slices"
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestByContentDrawsStayPut checks that with ByContent an example's variants
// are the same wherever it sits in the set, and that an example added of
// another language moves a reading by little; by index, the variants of every
// example after the new one are drawn anew.
func TestByContentDrawsStayPut(t *testing.T) {
	base := tinySet(t)
	more := &Set{Values: base.Values, Examples: slices.Insert(slices.Clone(base.Examples), 0,
		Example{Label: "greet", Lang: nadine.French, Text: "coucou tout le monde", Line: 1})}
	variants := func(s *Set, i int, byContent bool) []string {
		var out []string
		for _, in := range s.expand(i, 3, 0.5, byContent) {
			w := in.text
			for _, tok := range in.toks {
				if tok.Hidden {
					w += " -" + tok.Norm
				}
			}
			out = append(out, w)
		}
		return out
	}
	movedByIndex := 0
	for i := range base.Examples {
		if a, b := variants(base, i, true), variants(more, i+1, true); !slices.Equal(a, b) {
			t.Errorf("example %d by content: %q, one place later %q", i, a, b)
		}
		if !slices.Equal(variants(base, i, false), variants(more, i+1, false)) {
			movedByIndex++
		}
	}
	if movedByIndex == 0 {
		t.Error("by index, no example's variants moved: the test shows nothing")
	}
	m1, err := Train(base, Options{ByContent: true})
	if err != nil {
		t.Fatal(err)
	}
	m2, err := Train(more, Options{ByContent: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"what's the time", "my name is Zoltan", "hello there"} {
		a, b := m1.Classify(text), m2.Classify(text)
		for _, s := range a.Labels {
			if d := math.Abs(s.Prob - b.Prob(s.Label)); d > 0.05 {
				t.Errorf("%q: %s %.3f, with a French greeting more %.3f", text, s.Label, s.Prob, b.Prob(s.Label))
			}
		}
	}
}
