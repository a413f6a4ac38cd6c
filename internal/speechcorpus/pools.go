package speechcorpus

import "github.com/nadine-robot/nadine"

// The content the answers are made of, per language. A reply is a
// greeting by name and one statement; the statements hold accents,
// apostrophes and numbers, the quoted ones quotation marks.

var names = []string{"Alex", "Marie", "Jonas", "Sofia", "Omar", "Léa", "Lukas", "Mei"}

var greetings = map[nadine.Language][]string{
	nadine.English: {"Hello %s!", "Hi %s, nice to see you!", "Good morning %s!", "Welcome back, %s!", "How lovely to meet you, %s!"},
	nadine.French:  {"Bonjour %s !", "Bonsoir %s, quel plaisir de vous voir !", "Bienvenue, %s !", "Ravie de vous revoir, %s !", "Enchantée, %s !"},
	nadine.German:  {"Hallo %s!", "Guten Tag, %s!", "Schön, dich zu sehen, %s!", "Willkommen zurück, %s!", "Freut mich sehr, %s!"},
	nadine.Chinese: {"你好，%s！", "%s，欢迎你！", "很高兴见到你，%s！", "%s，早上好！", "欢迎回来，%s！"},
}

var statements = map[nadine.Language][]string{
	nadine.English: {
		"It's a sunny day in Geneva, about 18 degrees.",
		"I was first presented in 2013, and I still love meeting people.",
		"MIRALab has studied virtual humans for many years.",
		"I'd love to hear what brings you here today.",
		"Skiing in Verbier sounds wonderful to me.",
		"The lake is calm this afternoon, perfect for a walk.",
	},
	nadine.French: {
		"Il fait beau à Genève aujourd'hui, environ 18 degrés.",
		"J'ai été présentée pour la première fois en 2013.",
		"Le MIRALab étudie les humains virtuels depuis longtemps.",
		"Qu'est-ce qui vous amène ici aujourd'hui ?",
		"Le ski à Verbier, c'est une très belle idée.",
		"Le lac est très calme cet après-midi.",
	},
	nadine.German: {
		"In Genf scheint heute die Sonne, etwa 18 Grad.",
		"Ich wurde 2013 zum ersten Mal vorgestellt.",
		"Das MIRALab erforscht seit vielen Jahren virtuelle Menschen.",
		"Was führt dich heute zu uns?",
		"Skifahren in Verbier klingt großartig.",
		"Der See ist heute Nachmittag ganz ruhig.",
	},
	nadine.Chinese: {
		"今天日内瓦阳光明媚，大约十八度。",
		"我在2013年第一次和大家见面。",
		"MIRALab多年来一直在研究虚拟人。",
		"今天是什么风把你吹来了？",
		"在韦尔比耶滑雪听起来太棒了。",
		"今天下午湖面非常平静。",
	},
}

var quotedStatements = map[nadine.Language][]string{
	nadine.English: {`My friends call me "the robot", and I like it.`, `People say "hello robot" when they see me.`, `The song "Happy Birthday" is one I know well.`},
	nadine.French:  {`Mes amis m'appellent "la robote", et ça me plaît.`, `On me dit souvent "bonjour robot" en passant.`, `Je connais bien la chanson "Frère Jacques".`},
	nadine.German:  {`Meine Freunde nennen mich "die Roboterin", und das gefällt mir.`, `Viele sagen "Hallo Roboter" zu mir.`, `Das Lied "Alle meine Entchen" kenne ich gut.`},
	nadine.Chinese: {`朋友们都叫我"机器人小姐"，我很喜欢。`, `很多人见到我都说"你好机器人"。`, `我很熟悉"生日快乐"这首歌。`},
}

var says = map[nadine.Language][]string{
	nadine.English: {"Hello Nadine!", "How are you today?", "Nice to meet you.", "Tell me something about yourself."},
	nadine.French:  {"Bonjour Nadine !", "Comment allez-vous ?", "Enchanté.", "Parlez-moi de vous."},
	nadine.German:  {"Hallo Nadine!", "Wie geht es dir?", "Freut mich.", "Erzähl mir etwas über dich."},
	nadine.Chinese: {"你好，Nadine！", "你今天好吗？", "很高兴认识你。", "介绍一下你自己吧。"},
}

// intentSays are the intents answered, each with what a visitor says for
// it (an end of the conversation needs a farewell word to stand).
var intentSays = []struct {
	label string
	say   map[nadine.Language]string
}{
	{"first_greeting", map[nadine.Language]string{nadine.English: "Hello Nadine!", nadine.French: "Bonjour Nadine !", nadine.German: "Hallo Nadine!", nadine.Chinese: "你好，Nadine！"}},
	{"end_conversation", map[nadine.Language]string{nadine.English: "Bye Nadine, see you soon!", nadine.French: "Au revoir Nadine, à bientôt !", nadine.German: "Tschüss Nadine, bis bald!", nadine.Chinese: "再见，Nadine！"}},
	{"continue_conversation", map[nadine.Language]string{nadine.English: "What is MIRALab?", nadine.French: "Qu'est-ce que le MIRALab ?", nadine.German: "Was ist das MIRALab?", nadine.Chinese: "MIRALab是什么？"}},
}

var (
	thoughts = []string{"Thought: I should answer the person warmly.", "Thought: They are talking to me; I reply.", "**Thought:** a short friendly answer.", "Thought: no tool is needed here."}
	reasons  = []string{"the person is talking to Nadine", "based on the latest message", "short and friendly", "no tool is needed"}
	leads    = []string{"Sure, here is my answer:", "Here is the JSON:", "Okay, here you go:", "Here's my reply in the requested format:"}
	trailers = []string{"Let me know if you need anything else.", "I hope this is right.", "", "(formatted as requested)"}
	// thinkForms hold a %s for the reasoning.
	thinkForms = []string{"<think>%s.</think>\n", "<thinking>\n%s\n</thinking>\n\n", "[THINK]%s[/THINK]\n", "Reasoning: %s.\n\n", "<reasoning>%s</reasoning>"}
)
