package speakable

import (
	"slices"
	"strings"
	"sync"

	"github.com/nadine-robot/nadine"
)

// A model that restates its rules as her own obligation ("Meine Gefühle
// sollen meinen Ton färben, ohne dass ich sie benenne", "Je dois glisser un
// ou deux détails visuels … sans jamais dire que je vois une image") speaks
// in the first person, with a modal of obligation, of what only the rules
// talk about: two or more of the rules' own stems (rulesOnly) in the rest
// of the sentence. "I must admit, I love compliments" holds one:
// docs/speech.md, "Denials the visitor did not ask for".

// obligationWords are the modals of obligation in Nadine's four languages.
// Permission and its denial state the rules too ("Je n'ai droit ni aux
// emojis ni au markdown", "Ich darf keine Links nennen").
var obligationWords = set("must", "should", "supposed", "dois", "doit", "devrais", "faut",
	"soll", "sollen", "sollte", "sollten", "muss", "müssen",
	"allowed", "permitted", "droit", "autorisée", "autorisé", "darf", "dürfen", "erlaubt")

// zhObligation are the Chinese modals of obligation (words() reads each
// ideograph alone).
var zhObligation = []string{"必须", "应该"}

// ruleStems are the rules' stems her speech does not use freely.
var ruleStems = sync.OnceValue(func() map[string]bool {
	return rulesOnly(func(text string) []string { return stems(words(text)) })
})

// obligedRule reports a sentence in which she states the rules as an
// obligation of her own.
func obligedRule(clean string, lang nadine.Language) bool {
	ws := words(clean)
	if !anyOf(ws, firstPerson) || listenerObliged(ws, lang) {
		return false // an obligation on the listener is advice ("You should try the fondue")
	}
	if !anyOf(ws, obligationWords) && !slices.ContainsFunc(zhObligation, func(m string) bool { return strings.Contains(clean, m) }) {
		return false
	}
	rules, n, seen := ruleStems(), 0, map[string]bool{}
	for _, s := range stems(ws) {
		if rules[s] && !seen[s] && !modalStem(s) {
			seen[s] = true
			n++
		}
	}
	return n >= obligationBar
}

// listenerObliged reports an obligation whose subject is the listener: the
// listener's word just before the modal ("you should", "vous devez") or,
// inverted, just after it ("solltest du"). A listener elsewhere is the
// rule's object ("je dois vous vouvoyer", "aber mit dir rede ich").
func listenerObliged(ws []string, lang nadine.Language) bool {
	you := listener[lang.Or(nadine.English)]
	for i, w := range ws {
		if !obligationWords[w] && !strings.HasPrefix(w, "dev") && !strings.HasPrefix(w, "soll") && !strings.HasPrefix(w, "muss") {
			continue
		}
		if i > 0 && you[ws[i-1]] || i+1 < len(ws) && you[ws[i+1]] && (lang == nadine.German || lang == nadine.English) {
			return true
		}
	}
	return false
}

// modalStem reports the stem of a modal of obligation: the mark, not what
// the rules talk about. A Chinese pair that holds a modal's character ("必须",
// "我必", "应该") is the mark too, since the rules now state obligations so.
func modalStem(s string) bool {
	for w := range obligationWords {
		if stem(w) == s {
			return true
		}
	}
	for _, m := range zhObligation {
		if strings.ContainsAny(s, m) {
			return true
		}
	}
	return false
}

// obligationBar is how many of the rules' stems a sentence of obligation
// holds when it is the rules restated.
const obligationBar = 2
