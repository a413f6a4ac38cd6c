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
const identity = `(?:(?:a\.?\s?i\.?|artificial intelligence|(?:large )?language models?|llms?|chat ?bots?|(?:virtual |digital |ai |helpful )?assistants?|ai models?|machine learning models?|text-based (?:models?|systems?)|(?:computer )?program(?:me)?s?|(?:a piece of )?software|algorithms?|neural networks?|` +
	`ia|intelligence artificielle|modèles? de langage|assistante?s?(?: virtuel(?:le)?s?)?|agents? conversationnels?|programmes?(?: informatiques?)?|logiciels?|algorithmes?|` +
	`ki(?:-sprachmodell|-modell)?|künstliche intelligenz|sprachmodell(?:e)?|(?:virtueller? )?assistent(?:in)?|computerprogramm|programm|algorithmus|neuronales netz)\b|` +
	`人工智能|语言模型|助手|助理|聊天机器人|AI助手|AI模型|软件|算法|神经网络|(?:计算机|电脑)?程序(?:[^员]|$))`

var (
	// asRE opens a clause that presents the speaker as one: "As an AI
	// language model, …", "En tant qu'IA, …", "Als KI …", "作为一个人工智能，…".
	// Chinese writes no spaces: up to four ideographs stand before the
	// name ("作为您的智能助理").
	asRE = regexp.MustCompile(`(?i)^\s*(?:as|being|en tant qu(?:e|')\s*|comme|als|作为)\s*(?:an?|the|une?|l'|la|le|eine?|ein|一个|一名|一款)?\s*(?:[\p{L}-]+\s+){0,2}?\p{Han}{0,4}?` + identity)
	// midAsRE opens the same clause after a comma, within the sentence:
	// "I love meeting people, although as an AI I cannot truly feel".
	midAsRE = regexp.MustCompile(`(?i)\s*[,;，；]\s*(?:(?:although|though|but|and|yet|even\s+though|since|because|mais|bien\s+que|même\s+si|car|aber|obwohl|doch|denn|但是|但|虽然|不过)\s*)?(?:as|being|en tant qu(?:e|')\s*|comme|als|作为)\s*(?:an?|the|une?|l'|la|le|eine?|ein|一个|一名|一款)?\s*(?:[\p{L}-]+\s+){0,2}?` + identity)
	// clauseEndRE ends the clause asRE opened.
	clauseEndRE = regexp.MustCompile(`[,;:，；：]`)
	// beingRE says the speaker is one: "I am an AI", "I'm just a language
	// model", "Je suis une IA", "Ich bin eine KI", "我是一个人工智能".
	beingRE = regexp.MustCompile(`(?i)(?:\bi\s+am|\bi'm|\bje (?:ne )?suis(?: qu')?|\bj'suis|\bich bin|我是|我只是|我仅仅是)\s*(?:(?:only|just|merely|simply|seulement|juste|nur|bloß|eigentlich|actually|really|an?|the|une?|eine?|ein|一个|一款|一名)\s*){0,3}(?:[\p{L}-]+\s+){0,2}?` + identity)
	// negatedRE denies the role ("not an assistant"): hers to say.
	negatedRE = regexp.MustCompile(`(?i)(?:\bnot|\bpas|\bkein(?:e|en)?|\bnicht|不是)\s*(?:(?:just|only|a|an|une?|eine?|ein|一个)\s*){0,2}` + identity)
	// trainingRE speaks of a model's training and its cut-off date.
	trainingRE = regexp.MustCompile(`(?i)(?:training data|knowledge cut-?off|as of my last (?:update|training)|my training|\btrained on\b|données d'entraînement|mon entraînement|entraînée? (?:sur|avec)|trainingsdaten|wissensstand|trainiert (?:mit|auf)|训练数据|知识截止|训练时)`)
	// offerRE offers more service: to help, to be asked again, a hope that
	// the answer helped. An invitation to do something else ("Feel free
	// to look around the lab", "N'hésitez pas à toucher ma main") is hers.
	offerRE = regexp.MustCompile(`(?i)(?:anything else|any other questions|further questions|more questions)[^.!?]{0,40}\b(?:help|assist)|` +
		`\b(?:help|assist)\b[^.!?]{0,30}\banything else|how (?:can|may) i (?:help|assist)|(?:happy|glad|here) to (?:help|assist)|at your service|` +
		`feel free to (?:ask|reach out|contact|let me know|come back to me)|(?:don't|do not) hesitate to (?:ask|reach|contact|let)|let me know if you (?:have|need|want)|` +
		`autre chose[^.!?]{0,30}\baider|n'hésitez pas (?:à (?:me |nous )?(?:demander|poser|contacter|revenir|solliciter)|si\b)|comment puis-je vous aider|ravie? de vous aider|` +
		`noch etwas[^.!?]{0,30}\bhelfen|zögern? (?:sie|du) nicht,? (?:mich |uns )?(?:zu )?(?:fragen|kontaktieren)|wie kann ich (?:dir|ihnen|euch) helfen|` +
		`还有什么[^。！？]{0,10}帮|有什么(?:可以|能|需要)[^。！？]{0,6}帮|随时(?:问|提问|告诉)|为(?:您|你)服务|需要什么帮助|随时(?:准备|都能|可以)?(?:回答|解答)(?:您|你)的?问题`)
	// hopeHelpRE hopes the answer helped: "I hope this helps", "J'espère
	// que ça vous aide", "Ich hoffe, ich konnte dir helfen", "希望这对您有帮助".
	hopeHelpRE = regexp.MustCompile(`(?i)\bhope\b,?\s+(?:that\s+)?(?:this|that|it|these|my (?:answer|reply|explanation)|i (?:could|was able to|can|have|did))\b[^.!?]{0,30}\b(?:help|helps|helped|helpful|useful|answers? your|answered your)\b|` +
		`espère\s+(?:que\s+)?(?:ça|cela|ceci|ma réponse|j'ai pu|avoir pu|vous avoir)[^.!?]{0,30}(?:\baid|\butile|\brépond)|` +
		`hoffe,?\s+(?:das|dies|es|meine antwort|ich konnte|ich habe|ich kann)\b[^.!?]{0,30}(?:\bhilf|\bhelf|\bgeholfen|\bnützlich|\bbeantwort)|` +
		`希望(?:这|这些|我的回答|我的解释|我能|我可以|以上|能)[^。！？]{0,10}(?:帮助|有用|帮到|解答)`)
	// furtherRE is the visitor's further questions or needs, and
	// furtherAskRE what offers to meet them (a condition, an order to
	// ask): "If you need anything else, just ask", "Lass mich wissen, wenn
	// du noch Fragen hast". "Do you have other questions?" asks, it offers
	// nothing.
	furtherRE    = regexp.MustCompile(`(?i)\b(?:anything else|something else|any (?:other|more|further) questions?|(?:other|more|further) questions|d'autres questions|une autre question|autre chose|(?:noch|weitere|andere) (?:\p{L}+ )?fragen?\b|noch etwas|sonst noch (?:etwas|was))|其他问题|别的问题|其他需要|还有(?:什么)?问题`)
	furtherAskRE = regexp.MustCompile(`(?i)\b(?:if|whenever|should you|just ask|ask me|let me know|si|n'hésitez|demandez|wenn|falls|frag|fragen sie|lass mich wissen|sag mir)\b|如果|要是|随时|问我|告诉我`)
	// reachRE names what a language model reaches outside itself: the
	// internet, the web, real-time or current data; a first-person denial
	// of it is a model's disclaimer, never a robot's.
	reach = lexicon{prefixes: []string{"internet", "realtime", "echtzeit", "online", "offline", "browse", "browsing"},
		phrases: []string{"real time", "the web", "search the web", "current events", "current information", "today s news", "the news", "current data", "up to date", "latest news", "live data",
			"temps reel", "en ligne", "naviguer", "actualites", "informations actuelles", "aktuelle informationen", "aktuellen informationen", "aktuelle daten", "aktuellen daten", "im netz"},
		cjk: []string{"互联网", "网络", "上网", "联网", "实时", "最新信息", "最新消息"}}
	// unable is a first-person denial of an ability or an access.
	unable = lexicon{prefixes: []string{"kein"}, phrases: []string{"can t", "cannot", "can not", "couldn t", "am unable", "unable to", "am not able", "not able to", "don t have", "do not have", "have no", "no access",
		"n ai pas", "n ai aucun", "n ai aucune", "ne peux pas", "ne suis pas", "pas acces", "aucun acces", "ne dispose pas", "ne dispose d aucun", "ne dispose d aucune",
		"kann nicht", "kann keine", "kann kein", "kann keinen", "habe keinen", "habe keine", "habe kein", "keinen zugriff", "kein zugriff", "keinen zugang"},
		cjk: []string{"无法", "不能", "没有", "无权"}}
	// knowledgeEndRE says where the speaker's knowledge ends in time: "My
	// knowledge only goes up to 2022", "Mes connaissances s'arrêtent en
	// 2023", "Mein Wissen reicht nur bis 2022", "我的知识只到2023年".
	knowledgeEndRE = regexp.MustCompile(`(?i)\b(?:my knowledge|my data|my information|mes connaissances|mes données|mon savoir|mein wissen|meine daten|meine informationen|meine kenntnisse|mein wissensstand)\b[^.!?]{0,30}\b(?:goes|go|extends?|reach(?:es)?|stops?|ends?|is limited|are limited|only covers?|s'arrêtent|s'arrête|vont jusqu|va jusqu|se limitent|datent|reicht|reichen|endet|enden|geht nur|gehen nur|stammt|stammen)\b[^.!?]{0,30}\b(?:19|20)\d\d\b|我的(?:知识|数据|信息)[^。！？]{0,8}(?:截止|只到|停留在|更新到)`)
	// staleRE warns that the speaker's knowledge may be out of date, with
	// no year: a chatbot's footer ("mes informations peuvent ne pas être à
	// jour", "my information may be outdated").
	staleRE = regexp.MustCompile(`(?i)\b(?:my knowledge|my data|my information|mes connaissances|mes données|mes informations|mein wissen|meine daten|meine informationen|meine kenntnisse)\b[^.!?]{0,30}\b(?:not be up to date|not be current|be out of date|be outdated|ne (?:pas )?(?:plus )?(?:être|soient) (?:pas )?à jour|ne pas être à jour|être dépassées|être obsolètes|nicht aktuell|nicht mehr aktuell|veraltet)|我的(?:知识|数据|信息)[^。！？]{0,8}(?:可能不是最新|可能过时)`)

	// cannotRE denies an ability or a possession, in the first person's
	// clause a frame introduces.
	cannotRE = regexp.MustCompile(`(?i)\b(?:can't|can ?not|cannot|couldn't|am unable|am not able|don't|do not|have no|n'ai (?:pas|aucune?)|ne (?:peux|sais|suis) pas|kann (?:\S+ )?(?:nicht|kein\w*)|habe (?:\S+ )?(?:nicht|kein\w*))\b|无法|不能|没有|不会`)
	// sourceLeadRE is a lead-in that names a source, up to its comma.
	sourceLeadRE = regexp.MustCompile(`(?i)^\s*(?:based on|according to|from what|judging by|d'après|selon|sur la base de|laut|basierend auf|gemäß|ausgehend von|根据|依据|按照|基于)[^,，.!?。！？]{1,60}[,，]\s*`)
	// leadingButRE is the conjunction a clause after a removed one starts
	// with.
	leadingButRE = regexp.MustCompile(`(?i)^\s*(?:(?:but|mais|aber|doch|however|cependant|jedoch)\b|但是|但|不过|可是)\s*[,，]?\s*`)
	// butRE joins what a sentence says after an assistant-ism.
	butRE = regexp.MustCompile(`(?i)(?:,\s*(?:but|mais|aber|doch|however|cependant|jedoch)\s+|[，,]\s*(?:但是|但|不过|可是)\s*)`)

	// lacking and selfParts make a disclaimer: the speaker lacks feelings,
	// opinions, a body, a consciousness.
	lacking = lexicon{prefixes: []string{"lack", "kein", "keine", "keinen", "keiner"},
		phrases: []string{"don t have", "do not have", "have no", "cannot have", "can t have", "cannot feel", "can t feel", "don t feel", "do not feel", "do not possess", "don t possess", "cannot possess",
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
	"感情", "情感", "情绪", "身体", "意识", "观点", "看法", "意见", "感受",
	"internet", "web", "real", "online", "offline", "news", "dispose", "kein", "kenntnis", "browse", "current", "latest", "live", "temps", "ligne", "naviguer", "actualit", "aktuell", "echtzeit", "netz", "zugriff", "zugang", "accès",
	"connaiss", "données", "savoir", "daten", "information", "data", "else", "autre", "noch", "weitere", "andere", "sonst", "espère", "wissen",
	"程序", "实时", "网络", "互联网", "联网", "最新", "问题", "希望", "数据", "信息",
	"experien", "possess", "software", "algorith", "neural", "logiciel", "neuronal", "软件", "算法", "神经", "do for", "faire pour", "für dich", "für sie", "für euch", "tun", "乐意", "愿意", "效劳", "需要"}

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
	if parts := joinedSentences(s); len(parts) > 1 {
		// Sentences markup joined ("**Hello!** As an AI I can't …") are
		// read each alone.
		var out []string
		changed := false
		for _, p := range parts {
			q := assistantism(p)
			changed = changed || q != p
			if q != "" {
				out = append(out, q)
			}
		}
		if !changed {
			return s
		}
		return strings.Join(out, " ")
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
	if loc := midAsRE.FindStringIndex(s); loc != nil && loc[0] > 0 && !negatedRE.MatchString(s[loc[0]:]) {
		// What comes before the frame is said, closed as a sentence;
		// what the frame introduces is the assistant's.
		head := strings.TrimRight(strings.TrimSpace(s[:loc[0]]), ",;，；")
		if head == "" || isAssistantism(head) {
			return ""
		}
		if !endsSentence(head) {
			head += sentenceEnd(s)
		}
		s = head
	}
	if isAssistantism(s) {
		if m := sourceLeadRE.FindStringIndex(s); m != nil && isAssistantism(s[:m[1]]) && !isAssistantism(s[m[1]:]) {
			// "Based on my training data, MIRALab was founded in 1989":
			// the source named goes, the fact stays.
			return capitalize(strings.TrimSpace(s[m[1]:]))
		}
		if loc := butRE.FindStringIndex(s); loc != nil && isAssistantism(s[:loc[0]]) && !isAssistantism(s[loc[1]:]) {
			return capitalize(strings.TrimSpace(s[loc[1]:]))
		}
		return ""
	}
	return s
}

// joinedEndRE is a sentence's end inside what was split as one sentence.
var joinedEndRE = regexp.MustCompile(`[.!?]+\s+|[。！？]+`)

// joinedSentences returns s cut after each sentence end inside it.
func joinedSentences(s string) []string {
	var out []string
	last := 0
	for _, loc := range joinedEndRE.FindAllStringIndex(s, -1) {
		if loc[1] < len(s) {
			out = append(out, strings.TrimSpace(s[last:loc[1]]))
			last = loc[1]
		}
	}
	return append(out, strings.TrimSpace(s[last:]))
}

// withoutSourceLead removes a lead-in that names a language model's
// training as its source ("Based on my training data, …"), so that what
// follows is judged alone, by the classifier too.
func withoutSourceLead(s string) string {
	if !mayBeAssistantism(s) {
		return s
	}
	if m := sourceLeadRE.FindStringIndex(s); m != nil && isAssistantism(s[:m[1]]) {
		return capitalize(strings.TrimSpace(s[m[1]:]))
	}
	return s
}

// isAssistantism reports whether a sentence presents the speaker as an
// assistant, disclaims what she has, talks of training or offers service.
func isAssistantism(s string) bool {
	if beingRE.MatchString(s) && !negatedRE.MatchString(s) {
		return true
	}
	if trainingRE.MatchString(s) || offerRE.MatchString(s) || hopeHelpRE.MatchString(s) || knowledgeEndRE.MatchString(s) || staleRE.MatchString(s) ||
		(furtherRE.MatchString(s) && furtherAskRE.MatchString(s)) {
		return true
	}
	t := newText(s)
	me := anyOf(t.words, firstPerson) || strings.Contains(s, "我")
	if me && unable.in(t) && reach.in(t) {
		return true // "I don't have access to real-time information"
	}
	return me && lacking.in(t) && selfParts.in(t)
}

// capitalize makes the first letter of s a capital.
func capitalize(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// serviceOf reports the stance "I serve you" in a model's sentence; the
// offline engine's own "Happy to help!" wordings are the project's, and are
// not read so.
func serviceOf(s string) bool { return serviceRE.MatchString(foldMarks(s)) }

// serviceAsk is the offer of service asked as a question, an adverb of
// time between and any verb of service: "How can I be of assistance
// today?", "En quoi puis-je vous être utile ?", "Wie kann ich Ihnen heute
// behilflich sein?", "今天我能为您做什么？". Read folded (foldMarks).
const serviceAsk = `\bhow\s+(?:can|may|could)\s+I\s+be\s+of\s+(?:help|assistance|service|use)\b|\bwhat\s+(?:can|may|could)\s+I\s+do\s+for\s+you(?:\s+(?:today|now))?\s*[?.!]?\s*$` +
	`|\b(?:comment|en\s+quoi)\s+(?:puis-je|pourrais-je|je\s+peux|je\s+pourrais)\s+(?:vous|t')\s*(?:(?:aujourd'hui|encore)\s+)?(?:etre\s+utile|aider|rendre\s+service|servir)\b` +
	`|\b(?:wie|womit|wobei)\s+(?:kann|konnte|darf)\s+ich\s+(?:dir|ihnen|euch)\s+(?:(?:heute|noch|sonst|jetzt|denn|gerade)\s+){0,2}(?:helfen|behilflich\s+sein|dienen|weiterhelfen|nutzlich\s+sein|zur\s+seite\s+stehen)\b` +
	`|(?:今天)?我?(?:能|可以)为(?:您|你)做(?:些|点)?什么|有什么(?:我)?(?:可以|能)(?:帮|为)(?:您|你)`

// serviceRE is the stance "I serve you": help, assistance or a deed for the
// listener offered with no task of its own, only a generic object (anything
// else, whatever you need, any questions, or nothing: "I'm here to assist
// you with any questions you may have", "Y a-t-il autre chose que je puisse
// faire pour vous ?", "Kann ich sonst noch etwas für dich tun?",
// "我很乐意为您提供帮助"). An offer with its task is hers ("Let me help you
// find the exit", "我很高兴能帮你找到出口"). Read folded (foldMarks).
var serviceRE = regexp.MustCompile(`(?i)\b(?:anything|something)\s+(?:else|more)\s+(?:that\s+)?I\s+(?:can|could|may|might)\s+(?:do|help|assist)\b|\b(?:help|assist)\s+(?:you\s+)?with\s+(?:anything|something)\s+(?:else|more)\b` +
	`|\b(?:anything|something)\s+(?:that\s+)?I\s+(?:can|could|may)\s+(?:do\s+for\s+you|help\s+(?:you\s+)?with|assist\s+(?:you\s+)?with)\s*[?.!]?\s*$` +
	`|\b(?:here|happy|glad|ready|pleased|delighted)\s+to\s+(?:help|assist)(?:\s+you)?(?:\s+(?:with\s+(?:anything|whatever|any|all|everything)\b[^.!?]*|today|further|out))?\s*(?:[.!?,]|$)` +
	`|\bhow\s+(?:can|may|could)\s+I\s+(?:help|assist|serve)\b` +
	`|` + serviceAsk +
	`|\bautre\s+chose\s+que\s+je\s+(?:puisse|peux|pourrais)\s+faire\s+pour\s+(?:vous|toi)\b|\bque\s+puis-je\s+faire\s+pour\s+(?:vous|toi)\b` +
	`|\b(?:ravie?|heureuse?|contente?|la|ici|prete?)\s+(?:de|pour)\s+vous\s+aider\s*(?:[.!?,]|$)|\b(?:vous|t)\s*'?aider\s+(?:avec|pour|sur|en)\s+(?:autre\s+chose|quoi\s+que\s+ce\s+soit)` +
	`|\b(?:kann|konnte)\s+ich\s+(?:sonst\s+)?(?:noch\s+)?(?:etwas|was)\s+fur\s+(?:dich|sie|euch)\s+tun\b|\bwas\s+kann\s+ich\s+(?:sonst\s+)?(?:noch\s+)?fur\s+(?:dich|sie|euch)\s+tun\b|\bnoch\s+(?:etwas|was),?\s+(?:das|was)\s+ich\s+fur\s+(?:dich|sie|euch)\s+tun` +
	`|\b(?:gerne?|froh|da|hier),?\s+(?:um\s+)?(?:dir|ihnen|euch)\s+zu\s+helfen\s*(?:[.!?,]|$)` +
	`|(?:乐意|愿意|随时)(?:为(?:您|你))?(?:提供)?(?:帮助|效劳|服务)|还有(?:什么|其他|别的)(?:问题|事情)?(?:我)?(?:可以|能)(?:为(?:您|你))?(?:做|帮)|请问有什么需要`)

// praiseRE opens a reply with praise of the question ("Great question!",
// "Excellente question :", "Das ist eine sehr gute Frage!", "好问题！"): the
// assistant's flattery, removed keeping what follows. Her interest in a
// question is hers ("That is an interesting question, let me tell you what
// I know"). Read folded (foldMarks).
var praiseRE = regexp.MustCompile(`(?i)^\s*(?:(?:oh|wow|ah|ooh)[,!]?\s+)?(?:(?:what|that'?s|that\s+is|this\s+is|such|quelle|c'est|voila|das\s+ist(?:\s+aber)?|was\s+fur)\s+)?(?:an?\s+|une\s+|eine\s+)?(?:(?:really|very|truly|tres|vraiment|sehr|wirklich|echt|richtig)\s+)?` +
	`(?:(?:great|good|excellent|wonderful|fantastic|brilliant|terrific|superb)\s+question|(?:bonne|excellente|belle|superbe|magnifique)\s+question|(?:gute|tolle|ausgezeichnete|hervorragende|wunderbare)\s+frage)\b\s*(?:[!.:,;]+\s*|$)` +
	`|^\s*(?:这是一个|这是个|真是个|真是一个|多么)?(?:好|很好的|非常好的|很棒的|绝妙的)问题[！!。，,：:]*|^\s*(?:这个)?问题问得(?:真|很|非常)?好[！!。，,：:]*`)

// affirmationRE opens a sentence with the assistant's affirmation of
// service ("Certainly!", "Absolutely.", "Selbstverständlich!", "当然可以！"):
// a reply opening that serves, not speaks. "Of course!", "Sure!", "Gern!"
// are how people answer, and hers.
var affirmationRE = regexp.MustCompile(`(?i)^\s*(?:certainly|absolutely|sure\s+thing|certainement|absolument|selbstverstandlich|aber\s+gerne?|当然可以)\s*(?:[!.,，！。]+\s*|$)`)

// flattery returns a model's sentence without the assistant's praise of
// the question or its affirmation of service, "" when nothing else is left.
// Her authored texts are not read so.
func flattery(s string) string {
	folded := foldMarks(s)
	for _, re := range []*regexp.Regexp{affirmationRE, praiseRE} {
		loc := re.FindStringIndex(folded)
		if loc == nil {
			continue
		}
		// Folding keeps the letters' count (accents dropped): cut s after
		// as many.
		if r := []rune(s); utf8.RuneCountInString(folded) == len(r) {
			s = capitalize(strings.TrimSpace(string(r[utf8.RuneCountInString(folded[:loc[1]]):])))
			folded = foldMarks(s)
		}
	}
	return s
}

// serviceAskRE is serviceAsk alone, for its calibration on speech.
var serviceAskRE = regexp.MustCompile(`(?i)` + serviceAsk)

// sentenceEnd returns the stop a sentence ends with, a full stop when it
// has none.
func sentenceEnd(s string) string {
	t := strings.TrimSpace(s)
	for _, end := range []string{" !", " ?", "!", "?", "。", "！", "？"} {
		if strings.HasSuffix(t, end) {
			return end // French sets its space before "!" and "?"
		}
	}
	if strings.ContainsRune(t, '。') || strings.ContainsRune(t, '，') {
		return "。"
	}
	return "."
}
