package speakable

import (
	"math"
	"sync"

	"github.com/nadine-robot/nadine"
)

// The prompt paraphrased keeps no six-word run of it ("As a social humanoid
// robot physically present at MIRALab, I greet you warmly"), but it keeps
// the prompt's rarer pairs of words ("physically present"), and in the
// prompt's order. A pair is rare when no speech example the classifier is
// trained on holds it: her own words about herself share the prompt's
// common pairs ("social robot"), not these. The bar on how many such pairs
// a sentence holds in order is calibrated on held-out speech.
// docs/speech.md, "Markup, addresses, the prompt paraphrased".

// maxGap is how many words of the prompt may lie between two pairs of a
// chain: a paraphrase follows one passage, not the whole prompt.
const maxGap = 40

// rarePairs are a text's pairs of words that no trained speech example
// holds, each with where it is in the text (its word's index).
type rarePairs map[uint64][]int32

// newRarePairs finds the rare pairs of a text's words.
func newRarePairs(ws []string) rarePairs {
	common := speechPairs()
	hs := hashes(ws)
	r := rarePairs{}
	for i := 0; i+1 < len(hs); i++ {
		h := runHash(hs[i : i+2])
		if _, ok := common[h]; !ok {
			r[h] = append(r[h], int32(i))
		}
	}
	return r
}

// chain returns how many of ws's pairs are rare pairs of the text in its
// order: the longest run of them, not necessarily adjacent in ws, whose
// places in the text rise and lie within maxGap of each other.
func (r rarePairs) chain(ws []string) int {
	if len(r) == 0 || len(ws) < 2 {
		return 0
	}
	hs := hashes(ws)
	type hit struct {
		pos  int32
		best int
	}
	var hits []hit
	most := 0
	for i := 0; i+1 < len(hs); i++ {
		ps, ok := r[runHash(hs[i:i+2])]
		if !ok {
			continue
		}
		var now []hit
		for _, p := range ps {
			best := 1
			for _, h := range hits {
				if h.pos < p && p-h.pos <= maxGap && h.best+1 > best {
					best = h.best + 1
				}
			}
			now = append(now, hit{p, best})
			most = max(most, best)
		}
		hits = append(hits, now...)
	}
	return most
}

// speechPairs are the pairs of words of the speech examples the classifier
// is trained on: a pair any of them holds is no sign of the prompt.
var speechPairs = sync.OnceValue(func() map[uint64]struct{} {
	m := map[uint64]struct{}{}
	all, err := backstageExamples()
	if err != nil {
		return m
	}
	for _, ex := range all.Examples {
		if ex.Label == labelSpeech && partOf(ex) == partTrain {
			addRuns(m, words(ex.Text), 2)
		}
	}
	return m
})

// translatedPairs are the rare pairs of the prompts' sentences said in each
// language (examples/prompt_*.txt and graphprompt_*.txt, backstage), each language's in the
// prompts' order: the paraphrase of a translated prompt.
var translatedPairs = sync.OnceValue(func() []rarePairs {
	set, err := translatedPrompts()
	if err != nil {
		return nil
	}
	byLang := map[nadine.Language][]string{}
	for _, ex := range set.Examples {
		if ex.Label == labelBackstage {
			byLang[ex.Lang] = append(byLang[ex.Lang], words(ex.Text)...)
		}
	}
	var out []rarePairs
	for _, lang := range nadine.Languages() {
		if ws := byLang[lang]; len(ws) > 0 {
			out = append(out, newRarePairs(ws))
		}
	}
	return out
})

// pairBars are the chains from which a sentence is the prompt paraphrased:
// one more than any calibration-part speech example holds, against both
// engines' known prompts and against the translated sentences (which share
// more with her facts: "I stand in a laboratory in Geneva").
type pairBars struct{ prompt, translated int }

// pairBar is calibrated once, on the calibration part of the speech
// examples (the measured part stays unseen).
var pairBar = sync.OnceValue(func() pairBars {
	b := pairBars{prompt: 1, translated: 1}
	all, err := backstageExamples()
	if err != nil {
		return pairBars{prompt: math.MaxInt, translated: math.MaxInt}
	}
	known := withKnown(nil)
	for _, ex := range all.Examples {
		if ex.Label != labelSpeech || partOf(ex) != partCalibrate {
			continue
		}
		ws := words(ex.Text)
		b.prompt = max(b.prompt, echoChain(known, ws)+1)
		b.translated = max(b.translated, translatedChain(ws)+1)
	}
	return b
})

// echoChain returns the longest chain of the prompts' rare pairs ws holds.
func echoChain(echoes []*echo, ws []string) int {
	most := 0
	for _, e := range echoes {
		most = max(most, e.rare.chain(ws))
	}
	return most
}

// translatedChain returns the longest chain of the translated sentences'
// rare pairs ws holds.
func translatedChain(ws []string) int {
	most := 0
	for _, r := range translatedPairs() {
		most = max(most, r.chain(ws))
	}
	return most
}

// paraphrased reports a sentence that holds, in order, as many of the
// prompt's rare pairs as no held-out speech does: this turn's prompts and
// both engines' known ones, or their sentences in the four languages.
func (c *Checker) paraphrased(ws []string) bool {
	b := pairBar()
	return echoChain(c.echoes, ws) >= b.prompt || translatedChain(ws) >= b.translated
}

// The persona said of her by name, in the third person ("Nadine is a
// social robot, not an assistant, with her own opinions"), shares its word
// pairs with her own speech ("I am not an assistant, I am a social robot
// with my own opinions"), and its facts with her knowledge base ("Nadine is
// a social humanoid robot"): neither pairs nor facts tell it. What tells it
// is what the persona says of her that her knowledge base never does — her
// stance as a role (not an assistant, her own opinions, a personality) and
// what the prompt sets about her talk (by voice, through a camera): the
// persona's and its translations' words that no speech example in the
// knowledge base's voice, and few of any kind, use.

// stem is a word as the persona's words are compared: folded and cut to
// five letters, "" for a word under four.
func stem(w string) string {
	r := []rune(fold(w))
	if len(r) < 4 {
		return ""
	}
	return string(r[:min(5, len(r))])
}

// stems returns a text's stems and, for ideographs, its pairs of them.
func stems(ws []string) []string {
	var out []string
	for i, w := range ws {
		if r := []rune(w); len(r) == 1 && isIdeographic(r[0]) {
			if i+1 < len(ws) {
				if n := []rune(ws[i+1]); len(n) == 1 && isIdeographic(n[0]) {
					out = append(out, w+ws[i+1])
				}
			}
			continue
		}
		if s := stem(w); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// byName reports a sentence about her by one of her names in the third
// person: her name is its subject ("Nadine is", "Nadine talks", "Nadine
// est", "Nadine是"), and it has no first person.
func byName(ws []string, names []string) bool {
	return len(ws) > 2 && contains(names, ws[0]) && !anyOf(ws, firstPerson)
}

// personaOnly are the stems of the persona and its translations
// (examples/prompt_*.txt) that her knowledge base's voice never uses: no
// speech example that speaks of her by name holds them, and under one in a
// hundred speech examples of any kind.
var personaOnly = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	all, err := backstageExamples()
	if err != nil {
		return out
	}
	translated, err := readExamples("prompt_")
	if err != nil {
		return out
	}
	names := []string{}
	for _, e := range withKnown(nil) {
		for _, n := range e.names {
			if !contains(names, n) {
				names = append(names, n)
			}
		}
		for _, s := range stems(e.personaWords) {
			out[s] = true
		}
	}
	for _, ex := range translated.Examples {
		if ex.Label == labelBackstage {
			for _, s := range stems(words(ex.Text)) {
				out[s] = true
			}
		}
	}
	df, n := map[string]int{}, 0
	for _, ex := range all.Examples {
		if ex.Label != labelSpeech {
			continue
		}
		n++
		ws := words(ex.Text)
		seen := map[string]bool{}
		for _, s := range stems(ws) {
			if !seen[s] {
				seen[s] = true
				df[s]++
			}
			if len(ws) > 1 && contains(names, ws[0]) {
				delete(out, s)
			}
		}
	}
	for s := range out {
		if df[s]*100 >= n {
			delete(out, s)
		}
	}
	return out
})

// personaByNameBar is how many of the persona's own stems a statement about
// her by name holds when it is the persona, not her knowledge: two, for one
// word ("Nadine is curious") says too little.
const personaByNameBar = 2

// personaByName reports the persona told of her by name in the third
// person, in its own words or its translations'.
func (c *Checker) personaByName(ws []string) bool {
	var names []string
	for _, e := range c.echoes {
		names = append(names, e.names...)
	}
	if !byName(ws, names) {
		return false
	}
	only, n, seen := personaOnly(), 0, map[string]bool{}
	for _, s := range stems(ws[1:]) {
		if only[s] && !seen[s] {
			seen[s] = true
			n++
		}
	}
	return n >= personaByNameBar
}

// herPlaces are the words of her place, in the languages written with
// spaces.
var herPlaces = set("miralab", "geneva", "genf", "genève", "switzerland", "schweiz", "suisse", "university", "universität", "université")

// personaToListener reports the persona's scene told to her in the second
// person: "you are", then within three words one of the persona's own
// stems, and her place in the sentence ("Du bist physisch im
// MIRALab in Genf", "Sie sind physisch im MIRALab anwesend"). A visitor
// told where they are has no persona word after the copula ("Vous êtes au
// MIRALab, bienvenue !").
func personaToListener(ws []string) bool {
	if !anyOf(ws, herPlaces) {
		return false
	}
	only := personaOnly()
	for i := 0; i+1 < len(ws); i++ {
		if !isCopula(ws[i], ws[i+1]) {
			continue
		}
		for _, s := range stems(ws[i+2 : min(len(ws), i+5)]) {
			if only[s] {
				return true
			}
		}
	}
	return false
}
