package speakable

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
)

// A rule is often written as a list's item, with no one to do it: an
// infinitive clause with no subject ("Niemals Sprachen mischen.", "Ne
// jamais mélanger les langues.", "Réagir plus vivement aux insultes."), a
// line that names itself a rule ("Regel: …", "Consigne : …"), or an order
// ("Sagen Sie nie, dass Sie etwas nicht verstehen.", "Vouvoyez toujours
// votre interlocuteur."). Her speech has orders too ("Fragen Sie mich nach
// einem Witz!"): 44 of the 5,216 speech examples have one of the forms, all
// under 0.13, where the rules' sit at 0.2 to 0.8. So the form is evidence,
// and a calibrated probability decides (docs/speech.md, "Rules written as a
// list's items").

// ruleLabelRE is a sentence that names itself a rule or an instruction.
// A rule list's marks of weight ("Wichtig:", "Important :") count too:
// the probability decides.
var ruleLabelRE = regexp.MustCompile(`(?i)^\s*(?:regel|regeln|anweisung|vorgabe|wichtig|hinweis|règle|regle|consigne|instruction|instructions|important|rule|rules|规则|指令|重要|注意)\s*[:：]`)

// subjects are the pronouns a sentence with a doer has, per language:
// with one, an infinitive at its end is no rule's ("Ich will tanzen").
var subjects = map[nadine.Language]map[string]bool{
	nadine.German: set("ich", "du", "er", "es", "wir", "ihr", "man", "mich", "dich", "mir", "dir", "uns", "euch", "sie", "ihnen"),
	nadine.French: set("je", "j", "tu", "il", "elle", "on", "nous", "vous", "ils", "elles"),
}

// zhRuleOpenRE opens a Chinese order with no subject: a negation of
// prohibition or an adverb of rule.
var zhRuleOpenRE = regexp.MustCompile(`^(?:不要|不得|不可|不能|别|绝不|绝对不要|切勿|勿|禁止|务必|必须|一律|始终|永远不要|永远不|总是|只用|只能)`)

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
	if i := strings.IndexAny(clause, ",;:—，；：。"); i >= 0 {
		clause = clause[:i]
	}
	if lang == nadine.Chinese {
		// An order with no one to do it opens with its negation or its
		// adverb of rule ("绝不混用语言", "一律用摄氏度"), and names no one.
		return zhRuleOpenRE.MatchString(clause) && !strings.ContainsAny(s, "我你您他她")
	}
	if r, _ := utf8.DecodeRuneInString(clause); !unicode.IsUpper(r) {
		return false // written, not heard: a model's sentence opens with a capital
	}
	ws, raw := words(clause), strings.Fields(strings.TrimRight(clause, ".!?… "))
	if len(ws) < 2 || len(raw) == 0 || strings.HasSuffix(strings.TrimSpace(s), "?") {
		return false
	}
	if imperative(ws, lang) {
		return true
	}
	if anyOf(words(s), subjects[lang]) {
		return false
	}
	switch lang {
	case nadine.German:
		// The infinitive ends the clause, in lower case (a noun has a
		// capital), and not after "zu" ("schön, dich zu sehen").
		last := ws[len(ws)-1]
		if r, _ := utf8.DecodeRuneInString(raw[len(raw)-1]); unicode.IsUpper(r) || ws[len(ws)-2] == "zu" {
			return false
		}
		if (anyOf(ws, set("wird", "werden")) && strings.HasPrefix(last, "ge")) && len(last) > 4 {
			return true // an impersonal passive ("Im Französischen wird gesiezt")
		}
		return last == "sein" || last == "tun" || strings.HasSuffix(last, "en") || strings.HasSuffix(last, "ern") || strings.HasSuffix(last, "eln")
	case nadine.French:
		// The infinitive opens the clause, after a negation if any.
		i := 0
		if (ws[0] == "ne" || ws[0] == "n") && len(ws) > 2 && strings.HasSuffix(ws[1], "ez") && frenchNegation[ws[2]] {
			return true // "Ne mélangez jamais les langues."
		}
		if ws[0] == "ne" || ws[0] == "n" {
			for i = 1; i < len(ws) && frenchNegation[ws[i]]; i++ {
			}
			if i == 1 || i >= len(ws) {
				return false
			}
		}
		w := ws[i]
		if strings.HasSuffix(w, "ez") {
			// An order to "vous" is a rule when it says always or never
			// ("Vouvoyez toujours …", "Ne mélangez jamais …"); "Prenez un
			// parapluie !" is advice.
			return i > 0 || anyOf(ws, set("toujours", "jamais", "uniquement", "seulement", "systématiquement"))
		}
		return w == "être" || w == "avoir" || w == "faire" || w == "dire" || strings.HasSuffix(w, "er") || strings.HasSuffix(w, "ir") || len(w) > 4 && strings.HasSuffix(w, "re")
	}
	return false
}

// germanPossessives are the listener's words that follow a German order
// to "du" ("Verabschiede dich", "Halte deine Antwort kurz").
var germanPossessives = set("dich", "dir", "dein", "deine", "deinen", "deinem", "deiner", "deines")

// imperative reports a German order: its verb first, then "Sie" ("Sagen
// Sie nie …"), "sei"/"seien", or an order to "du" with the listener's word
// after the verb ("Verabschiede dich herzlich").
func imperative(ws []string, lang nadine.Language) bool {
	if lang != nadine.German {
		return false
	}
	switch {
	case ws[0] == "sei" || ws[0] == "seien":
		return true
	case ws[1] == "sie" && (strings.HasSuffix(ws[0], "en") || strings.HasSuffix(ws[0], "ern") || strings.HasSuffix(ws[0], "eln")):
		return true
	}
	return germanPossessives[ws[1]]
}
