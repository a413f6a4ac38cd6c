package speakable

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Assistant-isms: Nadine is a social robot, not an assistant, so a model's
// "As an AI …" is removed (frames around a role, docs/architecture.md#speakable).

// identity are the names of what an assistant says it is: Latin-script
// ones end at a word boundary, the others anywhere.
const identity = `(?:(?:a\.?\s?i\.?|artificial intelligence|(?:large )?language models?|llms?|chat ?bots?|(?:virtual |digital |ai |helpful )?assistants?|ai models?|machine learning models?|computer programs?|` +
	`ia|intelligence artificielle|modèles? de langage|assistante?s?(?: virtuel(?:le)?s?)?|agents? conversationnels?|programmes? informatiques?|` +
	`ki(?:-sprachmodell)?|künstliche intelligenz|sprachmodell(?:e)?|(?:virtueller? )?assistent(?:in)?|computerprogramm)\b|` +
	`人工智能|语言模型|助手|聊天机器人|AI助手|AI模型)`

var (
	// asRE opens a clause that presents the speaker as one: "As an AI
	// language model, …", "En tant qu'IA, …", "Als KI …", "作为一个人工智能，…".
	asRE = regexp.MustCompile(`(?i)^\s*(?:as|being|en tant qu(?:e|')\s*|comme|als|作为)\s*(?:an?|the|une?|l'|la|le|eine?|ein|一个|一名|一款)?\s*(?:[\p{L}-]+\s+){0,2}?` + identity)
	// clauseEndRE ends the clause asRE opened.
	clauseEndRE = regexp.MustCompile(`[,;:，；：]`)
	// beingRE says the speaker is one: "I am an AI", "I'm just a language
	// model", "Je suis une IA", "Ich bin eine KI", "我是一个人工智能".
	beingRE = regexp.MustCompile(`(?i)(?:\bi\s+am|\bi'm|\bje suis|\bj'suis|\bich bin|我是|我只是|我仅仅是)\s*(?:(?:only|just|merely|simply|seulement|juste|nur|bloß|eigentlich|actually|really|an?|the|une?|eine?|ein|一个|一款|一名)\s*){0,3}(?:[\p{L}-]+\s+){0,2}?` + identity)
	// negatedRE denies the role ("not an assistant"): hers to say.
	negatedRE = regexp.MustCompile(`(?i)(?:\bnot|\bpas|\bkein(?:e|en)?|\bnicht|不是)\s*(?:(?:just|only|a|an|une?|eine?|ein|一个)\s*){0,2}` + identity)
	// trainingRE speaks of a model's training and its cut-off date.
	trainingRE = regexp.MustCompile(`(?i)(?:training data|knowledge cut-?off|as of my last (?:update|training)|my training|données d'entraînement|mon entraînement|trainingsdaten|wissensstand|训练数据|知识截止)`)
	// offerRE offers more service.
	offerRE = regexp.MustCompile(`(?i)(?:anything else|any other questions|further questions|more questions)[^.!?]{0,40}\b(?:help|assist)|` +
		`\b(?:help|assist)\b[^.!?]{0,30}\banything else|how (?:can|may) i (?:help|assist)|(?:happy|glad|here) to (?:help|assist)|at your service|` +
		`hope (?:this|that|it) helps|feel free to|don't hesitate to|do not hesitate to|let me know if|` +
		`autre chose[^.!?]{0,30}\baider|d'autres questions|n'hésitez pas|j'espère que cela (?:vous )?aide|comment puis-je vous aider|ravie? de vous aider|` +
		`noch etwas[^.!?]{0,30}\bhelfen|weitere fragen|zögern sie nicht|ich hoffe,? (?:das|dies) hilft|wie kann ich (?:dir|ihnen|euch) helfen|` +
		`还有什么[^。！？]{0,10}帮|有什么(?:可以|能|需要)[^。！？]{0,6}帮|希望(?:这|这些)?(?:对你|对您)?有(?:所)?帮助|随时(?:问|提问|告诉)|为(?:您|你)服务`)
	// cannotRE denies an ability or a possession, in the first person's
	// clause a frame introduces.
	cannotRE = regexp.MustCompile(`(?i)\b(?:can't|can ?not|cannot|couldn't|am unable|am not able|don't|do not|have no|n'ai (?:pas|aucune?)|ne (?:peux|sais|suis) pas|kann (?:\S+ )?(?:nicht|kein\w*)|habe (?:\S+ )?(?:nicht|kein\w*))\b|无法|不能|没有|不会`)
	// leadingButRE is the conjunction a clause after a removed one starts
	// with.
	leadingButRE = regexp.MustCompile(`(?i)^\s*(?:(?:but|mais|aber|doch|however|cependant|jedoch)\b|但是|但|不过|可是)\s*[,，]?\s*`)
	// butRE joins what a sentence says after an assistant-ism.
	butRE = regexp.MustCompile(`(?i)(?:,\s*(?:but|mais|aber|doch|however|cependant|jedoch)\s+|[，,]\s*(?:但是|但|不过|可是)\s*)`)

	// lacking and selfParts make a disclaimer: the speaker lacks feelings,
	// opinions, a body, a consciousness.
	lacking = lexicon{prefixes: []string{"lack", "kein", "keine", "keinen", "keiner"},
		phrases: []string{"don t have", "do not have", "have no", "cannot have", "can t have", "cannot feel", "can t feel", "don t feel", "do not feel",
			"n ai pas", "n ai aucun", "n ai aucune", "ne possede pas", "ne ressens pas", "ne peux pas ressentir"},
		cjk: []string{"没有", "不具备", "无法拥有", "不能拥有", "无法感受", "不能感受"}}
	selfParts = lexicon{prefixes: []string{"feeling", "emotion", "opinion", "preference", "body", "conscious", "sentiment", "corps", "conscience", "gefuhl", "meinung", "korper", "bewusstsein", "empfindung"},
		phrases: []string{"personal experiences"},
		cjk:     []string{"感情", "情感", "情绪", "身体", "意识", "观点", "看法", "意见", "感受"}}
)

// triggers are substrings every assistant-ism holds one of: without any,
// the frames' expressions are not tried.
var triggers = []string{"ai", "a.i", "intelligen", "model", "modèle", "llm", "bot", "assist", "program", "agent", "ia", "ki",
	"train", "cut", "update", "entraîn", "wissen", "help", "question", "free", "hesit", "know", "hope", "service",
	"aider", "autre", "hésit", "helfen", "frage", "zöger", "hoffe", "feel", "emotion", "opinion", "body", "conscious", "sentiment",
	"corps", "gefühl", "meinung", "körper", "bewusst", "empfind", "人工智能", "模型", "助手", "机器人", "训练", "知识", "帮", "服务", "随时",
	"感情", "情感", "情绪", "身体", "意识", "观点", "看法", "意见", "感受"}

func mayBeAssistantism(s string) bool {
	l := strings.ToLower(s)
	for _, t := range triggers {
		if strings.Contains(l, t) {
			return true
		}
	}
	return false
}

// assistantism returns the sentence without its assistant-isms: a leading
// "As an AI …" clause removed, or "" when the whole sentence is one.
func assistantism(s string) string {
	if !mayBeAssistantism(s) {
		return s
	}
	if loc := asRE.FindStringIndex(s); loc != nil {
		end := clauseEndRE.FindStringIndex(s[loc[1]:])
		if end == nil {
			return "" // "Als KI habe ich keinen Körper."
		}
		rest := s[loc[1]+end[1]:]
		if !leadingButRE.MatchString(rest) {
			// What the frame introduces, up to a "but", is said as the
			// assistant: a denial of what she can do or has is its
			// disclaimer ("Being an AI, I can't actually see you").
			head, tail := rest, ""
			if b := butRE.FindStringIndex(rest); b != nil {
				head, tail = rest[:b[0]], rest[b[1]:]
			}
			if cannotRE.MatchString(head) {
				return capitalize(strings.TrimSpace(tail))
			}
		}
		s = capitalize(strings.TrimSpace(leadingButRE.ReplaceAllString(rest, "")))
	}
	if isAssistantism(s) {
		if loc := butRE.FindStringIndex(s); loc != nil && isAssistantism(s[:loc[0]]) && !isAssistantism(s[loc[1]:]) {
			return capitalize(strings.TrimSpace(s[loc[1]:]))
		}
		return ""
	}
	return s
}

// isAssistantism reports whether a sentence presents the speaker as an
// assistant, disclaims what she has, talks of training or offers service.
func isAssistantism(s string) bool {
	if beingRE.MatchString(s) && !negatedRE.MatchString(s) {
		return true
	}
	if trainingRE.MatchString(s) || offerRE.MatchString(s) {
		return true
	}
	t := newText(s)
	return (anyOf(t.words, firstPerson) || strings.Contains(s, "我")) && lacking.in(t) && selfParts.in(t)
}

// capitalize makes the first letter of s a capital.
func capitalize(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}
