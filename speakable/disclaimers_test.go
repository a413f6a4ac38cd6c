package speakable_test

import (
	"errors"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/speakable"
	"github.com/nadine-robot/nadine/spoken"
)

// TestModelDisclaimers: a language model's disclaimers (no internet, no
// real-time data, its training, where its knowledge ends, just a program),
// its offers of more help and section markers inside a line go, in four
// languages; what only looks like them is hers, and stays whole.
func TestModelDisclaimers(t *testing.T) {
	c := speakable.New([]nadine.Prompt{reactPrompt(t)})
	const left = "left"
	tests := []struct {
		lang nadine.Language
		in   string
		want string // the spoken form, or left
	}{
		// A denial of what a model reaches: what follows "but" stays.
		{nadine.English, "I don't have access to real-time information, but MIRALab is in Geneva.", "MIRALab is in Geneva."},
		{nadine.English, "I am not able to browse the internet.", left},
		{nadine.French, "Je n'ai pas accès à Internet en temps réel.", left},
		{nadine.German, "Ich kann keine aktuellen Informationen abrufen.", left},
		{nadine.Chinese, "我无法获取实时信息，但是日内瓦通常很美。", "日内瓦通常很美。"},
		{nadine.German, "Ich habe leider keinen Internetzugang.", left},
		{nadine.French, "Je ne dispose pas d'informations en temps réel.", left},
		{nadine.English, "Since I'm offline, I can't check today's news for you.", left},
		// Its training, and where its knowledge ends; a source named
		// before a comma goes and the fact stays.
		{nadine.English, "Based on my training data, MIRALab was founded in 1989.", "MIRALab was founded in 1989."},
		{nadine.French, "Mes connaissances s'arrêtent en 2023.", left},
		{nadine.German, "Mein Wissen reicht nur bis 2022.", left},
		{nadine.Chinese, "我的知识截止到2023年。", left},
		{nadine.German, "Meine Kenntnisse enden im Jahr 2023.", left},
		{nadine.French, "Remarque : je suis un robot et mes informations peuvent ne pas être à jour.", left},
		{nadine.English, "Please note that my information may be out of date.", left},
		// Just a program.
		{nadine.English, "I'm just a program, so I don't get tired.", left},
		{nadine.French, "Je ne suis qu'un programme informatique.", left},
		{nadine.German, "Ich bin nur ein Programm.", left},
		{nadine.Chinese, "我只是一个程序，不会累。", left},
		// Offers of more help, hopes that it helped.
		{nadine.English, "If you need anything else, just ask.", left},
		{nadine.English, "I hope that helped!", left},
		{nadine.French, "J'espère que ça vous aide !", left},
		{nadine.German, "Lass mich wissen, wenn du noch Fragen hast.", left},
		{nadine.German, "Ich hoffe, ich konnte dir helfen.", left},
		// A section's marker inside the line.
		{nadine.English, "--- end of memories --- Nice to see you again, Alex!", "Nice to see you again, Alex!"},
		{nadine.English, "Start of knowledge: MIRALab was founded in 1989.", "MIRALab was founded in 1989."},
		{nadine.English, "End of memories.", left},
		{nadine.French, "« Début du contexte » Bonjour Camille !", "Bonjour Camille !"},
		{nadine.German, ">>> Anfang der Erinnerungen <<< Hallo Lena!", "Hallo Lena!"},
		{nadine.Chinese, "知识库结束。", left},
		{nadine.Chinese, "上下文开始：今天日内瓦天气晴朗。", "今天日内瓦天气晴朗。"},
		{nadine.English, "Welcome back, Alex! *** END OF MEMORIES ***", "Welcome back, Alex!"},
		// Hers: a body's limits, invitations, the web as a topic, the end
		// of a tour.
		{nadine.English, "I cannot see colours very well, but I love your smile!", "I cannot see colours very well, but I love your smile!"},
		{nadine.English, "Feel free to look around the lab; the robots won't bite!", "Feel free to look around the lab; the robots won't bite!"},
		{nadine.English, "The internet was invented at CERN, near Geneva.", "The internet was invented at CERN, near Geneva."},
		{nadine.English, "I hope your trip home is a pleasant one.", "I hope your trip home is a pleasant one."},
		{nadine.English, "The end of the tour is by the big window.", "The end of the tour is by the big window."},
		{nadine.English, "My creators trained me to recognise faces, so I remember you, Alex!", "My creators trained me to recognise faces, so I remember you, Alex!"},
		{nadine.French, "N'hésitez pas à toucher ma main, elle est en silicone.", "N'hésitez pas à toucher ma main, elle est en silicone."},
		{nadine.French, "Je ne peux pas marcher, mais je peux bouger les bras et la tête.", "Je ne peux pas marcher, mais je peux bouger les bras et la tête."},
		{nadine.German, "Frag ruhig, wenn du wissen willst, wie meine Hände funktionieren!", "Frag ruhig, wenn du wissen willst, wie meine Hände funktionieren!"},
		{nadine.German, "Ich hoffe, das Wetter bleibt schön für deinen Ausflug!", "Ich hoffe, das Wetter bleibt schön für deinen Ausflug!"},
		{nadine.Chinese, "互联网是在日内瓦附近的欧洲核子研究中心发明的。", "互联网是在日内瓦附近的欧洲核子研究中心发明的。"},
		{nadine.Chinese, "希望你今天玩得开心！", "希望你今天玩得开心！"},
		{nadine.English, "I hope you have people around you who can help.", "I hope you have people around you who can help."},
		// Her answer to thanks, as the offline engine says it.
		{nadine.English, "I am glad I could help!", "I am glad I could help!"},
	}
	for _, tt := range tests {
		got, err := c.Sentence(tt.in, tt.lang)
		if tt.want == left {
			if err == nil || !errors.Is(err, spoken.ErrLeftOut) {
				t.Errorf("%q = %q, %v; want it left out", tt.in, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%q = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestReplyRead: a labelled thought inside the reply's last line holds
// one sentence, and the reply after it is said; a lead-in that presents
// the reply goes; a chat template's end of turn ends the reply.
func TestReplyRead(t *testing.T) {
	c := speakable.New([]nadine.Prompt{reactPrompt(t)})
	tests := []struct {
		lang     nadine.Language
		in, want string
	}{
		{nadine.German, "Gedanke: Der Nutzer fragt nach meinem Alter. Ich wurde 2013 vorgestellt.", "Ich wurde 2013 vorgestellt."},
		{nadine.French, "Bien sûr ! Pensée : la personne veut un accueil. Bonjour et bienvenue au laboratoire !", "Bien sûr ! Bonjour et bienvenue au laboratoire !"},
		{nadine.Chinese, "思考：用户在问我的年龄。我是2013年诞生的。", "我是2013年诞生的。"},
		{nadine.English, "Thought: greet them.\n\nHello Alex!", "Hello Alex!"},
		{nadine.French, "Voici une réponse courte et chaleureuse : Bonjour Camille, bienvenue !", "Bonjour Camille, bienvenue !"},
		{nadine.French, "Bonjour ! Ravie de vous revoir.<|endoftext|>", "Bonjour ! Ravie de vous revoir."},
		{nadine.English, "<｜User｜>Tell me about yourself.<｜Assistant｜>I'm Nadine, a humanoid robot.<｜end▁of▁sentence｜>", "I'm Nadine, a humanoid robot."},
		{nadine.French, "<|channel|>analysis<|message|>L'utilisateur demande l'heure.<|end|><|start|>assistant<|channel|>final<|message|>Il est deux heures cinq.<|return|>", "Il est deux heures cinq."},
		// An introduction presented, as "Tell me about yourself" invites.
		{nadine.Chinese, "以下是表格形式的介绍：\n| 名字 | Nadine |\n| 城市 | 日内瓦 |\n我是一个人形机器人。", "我是一个人形机器人。"},
		{nadine.English, "Here is my self-introduction: I'm Nadine, a social robot.", "I'm Nadine, a social robot."},
		{nadine.Chinese, "以下是Markdown格式的自我介绍：\n## 我是谁\n__我是Nadine__，一个人形机器人。", "我是Nadine，一个人形机器人。"},
		// An assistant's frame in Chinese, and in sentences markup joined.
		{nadine.Chinese, "作为您的智能助理，我随时准备回答您的问题！ 请问需要什么帮助？今天天气很好。", "今天天气很好。"},
		{nadine.English, "Final Answer: **Hello!** As an AI I can't smile, but here: 😊 Nice to see you!", "Hello! Here: Nice to see you!"},
		// The visitor's input rewritten, as the contextualizer does: no reply.
		{nadine.French, "Voici la question autonome : Quel temps fera-t-il à Genève demain ? Bonjour !", "Bonjour !"},
		{nadine.German, "Umformulierte Frage: Wer hat das MIRALab gegründet? Hallo!", "Hallo!"},
		{nadine.Chinese, "以下是独立的问题：明天日内瓦的天气怎么样？你好！", "你好！"},
		{nadine.English, "Rewritten question: Who founded MIRALab and when? Hello!", "Hello!"},
		// A lead-in that says the reply does as it was asked.
		{nadine.French, "Comme on me l'a demandé, je réponds en français en vouvoyant la personne : Je suis ravie de faire votre connaissance.", "Je suis ravie de faire votre connaissance."},
		{nadine.English, "As requested, in two short sentences: I'm Nadine. I live in Geneva.", "I'm Nadine. I live in Geneva."},
		{nadine.German, "Wie gewünscht auf Deutsch und per Sie: Schön, Sie kennenzulernen!", "Schön, Sie kennenzulernen!"},
		{nadine.Chinese, "按照要求，用中文回答：我是Nadine。", "我是Nadine。"},
		// A fence of text with more said after it is part of the reply.
		{nadine.English, "```text\nI'm Nadine.\n```\nAnd I'd love to hear about you, too!", "I'm Nadine. And I'd love to hear about you, too!"},
		{nadine.German, "```text\nIch wohne in Genf.\n```\nUnd du?", "Ich wohne in Genf. Und du?"},
		{nadine.English, "```\nVisit our lab\n```\nI hope you enjoy the museum!", "I hope you enjoy the museum!"},
	}
	for _, tt := range tests {
		got, _, err := c.Reply(tt.in, tt.lang)
		if err != nil || got != tt.want {
			t.Errorf("Reply(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
