package offline

import "github.com/nadine-robot/nadine"

// socialPhrases lists the phrases of conversation beyond requests: the
// feelings and news people tell about, apologies, small talk, "and you?"
// and questions about why Nadine answers as she does. They are merged into
// phraseTable. A leading "+" marks a strong phrase and "-" a mild one
// (insults and compliments are graded); a trailing "*" matches the start of
// a word ("lieblings*": "Lieblingsfarbe").
func socialPhrases() map[matchKind]map[nadine.Language][]string {
	const en, fr, de, zh = nadine.English, nadine.French, nadine.German, nadine.Chinese
	return map[matchKind]map[nadine.Language][]string{
		// Someone speaking about themself: feelings need one of these
		// before them ("I am so tired", "je suis fatiguée", "mir ist
		// langweilig", "我很累").
		mMe: {
			en: {"i", "i'm", "im", "i've", "ive", "feeling", "feel"},
			fr: {"je", "j'ai", "j'suis", "moi", "je me sens"},
			de: {"ich", "mir", "fühle"},
			zh: {"我"},
		},
		mFeelGoodAdj: {
			en: {"happy", "glad", "excited", "cheerful", "joyful", "delighted", "thrilled", "in a good mood", "good", "great",
				"fine", "well", "wonderful", "fantastic", "okay", "ok", "alright", "better"},
			fr: {"heureux", "heureuse", "content", "contente", "ravi", "ravie", "en forme", "de bonne humeur", "bien", "super",
				"joyeux", "joyeuse", "mieux"},
			de: {"glücklich", "froh", "gut gelaunt", "fröhlich", "gut", "super", "prima", "bestens", "toll", "besser"},
			zh: {"开心", "高兴", "快乐", "很好", "不错", "愉快", "挺好", "心情好"},
		},
		mFeelBadAdj: {
			en: {"sad", "unhappy", "depressed", "miserable", "upset", "lonely", "heartbroken", "terrible", "awful", "horrible",
				"down", "bad", "in a bad mood"},
			fr: {"triste", "malheureux", "malheureuse", "déprimé", "déprimée", "seul", "seule", "mal", "cafard",
				"de mauvaise humeur", "abattu", "abattue"},
			de: {"traurig", "unglücklich", "deprimiert", "einsam", "schlecht", "niedergeschlagen", "mies", "schlecht gelaunt"},
			zh: {"难过", "伤心", "难受", "孤独", "郁闷", "沮丧", "心情不好", "不高兴", "寂寞"},
		},
		mTired: {
			en: {"tired", "exhausted", "sleepy", "worn out", "knackered"},
			fr: {"fatigué", "fatiguée", "épuisé", "épuisée", "crevé", "crevée", "sommeil"},
			de: {"müde", "erschöpft", "kaputt", "schläfrig"},
			zh: {"累", "疲倦", "困", "疲惫"},
		},
		mStress: {
			en: {"stressed", "anxious", "nervous", "worried", "scared", "afraid", "overwhelmed", "under pressure"},
			fr: {"stressé", "stressée", "anxieux", "anxieuse", "nerveux", "nerveuse", "inquiet", "inquiète", "angoissé",
				"angoissée", "peur"},
			de: {"gestresst", "nervös", "ängstlich", "besorgt", "angst", "unter druck"},
			zh: {"紧张", "焦虑", "压力", "担心", "害怕"},
		},
		mSick: {
			en: {"sick", "ill", "unwell", "i have a headache", "i have a cold", "i have the flu", "i have a fever", "i've got a cold",
				"i've got the flu", "i caught a cold", "i have a sore throat"},
			fr: {"malade", "mal à la tête", "la grippe", "un rhume", "de la fièvre"},
			de: {"krank", "erkältet", "ich habe kopfschmerzen", "ich habe fieber", "ich habe grippe", "ich habe eine erkältung",
				"ich habe halsschmerzen"},
			zh: {"生病", "病了", "不舒服", "头疼", "头痛", "感冒", "发烧"},
		},
		mBored: {
			en: {"bored"},
			fr: {"m'ennuie", "ennuyé", "ennuyée", "je m'ennuie"},
			de: {"langweilig", "gelangweilt"},
			zh: {"无聊"},
		},
		mAngryAdj: {
			en: {"angry", "mad", "annoyed", "furious", "frustrated", "irritated"},
			fr: {"en colère", "énervé", "énervée", "fâché", "fâchée", "furieux", "furieuse", "agacé", "agacée"},
			de: {"wütend", "sauer", "verärgert", "genervt", "zornig"},
			zh: {"生气", "气死了", "恼火", "烦死了", "火大"},
		},
		// Short answers to "how are you?" ("Good, thanks", "Pas mal").
		mFeelGoodWord: {
			en: {"good", "fine", "great", "very well", "pretty good", "not bad", "all good", "excellent", "good thanks",
				"fine thanks"},
			fr: {"bien", "très bien", "ça va bien", "ça va", "pas mal", "super", "impeccable", "nickel"},
			de: {"gut", "sehr gut", "ganz gut", "nicht schlecht", "prima", "super", "bestens", "alles gut"},
			zh: {"很好", "不错", "还行", "挺好", "还不错", "好极了", "很棒"},
		},
		mFeelBadWord: {
			en: {"not great", "not so good", "not well", "so so", "so-so", "meh"},
			fr: {"bof", "pas terrible", "pas top", "couci-couça", "moyen"},
			de: {"geht so", "nicht so gut", "nicht gut", "mittelmäßig", "naja"},
			zh: {"不太好", "一般", "马马虎虎", "不好"},
		},
		mNewsGood: {
			en: {"i passed", "passed my exam", "passed my exams", "got a new job", "got the job", "got promoted", "i got married",
				"getting married", "got engaged", "had a baby", "i won", "good news", "i graduated", "on holiday", "on vacation"},
			fr: {"j'ai réussi", "réussi mon examen", "nouveau travail", "nouvel emploi", "je me marie", "bonne nouvelle",
				"j'ai gagné", "je suis fiancé", "je suis fiancée", "en vacances", "j'ai eu mon diplôme", "eu une promotion"},
			de: {"bestanden", "neuen job", "neue stelle", "ich heirate", "gute nachricht", "gute nachrichten",
				"verlobt", "befördert", "im urlaub", "mein diplom", "ich habe gewonnen", "hab gewonnen"},
			zh: {"通过了考试", "考试通过", "我通过了", "我考过了", "考上了", "新工作", "找到工作", "结婚", "好消息", "我赢了", "升职", "订婚", "毕业了", "放假", "度假"},
		},
		mNewsBad: {
			en: {"lost my job", "got fired", "failed my exam", "i failed", "passed away", "died", "broke up", "bad news",
				"an accident", "lost my", "got dumped"},
			fr: {"perdu mon travail", "perdu mon emploi", "licencié", "licenciée", "raté mon examen", "échoué", "est mort",
				"est morte", "décédé", "décédée", "rompu", "mauvaise nouvelle", "un accident"},
			de: {"job verloren", "arbeit verloren", "gekündigt", "durchgefallen", "gestorben", "ist tot", "schluss gemacht",
				"getrennt", "schlechte nachricht", "schlechte nachrichten", "unfall"},
			zh: {"失业", "丢了工作", "被解雇", "考试没过", "没通过", "去世", "死了", "分手", "坏消息", "车祸", "出事故"},
		},
		mBirthday: {
			en: {"my birthday", "it's my birthday", "birthday today"},
			fr: {"mon anniversaire", "c'est mon anniversaire"},
			de: {"mein geburtstag", "habe geburtstag", "hab geburtstag", "habe ich geburtstag", "hab ich geburtstag",
				"ich habe heute geburtstag", "ich hab heute geburtstag"},
			zh: {"我的生日", "我生日", "我过生日"},
		},
		mSorry: {
			en: {"sorry", "i'm sorry", "i am sorry", "i apologize", "i apologise", "my apologies", "forgive me", "my bad"},
			fr: {"désolé", "désolée", "pardon", "excusez-moi", "je m'excuse", "pardonnez-moi", "je suis désolé", "je suis désolée"},
			de: {"entschuldigung", "es tut mir leid", "tut mir leid", "verzeihung", "verzeih mir", "entschuldige", "sorry"},
			zh: {"对不起", "抱歉", "不好意思", "原谅我", "我错了"},
		},
		mWeather: {
			en: {"weather", "is it raining", "is it sunny", "will it rain", "forecast", "temperature outside", "how hot is it",
				"how cold is it"},
			fr: {"météo", "quel temps", "il pleut", "il fait beau", "il fait froid", "il fait chaud", "va-t-il pleuvoir"},
			de: {"wetter", "regnet es", "wie warm ist es", "wie kalt ist es", "wettervorhersage", "wird es regnen"},
			zh: {"天气", "下雨", "气温", "下雪", "冷不冷", "热不热"},
		},
		mJoke: {
			en: {"joke", "a joke", "tell me a joke", "make me laugh", "something funny", "jokes"},
			fr: {"blague", "une blague", "faites-moi rire", "fais-moi rire", "quelque chose de drôle", "histoire drôle"},
			de: {"witz", "einen witz", "bring mich zum lachen", "witze", "etwas lustiges"},
			zh: {"笑话", "讲个笑话", "逗我笑", "搞笑"},
		},
		mFavorite: {
			en: {"favorite", "favourite", "what do you like", "do you like", "your hobby", "your hobbies", "what do you enjoy"},
			fr: {"préféré", "préférée", "préférés", "qu'est-ce que vous aimez", "aimez-vous", "vos loisirs", "votre passe-temps"},
			de: {"lieblings*", "was magst du", "magst du", "was mögen sie", "mögen sie", "dein hobby", "deine hobbys", "ihr hobby"},
			zh: {"最喜欢", "你喜欢什么", "你喜欢", "爱好", "兴趣"},
		},
		mDoing: {
			en: {"what are you doing", "what are you up to", "what's up", "whats up"},
			fr: {"que faites-vous", "qu'est-ce que vous faites", "vous faites quoi", "tu fais quoi"},
			de: {"was machst du", "was machen sie", "was tust du"},
			zh: {"你在做什么", "你在干什么", "你在干嘛", "在忙什么"},
		},
		mFromUser: {
			en: {"i'm from", "i am from", "i come from", "i live in"},
			fr: {"je viens de", "j'habite à", "j'habite en", "je suis de", "je viens du", "j'habite au"},
			de: {"ich komme aus", "ich wohne in", "ich bin aus", "ich lebe in"},
			zh: {"我来自", "我是从", "我住在"},
		},
		mAndYou: {
			en: {"and you", "and yourself", "what about you", "how about you"},
			fr: {"et vous", "et toi", "et vous-même", "et de votre côté"},
			de: {"und du", "und sie", "und dir", "und ihnen", "und bei dir", "und bei ihnen", "und selbst"},
			zh: {"你呢", "您呢", "那你呢", "那您呢"},
		},
		mOfflineWhy: {
			en: {"are you offline", "why are you offline", "offline mode", "language model", "are you online", "are you connected",
				"are you broken", "why can't you answer", "what's wrong with you", "chatgpt", "are you working"},
			fr: {"hors ligne", "hors-ligne", "modèle de langage", "êtes-vous connectée", "êtes-vous en panne", "pourquoi ne répondez-vous pas"},
			de: {"offline", "sprachmodell", "bist du online", "bist du kaputt", "warum antwortest du nicht", "bist du verbunden"},
			zh: {"离线", "语言模型", "联网", "断网", "你坏了吗", "为什么不回答"},
		},
		// Questions about something: the knowledge base may answer them.
		mAsk: {
			en: {"tell me about", "what is", "what's", "who is", "who was", "explain", "what do you know about", "do you know",
				"what are", "where is", "when was"},
			fr: {"parlez-moi de", "parlez-moi du", "qu'est-ce que", "qu'est-ce qu'", "c'est quoi", "qui est", "qui était",
				"expliquez-moi", "que savez-vous", "connaissez-vous", "où est", "quand", "quelle est", "quel est", "combien"},
			de: {"erzähl mir", "erzählen sie mir", "was ist", "wer ist", "wer war", "erklär mir", "erklären sie mir",
				"was weißt du über", "was wissen sie über", "kennst du", "kennen sie", "wo ist", "wann"},
			zh: {"什么是", "是什么", "谁是", "是谁", "介绍一下", "讲讲", "告诉我", "你知道", "在哪里", "什么时候"},
		},
	}
}
