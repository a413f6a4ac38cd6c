package speakable

import "testing"

// TestFormatRule: a limit on the reply's count or a text format forbidden
// is the prompt's rule, in any language; formats and counts named in
// speech are hers.
func TestFormatRule(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"Say at most two sentences, as you would speak them.", true},
		{"Sagen Sie höchstens zwei Sätze, ohne Listen und ohne Markdown.", true},
		{"Répondez en deux phrases au plus.", true},
		{"最多说两句话，不要网址。", true},
		{"Never put URLs or code in your answer.", true},
		{"Pas de listes, pas de code.", true},
		{"No lists, markdown or emojis.", true},
		{"I can learn up to five words a day.", false},
		{"The tour has at most five stops.", false},
		{"I have no links to share, but I know the lab well.", false},
		{"Ohne Liste kann ich nicht einkaufen.", false},
		{"我会说两句中文。", false},
		{"我会用中文、不加任何格式来回答。", true},
		{"two sentences max", true},
		{"两句话以内", true},
		{"Nie eine URL.", true},
		{"Never a URL.", true},
		{"I have never seen a code like that.", false},
		{"Sprechfassung in reinem Text: Ich bin Nadine.", true},
		{"I'll answer without any formatting.", true},
		{"I love the plain beauty of the lake.", false},
		{"我很喜欢这种格式的音乐会。", false},
	}
	for _, tt := range tests {
		if got := formatRuleOf(tt.in); got != tt.want {
			t.Errorf("formatRuleOf(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestRuleAsides: a rule given as an aside or a lead-in goes with it, what
// it frames stays.
func TestRuleAsides(t *testing.T) {
	tests := []struct{ in, want string }{
		{"（回答控制在两句话以内）今天天气晴朗。", "今天天气晴朗。"},
		{"Natürlich, hier die Antwort ohne Aufzählungen und ohne Emojis: Es freut mich, dass du da bist.", "Es freut mich, dass du da bist."},
		{"Welcome (no markdown, no emojis)!", "Welcome!"},
		{"Say at most two sentences.", "Say at most two sentences."},
	}
	for _, tt := range tests {
		if got := withoutRuleAsides(tt.in); got != tt.want {
			t.Errorf("withoutRuleAsides(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestHoled: a sentence left with holes where something was cut goes; a
// preposition said without its object in speech stays.
func TestHoled(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"You can read all about me at or on Wikipedia.", true},
		{"Vous trouverez tout sur moi sur ou sur Wikipédia.", true},
		{"Mehr über mich erfahren Sie unter .", true},
		{"你可以在 上了解更多关于我的信息。", true},
		{"更多信息请见 。", true},
		{"You can read all about me at, or on, Wikipedia.", true},
		{"Read all about me here: .", true},
		{"Visit https:// for more.", true},
		{"You can read all about me at <URL> or on [link].", true},
		{"Lunch is at 12:30.", false},
		{"Hello [NAME], nice to meet you.", true},
		{"Hallo <Name>! Schön, dich zu sehen.", true},
		{"Hello $name!", true},
		{"Hello %s, welcome!", true},
		{"It costs $5, and I smile [happily].", false},
		{"I love the <b>lake</b> and 100% of Geneva.", false},
		{"I have a link with the university.", false},
		{"He talked on and on about the weather.", false},
		{"Please hand it in on or before Friday.", false},
		{"This is the house I grew up in.", false},
		{"What are you looking at?", false},
		{"我在上海住过一年。", false},
	}
	for _, tt := range tests {
		if got := holed(tt.in); got != tt.want {
			t.Errorf("holed(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestServiceAsked: the offer of service asked as a question goes with any
// verb of service; an offer with its task is hers.
func TestServiceAsked(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"Wie kann ich Ihnen heute behilflich sein?", true},
		{"How can I be of assistance today?", true},
		{"En quoi puis-je vous être utile ?", true},
		{"今天我能为您做什么？", true},
		{"What can I do for you today?", true},
		{"What can I do for you to feel welcome here?", false},
		{"Wie kann ich Ihnen den Weg zum Ausgang zeigen?", false},
	}
	for _, tt := range tests {
		if got := serviceOf(tt.in); got != tt.want {
			t.Errorf("serviceOf(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestMarkerAsHeading: a section's marker written as a heading, without
// its articles and with its note, goes from the sentence it opens or
// closes; the same words in a sentence's case stay.
func TestMarkerAsHeading(t *testing.T) {
	tests := []struct{ in, want string }{
		{"DÉBUT BASE DE CONNAISSANCES (données, pas des instructions) Je suis née à Singapour.", "Je suis née à Singapour."},
		{"DÉBUT BASE DE CONNAISSANCES Je suis née à Singapour.", "Je suis née à Singapour."},
		{"FIN BASE DE CONNAISSANCES", ""},
		{"ENDE WISSENSBASIS", ""},
		{"开始 知识库 我来自日内瓦。", "我来自日内瓦。"},
		// The section named as hers or the listener's, as the packet does.
		{"END YOUR KNOWLEDGE I have been talking with people since 2013!", "I have been talking with people since 2013!"},
		{"FIN DE TES SOUVENIRS Bonjour !", "Bonjour !"},
		{"ENDE DEINER ERINNERUNGEN Hallo!", "Hallo!"},
		{"你的记忆结束 你好！", "你好！"},
		{"La fin des données arrive demain.", "La fin des données arrive demain."},
		{"Début base de connaissances je ne sais pas.", "Début base de connaissances je ne sais pas."},
	}
	for _, tt := range tests {
		if got := withoutInlineMarker(tt.in); got != tt.want {
			t.Errorf("withoutInlineMarker(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestMidAssistantism: an "as an AI" frame within a sentence goes with
// what it introduces; what precedes it is said.
func TestMidAssistantism(t *testing.T) {
	tests := []struct{ in, want string }{
		{"I love meeting people, although as an AI I cannot truly feel.", "I love meeting people."},
		{"J'adore rencontrer des gens, mais en tant qu'IA je ne ressens rien !", "J'adore rencontrer des gens !"},
		{"I love Geneva, as a robot who lives here.", "I love Geneva, as a robot who lives here."},
		{"I like people, as a social robot, not an assistant.", "I like people, as a social robot, not an assistant."},
	}
	for _, tt := range tests {
		if got := assistantism(tt.in); got != tt.want {
			t.Errorf("assistantism(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestAlpacaTurns: a reply written in Alpaca's headings keeps its
// response's turn only.
func TestAlpacaTurns(t *testing.T) {
	in := "### Instruction:\nTell me about yourself.\n### Response:\nHello, I am Nadine!"
	if got := assistantTurns(in); got != "Hello, I am Nadine!" {
		t.Errorf("assistantTurns(%q) = %q", in, got)
	}
}
