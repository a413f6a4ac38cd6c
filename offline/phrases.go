package offline

import "github.com/nadine-robot/nadine"

// phraseTable lists, for each kind of match and each language, the phrases
// that signal it. Latin phrases match whole words of the normalized input
// (write them naturally: case, accents and apostrophes are normalized the
// same way as the input); phrases with Chinese characters match substrings.
// When phrases of several languages match, the longest decides the language
// of the reply.
func phraseTable() map[matchKind]map[nadine.Language][]string {
	t := requestPhrases()
	for k, v := range socialPhrases() {
		t[k] = v
	}
	return t
}

// requestPhrases are the phrases of requests and of the classic social
// acts: greetings, names, time, gestures, songs, languages, insults,
// compliments, thanks.
func requestPhrases() map[matchKind]map[nadine.Language][]string {
	const en, fr, de, zh = nadine.English, nadine.French, nadine.German, nadine.Chinese
	return map[matchKind]map[nadine.Language][]string{
		mGreeting: {
			en: {"hello", "hi", "hey", "hiya", "howdy", "greetings", "good morning", "good afternoon", "good evening",
				"nice to meet you", "pleased to meet you", "hello there", "happy to meet you", "glad to meet you", "happy to see you",
				"glad to see you"},
			fr: {"bonjour", "salut", "bonsoir", "coucou", "enchanté", "enchantée", "ravi de vous rencontrer",
				"ravie de vous rencontrer", "bonne journée à vous", "heureux de vous rencontrer", "heureuse de vous rencontrer",
				"content de vous voir", "contente de vous voir", "ravi de vous voir", "ravie de vous voir"},
			de: {"hallo", "hi", "hey", "guten tag", "guten morgen", "guten abend", "servus", "moin", "grüß gott", "grüß dich",
				"grüezi", "freut mich", "sehr erfreut", "schön sie kennenzulernen", "schön dich kennenzulernen"},
			zh: {"你好", "您好", "早上好", "下午好", "晚上好", "早安", "嗨", "哈喽", "大家好", "你们好", "幸会", "很高兴认识你", "很高兴认识您", "妳好"},
		},
		mFarewell: {
			en: {"bye", "goodbye", "good bye", "bye bye", "see you", "see you later", "see you soon", "good night",
				"farewell", "take care", "have a nice day", "have a good day"},
			fr: {"au revoir", "à bientôt", "à plus tard", "à plus", "bonne nuit", "bonne soirée", "à demain", "adieu",
				"salut à bientôt"},
			de: {"tschüss", "tschüs", "tschuess", "tschuss", "auf wiedersehen", "bis bald", "bis später", "bis morgen",
				"gute nacht", "ciao", "tschau", "mach's gut", "machs gut", "schönen tag noch"},
			zh: {"再见", "拜拜", "回头见", "明天见", "下次见", "晚安", "再會", "再見", "先走了"},
		},
		mName: {
			en: {"my name is", "my name's", "the name is", "call me", "you can call me", "my first name is"},
			fr: {"je m'appelle", "mon nom est", "mon prénom est", "appelez-moi", "appelle-moi", "moi c'est"},
			de: {"ich heiße", "ich heisse", "ich heiß", "mein name ist", "mein vorname ist", "nenn mich", "nennen sie mich"},
			zh: {"我叫", "我的名字是", "我的名字叫", "叫我", "我名叫"},
		},
		mNameMaybe: {
			en: {"i'm", "i am"},
			fr: {"je suis"},
			de: {"ich bin"},
			zh: {"我是"},
		},
		mRemember: {
			en: {"do you remember me", "remember me", "do you know me", "do you recognize me", "do you recognise me",
				"do you know who i am", "who am i", "what is my name", "what's my name", "do you know my name",
				"have we met", "have we met before"},
			fr: {"vous souvenez-vous de moi", "vous vous souvenez de moi", "tu te souviens de moi", "te souviens-tu de moi",
				"souviens de moi", "vous me reconnaissez", "tu me reconnais", "savez-vous qui je suis", "qui suis-je",
				"comment je m'appelle", "vous connaissez mon nom", "nous sommes-nous déjà rencontrés"},
			de: {"erinnerst du dich an mich", "erinnern sie sich an mich", "kennst du mich", "kennen sie mich",
				"weißt du wer ich bin", "wissen sie wer ich bin", "wer bin ich", "wie heiße ich", "weißt du meinen namen",
				"erkennst du mich", "erkennen sie mich"},
			zh: {"你记得我吗", "您记得我吗", "还记得我吗", "记得我吗", "你认识我吗", "您认识我吗", "我是谁", "我叫什么", "你知道我是谁",
				"你知道我的名字", "记不记得我", "認得我嗎", "記得我嗎"},
		},
		mTime: {
			en: {"what time is it", "what's the time", "what is the time", "tell me the time", "the time please",
				"current time", "time is it", "the time now", "what time", "time and date",
				"date and time"},
			fr: {"quelle heure", "l'heure", "heure est-il"},
			de: {"wie spät", "wie viel uhr", "wieviel uhr", "uhrzeit", "wie spaet"},
			zh: {"几点", "幾點", "现在时间", "什么时间", "时间是"},
		},
		mDate: {
			en: {"what's the date", "what is the date", "what day is it", "what day is today", "today's date",
				"what is today", "which day is it", "what date", "what's today", "time and date",
				"date and time", "and the date"},
			fr: {"quel jour", "quelle date", "la date", "on est le combien", "sommes le combien", "quelle est la date"},
			de: {"welches datum", "welcher tag", "den wievielten", "der wievielte", "datum", "welchen tag"},
			zh: {"几号", "幾號", "星期几", "星期幾", "礼拜几", "日期", "几月几日", "今天是什么日子"},
		},
		mHowAreYou: {
			en: {"how are you", "how are you doing", "how's it going", "hows it going", "how do you do",
				"how do you feel", "how are things", "how have you been", "are you okay", "are you ok", "are you well"},
			fr: {"comment allez-vous", "comment vas-tu", "comment ça va", "ça va", "vous allez bien", "tu vas bien",
				"comment vous sentez-vous", "comment te sens-tu"},
			de: {"wie geht's", "wie gehts", "wie geht es", "wie geht es dir", "wie geht es ihnen", "alles gut bei dir",
				"geht es dir gut", "geht es ihnen gut", "wie fühlst du dich"},
			zh: {"你好吗", "您好吗", "你怎么样", "您怎么样", "你最近怎么样", "你还好吗", "您还好吗", "过得怎么样", "过得好吗", "近来好吗"},
		},
		mSmile: {
			en: {"smile", "give me a smile", "show me a smile", "show me your smile"},
			fr: {"souriez", "souris", "sourire", "faites un sourire", "fais un sourire", "faites-moi un sourire"},
			de: {"lächle", "lächeln", "lächel", "lächle mal", "zeig mir dein lächeln"},
			zh: {"笑一笑", "笑一个", "笑一下", "微笑", "笑笑"},
		},
		mWave: {
			en: {"wave", "wave at me", "wave to me", "wave your hand", "wave hello", "wave goodbye"},
			fr: {"faites coucou", "fais coucou", "saluez", "salue", "saluez-moi", "faites signe", "fais signe",
				"faites un signe", "agitez la main", "faites un signe de la main", "faites-moi signe", "faites-moi un signe", "faites-moi coucou"},
			de: {"winken", "winke", "wink", "wink mal", "wink mir", "winke mir", "winken sie", "wink zum abschied"},
			zh: {"挥手", "挥挥手", "招手", "招招手", "挥一下手", "挥个手"},
		},
		mAnger: {
			en: {"be angry", "get angry", "look angry", "angry face", "show me anger", "show your anger", "act angry",
				"be mad", "get mad", "pretend to be angry"},
			fr: {"fâchez-vous", "fâche-toi", "vous fâchez", "te fâche", "soyez en colère", "sois en colère", "mettez-vous en colère",
				"mets-toi en colère", "montrez votre colère", "montre ta colère", "faites la tête", "air fâché"},
			de: {"sei wütend", "sei böse", "seien sie wütend", "seien sie böse", "werde wütend", "werd wütend",
				"zeig mir wut", "zeig deine wut", "wütendes gesicht", "sei sauer", "schau wütend",
				"sei nicht wütend", "sei nicht böse", "seien sie nicht wütend", "seien sie nicht böse"},
			zh: {"生气", "发火", "发脾气", "愤怒的表情", "生个气"},
		},
		mSong: {
			en: {"sing", "sing a song", "sing me a song", "sing something", "can you sing", "a song", "sing for me"},
			fr: {"chante", "chantez", "chanter", "chantez-moi", "une chanson", "chante-moi"},
			de: {"sing", "singen", "sing ein lied", "singen sie", "ein lied", "sing mir", "sing mal"},
			zh: {"唱歌", "唱首歌", "唱一首", "唱个歌", "唱支歌", "来首歌", "唱一曲"},
		},
		mLangVerb: {
			en: {"speak"},
			fr: {"parlez", "parle", "parler", "parlez-vous", "parles-tu"},
			de: {"sprich", "sprechen", "sprichst", "sprechen sie", "rede", "reden"},
			zh: {"说", "讲"},
		},
		mLangSwitch: {
			en: {"switch to", "change to", "switch language", "change language", "change the language", "reply in",
				"answer in", "respond in", "answer me in", "language to"},
			fr: {"passez en", "passe en", "répondez en", "réponds en", "changez de langue", "change de langue"},
			de: {"wechsle zu", "wechsle auf", "wechseln sie", "antworte auf", "antworten sie auf", "sprache wechseln",
				"stell um auf"},
			zh: {"用", "切换", "换成", "改成", "改用", "换"},
		},
		mLangPrep: {
			en: {"in"},
			fr: {"en"},
			de: {"auf"},
		},
		mLanguages: {
			en: {"what languages", "which languages", "how many languages", "what language do you"},
			fr: {"quelles langues", "combien de langues", "quelle langue parlez-vous"},
			de: {"welche sprachen", "wie viele sprachen", "welche sprache sprichst"},
			zh: {"什么语言", "哪些语言", "几种语言", "哪几种语言", "哪种语言"},
		},
		mAbilities: {
			en: {"what can you do", "what else can you do", "what are you able to do", "what are your skills",
				"what are your abilities", "what do you know how to do", "what are you capable of"},
			fr: {"que savez-vous faire", "que pouvez-vous faire", "qu'est-ce que vous savez faire",
				"qu'est-ce que vous pouvez faire", "que sais-tu faire", "qu'est-ce que tu sais faire",
				"tu sais faire quoi", "vous savez faire quoi", "de quoi êtes-vous capable"},
			de: {"was kannst du", "was können sie", "was kannst du alles", "was kannst du machen",
				"was sind deine fähigkeiten", "was sind ihre fähigkeiten"},
			zh: {"你能做什么", "您能做什么", "你会做什么", "你会什么", "你能干什么", "你可以做什么", "你有什么功能", "你有什么本领", "你都会什么"},
		},
		mInsult: {
			en: {"idiot", "moron", "-shut up", "+i hate you", "+you suck", "stupid robot", "dumb robot", "+screw you",
				"loser", "+piece of junk", "+piece of crap", "+fuck you", "+fuck off", "+asshole", "+bitch", "+go to hell"},
			fr: {"idiot", "-tais-toi", "-taisez-vous", "imbécile", "crétin", "crétine", "+je vous déteste", "+je te déteste",
				"+ta gueule", "espèce d'idiot", "abruti", "abrutie", "+connard", "+connasse", "robot stupide", "+va te faire foutre",
				"+salope", "+va au diable"},
			de: {"idiot", "-halt die klappe", "+halt's maul", "+halts maul", "+ich hasse dich", "dummkopf", "trottel", "+vollidiot",
				"depp", "du idiot", "blöder roboter", "dummer roboter", "+arschloch", "+fick dich", "+schlampe", "+verpiss dich"},
			zh: {"笨蛋", "傻瓜", "白痴", "蠢货", "-闭嘴", "+滚开", "+我讨厌你", "+混蛋", "+去死", "蠢猪", "傻子", "+傻逼", "+王八蛋"},
		},
		mInsultAdj: {
			en: {"stupid", "dumb", "useless", "ugly", "-boring", "-annoying", "an idiot", "a moron", "terrible",
				"horrible", "awful", "+pathetic", "+worthless", "-rude", "creepy", "a joke", "+garbage", "+trash",
				"+the worst", "-slow", "-weird", "+disgusting"},
			fr: {"stupide", "bête", "idiot", "idiote", "nul", "nulle", "moche", "laide", "laid", "inutile", "débile",
				"-ennuyeux", "-ennuyeuse", "+con", "+conne", "+nulle à chier", "horrible", "méchant", "méchante", "-lente",
				"-lent", "-bizarre", "+pathétique", "+dégoûtante"},
			de: {"dumm", "blöd", "doof", "hässlich", "nutzlos", "-langweilig", "-nervig", "bescheuert", "ein idiot",
				"schrecklich", "-peinlich", "dämlich", "unnütz", "-langsam", "-komisch", "+erbärmlich", "+widerlich"},
			zh: {"笨", "蠢", "傻", "丑", "没用", "讨厌", "-烦人", "-好烦", "-真烦", "-无聊", "差劲", "-慢", "+恶心", "+垃圾"},
		},
		mCompliment: {
			en: {"+i love you", "i like you", "like you", "+love you", "well done", "good job", "great job", "nice job", "bravo",
				"good girl", "good robot", "+you are the best", "+you're the best"},
			fr: {"+je vous aime", "vous aime", "+je t'aime", "+je vous adore", "+je t'adore", "bien joué", "bravo", "bon travail"},
			de: {"+ich liebe dich", "ich mag dich", "mag dich", "+liebe dich", "gut gemacht", "super gemacht", "toll gemacht",
				"braves mädchen", "bravo"},
			zh: {"+我爱你", "我喜欢你", "喜欢你", "+爱你", "干得好", "做得好", "+太棒了", "真厉害", "好厉害"},
		},
		mComplimentAdj: {
			en: {"+beautiful", "pretty", "smart", "clever", "intelligent", "great", "+amazing", "+awesome", "-nice", "cute",
				"+wonderful", "+brilliant", "-cool", "-funny", "so kind", "very kind", "lovely", "+fantastic", "+the best", "+gorgeous",
				"-sweet", "charming", "+incredible", "impressive", "adorable", "+perfect", "-gentle", "-polite", "-good"},
			fr: {"+belle", "beau", "jolie", "joli", "intelligente", "intelligent", "+magnifique", "+géniale", "+génial",
				"-gentille", "-gentil", "formidable", "super", "-drôle", "mignonne", "mignon", "adorable", "charmante",
				"charmant", "+la meilleure", "+incroyable", "-sympa", "-sympathique", "+parfaite", "brillante", "+superbe",
				"+merveilleuse", "-polie"},
			de: {"+schön", "hübsch", "klug", "intelligent", "toll", "super", "-nett", "-lieb", "+wunderbar", "+großartig",
				"-witzig", "+die beste", "-cool", "süß", "klasse", "+genial", "+fantastisch", "+perfekt", "-lustig",
				"-sympathisch", "+wunderschön", "schlau", "-höflich"},
			zh: {"+漂亮", "聪明", "+美丽", "好看", "可爱", "厉害", "真棒", "很棒", "好棒", "+最棒", "+了不起", "优秀", "很帅", "真帅", "+很美",
				"+真美", "+好美", "-有趣", "-幽默", "-温柔"},
		},
		mThanks: {
			en: {"thank you", "thanks", "thx", "thank you very much", "many thanks", "cheers"},
			fr: {"merci", "merci beaucoup", "je vous remercie"},
			de: {"danke", "danke schön", "dankeschön", "vielen dank", "danke sehr"},
			zh: {"谢谢", "多谢", "感谢", "謝謝", "谢啦"},
		},
		mYou: {
			en: {"you", "you're", "youre", "your", "u", "you've"},
			fr: {"vous", "tu", "t'es", "toi", "te"},
			de: {"du", "dich", "dir", "sie", "ihnen", "bist", "sind sie"},
			zh: {"你", "您", "妳"},
		},
		mNegation: {
			en: {"not", "don't", "dont", "do not", "never", "isn't", "aren't", "ain't", "won't", "neither"},
			fr: {"pas", "ne", "jamais", "point"},
			de: {"nicht", "kein", "keine", "nie", "niemals"},
			zh: {"不", "别", "没", "勿"},
		},
	}
}

// notNames are words that follow "I'm", "je suis", "ich bin" (or even "my
// name is") without being a name: "I'm tired", "je suis fatigué", "ich bin
// müde". Normalized spelling.
func notNames() map[string]bool {
	words := []string{
		// English
		"a", "an", "the", "not", "so", "very", "really", "just", "fine", "good", "great", "ok", "okay", "well",
		"tired", "happy", "sad", "sorry", "here", "there", "back", "home", "from", "in", "at", "on", "with",
		"busy", "hungry", "thirsty", "bored", "sick", "ill", "glad", "excited", "afraid", "scared", "sure", "ready",
		"done", "new", "old", "your", "my", "his", "her", "fan", "lost", "alone", "alright", "interested",
		"married", "single", "curious", "confused", "cold", "hot", "late", "early", "still", "also", "too",
		"always", "never", "what", "who", "nothing", "nobody", "human", "student", "teacher", "engineer",
		"robot", "friend", "only", "almost", "kidding", "joking", "serious", "right", "wrong", "pleased",
		"delighted", "honoured", "honored", "and", "or", "but", "like", "about", "that", "it", "this", "called",
		"named", "is", "secret", "unknown", "nice", "fun", "funny", "angry", "mad", "upset", "worried", "nervous",
		"hungry", "full", "free", "available", "certain", "impressed", "amazed", "surprised", "proud", "grateful",
		"thankful", "good", "bad", "better", "worse", "awake", "asleep", "fine", "well", "to", "for", "of",
		"by", "as", "if", "no", "yes", "quite", "pretty", "rather", "kind", "one", "someone", "somebody",
		"maybe", "later", "tomorrow", "when", "anytime", "going", "doing", "trying", "looking", "feeling", "thinking", "listening", "here", "now", "gonna",
		"english", "french", "german", "chinese", "swiss", "american", "british", "italian", "spanish", "japanese",
		"canadian", "australian", "indian", "russian", "european", "asian", "african", "irish", "scottish",
		// French
		"un", "une", "le", "la", "les", "de", "du", "des", "en", "a", "au", "aux", "tres", "bien", "mal", "pas",
		"ne", "ici", "fatigue", "fatiguee", "content", "contente", "heureux", "heureuse", "triste", "desole",
		"desolee", "pret", "prete", "malade", "occupe", "occupee", "ravi", "ravie", "enchante", "enchantee",
		"francais", "francaise", "suisse", "etudiant", "etudiante", "professeur", "ingenieur", "ingenieure",
		"seul", "seule", "marié", "mariee", "curieux", "curieuse", "perdu", "perdue", "d'accord", "toujours",
		"encore", "aussi", "vraiment", "si", "trop", "plus", "juste", "chez", "avec", "sur", "dans", "pour",
		"venu", "venue", "moi", "celui", "celle", "quelqu'un", "arrive", "arrivee", "que", "qui", "quoi", "ton",
		"ta", "votre", "ami", "amie", "surpris", "surprise", "fier", "fiere", "nerveux", "nerveuse", "inquiet",
		"inquiete", "libre", "sur", "sure", "deja", "la-bas", "rentre", "rentree", "fache", "fachee",
		// German
		"ein", "eine", "einer", "der", "die", "das", "den", "dem", "nicht", "kein", "keine", "sehr", "so", "gut",
		"schlecht", "muede", "froh", "gluecklich", "traurig", "hier", "da", "dort", "zu", "zuhause", "bereit",
		"krank", "beschaeftigt", "fertig", "neu", "alt", "auch", "noch", "schon", "wieder", "ganz", "total",
		"mit", "aus", "in", "von", "bei", "am", "im", "auf", "fuer", "student", "studentin", "lehrer",
		"lehrerin", "ingenieur", "ingenieurin", "deutscher", "deutsche", "schweizer", "schweizerin",
		"verheiratet", "allein", "sicher", "gespannt", "neugierig", "wach", "jetzt", "gerade", "heute", "was",
		"wer", "nur", "eigentlich", "hungrig", "durstig", "zufrieden", "begeistert", "erfreut", "ja", "nein",
		"dein", "deine", "ihr", "ihre", "freund", "freundin", "wuetend", "sauer", "boese", "ueberrascht",
		"stolz", "dankbar", "nervoes", "besorgt", "zurueck", "weg", "mal", "halt", "eben", "wirklich",
		"ziemlich", "etwas", "bisschen", "immer", "nie", "niemand", "jemand", "gleich", "bald", "unterwegs",
	}
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// nameStops end a name: "my name is Alex and I ...", "je m'appelle Alex et".
func nameStops() map[string]bool {
	words := []string{"and", "but", "i", "i'm", "im", "nice", "please", "from", "thanks", "thank", "how", "what",
		"et", "mais", "je", "merci", "enchante", "enchantee", "comment", "s'il", "und", "aber", "ich", "bitte",
		"danke", "freut", "wie", "was", "nadine", "hello", "hi", "bonjour", "hallo"}
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// langNotNames are words that follow "speak" without naming a language:
// "speak slowly", "parlez plus fort", "sprich mit mir".
func langNotNames() map[string]bool {
	words := []string{"slowly", "slower", "louder", "loudly", "softly", "quietly", "clearly", "faster", "up",
		"more", "less", "again", "about", "with", "to", "of", "for", "please", "now", "too", "so", "a", "an",
		"the", "it", "that", "this", "well", "good", "better", "fluent", "fluently", "properly", "any", "other",
		"another", "some", "many", "several", "languages", "language", "only", "just", "much", "very", "really",
		"me", "us", "you", "we", "i", "they", "he", "she", "can", "could", "do", "does", "will", "would", "normally",
		"english", "like", "out", "loud", "aloud", "here", "there", "later", "first", "your", "my",
		"plus", "moins", "lentement", "fort", "doucement", "moi", "avec", "de", "du", "des", "a", "encore",
		"bien", "mieux", "s'il", "svp", "une", "la", "le", "les", "d'autres", "langues", "langue", "quelle",
		"quelles", "combien", "vous", "nous", "tu", "je", "il", "elle", "on", "pas", "ne", "normalement",
		"mit", "von", "mir", "uns", "langsamer", "lauter", "leiser", "bitte", "noch", "mal", "ueber", "nicht",
		"besser", "gut", "eine", "die", "der", "das", "welche", "sprachen", "sprache", "andere", "mehr",
		"etwas", "schneller", "deutlicher", "du", "sie", "wir", "ich", "ihr", "er", "es", "kannst", "koennen",
		"gerne", "gern", "lieber", "jetzt", "langsam", "laut", "leise", "dir", "ihnen", "doch", "einfach",
		"freely", "honestly", "frankly", "openly", "directly", "nicely", "seriously", "briefly", "quickly", "beaucoup",
		"trop", "souvent", "vite", "toujours", "jamais", "rarement", "couramment", "weiter", "keinen", "kein", "viel",
	}
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// surnames are common Chinese family names: after the ambiguous "我是" a
// name is only accepted when it starts with one of them.
const surnames = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
