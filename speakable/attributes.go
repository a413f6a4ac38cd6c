package speakable

import (
	"math"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// What only Nadine is (her creator, her year, a humanoid body, a camera for
// eyes) told to a listener is the persona told to her, in any wording: its
// terms are those she says of herself and never to a visitor, weighed by
// log-odds on the two corpora (docs/speech.md, "Her attributes told to the listener").

// attributes weighs each term by the log-odds of Nadine's first-person
// speech against her speech to a visitor in the second person.
type attributes struct {
	odds map[string]float64
}

// termStem is how many letters of a word a term keeps: "humanoid",
// "humanoïde" and "humanoider" are one term.
const termStem = 6

// minTermLetters: shorter words (pronouns, articles) are grammar, not an
// attribute.
const minTermLetters = 4

// minSelfExamples is how many of her first-person sentences must use a
// term before it marks anything: one sentence is a wording, not her.
const minSelfExamples = 2

// termsOf returns the distinct terms of s: its words folded and cut to
// termStem letters, and Chinese as character pairs.
func termsOf(s string) []string {
	toks := intents.Tokenize(s)
	seen := map[string]bool{}
	var out []string
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for i, tk := range toks {
		if tk.Han {
			if i+1 < len(toks) && toks[i+1].Han && toks[i+1].Clause == tk.Clause {
				add(tk.Norm + toks[i+1].Norm)
			}
			continue
		}
		w := []rune(tk.Norm)
		if len(w) < minTermLetters {
			continue
		}
		add(string(w[:min(len(w), termStem)]))
	}
	return out
}

// newAttributes counts in how many of her first-person and of her
// second-person speech examples each term occurs.
func newAttributes(examples []intents.Example) *attributes {
	self, visitor := map[string]float64{}, map[string]float64{}
	var nSelf, nVisitor float64
	for _, ex := range examples {
		if ex.Label != labelSpeech {
			continue
		}
		ts := termsOf(ex.Text)
		if _, second := swapPerson(ex.Text, ex.Lang); second {
			nVisitor++
			for _, t := range ts {
				visitor[t]++
			}
		}
		if anyOf(words(ex.Text), firstPerson) {
			nSelf++
			for _, t := range ts {
				self[t]++
			}
		}
	}
	const alpha = 0.5 // the prior: half an example on each side
	logit := func(k, n float64) float64 { return math.Log((k + alpha) / (n - k + alpha)) }
	a := &attributes{odds: map[string]float64{}}
	for t, k := range self {
		if k < minSelfExamples {
			continue
		}
		if d := logit(k, nSelf) - logit(visitor[t], nVisitor); d > 0 {
			a.odds[t] = d
		}
	}
	return a
}

// told returns the greatest weight of a term of s, a statement about its
// listener, and that term; ok is false for any other sentence.
func (a *attributes) told(s string, lang nadine.Language) (weight float64, term string, ok bool) {
	if a == nil || !toldAbout(s) {
		return 0, "", false
	}
	if _, second := swapPerson(s, lang); !second {
		return 0, "", false
	}
	for _, t := range termsOf(s) {
		if d := a.odds[t]; d > weight {
			weight, term = d, t
		}
	}
	return weight, term, true
}
