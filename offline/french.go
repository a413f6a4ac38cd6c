package offline

import (
	"slices"
	"strings"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// Rules read off how French speakers introduce themselves, tell their
// moods and ask (docs/offline.md, "Round fr11"); the tables are by
// language, French's filled.

// titleArticles are the articles people put before their title when they
// introduce themselves ("je suis le professeur Bertrand", "c'est la
// docteure Marchal"): the title, not the article, opens the name.
var titleArticles = map[nadine.Language][]string{
	nadine.French: {"le", "la"},
}

// articledTitle is where a name that opens at from starts: past an article
// that a title follows, else from.
func articledTitle(toks []intents.Token, from int, lang nadine.Language) int {
	if from+1 < len(toks) && slices.Contains(titleArticles[lang], toks[from].Norm) && toks[from+1].Clause == toks[from].Clause &&
		isTitle(toks[from+1], lang) {
		return from + 1
	}
	return from
}

// elidedPronouns open a French word with a pronoun or "que"/"ce" cut short
// ("t'enregistres", "j'adore", "qu'est-ce", "c'était"): such a word is a
// verb, never a name, as "M'Bala" or "N'Golo" may be.
var elidedPronouns = []string{"t", "j", "qu", "c"}

// elidedPronoun reports whether t opens with one of elidedPronouns.
func elidedPronoun(t intents.Token) bool {
	before, _, ok := strings.Cut(strings.ReplaceAll(t.Text, "’", "'"), "'")
	return ok && slices.Contains(elidedPronouns, strings.ToLower(before))
}
