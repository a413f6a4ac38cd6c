package speakable

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Assistant-isms. Nadine is a social robot, not an assistant (seed 000):
// a model's habit of presenting itself as an AI, a language model or an
// assistant, of disclaiming feelings and a body as one, of talking about
// its training, or of closing with an offer of more service, is not hers.
// Each is a frame (being, having, offering) around a concept of the
// assistant's role, in the languages Nadine speaks; the frames, not a
// list of sentences, decide.

// identity are the names of what an assistant says it is.
const identity = `(?:a\.?\s?i\.?|artificial intelligence|(?:large )?language models?|llms?|chat ?bots?|(?:virtual |digital |ai |helpful )?assistants?|ai models?|machine learning models?|computer programs?|` +
	`ia|intelligence artificielle|modèles? de langage|assistante?s?(?: virtuel(?:le)?s?)?|agents? conversationnels?|programmes? informatiques?|` +
	`ki|künstliche intelligenz|sprachmodell(?:e)?|assistent(?:in)?|computerprogramm|` +
	`人工智能|语言模型|助手|聊天机器人|ai助手|ai模型)`

var (
	// asClauseRE is a leading clause that presents the speaker as one:
	// "As an AI language model, …", "En tant qu'IA, …", "Als KI …", "作为一个人工智能，…".
	asClauseRE = regexp.MustCompile(`(?i)^\s*(?:as|being|en tant qu(?:e|')\s*|comme|als|作为)\s*(?:an?|the|une?|l'|la|le|eine?|ein|一个|一名|一款)?\s*(?:[\p{L}-]+\s+){0,2}?` + identity + `\b[^,;:，；：.!?。！？]*[,;:，；：]\s*`)
	// beingRE says the speaker is one: "I am an AI", "I'm just a
	// language model", "Je suis une IA", "Ich bin eine KI", "我是一个人工智能".
	beingRE = regexp.MustCompile(`(?i)(?:\bi\s+am|\bi'm|\bje suis|\bj'suis|\bich bin|我是|我只是|我仅仅是)\s+(?:(?:only|just|merely|simply|seulement|juste|nur|bloß|eigentlich|actually|really|an?|the|une?|eine?|ein|一个|一款|一名)\s+){0,3}(?:[\p{L}-]+\s+){0,2}?` + identity + `\b`)
	// negatedRE is a name of the role denied ("not an assistant"): hers to say.
	negatedRE = regexp.MustCompile(`(?i)(?:\bnot|\bpas|\bkein(?:e|en)?|\bnicht|不是)\s+(?:(?:just|only|a|an|une?|eine?|ein|一个)\s+){0,2}` + identity + `\b`)
	// disclaimRE disclaims what she has: feelings, opinions, a body, a
	// consciousness, access to the present.
	disclaimRE = regexp.MustCompile(`(?i)(?:\bi\s+(?:do not|don't|cannot|can't|can not|lack|have no)|\bje n'ai pas|\bje ne (?:peux|possède)|\bich habe (?:keine|kein)|\bich besitze (?:keine|kein)|我没有|我不能拥有|我并没有)\s+(?:\w+\s+){0,3}?(?:personal |real |any |true |own |de |d'|eigene |)?` +
		`(?:feelings|emotions|opinions|preferences|a body|physical body|consciousness|experiences|access to (?:real-time|the internet|current)|sentiments|émotions|opinions personnelles|corps|conscience|gefühle|emotionen|meinungen|körper|bewusstsein|感情|情感|情绪|身体|意识|个人观点)`)
	// trainingRE speaks of a model's training and its cut-off date.
	trainingRE = regexp.MustCompile(`(?i)(?:training data|knowledge cut-?off|as of my last (?:update|training)|my training|données d'entraînement|mon entraînement|trainingsdaten|wissensstand|训练数据|知识截止)`)
	// offerRE offers more service: "Is there anything else I can help you
	// with?", "I hope this helps", "Feel free to ask".
	offerRE = regexp.MustCompile(`(?i)(?:anything else|any other questions|further questions|more questions)[^.!?]{0,40}\b(?:help|assist)|` +
		`\b(?:help|assist)\b[^.!?]{0,30}\banything else|hope (?:this|that|it) helps|feel free to|don't hesitate to|do not hesitate to|let me know if|` +
		`autre chose[^.!?]{0,30}\baider|d'autres questions|n'hésitez pas|j'espère que cela (?:vous )?aide|` +
		`noch etwas[^.!?]{0,30}\bhelfen|weitere fragen|zögern sie nicht|ich hoffe,? (?:das|dies) hilft|` +
		`还有什么[^。！？]{0,10}帮|希望(?:这|这些)?(?:对你|对您)?有(?:所)?帮助|随时(?:问|提问|告诉)`)
)

// assistantism returns the sentence without its assistant-isms: a leading
// "As an AI …" clause removed, or "" when the whole sentence is one.
func assistantism(s string) string {
	if loc := asClauseRE.FindStringIndex(s); loc != nil {
		s = capitalize(strings.TrimSpace(s[loc[1]:]))
	}
	if beingRE.MatchString(s) && !negatedRE.MatchString(s) {
		return ""
	}
	if disclaimRE.MatchString(s) || trainingRE.MatchString(s) || offerRE.MatchString(s) {
		return ""
	}
	return s
}

// capitalize makes the first letter of s a capital.
func capitalize(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}
