package offline

import (
	"slices"
	"strings"
	"unicode/utf8"

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

// weSaid are, by language, the ways to say "we are", "we have", "we feel"
// and "our", with what "I" says: the examples tell moods in the first
// person singular ("je suis épuisé"), so "nous sommes épuisés" and "on est
// contents d'être là" read weakly, or as the date ("aujourd'hui") or the
// weather they are said with.
var weSaid = map[nadine.Language][]struct{ we, me []string }{
	nadine.French: {
		{[]string{"on", "est"}, []string{"je", "suis"}},
		{[]string{"nous", "sommes"}, []string{"je", "suis"}},
		{[]string{"on", "etait"}, []string{"jetais"}},
		{[]string{"nous", "etions"}, []string{"jetais"}},
		{[]string{"on", "a"}, []string{"jai"}},
		{[]string{"nous", "avons"}, []string{"jai"}},
		{[]string{"on", "se", "sent"}, []string{"je", "me", "sens"}},
		{[]string{"nous", "nous", "sentons"}, []string{"je", "me", "sens"}},
		{[]string{"notre"}, []string{"mon"}},
		{[]string{"nos"}, []string{"mes"}},
	},
}

// degreeWords come between "je suis" and the mood they qualify ("on est un
// peu stressés").
var degreeWords = map[nadine.Language][]string{
	nadine.French: {"un", "peu", "tres", "trop", "super", "hyper", "vraiment", "tellement", "si", "assez", "completement",
		"grave", "carrement", "bien", "tous", "toutes", "tout", "toujours", "encore", "deja", "plutot"},
}

// saidOfMe is an utterance in lang told of "us" said of "me", with the
// plural of the mood that follows "we are" made singular ("nous sommes
// épuisés" → "je suis épuisé"); ok is false when it says no "we".
func saidOfMe(toks []intents.Token, lang nadine.Language) (out []intents.Token, ok bool) {
	forms := weSaid[lang]
	if len(forms) == 0 {
		return nil, false
	}
	for i := 0; i < len(toks); {
		matched := false
		for _, f := range forms {
			if !intents.WordsAt(toks, i, f.we) {
				continue
			}
			for _, m := range f.me {
				t := toks[i]
				t.Text, t.Norm = m, m
				out = append(out, t)
			}
			i += len(f.we)
			matched, ok = true, true
			if f.me[len(f.me)-1] != "suis" {
				break
			}
			// The mood after "je suis", past its degree words, made singular.
			for i < len(toks) && slices.Contains(degreeWords[lang], toks[i].Norm) {
				out = append(out, toks[i])
				i++
			}
			if i < len(toks) && utf8.RuneCountInString(toks[i].Norm) > 3 && strings.HasSuffix(toks[i].Norm, "s") {
				t := toks[i]
				t.Norm = strings.TrimSuffix(t.Norm, "s")
				t.Text = t.Norm
				out = append(out, t)
				i++
			}
			break
		}
		if !matched {
			out = append(out, toks[i])
			i++
		}
	}
	return out, ok
}

// moodOfUs is the reading of a mood told of "us" as told of "me", when
// that reads as a feeling likelier than the utterance itself reads as
// anything, and the utterance does not ask ("on est où ?").
func (e *Engine) moodOfUs(whole intents.Result, toks []intents.Token, text string, lang nadine.Language, h hints) (intents.Result, bool) {
	if whole.Top().Prob >= wholeSure || asking(toks, text) {
		return whole, false
	}
	me, ok := saidOfMe(toks, lang)
	if !ok {
		return whole, false
	}
	r := e.expect(e.classifyWhole(me), h)
	if top := r.Top(); !strings.HasPrefix(top.Label, "feeling.") || top.Prob < e.threshold || top.Prob <= whole.Top().Prob {
		return whole, false
	}
	return r, true
}

// weWords say "we" where a mood is told of a group the speaker is in ("on
// est trop contents d'être venus"): a feeling told in the first person.
var weWords = map[nadine.Language][]string{
	nadine.French: {"on", "nous"},
}

// saysWe reports whether a stretch in lang speaks of a group the speaker
// is in.
func saysWe(toks []intents.Token, lang nadine.Language) bool {
	return slices.ContainsFunc(toks, func(t intents.Token) bool { return slices.Contains(weWords[lang], t.Norm) })
}

// belowBarWeak are the languages in which an utterance read below the
// threshold gives way to a clause plainly a feeling, as one read as none
// does. Measured in every language on 4944ea4 (TestFeelingAxes, tuned and held out):
// French 168→174 and 56→57, English 168→170, German held out 60→61,
// Chinese held out 60→59; French only until the other rounds weigh it.
var belowBarWeak = map[nadine.Language]bool{nadine.French: true}

// notHer are, by language, words of herWords that are another language's
// word for her and none in this one: French "du" is "of the", not German
// "you" ("ça fait du bien").
var notHer = map[nadine.Language][]string{
	nadine.French: {"du"},
}

// addressedIn is addressed for an utterance in lang.
func addressedIn(toks []intents.Token, lang nadine.Language) bool {
	return addressed(slices.DeleteFunc(slices.Clone(toks), func(t intents.Token) bool { return slices.Contains(notHer[lang], t.Norm) }))
}

// fillerOpeners are, by language, the words that open an utterance
// without saying anything of it ("Et donc vous savez toujours qui je suis
// ?", "Bon alors, c'est quoi le MIRALab ?"): they weigh on the classifier
// as much as the words that say what is asked.
var fillerOpeners = map[nadine.Language][]string{
	nadine.French: {"et", "donc", "alors", "bon", "ben", "bah", "euh", "heu", "hum", "du", "coup", "bref", "sinon", "puis", "enfin", "tiens", "ah", "oh", "eh", "bien"},
}

// withoutFillers is the reading of an utterance without the filler words
// that open it, when the utterance itself reads nothing at the threshold
// and the rest reads an intent that does; "du coup" and "eh bien" go only
// whole.
func (e *Engine) withoutFillers(whole intents.Result, toks []intents.Token, lang nadine.Language, h hints) (intents.Result, bool) {
	if whole.Top().Prob >= e.threshold {
		return whole, false
	}
	k := 0
	for k < len(toks)-1 && slices.Contains(fillerOpeners[lang], toks[k].Norm) {
		k++
	}
	if k == 0 || k == len(toks) || toks[k-1].Norm == "du" || toks[k-1].Norm == "eh" {
		return whole, false // "du" and "eh" open what follows ("du coup", "eh bien")
	}
	r := e.expect(e.classifyWhole(toks[k:]), h)
	if top := r.Top(); top.Label == noneLabel || top.Prob < e.threshold {
		return whole, false
	}
	return r, true
}
