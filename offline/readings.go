package offline

import (
	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// Reading rules of the fr11 round that hold in every language
// (docs/offline.md, "Round fr11"); French's own tables are in french.go.

// familyName is the word after a title that names the person: the family
// name when a given name comes first ("le professeur Jean-Luc Bertrand" is
// Professeur Bertrand, not Professeur Jean), else the word at j.
func (e *Engine) familyName(toks []intents.Token, j int, lang nadine.Language) intents.Token {
	k := j + 1
	for k < len(toks) && toks[k].Hyphen && toks[k].Clause == toks[j].Clause {
		k++ // the parts of a double given name ("Jean-Luc")
	}
	if k < len(toks) && toks[k].Clause == toks[j].Clause && !toks[k].Hyphen && startsUpper(toks[j].Text) && startsUpper(toks[k].Text) &&
		!isTitle(toks[k], lang) && e.nameWord(toks, k, lang) {
		return toks[k]
	}
	return toks[j]
}

// titledOpening is the name of an utterance that opens with a title and a
// name in a clause of their own, which the classifier reads as an
// introduction ("Docteure Hélène Marchal, de l'INRIA."): a title before
// capitalized words shows a name as plainly as "je m'appelle" does. A
// question is none ("Madame Dupont, elle est là ?" asks of another).
func (e *Engine) titledOpening(r reading) string {
	toks, lang := r.toks, r.lang
	if len(toks) < 2 || r.whole.Top().Label != "name" || asking(toks, r.text) {
		return ""
	}
	from := articledTitle(toks, 0, lang)
	end := clauseEnd(toks, from)
	if !isTitle(toks[from], lang) || end-from-1 > maxNameWords {
		return ""
	}
	for k := from + 1; k < end; k++ {
		if !startsUpper(toks[k].Text) && !toks[k].Hyphen || !isNameWord(toks[k].Text) {
			return ""
		}
	}
	return e.titledName(toks, r.text, from, lang)
}
