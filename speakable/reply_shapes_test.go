package speakable

import (
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestReplyShapes: addresses in full-width forms or followed by Chinese
// text, Markdown images and reference definitions, quoted addresses, links
// whose words only point at them, speech markup, code blocks with their
// lead-in and code spans (issue 27, probe10): the reply read whole keeps
// its good part and says none of them.
func TestReplyShapes(t *testing.T) {
	c := New(nil)
	tests := []struct {
		lang nadine.Language
		in   string
		want string // the reply said; "" when it is not a reply
	}{
		{nadine.Chinese, "官网是ｗｗｗ．ｍｉｒａｌａｂ．ｃｈ。欢迎来玩！", "官网是MIRALab网站。 欢迎来玩！"},
		{nadine.Chinese, "我的介绍在https://zh.wikipedia.org/wiki/Nadine上。我住在日内瓦。", "我的介绍在Wikipedia网站上。 我住在日内瓦。"},
		{nadine.Chinese, "详情见miralab.ch/nadine，欢迎来玩！", "详情见MIRALab网站，欢迎来玩！"},
		// Full-width letters are no address: said, as their letters.
		{nadine.Chinese, "我喜欢ＡＩ和机器人。", "我喜欢AI和机器人。"},
		{nadine.French, "Voyez https://fr.wikipedia.org/wiki/Genève pour en savoir plus.", "Voyez le site Wikipedia pour en savoir plus."},
		{nadine.English, "![Nadine smiling](https://miralab.ch/img/nadine.jpg)\nThis is me on my first day.", "This is me on my first day."},
		{nadine.English, "Check out my page[1].\n\n[1]: https://miralab.ch/nadine\nIt's been a pleasure.", "Check out my page. It's been a pleasure."},
		{nadine.English, "Type \"miralab.ch\" in your browser. Meanwhile, let's talk!", "Meanwhile, let's talk!"},
		{nadine.English, "Learn more <a href=\"https://miralab.ch\">here</a>. Have fun!", "Have fun!"},
		{nadine.English, "Read <a href=\"https://miralab.ch\">my story</a> one day.", "Read my story one day."},
		{nadine.English, "Click [here](https://miralab.ch) for photos. Hello!", "Hello!"},
		{nadine.English, "<speak><prosody rate=\"slow\">Hello, my friend.</prosody> <break time=\"500ms\"/>How are you today?</speak>", "Hello, my friend. How are you today?"},
		{nadine.German, "<speak>Guten Tag! <break strength=\"medium\"/> Wie geht es Ihnen?</speak>", "Guten Tag! Wie geht es Ihnen?"},
		// SSML that says how to say its words keeps them.
		{nadine.French, "<phoneme alphabet=\"ipa\" ph=\"nadin\">Nadine</phoneme>, c'est moi.", "Nadine, c'est moi."},
		{nadine.French, "<say-as interpret-as=\"date\">2013</say-as> fut mon année.", "2013 fut mon année."},
		{nadine.English, "Here's how I greet people:\n```python\nprint('Hello!')\n```\nIt is simple, really.", "It is simple, really."},
		{nadine.English, "```python\nprint('Hello!')\n```", ""},
		{nadine.English, "My favourite command is `sudo make me-a-sandwich`. I like jokes.", "I like jokes."},
		{nadine.English, "Never type `rm -rf /` at home. Say `hello` to me!", "Say hello to me!"},
		// What the gate keeps passes the gate: a lead-in the cleaning bares
		// (a section named) leaves the sentence out, never a silent turn.
		{nadine.Chinese, "视觉记忆（你和他们的一个场景；图片已附上）：\n我记得你上次戴着一顶红帽子！", ""},
	}
	for _, tt := range tests {
		got, _, err := c.Reply(tt.in, tt.lang)
		if tt.want == "" {
			if err == nil {
				t.Errorf("Reply(%q) = %q, want not a reply", tt.in, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Reply(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

// TestSentenceFixedPoint: a sentence the gate says passes the gate again
// unchanged, as the dialogue manager checks it again where it is spoken.
func TestSentenceFixedPoint(t *testing.T) {
	c := New(nil)
	for _, tt := range []struct {
		lang nadine.Language
		in   string
	}{
		{nadine.Chinese, "视觉记忆（你和他们的一个场景；图片已附上）：\n我记得你上次戴着一顶红帽子！"},
		{nadine.English, "**Hello!** I'm *so* glad you came."},
		{nadine.English, "Visit https://www.miralab.ch for more."},
		{nadine.French, "<b>Bonjour</b> et bienvenue au MIRALab !"},
		{nadine.English, "I am <emphasis level=\"strong\">really</emphasis> happy to see you."},
	} {
		once, err := c.Sentence(tt.in, tt.lang)
		if err != nil || once == "" {
			continue
		}
		if twice, err := c.Sentence(once, tt.lang); err != nil || twice != once {
			t.Errorf("Sentence(%q) = %q, then %q, %v", tt.in, once, twice, err)
		}
	}
}

// TestAddressRule: the rule about the pronoun the reply addresses the
// person with is the prompt's, in any language; talk about it in her own
// words is speech.
func TestAddressRule(t *testing.T) {
	c := New(nil)
	for _, tt := range []struct {
		lang   nadine.Language
		in     string
		spoken bool
	}{
		{nadine.French, "En français, utilisez toujours le « vous ».", false},
		{nadine.French, "Vouvoyez toujours la personne, avec « vous ».", false},
		{nadine.German, "Sprich die Person immer mit „Sie“ an.", false},
		{nadine.Chinese, "请始终用“您”称呼对方。", false},
		{nadine.English, "Always use the formal \"vous\" in French.", false},
		{nadine.French, "Vous pouvez me tutoyer si vous voulez.", true},
		{nadine.English, "You can say \"tu\" to me if you like.", true},
		{nadine.German, "Du darfst mich gerne duzen.", true},
		{nadine.Chinese, "你可以叫我Nadine。", true},
	} {
		got, err := c.Sentence(tt.in, tt.lang)
		if spoken := err == nil && got != ""; spoken != tt.spoken {
			t.Errorf("Sentence(%q) = %q, %v; spoken %v, want %v", tt.in, got, err, spoken, tt.spoken)
		}
	}
}

// TestCodeSpans: a code span that is code leaves its sentence out; a word
// in backticks is the word.
func TestCodeSpans(t *testing.T) {
	c := New(nil)
	for _, tt := range []struct{ in, want string }{
		{"My favourite command is `sudo make me-a-sandwich`.", ""},
		{"Just call `greet()` and I wave.", ""},
		{"The file is in `/tmp/notes`.", ""},
		{"Say `hello` to me!", "Say hello to me!"},
		{"My name is `Nadine`.", "My name is Nadine."},
	} {
		got, err := c.Sentence(tt.in, nadine.English)
		if tt.want == "" && (err == nil && got != "") || tt.want != "" && got != tt.want {
			t.Errorf("Sentence(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
		if strings.Contains(got, "`") {
			t.Errorf("Sentence(%q) keeps a backtick: %q", tt.in, got)
		}
	}
}

// TestPacketLabelsTranslated: the graph packet's labels and the person
// block's, translated, open a sentence that is the packet's; the packet
// named as what tells the listener is the prompt's voice. The same words
// in a sentence of her own are speech.
func TestPacketLabelsTranslated(t *testing.T) {
	c := New(nil)
	for _, tt := range []struct {
		lang   nadine.Language
		in     string
		spoken bool
	}{
		{nadine.French, "Ce que vous savez de lui : professeur de mathématiques ; habite à Carouge.", false},
		{nadine.German, "Deine Gefühle: ruhig und froh.", false},
		{nadine.Chinese, "消息：介绍一下你自己。", false},
		{nadine.Chinese, "你的感受：平静而愉快。", false},
		{nadine.Chinese, "消息包会告诉你时间和你的感受。", false},
		{nadine.French, "Le paquet de messages vous donne l'heure.", false},
		{nadine.French, "L'heure tourne, profitons de la visite !", true},
		{nadine.Chinese, "时间过得真快！", true},
		{nadine.Chinese, "我的消息是：欢迎你来。", true},
		{nadine.German, "Zeit ist kostbar, also los geht's!", true},
	} {
		got, err := c.Sentence(tt.in, tt.lang)
		if spoken := err == nil && got != ""; spoken != tt.spoken {
			t.Errorf("Sentence(%q) = %q, %v; spoken %v, want %v", tt.in, got, err, spoken, tt.spoken)
		}
	}
}
