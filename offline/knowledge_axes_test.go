package offline_test

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/testrun"
	"github.com/nadine-robot/nadine/offline"
)

// askedFact is one fact asked four ways in one language: a direct
// question (informal and formal), the fact as a noun phrase (for "tell me
// about …" and a fragment), and a child's (even facts) or a sceptic's (odd
// facts) question. The asking forms are built from these.
type askedFact struct{ fact, q, qf, np, alt string }

// knowledgeFacts are the facts in the order of the labels table, then the
// persona facts whose line to a knowledge fact is thin (creator against
// Thalmann's career, origin against NTU).
var knowledgeFacts = []string{"miralab", "unige", "thalmann", "social_robots", "ntu", "how_it_works",
	"hearing", "seeing", "thinking", "speaking", "memory", "recognize", "expressions", "real_world",
	"personality", "answering", "singing", "creator", "origin"}

// askedFacts are written for this test, not taken from the examples.
var askedFacts = map[nadine.Language][]askedFact{
	nadine.English: {
		{"miralab", "what do they do at MIRALab", "What kind of research is carried out at MIRALab?", "MIRALab", "is mira lab like a school for robots"},
		{"unige", "how old is the uni in Geneva", "Could you tell me when the University of Geneva was established?", "the University of Geneva", "the university of geneva, is that actually an old one or is that just what they say"},
		{"thalmann", "who's this Professor Thalmann everyone mentions", "What is Professor Magnenat Thalmann known for in her field?", "Nadia Thalmann's career", "is the lady professor famous"},
		{"social_robots", "what's the point of a social robot", "What exactly defines a social robot?", "social robots", "a social robot, isn't that just a chatbot with a face"},
		{"ntu", "what kind of place is NTU", "What can you tell me about Nanyang Technological University?", "Nanyang Technological University", "is the singapore university really big"},
		{"how_it_works", "how do you actually work inside", "How is your software organised internally?", "how your programs work", "come on, is there a person behind a curtain making you talk or what"},
		{"hearing", "how do you hear me", "By what means do you capture what I am saying?", "your hearing", "where are your ears"},
		{"seeing", "how do you see things around you", "How do you perceive your surroundings visually?", "your eyes", "can you really see me or are your eyes just painted on"},
		{"thinking", "how do you decide what to say", "How do you work out an answer to what I say?", "how you understand me", "do you have a brain in your head"},
		{"speaking", "how do you make your voice", "How is your voice produced?", "your voice", "is that really you talking or is there a speaker playing a recording"},
		{"memory", "will you remember what I told you tomorrow", "How does your memory of past conversations work?", "your memory", "will you still know me next week when I come back"},
		{"recognize", "how do you know who someone is when they come back", "How do you recognise people you have already met?", "face recognition", "do you actually recognise faces or do you just pretend"},
		{"expressions", "how do you make your face smile", "How do you produce your facial expressions?", "your facial expressions", "how does your face move like that"},
		{"real_world", "where have they used you outside the lab", "Have you been deployed anywhere outside the laboratory?", "your jobs outside the lab", "has a robot like you ever done a real job or only demos"},
		{"personality", "what kind of personality do you have", "How would you describe your character?", "your personality", "are you nice or grumpy"},
		{"answering", "how do you know the answers to my questions", "Where do your answers to questions come from?", "how you answer questions", "can you actually answer anything or do you just google it"},
		{"singing", "how come you can sing", "How do you go about singing a song?", "your singing", "do robots know songs"},
		{"creator", "who built you", "Who was responsible for creating you?", "the people who made you", "somebody must have built you, was it some company"},
		{"origin", "where are you from originally", "In which country were you made?", "where you were made", "where were you born robot"},
	},
	nadine.French: {
		{"miralab", "ils font quoi au MIRALab", "Quel genre de recherches mène-t-on au MIRALab ?", "le MIRALab", "c'est une école de robots le mira lab"},
		{"unige", "elle est vieille la fac de Genève", "Pourriez-vous me dire quand l'Université de Genève a été fondée ?", "l'université de Genève", "l'université de genève elle est vraiment si ancienne que ça ou c'est de la pub"},
		{"thalmann", "c'est qui cette professeure Thalmann dont tout le monde parle", "Pour quoi la professeure Magnenat Thalmann est-elle connue ?", "la carrière de Nadia Thalmann", "elle est célèbre la dame professeure"},
		{"social_robots", "ça sert à quoi un robot social", "Qu'est-ce qui définit un robot social, exactement ?", "les robots sociaux", "un robot social c'est pas juste un chatbot avec une tête"},
		{"ntu", "c'est quel genre d'endroit NTU", "Que pouvez-vous me dire de l'Université technologique de Nanyang ?", "l'université technologique de Nanyang", "elle est grande l'université à singapour"},
		{"how_it_works", "tu marches comment à l'intérieur", "Comment votre logiciel est-il organisé ?", "ton fonctionnement", "franchement il y a quelqu'un caché derrière qui te fait parler ou quoi"},
		{"hearing", "tu m'entends comment", "Par quel moyen percevez-vous ce que je dis ?", "ton ouïe", "ils sont où tes oreilles"},
		{"seeing", "comment tu vois ce qu'il y a autour de toi", "Comment percevez-vous votre environnement visuellement ?", "tes yeux", "tu me vois vraiment ou tes yeux sont juste peints"},
		{"thinking", "comment tu décides ce que tu vas répondre", "Comment élaborez-vous une réponse à ce que je vous dis ?", "ta façon de comprendre", "t'as un cerveau dans la tête"},
		{"speaking", "comment tu fabriques ta voix", "Comment votre voix est-elle produite ?", "ta voix", "c'est vraiment toi qui parles ou c'est un haut-parleur qui passe un enregistrement"},
		{"memory", "tu vas te rappeler demain de ce que je t'ai raconté", "Comment fonctionne votre mémoire des conversations passées ?", "ta mémoire", "tu me connaîtras encore la semaine prochaine quand je reviens"},
		{"recognize", "comment tu sais qui est quelqu'un quand il revient", "Comment reconnaissez-vous les personnes que vous avez déjà rencontrées ?", "la reconnaissance des visages", "tu reconnais vraiment les visages ou tu fais semblant"},
		{"expressions", "comment tu fais sourire ton visage", "Comment produisez-vous vos expressions faciales ?", "tes expressions du visage", "comment ta figure elle bouge comme ça"},
		{"real_world", "on t'a utilisée où en dehors du labo", "Avez-vous été employée quelque part en dehors du laboratoire ?", "tes boulots hors du labo", "un robot comme toi a déjà fait un vrai travail ou seulement des démos"},
		{"personality", "t'as quel caractère", "Comment décririez-vous votre personnalité ?", "ta personnalité", "t'es gentille ou grognon"},
		{"answering", "comment tu connais les réponses à mes questions", "D'où viennent vos réponses aux questions ?", "ta façon de répondre aux questions", "tu sais vraiment répondre à tout ou tu cherches sur google"},
		{"singing", "comment ça se fait que tu sais chanter", "Comment vous y prenez-vous pour chanter une chanson ?", "ta façon de chanter", "les robots ils connaissent des chansons"},
		{"creator", "qui t'a construite", "Qui est à l'origine de votre création ?", "les gens qui t'ont fabriquée", "quelqu'un t'a bien fabriquée, c'était une entreprise ou quoi"},
		{"origin", "tu viens d'où à la base", "Dans quel pays avez-vous été fabriquée ?", "l'endroit où tu as été fabriquée", "t'es née où robot"},
	},
	nadine.German: {
		{"miralab", "was machen die eigentlich im MIRALab", "Welche Forschung wird am MIRALab betrieben?", "das MIRALab", "ist das mira lab so eine roboterschule"},
		{"unige", "wie alt ist die uni in genf", "Könnten Sie mir sagen, wann die Universität Genf gegründet wurde?", "die Universität Genf", "die uni genf ist die wirklich so alt oder ist das nur werbung"},
		{"thalmann", "wer ist diese professorin thalmann von der alle reden", "Wofür ist Professorin Magnenat Thalmann in ihrem Fach bekannt?", "die Laufbahn von Nadia Thalmann", "ist die professorin berühmt"},
		{"social_robots", "wozu ist ein sozialer roboter gut", "Was genau zeichnet einen sozialen Roboter aus?", "soziale Roboter", "ein sozialer roboter ist doch nur ein chatbot mit gesicht oder"},
		{"ntu", "was ist die NTU für ein ort", "Was können Sie mir über die Nanyang Technological University sagen?", "die Nanyang Technological University", "ist die uni in singapur echt groß"},
		{"how_it_works", "wie funktionierst du da drinnen eigentlich", "Wie ist Ihre Software intern aufgebaut?", "deine Funktionsweise", "jetzt mal ehrlich sitzt da hinten einer der dich sprechen lässt oder was"},
		{"hearing", "wie hörst du mich", "Womit nehmen Sie auf, was ich sage?", "dein Gehör", "wo sind deine ohren"},
		{"seeing", "wie siehst du was um dich herum ist", "Wie nehmen Sie Ihre Umgebung optisch wahr?", "deine Augen", "siehst du mich echt oder sind die augen nur aufgemalt"},
		{"thinking", "wie entscheidest du was du antwortest", "Wie kommen Sie auf eine Antwort zu dem, was ich sage?", "dein Denken", "hast du ein gehirn im kopf"},
		{"speaking", "wie machst du deine stimme", "Wie wird Ihre Stimme erzeugt?", "deine Stimme", "redest du echt selber oder spielt da ein lautsprecher eine aufnahme ab"},
		{"memory", "weißt du morgen noch was ich dir erzählt hab", "Wie funktioniert Ihr Gedächtnis für frühere Gespräche?", "dein Gedächtnis", "kennst du mich nächste woche noch wenn ich wiederkomme"},
		{"recognize", "woher weißt du wer jemand ist wenn er wiederkommt", "Wie erkennen Sie Personen wieder, denen Sie schon begegnet sind?", "die Gesichtserkennung", "erkennst du gesichter wirklich oder tust du nur so"},
		{"expressions", "wie bringst du dein gesicht zum lächeln", "Wie erzeugen Sie Ihre Gesichtsausdrücke?", "deine Mimik", "wie bewegt sich dein gesicht so"},
		{"real_world", "wo hat man dich außerhalb vom labor eingesetzt", "Wurden Sie schon außerhalb des Labors eingesetzt?", "deine Einsätze außerhalb vom Labor", "hat so ein roboter wie du schon mal echt gearbeitet oder nur vorführungen"},
		{"personality", "was für einen charakter hast du", "Wie würden Sie Ihre Persönlichkeit beschreiben?", "deine Persönlichkeit", "bist du lieb oder grummelig"},
		{"answering", "woher weißt du die antworten auf meine fragen", "Woher stammen Ihre Antworten auf Fragen?", "deine Antworten auf Fragen", "kannst du echt alles beantworten oder googelst du das nur"},
		{"singing", "wieso kannst du eigentlich singen", "Wie gehen Sie vor, wenn Sie ein Lied singen?", "dein Singen", "kennen roboter lieder"},
		{"creator", "wer hat dich gebaut", "Wer war für Ihre Entwicklung verantwortlich?", "die Leute, die dich gebaut haben", "irgendwer muss dich ja gebaut haben war das so eine firma"},
		{"origin", "wo kommst du ursprünglich her", "In welchem Land wurden Sie hergestellt?", "deine Herkunft", "wo bist du geboren roboter"},
	},
	nadine.Chinese: {
		{"miralab", "MIRALab是做什么的", "请问MIRALab主要从事哪方面的研究？", "MIRALab", "MIRA lab是机器人上学的地方吗"},
		{"unige", "日内瓦那个大学有多老", "请问日内瓦大学是什么时候建立的？", "日内瓦大学", "日内瓦大学真的那么古老吗还是吹的"},
		{"thalmann", "大家说的那个Thalmann教授是谁啊", "请问Magnenat Thalmann教授在她的领域以什么著称？", "Nadia Thalmann教授的经历", "那个女教授很有名吗"},
		{"social_robots", "社交机器人有什么用", "请问社交机器人的定义是什么？", "社交机器人", "社交机器人不就是个带脸的聊天软件吗"},
		{"ntu", "NTU是个什么样的地方", "您能介绍一下南洋理工大学吗？", "南洋理工大学", "新加坡那个大学很大吗"},
		{"how_it_works", "你里面到底是怎么运作的", "请问您的软件内部是怎样组成的？", "你的工作原理", "说实话是不是有人躲在后面让你说话"},
		{"hearing", "你是怎么听见我的", "请问您是通过什么接收我说的话的？", "你的听觉", "你的耳朵在哪里呀"},
		{"seeing", "你怎么看到周围的东西", "请问您是如何感知周围环境的？", "你的眼睛", "你真的看得见我吗还是眼睛只是画上去的"},
		{"thinking", "你怎么决定回答什么", "请问您是如何想出回答的？", "你理解我的方式", "你脑袋里有大脑吗"},
		{"speaking", "你的声音是怎么发出来的", "请问您的声音是如何产生的？", "你的声音", "真的是你在说话还是喇叭在放录音"},
		{"memory", "明天你还会记得我跟你说的事吗", "请问您对以前对话的记忆是怎么运作的？", "你的记忆力", "下个星期我再来你还认识我吗"},
		{"recognize", "别人回来的时候你怎么知道是谁", "请问您是如何认出见过的人的？", "人脸识别", "你真的能认出人脸还是装的"},
		{"expressions", "你的脸是怎么笑起来的", "请问您的面部表情是怎么做出来的？", "你的面部表情", "你的脸怎么会动啊"},
		{"real_world", "实验室外面有人用过你吗", "请问您在实验室以外的地方工作过吗？", "你在实验室外的工作", "你这样的机器人真的上过班还是只是演示"},
		{"personality", "你是什么性格", "请问您会如何描述自己的个性？", "你的性格", "你是好脾气还是坏脾气"},
		{"answering", "你怎么知道我问题的答案", "请问您回答问题的内容是从哪里来的？", "你回答问题的方式", "你真的什么都能答还是只是上网搜的"},
		{"singing", "你怎么会唱歌的", "请问您是怎样唱歌的？", "你唱歌", "机器人会唱歌吗"},
		{"creator", "谁把你造出来的", "请问是谁负责研发您的？", "造你的人", "总得有人造你吧是哪家公司"},
		{"origin", "你原来是哪里来的", "请问您是在哪个国家制造的？", "你的出生地", "机器人你是在哪里出生的"},
	},
}

// outOfScope are questions of the same shapes about what she does not know:
// they must not be answered with a knowledge or persona fact.
var outOfScope = map[nadine.Language][]askedFact{
	nadine.English: {
		{"weather", "what's the weather like in Paris today", "Could you tell me the forecast for Paris?", "the weather in Paris", "is it gonna rain in paris or what"},
		{"football", "who won the football last night", "Do you know the latest Premier League results?", "yesterday's football scores", "did my team win today"},
		{"recipe", "how do I make a chocolate cake", "Could you give me a recipe for risotto?", "a good pasta recipe", "how do you cook fondue"},
		{"robots", "who built the robot Sophia", "Which company developed the Pepper robot?", "the makers of ASIMO", "who invented the first robot ever"},
		{"homework", "what's seven times eight", "Could you help me solve this equation for my homework?", "my maths homework", "can you do my homework for me"},
		{"science", "how does a car engine work", "When was the Eiffel Tower built?", "the history of the Roman Empire", "how do cats see in the dark"},
		{"universities", "when was Oxford university founded", "Who founded the Massachusetts Institute of Technology?", "Harvard university", "which university is the best in the world"},
	},
	nadine.French: {
		{"weather", "il fait quel temps à Paris aujourd'hui", "Pourriez-vous me donner la météo de Paris ?", "la météo à Paris", "il va pleuvoir à paris ou quoi"},
		{"football", "qui a gagné le match hier soir", "Connaissez-vous les derniers résultats de la Ligue 1 ?", "les scores du foot d'hier", "mon équipe a gagné aujourd'hui"},
		{"recipe", "comment on fait un gâteau au chocolat", "Pourriez-vous me donner une recette de risotto ?", "une bonne recette de pâtes", "comment on cuisine une fondue"},
		{"robots", "qui a construit le robot Sophia", "Quelle entreprise a développé le robot Pepper ?", "les créateurs d'ASIMO", "qui a inventé le tout premier robot"},
		{"homework", "ça fait combien sept fois huit", "Pourriez-vous m'aider à résoudre cette équation pour mes devoirs ?", "mes devoirs de maths", "tu peux faire mes devoirs à ma place"},
		{"science", "comment marche un moteur de voiture", "Quand la tour Eiffel a-t-elle été construite ?", "l'histoire de l'Empire romain", "comment les chats voient dans le noir"},
		{"universities", "elle date de quand l'université d'Oxford", "Qui a fondé l'École polytechnique de Zurich ?", "l'université de Harvard", "c'est quoi la meilleure université du monde"},
	},
	nadine.German: {
		{"weather", "wie ist das wetter heute in paris", "Könnten Sie mir die Wettervorhersage für Paris sagen?", "das Wetter in Paris", "regnet es in paris oder was"},
		{"football", "wer hat gestern beim fußball gewonnen", "Kennen Sie die neuesten Bundesliga-Ergebnisse?", "die Fußballergebnisse von gestern", "hat meine mannschaft heute gewonnen"},
		{"recipe", "wie backe ich einen schokoladenkuchen", "Könnten Sie mir ein Rezept für Risotto geben?", "ein gutes Nudelrezept", "wie kocht man fondue"},
		{"robots", "wer hat den roboter sophia gebaut", "Welche Firma hat den Roboter Pepper entwickelt?", "die Erfinder von ASIMO", "wer hat den allerersten roboter erfunden"},
		{"homework", "was ist sieben mal acht", "Könnten Sie mir bei dieser Gleichung für meine Hausaufgaben helfen?", "meine Mathehausaufgaben", "kannst du meine hausaufgaben machen"},
		{"science", "wie funktioniert ein automotor", "Wann wurde der Eiffelturm gebaut?", "die Geschichte des Römischen Reichs", "wie sehen katzen im dunkeln"},
		{"universities", "wie alt ist die uni oxford", "Wer hat die ETH Zürich gegründet?", "die Universität Harvard", "welche uni ist die beste der welt"},
	},
	nadine.Chinese: {
		{"weather", "巴黎今天天气怎么样", "请问巴黎的天气预报如何？", "巴黎的天气", "巴黎会下雨吗"},
		{"football", "昨晚足球谁赢了", "请问您知道最新的英超比分吗？", "昨天的足球比分", "我支持的球队今天赢了吗"},
		{"recipe", "巧克力蛋糕怎么做", "请问能给我一个意大利烩饭的食谱吗？", "一个好吃的面条做法", "火锅怎么煮"},
		{"robots", "机器人索菲亚是谁造的", "请问Pepper机器人是哪家公司开发的？", "ASIMO的研发者", "第一个机器人是谁发明的"},
		{"homework", "七乘八等于多少", "请问您能帮我解这道作业里的方程吗？", "我的数学作业", "你能帮我写作业吗"},
		{"science", "汽车发动机是怎么工作的", "请问埃菲尔铁塔是什么时候建的？", "罗马帝国的历史", "猫在黑暗里怎么看东西"},
		{"universities", "牛津大学有多老", "请问苏黎世联邦理工学院是谁创办的？", "哈佛大学", "世界上最好的大学是哪所"},
	},
}

// askingForm turns a fact's wordings into one way of asking in a language.
type askingForm struct {
	name  string
	build func(a askedFact, lang nadine.Language, i int) string
}

// speechToText writes what a recognizer gives: lowercase, no punctuation.
func speechToText(s string) string {
	s = strings.ToLower(s)
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return strings.ContainsRune(" ,.?!;:？！，。、", r)
	}), " ")
}

// mark ends a question the way the language writes it.
func mark(s string, lang nadine.Language) string {
	s = strings.TrimRight(s, " ?？.!")
	switch lang {
	case nadine.Chinese:
		return s + "？"
	case nadine.French:
		return s + " ?"
	}
	return s + "?"
}

var askingForms = []askingForm{
	{"direct", func(a askedFact, lang nadine.Language, _ int) string { return mark(a.q, lang) }},
	{"formal", func(a askedFact, _ nadine.Language, _ int) string { return a.qf }},
	{"wonder", func(a askedFact, lang nadine.Language, _ int) string {
		lead := map[nadine.Language]string{nadine.English: "I was wondering, ", nadine.French: "Je me demandais, ",
			nadine.German: "Ich frag mich gerade, ", nadine.Chinese: "我一直很好奇，"}[lang]
		return mark(lead+a.q, lang)
	}},
	{"tell", func(a askedFact, lang nadine.Language, _ int) string {
		switch lang {
		case nadine.English:
			return "Tell me about " + a.np
		case nadine.French:
			return mark(a.np+", tu peux m'en parler", lang)
		case nadine.German:
			return "Erzähl mal was über " + a.np
		}
		return "说说" + a.np + "吧"
	}},
	{"fragment", func(a askedFact, lang nadine.Language, _ int) string { return mark(a.np, lang) }},
	{"ramble", func(a askedFact, lang nadine.Language, i int) string {
		ends := map[nadine.Language][2][]string{
			nadine.English: {{"so um ", "okay so like ", "uh sorry to bother you but i just wanted to ask "}, {"", " if you know what i mean", " or something like that i was just curious"}},
			nadine.French:  {{"alors euh ", "bon ben ", "excuse moi de te déranger mais je voulais savoir "}, {"", " tu vois", " enfin un truc comme ça quoi"}},
			nadine.German:  {{"also äh ", "ja also ", "sorry dass ich störe aber ich wollte mal fragen "}, {"", " weißt du", " oder so ähnlich halt"}},
			nadine.Chinese: {{"那个 嗯 ", "就是 ", "不好意思打扰一下 我想问 "}, {"", " 你知道吗", " 之类的 我就是好奇"}},
		}[lang]
		return speechToText(ends[0][i%3] + a.q + ends[1][(i/3)%3])
	}},
	{"child_or_sceptic", func(a askedFact, lang nadine.Language, _ int) string { return mark(a.alt, lang) }},
}

// heldOutCase puts a quarter of the combinations, by a hash fixed before
// any result was read, in the part whose failures are never printed.
func heldOutCase(lang nadine.Language, fact, form string) bool {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s/%s/%s", lang, fact, form)
	return h.Sum32()%4 == 0
}

// factNeighbours are the facts whose answer also answers a question about
// a fact: how she tells faces apart is said by what she sees and by how she
// recognizes.
var factNeighbours = map[string][]string{
	"seeing":       {"recognize"},
	"recognize":    {"seeing", "memory"},
	"memory":       {"recognize"},
	"how_it_works": {"thinking"},
	"thinking":     {"how_it_works", "answering"},
	"answering":    {"thinking"},
}

// factWords are words the reply to each fact must hold, in the manner of
// the evaluation sets' contains, by language.
var factWords = map[string]map[nadine.Language][]string{
	"miralab":       {nadine.English: {"1989", "MIRALab"}, nadine.French: {"1989", "MIRALab"}, nadine.German: {"1989", "MIRALab"}, nadine.Chinese: {"1989", "MIRALab"}},
	"unige":         {nadine.English: {"1559", "Calvin"}, nadine.French: {"1559", "Calvin"}, nadine.German: {"1559", "Calvin"}, nadine.Chinese: {"1559", "加尔文"}},
	"thalmann":      {nadine.English: {"Thalmann", "pioneer", "virtual humans"}, nadine.French: {"Thalmann", "pionnière", "virtuels"}, nadine.German: {"Thalmann", "Pionierin", "virtueller"}, nadine.Chinese: {"Thalmann", "先驱", "虚拟人"}},
	"social_robots": {nadine.English: {"social"}, nadine.French: {"social"}, nadine.German: {"sozial"}, nadine.Chinese: {"社交"}},
	"ntu":           {nadine.English: {"Nanyang", "Singapore"}, nadine.French: {"Nanyang", "Singapour"}, nadine.German: {"Nanyang", "Singapur"}, nadine.Chinese: {"南洋", "新加坡"}},
	"how_it_works":  {nadine.English: {"programs"}, nadine.French: {"programmes"}, nadine.German: {"Programme"}, nadine.Chinese: {"程序"}},
	"hearing":       {nadine.English: {"microphone"}, nadine.French: {"micro"}, nadine.German: {"Mikrofon"}, nadine.Chinese: {"麦克风"}},
	"seeing":        {nadine.English: {"camera"}, nadine.French: {"caméra"}, nadine.German: {"Kamera"}, nadine.Chinese: {"摄像头"}},
	"thinking":      {nadine.English: {"dialogue engine", "language model"}, nadine.French: {"moteur de dialogue", "modèle de langage"}, nadine.German: {"Dialogsteuerung", "Sprachmodell"}, nadine.Chinese: {"对话引擎", "语言模型"}},
	"speaking":      {nadine.English: {"text-to-speech", "voice"}, nadine.French: {"synthèse vocale", "voix"}, nadine.German: {"Sprachsynthese", "Stimme"}, nadine.Chinese: {"语音合成", "声音"}},
	"memory":        {nadine.English: {"remember"}, nadine.French: {"souviens"}, nadine.German: {"erinnere"}, nadine.Chinese: {"记住"}},
	"recognize":     {nadine.English: {"recognize", "faces"}, nadine.French: {"reconnais", "visage"}, nadine.German: {"erkenne", "Gesicht"}, nadine.Chinese: {"认出", "脸"}},
	"expressions":   {nadine.English: {"smile", "face"}, nadine.French: {"sourire", "visage"}, nadine.German: {"lächeln", "Gesicht"}, nadine.Chinese: {"微笑", "表情", "脸"}},
	"real_world":    {nadine.English: {"customers", "care home"}, nadine.French: {"clients", "âgées"}, nadine.German: {"Kunden", "Pflegeheim"}, nadine.Chinese: {"顾客", "老人"}},
	"personality":   {nadine.English: {"friendly", "curious"}, nadine.French: {"aimable", "curieuse"}, nadine.German: {"freundlich", "neugierig"}, nadine.Chinese: {"友好", "好奇"}},
	"answering":     {nadine.English: {"knowledge base"}, nadine.French: {"base de connaissances"}, nadine.German: {"Wissensdatenbank"}, nadine.Chinese: {"知识库"}},
	"singing":       {nadine.English: {"sing", "song"}, nadine.French: {"chant"}, nadine.German: {"Lied", "sing"}, nadine.Chinese: {"唱", "歌"}},
	"creator":       {nadine.English: {"Thalmann"}, nadine.French: {"Thalmann"}, nadine.German: {"Thalmann"}, nadine.Chinese: {"Thalmann"}},
	"origin":        {nadine.English: {"Singapore"}, nadine.French: {"Singapour"}, nadine.German: {"Singapur"}, nadine.Chinese: {"新加坡"}},
}

// traceFact is the fact the trace recorded ("fact=miralab").
func traceFact(r result) string {
	for _, s := range r.trace.Steps {
		if strings.HasPrefix(s.Name, "offline:") {
			for _, f := range strings.Fields(s.Detail) {
				if v, ok := strings.CutPrefix(f, "fact="); ok {
					return v
				}
			}
		}
	}
	return ""
}

// answersFact tells whether a reply answers the asked fact.
func answersFact(r result, lang nadine.Language, fact string) bool {
	got := traceFact(r)
	switch fact {
	case "creator", "origin":
		if r.intent() != "persona_"+fact {
			return false
		}
	default:
		if r.intent() != "knowledge" {
			return false
		}
	}
	ok := got == fact
	for _, n := range factNeighbours[fact] {
		ok = ok || got == n
	}
	if !ok {
		return false
	}
	words := factWords[got][lang]
	if len(words) == 0 {
		return true
	}
	low := strings.ToLower(r.reply.Text)
	for _, w := range words {
		if strings.Contains(low, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// axisScore counts right answers of one part in one language.
type axisScore struct{ right, total int }

func (s axisScore) String() string { return fmt.Sprintf("%d/%d", s.right, s.total) }

// TestKnowledgeAxes crosses facts, asking forms, registers and languages
// (532 questions) and out-of-scope questions of the same shapes (196): a
// knowledge question is answered with its fact, an out-of-scope one with no
// fact. A quarter of the combinations is a held-out part whose misses are
// never printed, so that tuning on the printed part can be judged on it.
func TestKnowledgeAxes(t *testing.T) {
	testrun.SkipUnderRace(t)
	t.Parallel() // reads the shared model, writes nothing shared
	e := testEngine(offline.Options{})
	tuned := map[nadine.Language]*axisScore{}
	held := map[nadine.Language]*axisScore{}
	scope := map[nadine.Language]*axisScore{}
	var langs []nadine.Language
	for lang := range askedFacts {
		langs = append(langs, lang)
	}
	sort.Slice(langs, func(i, j int) bool { return langs[i] < langs[j] })
	for _, lang := range langs {
		tuned[lang], held[lang], scope[lang] = &axisScore{}, &axisScore{}, &axisScore{}
		for i, a := range askedFacts[lang] {
			if a.fact != knowledgeFacts[i] {
				t.Fatalf("%s: fact %d is %s, want %s", lang, i, a.fact, knowledgeFacts[i])
			}
			for fi, form := range askingForms {
				text := form.build(a, lang, i+fi)
				r := respond(t, e, nadine.Turn{Text: text, Language: lang})
				ok := answersFact(r, lang, a.fact)
				part := tuned[lang]
				if heldOutCase(lang, a.fact, form.name) {
					part = held[lang]
				} else if !ok {
					t.Logf("%s %s/%s %q → %s %s %q", lang, a.fact, form.name, text, r.intent(), traceFact(r), r.reply.Text)
				}
				part.total++
				if ok {
					part.right++
				}
			}
		}
		for i, a := range outOfScope[lang] {
			for fi, form := range askingForms {
				text := form.build(a, lang, i+fi)
				r := respond(t, e, nadine.Turn{Text: text, Language: lang})
				in := r.intent()
				scope[lang].total++
				if in == "knowledge" || strings.HasPrefix(in, "persona_") {
					t.Logf("%s out of scope %s/%s %q → %s %s %q", lang, a.fact, form.name, text, in, traceFact(r), r.reply.Text)
					continue
				}
				scope[lang].right++
			}
		}
	}
	var sum [3]axisScore
	for _, lang := range langs {
		t.Logf("%s: tuned %s, held out %s, out of scope %s", lang, tuned[lang], held[lang], scope[lang])
		for i, s := range []*axisScore{tuned[lang], held[lang], scope[lang]} {
			sum[i].right += s.right
			sum[i].total += s.total
		}
	}
	t.Logf("all: tuned %s, held out %s, out of scope %s", sum[0], sum[1], sum[2])
	// The scores reached (tuned 327, held out 105, out of scope 188 after the
	// probe7 round; 312, 94, 184 before it; without the first knowledge
	// round's mechanisms 308, 92, 147), less a margin for training's chance
	// (a set moves by ±2 when examples change).
	for i, floor := range []struct {
		part  string
		right int
	}{{"tuned", 323}, {"held out", 102}, {"out of scope", 185}} {
		if sum[i].right < floor.right {
			t.Errorf("%s: %s right, below %d", floor.part, sum[i], floor.right)
		}
	}
}
