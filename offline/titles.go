package offline

import (
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
