package offline

// Whole names as visitors say them: titles before a name, and German
// family names that are also words.

import (
	"sync"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// maxStackedTitles bounds the words read as titles before a known one.
const maxStackedTitles = 2

// stackedTitle skips the forms of address stacked before a known title
// ("Hofrat Dr. Leopold Haider", "Magistra Dr. Eva Gruber"): titles come
// before the name, so capitalized words right before one are titles too,
// whatever their list says. It returns the index of the known title, or
// from when none follows.
func stackedTitle(toks []intents.Token, from int, lang nadine.Language) int {
	for k := from; k < len(toks) && k <= from+maxStackedTitles; k++ {
		t := toks[k]
		if isTitle(t, lang) {
			if k == from || k+1 < len(toks) && startsUpper(toks[k+1].Text) {
				return k
			}
			return from
		}
		if t.Han || !startsUpper(t.Text) || !nameShaped(t) || k > from && t.Clause != toks[from].Clause {
			return from
		}
	}
	return from
}

// professionBefore skips, after a context that plainly announces a name
// ("mein Name ist", "je m'appelle"), one word the examples know written
// before a full name of two words or more ("Ingenieur Karl Berger",
// "Architektin Lea Sommer"): a profession or a rank said as a title. One
// word alone after the context stays what it was.
func (e *Engine) professionBefore(toks []intents.Token, text string, from, to int, lang nadine.Language) int {
	if from+2 >= len(toks) || !startsUpper(toks[from].Text) || !e.model.KnownStem(lang, toks[from].Norm) || isTitle(toks[from], lang) {
		return from
	}
	if toks[from+1].Clause != toks[from].Clause || !startsUpper(toks[from+1].Text) || !startsUpper(toks[from+2].Text) {
		return from
	}
	if name := e.latinName(toks, text, from+1, max(to, from+3), lang); name == "" || len(intents.Tokenize(name)) < 2 {
		return from
	}
	return from + 1
}

// germanSurname reports whether toks[k], written with a capital after a
// name word in German, goes on as the family name though the examples
// know the word ("Anna Müller", "Peter Schneider", "Thomas Lange"): German
// writes a capital inside a sentence only on nouns and names, so a word
// the examples know only by another form of it, or write in small letters
// where they write nouns with capitals, is a name here. A noun they write
// with a capital ("ich bin Anna, Studentin") ends the name as before. In
// an utterance written all in small letters, as speech to text may give
// it, the capital is not asked for ("ich bin anna müller") but a word the
// examples use is none ("ich bin felix schön dich kennenzulernen").
func (e *Engine) germanSurname(toks []intents.Token, k int, lang nadine.Language) bool {
	t := toks[k]
	if lang != nadine.German || t.Han || t.Hyphen || !startsUpper(t.Text) && !lowercased(toks) || !nameShaped(t) || commonWord(t, lang) || isTitle(t, lang) || examplePlaces()[t.Norm] {
		return false
	}
	if germanSaidOfOneself().holds(t.Norm) {
		return false // what the examples say one is ("ich bin Lena Studentin aus Wien")
	}
	return !e.model.Known(lang, t.Norm) || startsUpper(t.Text) && germanCase()[t.Norm] == lowerOnly
}

// saidOfOneself are the words the German examples say right after "bin"
// (ich bin student, ich bin so sauer), one adverb allowed, and their stems:
// what a visitor says they are, which after a name is no family name.
type saidOfOneself struct {
	words map[string]bool
	stems map[string]int
}

// germanSaidOfOneself reads saidOfOneself off the German examples.
var germanSaidOfOneself = sync.OnceValue(func() saidOfOneself {
	out := saidOfOneself{words: map[string]bool{}}
	for _, toks := range germanExamples() {
		for i, t := range toks {
			if t.Norm != "bin" {
				continue
			}
			for k := i + 1; k < len(toks) && k <= i+2 && !toks[k].Slot; k++ {
				out.words[toks[k].Norm] = true
			}
		}
	}
	out.stems = intents.StemsOf(out.words)
	return out
})

// holds reports whether w is one of the words or the same with an ending
// more or less ("studentin" of "student", "lehrer" of "lehrerin"): one
// word's letters begin the other's, "richtig" is no form of "richter".
func (s saidOfOneself) holds(w string) bool {
	r := []rune(w)
	for n := len(r); n >= max(4, len(r)-intents.InflectionLetters); n-- {
		if s.words[string(r[:n])] {
			return true
		}
	}
	shortest, ok := s.stems[w]
	return ok && shortest <= len(r)+intents.InflectionLetters
}

// germanWordCase is how the German examples write a word inside a line.
type germanWordCase int

const (
	unseenCase  germanWordCase = iota
	lowerOnly                  // only in small letters, in lines that write nouns with capitals
	capitalSeen                // with a capital at least once
)

// germanCase is how the German examples write each word (folded spelling)
// after a line's first word; only lines that write some word there with a
// capital count for small letters, as the lines written all in small
// letters (speech to text) say nothing of a word's kind.
var germanCase = sync.OnceValue(func() map[string]germanWordCase {
	out := map[string]germanWordCase{}
	for _, toks := range germanExamples() {
		cased := false
		for _, t := range toks[min(1, len(toks)):] {
			cased = cased || startsUpper(t.Text)
		}
		for i, t := range toks {
			switch {
			case i == 0 || t.Slot:
			case startsUpper(t.Text):
				out[t.Norm] = capitalSeen
			case cased && out[t.Norm] == unseenCase:
				out[t.Norm] = lowerOnly
			}
		}
	}
	return out
})

// lowercased reports whether no word of toks starts with a capital.
func lowercased(toks []intents.Token) bool {
	for _, t := range toks {
		if startsUpper(t.Text) {
			return false
		}
	}
	return true
}
