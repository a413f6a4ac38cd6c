package offline

import "github.com/nadine-robot/nadine"

// Facts Nadine knows without a model: about herself (from the persona) and
// about what the built-in knowledge base says (MIRALab, the University of
// Geneva, her creator, social robots, how she works). Each has a template
// "about_<fact>" in every language, so a fact found in the English
// knowledge base is said in the language of the conversation.
const (
	// Persona facts.
	fName     = "name"
	fIdentity = "identity"
	fCreator  = "creator"
	fAge      = "age"
	fPlace    = "place"
	fOrigin   = "origin"
	fModeled  = "modeled"
	fHuman    = "human"
	fEmotions = "emotions"
	// Knowledge facts.
	fMiralab      = "miralab"
	fUnige        = "unige"
	fThalmann     = "thalmann"
	fSocialRobots = "social_robots"
	fNTU          = "ntu"
	fHowWorks     = "how_it_works"
	fHearing      = "hearing"
	fSeeing       = "seeing"
	fThinking     = "thinking"
	fSpeaking     = "speaking"
	fMemory       = "memory"
	fRecognize    = "recognize"
	fExpressions  = "expressions"
	fRealWorld    = "real_world"
	fPersonality  = "personality"
	fAnswering    = "answering"
	fSinging      = "singing"
	// Facts another intent answers.
	fLanguages = "languages"
	fAbilities = "abilities"
	// Variants of facts, for templates only.
	fPlaceOther  = "place_other"  // a place with no translation in the language
	fAgeNew      = "age_new"      // first presented this year
	fSingingNone = "singing_none" // a song library without songs
)

// facts lists the facts with an about_ template of their own.
func facts() []string {
	return []string{fName, fIdentity, fCreator, fAge, fPlace, fOrigin, fModeled, fHuman, fEmotions,
		fMiralab, fUnige, fThalmann, fSocialRobots, fNTU, fHowWorks, fHearing, fSeeing, fThinking, fSpeaking,
		fMemory, fRecognize, fExpressions, fRealWorld, fPersonality, fAnswering, fSinging}
}

// personaFacts are answered as persona questions; the others are knowledge.
var personaFacts = map[string]bool{fName: true, fIdentity: true, fCreator: true, fAge: true, fPlace: true,
	fOrigin: true, fModeled: true, fHuman: true, fEmotions: true}

func aboutKey(fact string) string { return "about_" + fact }

// builtinSource is how the sources of the built-in knowledge base start.
const builtinSource = "default/"

// builtinSections maps each section of the built-in knowledge base (its
// title, "File title > Section") to the fact it states, so that a question
// the knowledge base answers with a built-in section is answered with the
// fact's wording in the language of the conversation. A test checks that
// every built-in section is mapped.
func builtinSections() map[string]string {
	const faq, works, can, home = "Frequently asked questions about Nadine > ", "How Nadine works > ",
		"What Nadine can do > ", "Nadine's research home > "
	return map[string]string{
		"Nadine > Who Nadine is":                                    fIdentity,
		"Nadine > Who Nadine is modeled on":                         fModeled,
		"Nadine > Where Nadine comes from":                          fOrigin,
		"Nadine > Nadine in the real world":                         fRealWorld,
		"Nadine > Nadine's personality":                             fPersonality,
		faq + "Who built Nadine?":                                   fCreator,
		faq + "Is Nadine a human?":                                  fHuman,
		faq + "Why does Nadine look like Professor Thalmann?":       fModeled,
		faq + "Does Nadine remember me?":                            fMemory,
		faq + "Can Nadine feel emotions?":                           fEmotions,
		faq + "Which languages does Nadine speak?":                  fLanguages,
		faq + "How old is Nadine?":                                  fAge,
		faq + "Where is Nadine now?":                                fPlace,
		faq + "What can I ask Nadine?":                              fAbilities,
		works + "Overview":                                          fHowWorks,
		works + "Hearing: speech recognition":                       fHearing,
		works + "Seeing: face recognition and perception":           fSeeing,
		works + "Thinking: the dialogue engine":                     fThinking,
		works + "Memory":                                            fMemory,
		works + "Emotions":                                          fEmotions,
		works + "Speaking and moving: text-to-speech and animation": fSpeaking,
		can + "Recognizing people":                                  fRecognize,
		can + "Remembering conversations":                           fMemory,
		can + "Emotions, facial expressions and gestures":           fExpressions,
		can + "Languages":                                           fLanguages,
		can + "Answering questions":                                 fAnswering,
		can + "Singing":                                             fSinging,
		can + "Seeing":                                              fSeeing,
		home + "MIRALab":                                            fMiralab,
		home + "The University of Geneva":                           fUnige,
		home + "Professor Nadia Magnenat Thalmann":                  fThalmann,
		home + "Social robots":                                      fSocialRobots,
		home + "Nanyang Technological University":                   fNTU,
	}
}

// anyLanguage marks cue phrases that are names, the same in every language
// ("MIRALab"): they decide the fact, not the language of the reply.
const anyLanguage nadine.Language = "*"

// factCues lists, per fact and language, phrases that ask for it. They are
// matched like the phrase table (whole words; Chinese as substrings); the
// longest cue wins.
func factCues() map[string]map[nadine.Language][]string {
	const en, fr, de, zh = nadine.English, nadine.French, nadine.German, nadine.Chinese
	return map[string]map[nadine.Language][]string{
		fName: {
			en: {"what is your name", "what's your name", "whats your name", "tell me your name", "your name",
				"is your name", "what are you called", "who am i talking to", "who am i speaking to"},
			fr: {"comment vous appelez-vous", "comment vous vous appelez", "comment t'appelles-tu", "comment tu t'appelles",
				"quel est votre nom", "quel est ton nom", "votre nom", "votre prénom", "c'est quoi votre nom",
				"vous vous appelez comment", "à qui ai-je l'honneur"},
			de: {"wie heißt du", "wie heißen sie", "wie heisst du", "wie heissen sie", "wie ist dein name",
				"wie ist ihr name", "dein name", "deinen namen", "ihren namen", "wie darf ich sie nennen"},
			zh: {"你叫什么", "您叫什么", "你的名字", "您的名字", "你叫啥", "怎么称呼你", "怎么称呼您", "您贵姓", "你是叫"},
		},
		fIdentity: {
			en: {"who are you", "what are you exactly", "tell me about yourself", "introduce yourself", "tell me about you",
				"who is nadine", "what is nadine", "describe yourself", "tell me something about yourself"},
			fr: {"qui êtes-vous", "qui es-tu", "présentez-vous", "présente-toi", "parlez-moi de vous",
				"qui est nadine", "qu'est-ce que vous êtes", "vous êtes qui", "décrivez-vous",
				"parle-moi de toi", "tu es qui", "t'es qui", "qu'est-ce que tu es", "décris-toi"},
			de: {"wer bist du", "wer sind sie", "was bist du", "was sind sie", "stell dich vor", "stellen sie sich vor",
				"erzähl mir von dir", "erzählen sie mir von sich", "wer ist nadine", "beschreib dich"},
			zh: {"你是谁", "您是谁", "介绍一下你自己", "介绍一下自己", "自我介绍", "你是什么", "介绍你自己", "谁是nadine"},
		},
		fCreator: {
			en: {"who made you", "who created you", "who built you", "who designed you", "who invented you",
				"who is your creator", "your creator", "your creators", "who programmed you", "who developed you",
				"who are your parents", "who constructed you", "who built nadine", "who created nadine", "who made nadine"},
			fr: {"qui vous a créée", "qui vous a créé", "qui vous a construite", "qui vous a fabriquée",
				"qui vous a conçue", "qui t'a créée", "qui t'a créé", "votre créateur", "votre créatrice",
				"vos créateurs", "qui vous a inventée", "qui vous a programmée",
				// in the "tu" form
				"ton créateur", "ta créatrice", "tes créateurs", "qui t'a construite", "qui t'a fabriquée",
				"qui t'a conçue", "qui t'a faite", "qui t'a inventée", "qui t'a programmée"},
			de: {"wer hat dich gebaut", "wer hat dich erschaffen", "wer hat dich entwickelt", "wer hat dich gemacht",
				"wer hat sie gebaut", "wer hat sie erschaffen", "wer hat sie entwickelt", "wer hat sie gemacht",
				"dein schöpfer", "deine schöpferin", "ihr schöpfer", "wer hat dich erfunden", "wer hat dich programmiert"},
			zh: {"谁创造了你", "谁制造了你", "谁发明了你", "谁造了你", "你的创造者", "谁设计了你", "谁开发了你",
				"谁做的你", "你是谁做的", "你是谁造的", "谁创造了您", "谁制造了您", "你是谁发明的", "你是谁创造的"},
		},
		fAge: {
			en: {"how old are you", "your age", "when were you born", "when were you made", "when were you built",
				"when were you created", "how old is nadine"},
			fr: {"quel âge avez-vous", "quel âge as-tu", "quel âge", "votre âge", "quand êtes-vous née",
				"vous avez quel âge", "depuis quand existez-vous",
				"ton âge", "tu as quel âge", "t'as quel âge", "quand es-tu née", "depuis quand existes-tu"},
			de: {"wie alt bist du", "wie alt sind sie", "dein alter", "ihr alter", "wann wurdest du geboren",
				"wann wurdest du gebaut", "wann wurden sie gebaut", "seit wann gibt es dich"},
			zh: {"你几岁", "您几岁", "你多大", "您多大", "你的年龄", "多大了", "几岁了", "你哪年出生"},
		},
		fPlace: {
			en: {"where are you", "where are we", "where do you live", "where do you work", "where am i",
				"what is this place", "where are you now", "where is nadine"},
			fr: {"où êtes-vous", "où sommes-nous", "où habitez-vous", "où vivez-vous", "où travaillez-vous",
				"où es-tu", "où suis-je", "vous êtes où", "on est où", "c'est quoi cet endroit",
				"tu es où", "t'es où", "où habites-tu", "où vis-tu", "où travailles-tu"},
			de: {"wo bist du", "wo sind wir", "wo wohnst du", "wo lebst du", "wo arbeitest du", "wo sind sie",
				"wo bin ich", "wo wohnen sie", "was ist das hier für ein ort"},
			zh: {"你在哪", "您在哪", "你现在在哪", "您现在在哪", "我们在哪", "你住在哪", "你住哪", "这是哪里", "这里是哪里", "我在哪", "你在什么地方"},
		},
		fOrigin: {
			en: {"where are you from", "where do you come from", "where were you born", "where were you made",
				"where were you built", "where were you created", "what is your origin"},
			fr: {"d'où venez-vous", "d'où viens-tu", "où êtes-vous née", "où avez-vous été créée",
				"où avez-vous été construite", "vous venez d'où", "de quel pays venez-vous", "votre origine",
				"tu viens d'où", "où es-tu née", "ton origine", "de quel pays viens-tu"},
			de: {"woher kommst du", "woher kommen sie", "wo wurdest du gebaut", "wo wurdest du geboren",
				"wo kommst du her", "wo wurden sie gebaut", "wo kommen sie her", "deine herkunft"},
			zh: {"你来自哪里", "你从哪里来", "你是哪里人", "你是哪国人", "你来自哪", "你是在哪里造的", "你在哪里出生",
				"您来自哪里", "你是从哪来的"},
		},
		fModeled: {
			en: {"who do you look like", "why do you look like", "modeled on", "modelled on", "based on a real person",
				"who are you modeled on", "whose face"},
			fr: {"à qui ressemblez-vous", "pourquoi ressemblez-vous", "ressemblez à", "votre visage vient de",
				"à l'image de qui"},
			de: {"wem siehst du ähnlich", "wem sehen sie ähnlich", "warum siehst du aus wie", "nach wem",
				"wem ähnelst du", "wessen gesicht"},
			zh: {"你长得像谁", "你像谁", "为什么长得像", "原型是谁", "你的原型", "你的脸像谁"},
		},
		fHuman: {
			en: {"are you human", "are you a human", "are you a robot", "are you real", "are you alive",
				"are you a person", "are you a machine", "are you a real person"},
			fr: {"êtes-vous humaine", "êtes-vous un robot", "es-tu un robot", "êtes-vous réelle", "êtes-vous vivante",
				"es-tu humaine", "vous êtes un robot", "vous êtes humaine", "êtes-vous une vraie personne"},
			de: {"bist du ein mensch", "bist du ein roboter", "sind sie ein mensch", "sind sie ein roboter",
				"bist du echt", "bist du lebendig", "bist du eine maschine"},
			zh: {"你是人吗", "你是机器人吗", "你是真人吗", "您是机器人吗", "你是活的吗", "您是真人吗", "你是人类吗"},
		},
		fEmotions: {
			en: {"do you have feelings", "do you have emotions", "can you feel", "do you feel emotions",
				"can you be sad", "can you be happy", "do you have a heart", "your emotions", "your feelings"},
			fr: {"avez-vous des émotions", "avez-vous des sentiments", "pouvez-vous ressentir", "ressentez-vous",
				"avez-vous un cœur", "vous avez des émotions", "vos émotions", "vos sentiments"},
			de: {"hast du gefühle", "hast du emotionen", "haben sie gefühle", "haben sie emotionen", "kannst du fühlen",
				"fühlst du etwas", "deine gefühle", "ihre gefühle"},
			zh: {"你有感情吗", "你有情感吗", "你有情绪吗", "你会难过吗", "你能感觉", "你有感觉吗", "您有感情吗", "你的情绪", "你的感情"},
		},
		fMiralab: {
			anyLanguage: {"miralab", "mira lab"},
		},
		fUnige: {
			anyLanguage: {"unige"},
			en:          {"university of geneva", "geneva university"},
			fr:          {"université de genève", "l'université de genève", "uni de genève"},
			de:          {"universität genf", "uni genf", "universität von genf"},
			zh:          {"日内瓦大学"},
		},
		fThalmann: {
			anyLanguage: {"thalmann", "magnenat"},
			zh:          {"塔尔曼"},
		},
		fSocialRobots: {
			en: {"social robot", "social robots", "a social robot"},
			fr: {"robot social", "robots sociaux"},
			de: {"sozialer roboter", "soziale roboter", "sozialen roboter", "sozialroboter"},
			zh: {"社交机器人"},
		},
		fNTU: {
			anyLanguage: {"nanyang", "ntu"},
			zh:          {"南洋理工"},
		},
		fHowWorks: {
			en: {"how do you work", "how does nadine work", "how are you made", "how were you made"},
			fr: {"comment fonctionnez-vous", "comment vous fonctionnez", "comment marchez-vous", "comment êtes-vous faite"},
			de: {"wie funktionierst du", "wie funktionieren sie", "wie bist du gebaut", "wie bist du gemacht"},
			zh: {"你是怎么工作的", "你怎么运作", "你是怎么运作的", "你的工作原理", "你是怎么做的"},
		},
		fHearing: {
			en: {"how do you hear", "can you hear me", "speech recognition", "do you have ears", "how do you listen"},
			fr: {"comment m'entendez-vous", "m'entendez-vous", "reconnaissance vocale", "comment entendez-vous"},
			de: {"wie hörst du", "hörst du mich", "spracherkennung", "hast du ohren", "hören sie mich"},
			zh: {"你怎么听", "你能听见我", "语音识别", "你听得见", "你能听到我"},
		},
		fSeeing: {
			en: {"can you see me", "how do you see", "what do you see", "do you have a camera", "do you have eyes"},
			fr: {"pouvez-vous me voir", "me voyez-vous", "que voyez-vous", "comment voyez-vous", "avez-vous une caméra",
				"avez-vous des yeux"},
			de: {"kannst du mich sehen", "siehst du mich", "was siehst du", "wie siehst du", "hast du eine kamera",
				"hast du augen", "sehen sie mich"},
			zh: {"你能看见我", "你看得见", "你看到什么", "你有摄像头", "你有眼睛", "你能看到我", "你看得到我"},
		},
		fThinking: {
			en: {"how do you think", "how do you decide what to say", "are you intelligent"},
			fr: {"comment pensez-vous", "comment réfléchissez-vous", "savez-vous penser"},
			de: {"wie denkst du", "kannst du denken", "wie entscheidest du"},
			zh: {"你怎么思考", "你会思考吗", "你能思考吗"},
		},
		fSpeaking: {
			en: {"your voice", "how do you speak", "how do you talk", "text to speech", "can you move"},
			fr: {"votre voix", "comment parlez-vous", "synthèse vocale", "pouvez-vous bouger"},
			de: {"deine stimme", "ihre stimme", "wie sprichst du", "sprachausgabe", "kannst du dich bewegen"},
			zh: {"你的声音", "您的声音", "你怎么说话", "语音合成", "你能动吗"},
		},
		fMemory: {
			en: {"your memory", "can you remember", "do you remember people", "what do you remember",
				"do you remember what i said", "do you forget"},
			fr: {"votre mémoire", "pouvez-vous vous souvenir", "vous souvenez-vous des gens", "de quoi vous souvenez-vous"},
			de: {"dein gedächtnis", "ihr gedächtnis", "kannst du dich erinnern", "merkst du dir"},
			zh: {"你的记忆", "你能记住", "你记得住", "你会忘记"},
		},
		fRecognize: {
			en: {"recognize faces", "face recognition", "recognise faces", "recognize people"},
			fr: {"reconnaissance faciale", "reconnaître les visages", "reconnaître les gens"},
			de: {"gesichtserkennung", "gesichter erkennen", "menschen erkennen"},
			zh: {"人脸识别", "认出人", "识别人脸", "认人"},
		},
		fExpressions: {
			en: {"facial expressions", "facial expression", "your face", "your gestures", "what gestures"},
			fr: {"expressions du visage", "expression du visage", "votre visage", "vos gestes"},
			de: {"gesichtsausdruck", "gesichtsausdrücke", "mimik", "dein gesicht", "deine gesten"},
			zh: {"表情", "你的脸", "你的手势", "面部表情"},
		},
		fRealWorld: {
			en: {"what are you used for", "what is your job", "what do you do for a living", "real world",
				"where have you worked", "what is your purpose"},
			fr: {"à quoi servez-vous", "quel est votre travail", "votre métier", "à quoi sert nadine", "votre rôle"},
			de: {"wofür wirst du eingesetzt", "was ist deine aufgabe", "was ist ihre aufgabe", "was ist dein beruf",
				"wozu bist du da"},
			zh: {"你的工作是什么", "你有什么用", "你是做什么的", "你的用途", "你的职责"},
		},
		fPersonality: {
			en: {"your personality", "what are you like", "what is your character"},
			fr: {"votre personnalité", "votre caractère"},
			de: {"deine persönlichkeit", "ihre persönlichkeit", "dein charakter"},
			zh: {"你的性格", "你的个性", "您的性格"},
		},
		fAnswering: {
			en: {"search the internet", "search the web", "look things up", "browse the internet", "use the internet"},
			fr: {"chercher sur internet", "internet", "rechercher sur le web"},
			de: {"im internet suchen", "internet", "googeln"},
			zh: {"上网", "互联网", "搜索网络", "网上查"},
		},
	}
}
