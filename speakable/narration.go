package speakable

import (
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/nadine-robot/nadine/spoken"
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
	`|(?:^|[，。！？、：；,\s])(?:这位|该)?(?:用户|使用者|这个人|访客|对方|来访者|提问者)(?:现在|刚才|又|也|在)?(?:想|要|让我|请我|问(?:我|了|的|道|起)|希望|好奇|询问|请求|打招呼|问候|向我)` +
	`|(?:^|[，。！？、：；,\s])(?:这位|该)?(?:用户|使用者|访客|对方|提问者)的(?:消息|问题|请求|输入|意图)`)

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
	if c == nil || len(c.asked) == 0 {
		return false
	}
	own := words(clean)
	ws := " " + strings.Join(own, " ") + " "
	quotes := strings.ContainsAny(clean, ":：\"“”«»„「」『』")
	for _, said := range c.asked {
		for _, s := range spoken.SplitSentences(said) {
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

// askedRE opens a sentence with the visitor's asking, told to them ("You
// asked:", "Vous m'avez demandé :", "Deine Frage lautete:", "你问我："),
// before their words quoted or after a colon: the input restated, whatever
// language the model quotes it in.
var askedRE = regexp.MustCompile(`(?i)^\W{0,3}(?:(?:so|well|ok|okay)[,\s]+)?(?:` +
	`you(?:'ve|\s+have)?\s+(?:just\s+)?(?:asked|want(?:ed)?\s+to\s+know)(?:\s+me)?|your\s+(?:question|request)\s+(?:was|is)` +
	`|(?:vous|tu)\s+(?:m['’]|me\s+)?(?:avez|as)\s+demand[ée]|(?:votre|ta)\s+(?:question|demande)\s+(?:[ée]tait|est)` +
	`|(?:du\s+hast|sie\s+haben)\s+(?:mich\s+)?gefragt|(?:du\s+fragst|sie\s+fragen)(?:\s+mich)?|(?:deine|ihre)\s+(?:frage|bitte)\s+(?:lautete|lautet|war|ist)` +
	`|(?:你|您)(?:刚才|刚刚)?(?:问我|问了我|问)|(?:你|您)的(?:问题|请求)是)` +
	`\s*([:：,，]?)\s*`)

// quoteOpeners open a quotation in the four languages' typography.
const quoteOpeners = "\"'«“„‚「『‘"

// quotesAsking reports a sentence that is the visitor's asking told back
// with their words quoted to its end (the splitter ends a sentence after
// its closing quote: "… » Eh bien, je suis Nadine" is two).
func quotesAsking(raw string) bool {
	m := askedRE.FindStringSubmatchIndex(raw)
	if m == nil {
		return false
	}
	rest := raw[m[1]:]
	first, size := utf8.DecodeRuneInString(rest)
	if !strings.ContainsRune(quoteOpeners, first) {
		// "You asked: tell me about yourself."
		return m[3] > m[2] && strings.ContainsAny(raw[m[2]:m[3]], ":：")
	}
	closer := strings.IndexFunc(rest[size:], func(r rune) bool { return strings.ContainsRune("\"'»”“‘’」』", r) })
	if closer < 0 {
		return true
	}
	// The quotation ends the sentence: a sentence that goes on after it
	// uses the visitor's words ("You asked \"why?\" and I laughed").
	after := rest[size+closer:]
	_, csize := utf8.DecodeRuneInString(after)
	return strings.Trim(after[csize:], " \t,，.。:：!！?？…") == ""
}

// visitorNamedRE names the one in front of her in the third person, as the
// prompts do (the person, the user; la personne; die Person; 这个人, 用户),
// accents folded.
var visitorNamedRE = regexp.MustCompile(`(?i)\b(?:the|this)\s+(?:user|person|visitor|human|interlocutor)\b(\s+\p{L}+)?` +
	`|\b(?:l'|la\s+|le\s+|cette\s+)(?:utilisat(?:eur|rice)|personne|visit(?:eur|euse)|interlocut(?:eur|rice))\b(\s+\p{L}+)?` +
	`|\b(?:der|die|diese[rm]?|dem|den)\s+(?:nutzer(?:in)?|benutzer(?:in)?|person|besucher(?:in)?|gesprachspartner(?:in)?)\b(\s*,?\s*\p{L}+)?` +
	`|()(?:这个人|这位访客|这位用户|用户|对方)()(?:[，,。！？、：:；\s]|$|的|是|在|想|要|说|问|没|还|也|就|现在)`)

// relativeWords open a clause that tells which person is meant ("the person
// who built me", "la personne qui", "die Person, die"), or where ("next
// to"): someone other than the listener.
var relativeWords = set("who", "whom", "that", "which", "whose", "next", "behind", "beside", "qui", "que", "dont", "a", "derriere",
	"die", "der", "welche", "neben", "hinter")

// afterName are the words that may follow the visitor's name in the
// prompt's voice: a verb, a preposition, a conjunction. Any other word
// makes a compound ("the user manual", "the human body", "die
// Besucherzahl" apart): a thing, not the listener.
var afterName = set("is", "was", "has", "had", "wants", "asked", "asks", "said", "says", "seems", "in", "at", "with", "about", "of", "to",
	"standing", "speaking", "talking", "here", "there", "and", "or", "but", "you", "i",
	"est", "etait", "veut", "demande", "dit", "semble", "avec", "de", "du", "des", "en", "et", "ou", "mais", "vous", "je",
	"ist", "war", "hat", "will", "mochte", "fragt", "sagt", "weiss", "weis", "mit", "von", "uber", "und", "oder", "aber", "du", "ich")

// speaksOfListener reports a sentence that names the visitor in the third
// person as the prompts do and speaks to them in the second person: the
// prompt's words about the one she speaks to ("Je ne sais rien de vous, la
// section sur ce que je sais de la personne est vide", "关于这个人，我目前没有
// 任何信息，不过我很想知道你的名字").
func speaksOfListener(clean string) bool {
	folded := foldMarks(clean)
	listening := false
	for _, w := range words(folded) {
		if secondPerson[w] {
			listening = true
			break
		}
	}
	if !listening {
		return false
	}
	for _, m := range visitorNamedRE.FindAllStringSubmatch(folded, -1) {
		raw := m[1] + m[2] + m[3]
		next := strings.ToLower(strings.TrimLeft(raw, " ,"))
		switch {
		case relativeWords[next]:
			// someone meant by a clause: not the listener
		case next == "" || strings.HasPrefix(strings.TrimLeft(raw, " "), ","):
			return true // the name ends its clause ("… de la personne, …")
		case afterName[next]:
			return true
		}
	}
	return false
}
