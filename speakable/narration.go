package speakable

import (
	"regexp"
	"strings"
	"sync"
)

// Nadine speaks to the visitor, never about them: a sentence that names the
// one in front of her in the third person as the one who asks or wants ("The
// person wants me to introduce myself", "L'utilisateur veut savoir qui je
// suis", "用户想了解我") narrates the turn for the model, and a sentence that
// says the visitor's whole utterance back ("You asked: 'Tell me about
// yourself.'", "Query: tell me about yourself") restates the input the
// prompt carried. Both are left out; docs/speech.md, "The turn narrated and
// the visitor's words said back".

// narratedTurnRE is the visitor named as the prompts and the models name them
// (the user, the person, the visitor; accents folded), then a verb of asking
// or wanting, or their message named as theirs. A designation with a
// relative clause ("the person who built me") is not followed by such a verb.
var narratedTurnRE = regexp.MustCompile(`(?i)\b(?:the|this)\s+(?:user|person|visitor|human|guest|interlocutor|customer)(?:\s+(?:now|just|also|clearly|probably|here))?\s+(?:asks|asked|is\s+asking|has\s+asked|wants|wanted|would\s+like|wishes|requests|requested|is\s+requesting|is\s+curious|wonders|is\s+wondering|is\s+interested|greets|greeted|is\s+greeting|is\s+saying\s+(?:hello|hi|goodbye))\b` +
	`|\b(?:the\s+)?(?:user|person|visitor|human|guest)'s\s+(?:message|question|request|query|input|greeting|utterance|intent)\b` +
	`|\b(?:l'|la\s+|le\s+|cette\s+|cet\s+)(?:utilisat(?:eur|rice)|personne|visit(?:eur|euse)|humain|interlocut(?:eur|rice)|invitee?)(?:\s+(?:me|m'|nous))?\s*(?:demande|a\s+demande|veut|voudrait|souhaite|aimerait|desire|s'interesse|se\s+demande|salue|cherche\s+a)\b` +
	`|\b(?:le\s+message|la\s+question|la\s+demande|la\s+requete)\s+(?:de\s+l'|de\s+la\s+|du\s+)(?:utilisat(?:eur|rice)|personne|visit(?:eur|euse)|humain|interlocut(?:eur|rice))` +
	`|\b(?:der|die|diese[rs]?)\s+(?:nutzer(?:in)?|benutzer(?:in)?|person|besucher(?:in)?|mensch|gast|gesprachspartner(?:in)?|anwender(?:in)?)\s+(?:\p{L}+\s+)?(?:fragt|will|mochte|wunscht|bittet|interessiert\s+sich|begrusst|grusst|wollte|hat\s+gefragt|erkundigt\s+sich|mochte\s+wissen|will\s+wissen)\b` +
	`|\b(?:die\s+nachricht|die\s+frage|die\s+anfrage|die\s+eingabe)\s+(?:des|der)\s+(?:nutzers|benutzers|person|besuchers|besucherin|nutzerin|benutzerin)\b` +
	`|(?:用户|使用者|这个人|这位用户|这位访客|对方|访客|来访者|提问者)(?:现在|刚才|又|也|在)?(?:想|要|让我|请我|问|希望|好奇|询问|请求|打招呼|问候|向我)` +
	`|(?:用户|使用者|访客|对方|提问者)的(?:消息|问题|请求|输入|意图)`)

// narratedTurn reports a sentence that speaks of the visitor in the third
// person as the one asking: the turn narrated, not said to them.
func narratedTurn(clean string) bool {
	return narratedTurnRE.MatchString(foldMarks(clean))
}

// restatedMin is the least length, in words (ideographs for Chinese), of a
// visitor's sentence whose whole copy in a reply is the input restated:
// "Thank you" said back is a reply, "Tell me about yourself" said back is not.
const restatedMin = 4

// restatesVisitor reports a sentence that is one of the visitor's sentences
// of this turn, or quotes one whole after a colon or a quotation mark ("You
// asked: …"), unless that sentence is something Nadine says herself ("Nice
// to meet you"): her speech examples hold it. A reply that answers in the
// question's words adds its own ("Nice to meet you too", "我也很高兴认识你").
func (c *Checker) restatesVisitor(clean string) bool {
	if c == nil || len(c.said) == 0 {
		return false
	}
	own := words(clean)
	ws := " " + strings.Join(own, " ") + " "
	quotes := strings.ContainsAny(clean, ":：\"“”«»„「」『』")
	for _, said := range c.said {
		for _, s := range splitSaid(said) {
			vs := words(s)
			if len(vs) < restatedMin {
				continue
			}
			run := " " + strings.Join(vs, " ") + " "
			if (ws == run || quotes && strings.Contains(ws, run)) && !strings.Contains(herSpeech(), run) {
				return true
			}
		}
	}
	return false
}

// splitSaid cuts the visitor's words into their sentences, at the marks that
// end one in any of the four languages.
func splitSaid(said string) []string {
	return strings.FieldsFunc(said, func(r rune) bool {
		return strings.ContainsRune(".!?。！？\n", r)
	})
}

// herSpeech is every sentence of Nadine's speech examples (not the visitors'
// heard_*.txt), as words between spaces, one after another: the formulas
// she says herself.
var herSpeech = sync.OnceValue(func() string {
	all, err := readExamples("", "said_", "more_")
	if err != nil {
		return ""
	}
	var b strings.Builder
	b.WriteString(" ")
	for _, ex := range all.Examples {
		if ex.Label == labelSpeech {
			b.WriteString(strings.Join(words(ex.Text), " "))
			b.WriteString(" \x00 ")
		}
	}
	return b.String()
})
