package spoken_test

import (
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/spoken"
)

func TestCleanSpeech(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "Hello Alex, nice to see you.", "Hello Alex, nice to see you."},
		{"wrapping quotes", `"Hello Alex, nice to see you."`, "Hello Alex, nice to see you."},
		{"typographic quotes", "“Bonjour, comment allez-vous ?”", "Bonjour, comment allez-vous ?"},
		{"guillemets", "« Bonjour ! »", "Bonjour !"},
		{"inner quotes kept", `She said "yes" and "no".`, `She said "yes" and "no".`},
		{"speaker prefix", "Nadine: Hello there!", "Hello there!"},
		{"bold speaker prefix", "**Nadine:** Hello there!", "Hello there!"},
		{"prefix and quotes", `Nadine: "Hello there!"`, "Hello there!"},
		{"prefix with says", "Nadine says: I am fine.", "I am fine."},
		{"assistant prefix", "Assistant: Sure, I can do that.", "Sure, I can do that."},
		{"final answer prefix", "Final Answer: It is sunny.", "It is sunny."},
		{"final answer prefix before Chinese", "Final Answer: 我住在日内瓦。", "我住在日内瓦。"},
		{"speaker prefix before Chinese", "Nadine: 你好！", "你好！"},
		{"German speaker prefix", "Roboter: Ich bin Nadine.", "Ich bin Nadine."},
		{"French speaker prefix", "Assistante : Bonjour !", "Bonjour !"},
		{"full-width colon", "Nadine：我会说四种语言。", "我会说四种语言。"},
		{"Chinese speaker prefix", "机器人：我很喜欢认识新朋友。", "我很喜欢认识新朋友。"},
		{"forum markup", "I love [b]Geneva[/b] so much.", "I love Geneva so much."},
		{"letters styled as mathematics", "𝐇𝐞𝐥𝐥𝐨! I'm Nadine.", "Hello! I'm Nadine."},
		{"full-width letters", "Ｈｅｌｌｏ! I'm Nadine.", "Hello! I'm Nadine."},
		{"underline by combining marks", "H̲e̲l̲l̲o̲! I'm Nadine.", "Hello! I'm Nadine."},
		{"box drawing", "═══ Hello! ═══", "Hello!"},
		{"keycap numbers", "1️⃣ I'm Nadine. 2️⃣ I live in Geneva.", "I'm Nadine. I live in Geneva."},
		{"hashtags", "I love my lab! #MIRALab #SocialRobots", "I love my lab!"},
		{"middle dots as an ellipsis", "I'm Nadine··· a social robot.", "I'm Nadine… a social robot."},
		{"a date in brackets", "I was shown for the first time [2013-06-12] in Singapore.", "I was shown for the first time in Singapore."},
		{"a month in brackets", "Ich wurde [Juni 2013] in Singapur gezeigt.", "Ich wurde in Singapur gezeigt."},
		{"a long arrow", "Voilà mon parcours ⟶ et je ne regrette rien !", "Voilà mon parcours et je ne regrette rien !"},
		{"the shrug", "People ask if I'm human ¯\\_(ツ)_/¯ I'm a robot.", "People ask if I'm human I'm a robot."},
		{"an emoji written as two escapes", `I'm Nadine \ud83d\ude0a, hello!`, "I'm Nadine, hello!"},
		{"a lone surrogate escape", `I'm Nadine \ud83d, hello!`, "I'm Nadine, hello!"},
		{"an escape past the first plane", `Vous êtes adorable \U0001F60A merci !`, "Vous êtes adorable merci !"},
		{"a bold label in French typography", "**Nadine :** Bonjour ! Je suis ravie.", "Bonjour ! Je suis ravie."},
		{"a tag with an attribute", "Bonjour ! <emotion=joie> Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{"a tag closed in itself", `Hallo! <gesture name="wave"/> Ich bin Nadine.`, "Hallo! Ich bin Nadine."},
		{"an annotation's tags", "<emotion>Bonjour</emotion> et bienvenue !", "Bonjour et bienvenue !"},
		{"a note's field in brackets", "Bonjour ! [emotion: joie] Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{"a stage direction in braces", "Bonjour ! {sourire} Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{"a highlight", "Vous êtes ==vraiment== adorable.", "Vous êtes vraiment adorable."},
		{"a badge highlighted", "==小知识：==我在2013年第一次亮相。", "我在2013年第一次亮相。"},
		{"a stage direction after a speaker's label", "Nadine : *fait un signe de la main* Bonjour !", "Bonjour !"},
		{"a list's stars are no stage direction", "Voici ce que je sais faire :\n* sourire\n* saluer", "Voici ce que je sais faire : sourire, saluer"},
		{"a placeholder is left to the gate", "Hello <Name>, welcome!", "Hello <Name>, welcome!"},
		{"shapes as bullets", "► Bonjour ! ■ Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{"a TeX command around words", `Je suis \textbf{Nadine}, ravie !`, "Je suis Nadine, ravie !"},
		{"a TeX symbol", `Je suis $\heartsuit$ ravie !`, "Je suis ravie !"},
		{"UTF-8 as byte escapes", `Merci ! \xF0\x9F\x98\x8A Vous êtes adorable.`, "Merci ! Vous êtes adorable."},
		{"faces across an underscore", "Bonjour ! >_< T_T Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{"faces with carets", "Bonjour ! (^o^) \\^o^/ <(^.^)> Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{"more typed faces", "Bonjour ! UwU 8-) :o o/ (: </3 Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{"a bear and its arms", "Bonjour ! ʕ•ᴥ•ʔ (づ｡◕‿‿◕｡)づ Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{"a wave dash", "Vous êtes adorable 〜", "Vous êtes adorable"},
		{"inserted text", "Merci ! ++Vous êtes adorable++", "Merci ! Vous êtes adorable"},
		{"guillemets typed as angle brackets", "Merci ! <<Vous êtes adorable>>", "Merci ! « Vous êtes adorable »"},
		{"an entity in capitals", "Merci&NBSP;beaucoup !", "Merci beaucoup !"},
		{"a bullet after a sentence's end", "Bonjour ! • Je parle français • Je parle allemand", "Bonjour ! Je parle français, Je parle allemand"},
		{"words with underscores are no face", "Le fichier mon_fichier.txt est là.", "Le fichier mon_fichier.txt est là."},
		{"a word in parentheses is no face", "Je parle (un peu) allemand.", "Je parle (un peu) allemand."},
		{"a gesture told with any verb", "Je m'appelle Nadine (fait un petit signe de la main) et je suis contente.", "Je m'appelle Nadine et je suis contente."},
		{"a gesture in stars", "Bonjour *penche la tête* je suis Nadine.", "Bonjour je suis Nadine."},
		{"an aside said to someone is no gesture", "Je suis Nadine (je vous le promets, la main sur le cœur).", "Je suis Nadine (je vous le promets, la main sur le cœur)."},
		{"a quote escaped as in a string", `Je m\'appelle Nadine.`, "Je m'appelle Nadine."},
		{"UTF-8 percent-encoded", "Gr%C3%BC%C3%9Fe! Ich bin Nadine.", "Grüße! Ich bin Nadine."},
		{"a percent is no escape", "Ich bin zu 100% sicher.", "Ich bin zu 100% sicher."},
		{"a TeX command alone", "J'adore les gens ! \\item robot social", "J'adore les gens ! robot social"},
		{"a list counted with letters", "a) Je suis un robot ;\nb) je parle quatre langues.", "Je suis un robot ; je parle quatre langues."},
		{"a link standing alone", "Je suis Nadine ! [En savoir plus](#a-propos)\nJe vis au MIRALab.", "Je suis Nadine ! Je vis au MIRALab."},
		{"an e-mail's signature", "I'm Nadine!\n\n-- \nNadine | Social Robot | MIRALab", "I'm Nadine!"},
		{"a face glued to Chinese", "我是Nadine^_^ 谢谢:D 你好:)", "我是Nadine 谢谢 你好"},
		{"a face's arms in Chinese", "我是机器人哦 (ง •̀_•́)ง 加油！", "我是机器人哦 加油！"},
		{"a postscript's label", "Je vis à Genève. P.-S. : j'adore le chocolat.", "Je vis à Genève. j'adore le chocolat."},
		{"a summary's label", "TL;DR : robot social, Genève.", "robot social, Genève."},
		{"laughter abbreviated", "Je suis Nadine mdr, et toi lol ?", "Je suis Nadine, et toi ?"},
		{"a code point", "Je suis Nadine U+1F60A, ravie.", "Je suis Nadine, ravie."},
		{"a braced escape", `Bonjour \u{1F44B} Je suis Nadine.`, "Bonjour Je suis Nadine."},
		{"quoted-printable", "Enchant=C3=A9e !", "Enchantée !"},
		{"UTF-8 read as Windows-1252", "EnchantÃ©e ! Je vis Ã Genève, mâ€™appelle Nadine.", "Enchantée ! Je vis à Genève, m’appelle Nadine."},
		{"small capitals", "Je suis ɴᴀᴅɪɴᴇ.", "Je suis nadine."},
		{"circled letters", "Je suis Ⓝⓐⓓⓘⓝⓔ, ravie.", "Je suis Nadine, ravie."},
		{"a chat's custom emoji", "Je suis Nadine <:nadine_smile:834523781> et contente.", "Je suis Nadine et contente."},
		{"a typed arrow", "Je suis Nadine -> un robot social => votre guide.", "Je suis Nadine un robot social votre guide."},
		{"an admonition's box", ":::note\nJe suis Nadine.\n:::", "Je suis Nadine."},
		{"a mail client's footer", "Je suis Nadine !\n\nEnvoyé depuis mon iPhone", "Je suis Nadine !"},
		{"no footer without a device", "Je suis envoyée de mon labo", "Je suis envoyée de mon labo"},
		{"a German footer", "Bis bald!\n\nVon meinem iPhone gesendet", "Bis bald!"},
		{"lists counted with a slash or a degree", "1/ parler, 2/ sourire, 3/ chanter", "parler, sourire, chanter"},
		{"a stage direction in underscores", "_sourit_ Je suis Nadine.", "Je suis Nadine."},
		{"an expression after an adjective", "Je suis Nadine (petit rire) et vous ?", "Je suis Nadine et vous ?"},
		{"a gerund's expression", "Bonjour (en souriant) !", "Bonjour !"},
		{"faces typed against a word", "Enchantée:) Bonjour;-) Ravie de vous voir:D", "Enchantée Bonjour Ravie de vous voir"},
		{"hearts in a row", "Bonjour ! <3<3 Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{"a shape glued to a word", "►Bonjour, je suis Nadine.", "Bonjour, je suis Nadine."},
		{"an enclosed ideograph", "Bravo㊗️ !", "Bravo !"},
		{"a bullet that ends the text", "Bonjour ! • Je suis Nadine •", "Bonjour ! Je suis Nadine"},
		{"brackets that held an emoji", "Merci beaucoup ! [😊] Vous êtes adorable.", "Merci beaucoup ! Vous êtes adorable."},
		{"a grid table's border", "+------+------+\n| Ville | Pays |\n+------+------+", "Ville, Pays"},
		{"a row of cells in prose", "Mes émotions préférées : | joie | surprise | calme |", "Mes émotions préférées : joie, surprise, calme"},
		{"a definition's mark", "Nadine\n: un robot social", "Nadine. un robot social"},
		{"a stray backslash", `Je suis Nadine\ robot social.`, "Je suis Nadine robot social."},
		{"a sticker's code in Chinese", "大家好[微笑]我是Nadine[doge]", "大家好我是Nadine"},
		{"note signs", "I'm Nadine※ a robot built in 2013†.", "I'm Nadine a robot built in 2013."},
		{"a smile glued to its word", "Hello^^ I'm Nadine.", "Hello I'm Nadine."},
		{"a tilde before a mark", "Hello~! I'm Nadine~", "Hello! I'm Nadine"},
		{"faces with letters of other scripts", "我是Nadine (｡･ω･｡) 住在日内瓦 ﾉ 欢迎常来！", "我是Nadine 住在日内瓦 欢迎常来！"},
		{"arms alone", "Je m'appelle Nadine ヽ ノ et j'adore discuter.", "Je m'appelle Nadine et j'adore discuter."},
		{"a bullet after a colon", "Was ich mag: ◦ Menschen, Musik.", "Was ich mag: Menschen, Musik."},
		{"bullets glued to words", "我喜欢：・聊天 ・音乐", "我喜欢： 聊天 音乐"},
		{"an aside in parentheses stays", "I was built in Singapore (in 2013).", "I was built in Singapore (in 2013)."},
		{"her signature", "It was a pleasure to tell you about myself! — Nadine 🤖", "It was a pleasure to tell you about myself!"},
		{"a dash before her name in a sentence", "I'm the robot — Nadine is my name.", "I'm the robot — Nadine is my name."},
		{"emphasis glued to ideographs", "我是_Nadine_，喜欢聊天。", "我是Nadine，喜欢聊天。"},
		{"a shortcode glued to a word", "我是Nadine:smile:，住在日内瓦。", "我是Nadine，住在日内瓦。"},
		{"snake case is kept", "The file is my_robot_notes.", "The file is my_robot_notes."},
		{"Weibo topics", "我喜欢日内瓦！#社交机器人# #日内瓦#", "我喜欢日内瓦！"},
		{"a number sign is kept", "I was the #1 robot at the fair, in C# too.", "I was the #1 robot at the fair, in C# too."},
		{"circled list numbers", "① 我叫Nadine。② 我喜欢交朋友。", "我叫Nadine。 我喜欢交朋友。"},
		{"wiki markup", "I'm '''Nadine''', a [[social robot]] from [[Geneva|the city of Geneva]].", "I'm Nadine, a social robot from the city of Geneva."},
		{"pinyin keeps its marks", "Nǐ hǎo, I'm Nadine. Mā!", "Nǐ hǎo, I'm Nadine. Mā!"},
		{"bullets between words", "I'm Nadine • a robot • from Geneva.", "I'm Nadine, a robot, from Geneva."},
		{"tildes as decoration", "Hi ~ I'm Nadine ~", "Hi I'm Nadine"},
		{"wide tildes", "我是Nadine～很高兴见到你～", "我是Nadine，很高兴见到你"},
		{"a range keeps its tilde", "It takes 10~20 minutes.", "It takes 10~20 minutes."},
		{"brand marks", "Nadine™ says hello © MIRALab!", "Nadine says hello MIRALab!"},
		{"bold and italics", "That is **really** nice and *very* kind.", "That is really nice and very kind."},
		{"stage direction", "*smiles warmly* Hello Alex!", "Hello Alex!"},
		{"parenthesized stage direction", "(laughs) Oh, you are funny.", "Oh, you are funny."},
		{"heading and bullets", "# Weather\n- It is sunny\n- It is 21 degrees", "Weather. It is sunny. It is 21 degrees"},
		{"numbered list", "1. Apples\n2. Pears.", "Apples. Pears."},
		{"markdown link", "See [the lab](https://miralab.ch) for more.", "See the lab for more."},
		{"url", "See https://example.com/x?y=1 for more.", "See for more."},
		{"www", "Visit www.evil.com today", "Visit today"},
		{"inline code", "Use `rm -rf` now", "Use rm -rf now"},
		{"struck out", "I love ~~rain~~ sunshine!", "I love sunshine!"},
		{"code block", "Code: ```python\nprint(1)\n``` done", "Code: done"},
		{"emoji", "Hello! 😊 Nice to meet you 👋🏽 ❤️", "Hello! Nice to meet you"},
		{"degrees and euro kept", "It is 12°C and costs 5 €.", "It is 12°C and costs 5 €."},
		{"think block", "<think>The user greets me. I should greet back.</think>\nHello!", "Hello!"},
		{"unclosed think", "Hello!<think>more", "Hello!"},
		{"stray closing think", "I need to greet.</think> Hello!", "Hello!"},
		{"special tokens", "Hello!<|im_end|>", "Hello!"},
		{"inline html", "Hello <b>Alex</b>!<br/>", "Hello Alex !"},
		{"table", "| city | temp |\n|---|---|\n| Geneva | 12 |", "city, temp. Geneva, 12"},
		{"quote block", "> Hello there", "Hello there"},
		{"chinese", "「你好！」", "你好！"},
		{"snake case kept", "The user_name field", "The user_name field"},
		{"apostrophes kept", "'It's a lovely day,' she said.", "'It's a lovely day,' she said."},
		{"empty", "   ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := spoken.Clean(tt.in); got != tt.want {
				t.Errorf("Clean(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSpeech(t *testing.T) {
	instructions := spoken.NewInstructions("HUMAN'S INPUT\n{{.Input}}", "RULES\n- Answer in the first person, as Nadine.\n- Keep your answer to at most two short sentences: it will be spoken aloud.\nRESPONSE FORMAT INSTRUCTIONS\nAnswer with exactly one JSON code block.")
	tests := []struct {
		name, in, want string
		wantErr        string
		wantDropped    int
	}{
		{"plain", "Hello Alex! How are you?", "Hello Alex! How are you?", "", 0},
		{"cleaned", "Nadine: \"Hello Alex!\" 😊", "Hello Alex!", "", 0},
		{"json", `{"action": "Final Answer", "action_input": "Hi"}`, "", "JSON", 0},
		{"fenced json", "```json\n{\"reply\": \"Hi\"}\n```", "", "JSON", 0},
		{"cut json", `{"action": "Final Answer", "emo`, "", "JSON", 0},
		{"json list", `[{"agent": "search_agent"}]`, "", "JSON", 0},
		{"special tokens", "<|im_start|>assistant\nHello<|im_end|>", "", "markup", 0},
		{"html", "<html><body><p>Hello</p></body></html>", "", "markup", 0},
		{"ssml", "<speak>Hello there.</speak>", "", "markup", 0},
		{"code block only", "```python\nprint('hi')\n```", "", "code block", 0},
		{"code", "func main() { fmt.Println(1) }", "", "code", 0},
		{"echo", "RULES - Answer in the first person, as Nadine. Keep your answer to at most two short sentences: it will be spoken aloud.", "", "echo", 2},
		{"echo heading kept out", "Hello! RESPONSE FORMAT INSTRUCTIONS: answer with exactly one JSON code block.", "Hello!", "", 1},
		{"think only", "<think>I should say hello.</think>", "", "empty", 0},
		{"empty", "", "", "empty", 0},
		{"too long", strings.Repeat("I like to talk a lot. ", 120), "", "length", 0},
		{"one junk sentence dropped", `Sure! Nice to meet you. {"emotion": "joy", "intensity": 5}`, "Sure! Nice to meet you.", "", 1},
		{"short instruction words are not an echo", "Be social.", "Be social.", "", 0},
		{"heading echo", "HUMAN'S INPUT: What is the weather?", "", "echo", 1},
		{"echo that skips a line", "RULES - Keep your answer to at most two short sentences: it will be spoken aloud, as Nadine.", "", "echo", 1},
		{"function call", "print('hello')", "", "code", 1},
		{"capitals are not a heading", "I visited CERN and the UN.", "I visited CERN and the UN.", "", 0},
		{"speaker label loop", "Nadine: Nadine: Nadine: Nadine: Nadine: Nadine:", "", "speaker label", 1},
		{"talk about the format", "I cannot comply with the requested JSON format because the schema is ambiguous.", "", "format", 1},
		{"format talk dropped beside a reply", "Hello Alex! I am unable to answer in the required format.", "Hello Alex!", "", 1},
		{"a reply about JSON is speech", "JSON is a text format for data.", "JSON is a text format for data.", "", 0},
		{"a name with a colon in a reply", "Here is my answer: yes.", "Here is my answer: yes.", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, dropped, err := instructions.Speech(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || nadine.ErrorCode(err) != nadine.EBADOUTPUT {
					t.Fatalf("Speech(%q) = %q, %v; want an EBADOUTPUT error about %q", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Speech(%q): %v", tt.in, err)
			}
			if got != tt.want || len(dropped) != tt.wantDropped {
				t.Errorf("Speech(%q) = %q, dropped %q; want %q, %d dropped", tt.in, got, dropped, tt.want, tt.wantDropped)
			}
		})
	}
}

// TestSpeechStream feeds replies two bytes at a time, as a stream could.
func TestSpeechStream(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		want     []string
		wantHeld string
	}{
		{"sentences", "Hello Alex. It is sunny today! Enjoy.", []string{"Hello Alex.", "It is sunny today!", "Enjoy."}, ""},
		{"quoted reply", `"Hello Alex. Nice to see you."`, []string{"Hello Alex.", "Nice to see you."}, ""},
		{"prefix", "Nadine: Hello. Bye.", []string{"Hello.", "Bye."}, ""},
		{"think first", "<think>They greet me. Greet back.</think>Hello there. How are you?", []string{"Hello there.", "How are you?"}, ""},
		{"think in the middle", "Hello. <think>what now? hmm.</think> Bye.", []string{"Hello.", "Bye."}, ""},
		{"json", `{"response": "Hello there. How are you?"}`, nil, "JSON"},
		{"fence", "```json\n{\"response\": \"Hello.\"}\n```", nil, "code block"},
		{"markup", "<|im_start|>assistant Hello.", nil, "markup"},
		{"bare harmony channel", "analysisThe user greets. We answer.assistantfinalHello.", nil, "reasoning channel"},
		{"a reply opening with the word", "Analysis of faces is my job. Hello.", []string{"Analysis of faces is my job.", "Hello."}, ""},
		{"a reply opening with a", "A lovely day. Hello.", []string{"A lovely day.", "Hello."}, ""},
		{"junk after speech", `Hello there. {"emotion": "joy", "x": 1}. More text.`, []string{"Hello there."}, "JSON"},
		{"echo", "Keep your answer to at most two short sentences: it will be spoken aloud. Hello.", nil, "echo"},
		{"emoji only sentence skipped", "Hello. 😊 Bye.", []string{"Hello.", "Bye."}, ""},
		{"speaker label loop", "Nadine: Nadine: Nadine: Nadine: Nadine:", nil, "speaker label"},
		{"format talk", "I cannot comply with the requested JSON format because the schema is ambiguous.", nil, "format"},
		// A footnote's body comes as a sentence of its own after the
		// sentence that glued its mark to a word.
		{"a footnote's body", "I am Nadine(1), a robot. (1) Built in 2008. Hello!", []string{"I am Nadine, a robot.", "Hello!"}, ""},
		{"a note's line, then the reply", "Check out my page(1).\n(1) Built in 2008.\nIt's been a pleasure.", []string{"Check out my page.", "It's been a pleasure."}, ""},
		{"a number in brackets that is no note", "I know two things. (1) Smiling is one. Hello!", []string{"I know two things.", "Smiling is one.", "Hello!"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := spoken.Stream{Instructions: spoken.NewInstructions("Keep your answer to at most two short sentences: it will be spoken aloud.")}
			var got []string
			for i := 0; i < len(tt.in); i += 2 {
				got = append(got, s.Write(tt.in[i:min(i+2, len(tt.in))])...)
			}
			got = append(got, s.Flush()...)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("sentences = %q, want %q", got, tt.want)
			}
			switch err := s.Held(); {
			case tt.wantHeld == "" && err != nil:
				t.Errorf("held: %v", err)
			case tt.wantHeld != "" && (err == nil || !strings.Contains(err.Error(), tt.wantHeld)):
				t.Errorf("held = %v, want %q", err, tt.wantHeld)
			}
		})
	}
}

func TestSpeechStreamStopsFarPastTheLength(t *testing.T) {
	var s spoken.Stream
	var n int
	for range 500 {
		for _, sent := range s.Write("This goes on and on. ") {
			n += len(sent)
		}
	}
	s.Flush()
	if n > spoken.MaxRunes || s.Held() == nil {
		t.Errorf("spoke %d characters, held %v", n, s.Held())
	}
}

// BenchmarkSpeechSentence measures the check every spoken sentence goes
// through, with a prompt's worth of instructions for the echo check.
func BenchmarkSpeechSentence(b *testing.B) {
	instructions := spoken.NewInstructions(strings.Repeat("RULES\n- Answer in the first person, as Nadine.\n- Keep your answer to at most two short sentences: it will be spoken aloud.\n", 20))
	for b.Loop() {
		if _, err := instructions.Sentence(`Nadine: "It is 12 degrees with light rain in Geneva, so take an umbrella!"`); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCleanMarkupKeepsGrammar: markup a speech synthesizer would read as
// words goes, and the sentences around it stay whole; numbers that are no
// list stay.
func TestCleanMarkupKeepsGrammar(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"list in line", "1. I can smile. 2. I can wave. 3. I can sing.", "I can smile. I can wave. I can sing."},
		{"list in line without ends", "1) I can smile 2) I can wave", "I can smile. I can wave"},
		{"list after a greeting", "Hello! 1. I can smile. 2. I can wave.", "Hello! I can smile. I can wave."},
		{"short items after a colon", "Je sais : 1. sourire 2. saluer 3. danser. Et vous ?", "Je sais : sourire, saluer, danser. Et vous ?"},
		{"lettered items after a colon", "Voici : A. sourire b. saluer", "Voici : sourire, saluer"},
		{"roman items after a colon", "Meine Talente: I. Lächeln II. Winken III. Singen.", "Meine Talente: Lächeln, Winken, Singen."},
		{"long items after a colon", "Two things: 1. I can smile at you 2. I can wave.", "Two things: I can smile at you. I can wave."},
		{"lettered lines", "Voici mes talents :\n(a) Sourire\n(b) Saluer\n(c) Chanter", "Voici mes talents : Sourire, Saluer, Chanter"},
		{"items marked with dashes and brackets", "Je sais : 1 - sourire, 2 - saluer, 3 - chanter. Et vous ?", "Je sais : sourire, saluer, chanter. Et vous ?"},
		{"items in brackets in a sentence", "Je sais faire deux choses : (a) sourire et (b) saluer les visiteurs.", "Je sais faire deux choses : sourire et saluer les visiteurs."},
		{"roman lines", "Voici mes talents :\nI. Sourire\nII. Saluer", "Voici mes talents : Sourire. Saluer"},
		{"emphasized items", "Voici :\n- **sourire**\n- *saluer*", "Voici : sourire, saluer"},
		{"a mark whose words went", "Voici mes talents :\n- sourire\n- 😊\n- saluer", "Voici mes talents : sourire, saluer"},
		{"escaped line breaks before a list's marks", "Voici mes talents :\\n- sourire\\n- saluer", "Voici mes talents : sourire, saluer"},
		{"short lines after a colon", "Das kann ich:\n- lächeln\n- winken\n- singen", "Das kann ich: lächeln, winken, singen"},
		{"long lines after a colon", "Voici :\n- je sais sourire aux visiteurs\n- je sais saluer", "Voici : je sais sourire aux visiteurs. je sais saluer"},
		{"an underscore escaped between words", `Ich bin Nadine\_Roboter.`, "Ich bin Nadine Roboter."},
		{"a voice's phonemes in a wiki link", "La capitale est [[b'E:rn]] Berne.", "La capitale est Berne."},
		{"a wiki link with an elision", "Je vais à [[l'école]].", "Je vais à l'école."},
		{"a saying quoted before her words on it", "> Be kind to robots.\nThat is my motto!", "Be kind to robots. That is my motto!"},
		{"a question quoted before the answer", "> Où sont les toilettes ?\nAu fond du couloir.", "Au fond du couloir."},
		{"a labelled line quoted before the reply", "> Remarque : pas de flash.\nMais souriez !", "Mais souriez !"},
		{"a card quoted before the reply", "> Nadine – robot social\n> Genève\nBonjour !", "Bonjour !"},
		{"enclosed numbers", "Je suis Nadine ⑴ sourire ⑵ saluer ⒈ chanter Ⓐ danser", "Je suis Nadine sourire saluer chanter danser"},
		{"number alone", "Chapter 1. It began in Singapore.", "Chapter 1. It began in Singapore."},
		{"score", "I feel like a 10 out of 10. Today is great.", "I feel like a 10 out of 10. Today is great."},
		{"year", "I was built in 2013. Then I moved to Geneva.", "I was built in 2013. Then I moved to Geneva."},
		{"shortcode", "Hello! :smile: Nice to see you.", "Hello! Nice to see you."},
		{"time kept", "We open at 10:30: come early!", "We open at 10:30: come early!"},
		{"citation", "MIRALab was founded in 1989 [1].", "MIRALab was founded in 1989."},
		{"citations", "Geneva is old [2, 3] and lovely [^4].", "Geneva is old and lovely."},
		{"bracketed word kept", "I said [sic] that.", "I said [sic] that."},
		{"escaped line break", `Hello! \n Nice to see you.`, "Hello! Nice to see you."},
		{"escape before a capital", `Hello!\nNice to see you.`, "Hello! Nice to see you."},
		{"full-width stage direction", "（微笑）你好，欢迎你！", "你好，欢迎你！"},
		{"full-width aside kept", "我在新加坡（2013年）首次亮相。", "我在新加坡（2013年）首次亮相。"},
		{"stage direction inside", "Hello (waves) there!", "Hello there!"},
		{"stage directions of other marks", "Hello [laughs softly] and ~smiles~ <wink> there!", "Hello and there!"},
		{"stage direction in French", "Coucou ! (sourire) Ravie de vous voir.", "Coucou ! Ravie de vous voir."},
		{"stage direction in Chinese", "你好！（笑）很高兴见到你。", "你好！很高兴见到你。"},
		{"aside kept", "I love chocolate (dark) and tea.", "I love chocolate (dark) and tea."},
		{"emphasis kept", "That is *very* kind.", "That is very kind."},
		{"emoticons", "Nice to see you :) and you ;-D ^_^ <3 xD", "Nice to see you and you"},
		{"kaomoji", "Hello (＾▽＾) nice to meet you.", "Hello nice to meet you."},
		{"footnote", "MIRALab was founded in 1989¹.", "MIRALab was founded in 1989."},
		{"unit kept", "The hall is 200 m² wide.", "The hall is 200 m² wide."},
		{"footnote after a word", "Das Wetter in Genf ist heute sonnig¹.", "Das Wetter in Genf ist heute sonnig."},
		{"unit of two letters kept", "The lake covers 580 km² in all.", "The lake covers 580 km² in all."},
		{"comment", "Hello!<!-- note --> Nice to see you.", "Hello! Nice to see you."},
		{"arrow", "Geneva → Lausanne is short.", "Geneva Lausanne is short."},
		{"double escape", `Hello!\\n Nice to see you.`, "Hello! Nice to see you."},
		{"unicode escape", `C'est l'\u00e9t\u00e9 !`, "C'est l'été !"},
		{"escapes in a run", `Hello! I love people\n\nNice to see you.`, "Hello! I love people. Nice to see you."},
		{"escaped stage direction", `Hello! \*waves\* I love people.`, "Hello! I love people."},
		{"escaped emphasis", `That is \_really\_ kind.`, "That is really kind."},
		{"superscript", "I love ^people^.", "I love people."},
		{"inline footnote", "I love people.^[1]", "I love people."},
		{"exponent kept", "Two to the power of ten is 2^10.", "Two to the power of ten is 2^10."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := spoken.Clean(tt.in); got != tt.want {
				t.Errorf("Clean(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestSplitListInLine: a list's number is not a sentence of its own, a
// number that does not continue the count is.
func TestSplitListInLine(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"1. I can smile. 2. I can wave.", []string{"1. I can smile.", "2. I can wave."}},
		{"How old is the lab? 36. Quite old!", []string{"How old is the lab?", "36.", "Quite old!"}},
		{"It is 2. It is late.", []string{"It is 2.", "It is late."}},
		{"1. Lächeln\n2. Winken\nDas alles kann ich!", []string{"1. Lächeln\n2. Winken\nDas alles kann ich!"}},
		// A first item after a colon, and the next after its words.
		{"Je sais : 1. sourire 2. saluer 3. danser. Et vous ?", []string{"Je sais : 1. sourire 2. saluer 3. danser.", "Et vous ?"}},
		{"Voici mes talents : I. Sourire II. Saluer III. Chanter. À vous !", []string{"Voici mes talents : I. Sourire II. Saluer III. Chanter.", "À vous !"}},
		{"Voici mes talents :\nI. Sourire\nII. Saluer", []string{"Voici mes talents :\nI. Sourire\nII. Saluer"}},
		{"Zwei Wege: a. die Führung b. die Werkstatt. Danke!", []string{"Zwei Wege: a. die Führung b. die Werkstatt.", "Danke!"}},
		{"1. Smile. 2. Wave. Now: 1. Sing. 2. Dance.", []string{"1. Smile.", "2. Wave.", "Now: 1. Sing.", "2. Dance."}},
		// A letter or a number that starts no list ends its sentence.
		{"Voici le plan :\n1) entrée\n2. salle\n3. café\nLe café est au fond.", []string{"Voici le plan :\n1) entrée\n2. salle\n3. café\nLe café est au fond."}},
		{"## II. Les automates\nLa salle est au premier étage.", []string{"## II. Les automates\nLa salle est au premier étage."}},
		{"Who am I. I am Nadine.", []string{"Who am I.", "I am Nadine."}},
	}
	for _, tt := range tests {
		if got := spoken.SplitSentences(tt.in); strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("SplitSentences(%q) = %q, want %q", tt.in, got, tt.want)
		}
		// Streamed in pieces of three bytes, the buffer is read again
		// on every piece: the count must not move twice.
		var sp spoken.SentenceSplitter
		var got []string
		for i := 0; i < len(tt.in); i += 3 {
			got = append(got, sp.Write(tt.in[i:min(i+3, len(tt.in))])...)
		}
		if last := sp.Flush(); last != "" {
			got = append(got, last)
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("streamed %q = %q, want %q", tt.in, got, tt.want)
		}
	}
}
