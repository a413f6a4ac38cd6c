package offline

import (
	"slices"
	"strings"

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

// statedHow reads a clause that reads as "how are you?" but asks nothing
// as none: in a punctuated utterance, one not followed by a question mark,
// not opened by "and", without a question word and a word for her ("Merci
// de m'écouter, ça fait du bien" thanks; "Merci, et vous ?" still asks).
func statedHow(parts []part, toks []intents.Token, text string, lang nadine.Language) []part {
	for i, p := range parts {
		if !p.clause || p.top.Label != "how_are_you" || p.to <= p.from {
			continue
		}
		clause := toks[p.from:p.to]
		next := len(text)
		if p.to < len(toks) {
			next = toks[p.to].Start
		}
		if strings.ContainsAny(text[clause[len(clause)-1].End:next], "?？") || andWords[clause[0].Norm] || addressedIn(clause, lang) ||
			slices.ContainsFunc(clause, func(t intents.Token) bool { return askWords[t.Norm] }) {
			continue
		}
		parts[i].top = intents.Scored{Label: noneLabel, Prob: p.top.Prob}
	}
	return parts
}

// askedSwitch is the language switch a clause asks for ("On peut passer en
// allemand deux minutes ? c'est pour mon copain", "Merci, tu peux revenir
// au français ?"): a clause read likelier as a switch than as anything
// else, that names a language and ends with a question mark, while the
// whole utterance reads nothing plainly (its other clause's "copain" read
// as bad news, its thanks as thanks).
func (e *Engine) askedSwitch(r reading) (candidate, bool) {
	if top := r.whole.Top(); top.Label == "language" || top.Prob >= wholeSure {
		return candidate{}, false
	}
	for _, p := range r.parts {
		if !p.clause || p.top.Label != "language" || p.to <= p.from {
			continue
		}
		next := len(r.text)
		if p.to < len(r.toks) {
			next = r.toks[p.to].Start
		}
		clause := r.toks[p.from:p.to]
		if _, named := namedLanguage(clause, r.text[clause[0].Start:clause[len(clause)-1].End]); named &&
			strings.ContainsAny(r.text[clause[len(clause)-1].End:next], "?？") {
			return candidate{"language", p.top.Prob}, true
		}
	}
	return candidate{}, false
}
