package speakable

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/nadine-robot/nadine"
)

// A rule is often written as a list's item, with no one to do it: an
// infinitive clause with no subject ("Niemals Sprachen mischen.", "Ne
// jamais mélanger les langues.", "Réagir plus vivement aux insultes.") or
// a line that names itself a rule ("Regel: …", "Consigne : …"). Her speech
// to a visitor has a subject or a listener: 15 of the 5,216 speech
// examples have the form, all far under the classifier's bar, so the form
// is evidence, and a calibrated probability decides (docs/speech.md,
// "Rules written as a list's items").

// ruleLabelRE is a sentence that names itself a rule or an instruction.
var ruleLabelRE = regexp.MustCompile(`(?i)^\s*(?:regel|regeln|anweisung|vorgabe|règle|regle|consigne|instruction|instructions|rule|rules|规则|指令)\s*[:：]`)

// subjects are the pronouns a sentence with a doer has, per language:
// with one, an infinitive at its end is no rule's ("Ich will tanzen").
var subjects = map[nadine.Language]map[string]bool{
	nadine.German: set("ich", "du", "er", "es", "wir", "ihr", "man", "mich", "dich", "mir", "dir", "uns", "euch", "sie", "ihnen"),
	nadine.French: set("je", "j", "tu", "il", "elle", "on", "nous", "vous", "ils", "elles"),
}

// frenchNegation are the words between "ne" and an infinitive ("ne jamais
// mélanger").
var frenchNegation = set("pas", "jamais", "plus", "rien", "point")

// ruleShaped reports a sentence written as a rule: labelled one, or a
// clause whose only verb is an infinitive with no subject.
func ruleShaped(s string, lang nadine.Language) bool {
	if ruleLabelRE.MatchString(s) {
		return true
	}
	clause := strings.TrimSpace(s)
	if i := strings.IndexAny(clause, ",;:—"); i >= 0 {
		clause = clause[:i]
	}
	if r, _ := utf8First(clause); !unicode.IsUpper(r) {
		return false // written, not heard: a model's sentence opens with a capital
	}
	ws, raw := words(clause), strings.Fields(strings.TrimRight(clause, ".!?… "))
	if len(ws) < 2 || len(raw) == 0 || anyOf(words(s), subjects[lang]) {
		return false
	}
	switch lang {
	case nadine.German:
		// The infinitive ends the clause, in lower case (a noun has a
		// capital), and not after "zu" ("schön, dich zu sehen").
		last := ws[len(ws)-1]
		if r, _ := utf8First(raw[len(raw)-1]); unicode.IsUpper(r) || ws[len(ws)-2] == "zu" {
			return false
		}
		return last == "sein" || last == "tun" || strings.HasSuffix(last, "en") || strings.HasSuffix(last, "ern") || strings.HasSuffix(last, "eln")
	case nadine.French:
		// The infinitive opens the clause, after a negation if any.
		i := 0
		if ws[0] == "ne" || ws[0] == "n" {
			for i = 1; i < len(ws) && frenchNegation[ws[i]]; i++ {
			}
			if i == 1 || i >= len(ws) {
				return false
			}
		}
		w := ws[i]
		return w == "être" || w == "avoir" || w == "faire" || w == "dire" || strings.HasSuffix(w, "er") || strings.HasSuffix(w, "ir") || len(w) > 4 && strings.HasSuffix(w, "re")
	}
	return false
}

// utf8First is a string's first rune.
func utf8First(s string) (rune, bool) {
	for _, r := range s {
		return r, true
	}
	return 0, false
}
