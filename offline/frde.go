package offline

import (
	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// Rules of the round that wrote probe10 (docs/offline.md, "Round
// frde12"): French and German as Swiss, Belgian, Québécois, Austrian and
// Bavarian visitors speak them.

// articleRelatives are the relative pronouns that German writes as its
// articles ("das Labor, das Sie gebaut hat") and the French and English
// ones that follow a preposition ("le labo dans lequel", "the lab in
// which"): after an institution's head word they say which one is meant.
var articleRelatives = map[string]bool{"der": true, "die": true, "das": true, "dem": true, "den": true, "denen": true,
	"dessen": true, "deren": true, "welche": true, "welcher": true, "welches": true, "welchem": true, "welchen": true,
	"lequel": true, "laquelle": true, "lesquels": true, "lesquelles": true, "auquel": true, "duquel": true,
	"which": true, "whom": true}

// relativePrepositions may stand between a head word and its relative
// pronoun ("das Labor, in dem du gebaut wurdest", "le labo dans lequel").
var relativePrepositions = map[string]bool{"in": true, "an": true, "bei": true, "von": true, "aus": true, "mit": true,
	"dans": true, "par": true, "chez": true, "avec": true, "pour": true, "at": true, "by": true, "for": true}

// opensRelative reports whether token i opens a relative clause of an
// institution's head word, right after it or past one preposition, in
// the forms relativeWords does not hold: the "you" in that clause names
// her as the institution's work, not as the one asked of ("Das Labor,
// das Sie entwickelt hat, wo befindet sich das?").
func opensRelative(toks []intents.Token, i int) bool {
	if i < 1 || !articleRelatives[toks[i].Norm] && !relativeWords[toks[i].Norm] {
		return false
	}
	if articleRelatives[toks[i].Norm] && isHead(toks[i-1]) {
		return true
	}
	return i >= 2 && relativePrepositions[toks[i-1].Norm] && isHead(toks[i-2])
}

// stateVerbs are, by language, the first-person "am" after which a speaker
// tells their state once they have told what happened (statedState):
// French says "J'ai eu une promotion mais je suis tellement stressé" as
// German says "und bin kaputt".
var stateVerbs = map[nadine.Language]map[string]bool{
	nadine.German: {"bin": true},
	nadine.French: {"suis": true},
}

// statePronouns are the "I" before a stateVerbs word, which the state's
// stretch takes in.
var statePronouns = map[nadine.Language]map[string]bool{
	nadine.German: germanI,
	nadine.French: {"je": true},
}
