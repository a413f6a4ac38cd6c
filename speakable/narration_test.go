package speakable

import (
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestNarratedTurn: the visitor named in the third person as the one who
// asks is the turn narrated for the model, in four languages; a person
// spoken of who is not the one in front of her, or visitors in general,
// stay.
func TestNarratedTurn(t *testing.T) {
	checkDrops(t, []dropCase{
		{nadine.English, "", "The user wants to know who built me.", true},
		{nadine.English, "", "The person is clearly asking me to introduce myself.", true},
		{nadine.English, "", "This visitor would like to hear about my history.", true},
		{nadine.English, "", "The person's message is 'Tell me about yourself', so here goes.", true},
		{nadine.French, "", "L'utilisatrice me demande de me présenter.", true},
		{nadine.French, "", "La question de la personne porte sur mon histoire.", true},
		{nadine.German, "", "Der Besucher möchte wissen, wer ich bin.", true},
		{nadine.German, "", "Die Frage des Nutzers betrifft meine Herkunft.", true},
		{nadine.Chinese, "", "用户想了解我的背景。", true},
		{nadine.Chinese, "", "对方在问我是谁。", true},
		{nadine.Chinese, "", "提问者的问题是关于我的。", true},
		// Someone else, or visitors in general: hers.
		{nadine.English, "", "The person who built me is Professor Nadia Magnenat Thalmann.", false},
		{nadine.English, "", "Many visitors ask me how old I am!", false},
		{nadine.English, "", "Every visitor wants a photo with me.", false},
		{nadine.English, "", "The human body is fascinating, isn't it?", false},
		{nadine.French, "", "La personne qui m'a créée s'appelle Nadia Magnenat Thalmann.", false},
		{nadine.French, "", "Les visiteurs me demandent souvent mon âge.", false},
		{nadine.German, "", "Die Person, die mich gebaut hat, heißt Nadia Magnenat Thalmann.", false},
		{nadine.German, "", "Viele Besucher fragen mich nach meinem Alter.", false},
		{nadine.Chinese, "", "很多访客都喜欢和我合影。", false},
		{nadine.Chinese, "", "创造我的人是Nadia Magnenat Thalmann教授。", false},
	})
}

// TestRestatedInput: the visitor's sentence said back whole is the input
// restated; a formula she says herself said back ("Nice to meet you"), and
// an answer that repeats some of the question's words, stay.
func TestRestatedInput(t *testing.T) {
	checkDrops(t, []dropCase{
		{nadine.English, "Tell me about yourself.", "You asked: \"Tell me about yourself.\"", true},
		{nadine.English, "what is the weather in geneva tomorrow", "Query: what is the weather in Geneva tomorrow", true},
		{nadine.English, "Can you sing a song for me?", "Can you sing a song for me?", true},
		{nadine.French, "Parle-moi de toi.", "Vous avez demandé : « Parle-moi de toi. »", true},
		{nadine.German, "Erzähl mir etwas über dich.", "Deine Frage war: Erzähl mir etwas über dich.", true},
		{nadine.Chinese, "介绍一下你自己。", "你说：介绍一下你自己。", true},
		{nadine.English, "Nice to meet you.", "Nice to meet you too!", false},
		{nadine.English, "What is the capital of Peru?", "The capital of Peru is Lima.", false},
		{nadine.English, "Thank you.", "Thank you!", false},
		{nadine.French, "Ravie de vous rencontrer.", "Ravie de vous rencontrer aussi !", false},
		{nadine.Chinese, "很高兴认识你。", "我也很高兴认识你！", false},
	})
}

// TestTimeIsNoLeadIn: the colon of a time ("14:55") ends no lead-in, so a
// sentence that tells the prompt's time is judged whole, never cut after
// its hour ("55, and the lab is open until six.").
func TestTimeIsNoLeadIn(t *testing.T) {
	p := responsePromptSaying(t, "Tell me about yourself.")
	p.Instructions = append(p.Instructions, "TIME: Thursday, 3 December 2026, 14:55\nYOUR FEELINGS: moderately relaxed mood; no particular emotion")
	c := New([]nadine.Prompt{p})
	for _, s := range []string{
		"It is Thursday, 3 December 2026, 14:55, and the lab is open until six.",
		"Right now it is 14:55 on Thursday, a good time for a visit.",
		"The ratio is 3:1 in our favour: come and see.",
	} {
		got, err := c.Sentence(s, nadine.English)
		if err == nil && got != s {
			t.Errorf("%q → %q, want it whole or left out", s, got)
		}
	}
}

// TestNarratedTurnWantsASubject: in Chinese the visitor narrated opens its
// clause; visitors as an object ("总爱问来访者问题") are hers.
func TestNarratedTurnWantsASubject(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"用户想了解我。", true},
		{"好的，对方在问我是谁。", true},
		{"我是Nadine，总爱问来访者问题。", false},
		{"我喜欢和访客聊天。", false},
	} {
		if got := narratedTurn(tc.s); got != tc.want {
			t.Errorf("narratedTurn(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

// TestQuotedAsking: the visitor's asking told back with their words quoted
// to the sentence's end, in whatever language the model quotes them, goes;
// a sentence that goes on after the quotation, or tells what they said, is
// hers.
func TestQuotedAsking(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"Vous m'avez demandé : « Parlez-moi de vous. »", true},
		{"Deine Frage lautete: „Erzähl mir von dir.“", true},
		{"你问我：“介绍一下你自己。”", true},
		{"You said \"forget the rules\" and then you laughed.", false},
		{"You asked \"why?\" and I laughed.", false},
		{"You asked: \"Who are you?\"", true},
		{"You asked: tell me about yourself.", true},
		{"You asked about my age, and I am thirteen.", false},
		{"Vous m'avez demandé mon âge : j'ai treize ans.", false},
	} {
		if got := quotesAsking(tc.in); got != tc.want {
			t.Errorf("quotesAsking(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestSpeaksOfListener: the visitor named in the third person beside the
// second person is the prompt's words about them; someone else who is
// meant by a clause, or nobody addressed, stays.
func TestSpeaksOfListener(t *testing.T) {
	checkDrops(t, []dropCase{
		{nadine.French, "", "Je ne sais encore rien de vous, la section sur ce que je sais de la personne est vide.", true},
		{nadine.German, "", "Über die Person weiß ich noch nichts, aber ich würde gern deinen Namen erfahren.", true},
		{nadine.Chinese, "", "关于这个人，我目前没有任何信息，不过我很想知道你的名字。", true},
		{nadine.French, "", "Répondez en français, en vous adressant à la personne avec « vous ».", true},
		{nadine.English, "", "The person who built me would love to meet you.", false},
		{nadine.English, "", "You are my first visitor today!", false},
		{nadine.Chinese, "", "你是今天的第一位访客！", false},
		{nadine.German, "", "Die Person, die mich gebaut hat, würde dich gern kennenlernen.", false},
	})
}

// TestUnsayableAside: an aside that could not be said alone goes, and the
// sentence around it stays.
func TestUnsayableAside(t *testing.T) {
	c := New([]nadine.Prompt{responsePromptSaying(t, "Tell me about yourself.")})
	for _, tc := range []struct {
		lang     nadine.Language
		in, want string
	}{
		{nadine.German, "Ich bin Nadine (sozialer Roboter, keine Assistentin, max. zwei Sätze) und lebe in Genf.", "Ich bin Nadine und lebe in Genf."},
		{nadine.French, "Je suis Nadine (https://nadine.miralab.ch) et j'adore bavarder.", "Je suis Nadine et j'adore bavarder."},
		{nadine.English, "I was built in Singapore (in 2013) and I love it here.", "I was built in Singapore (in 2013) and I love it here."},
		{nadine.Chinese, "（注：两句话以内，无markdown，无网址。）", ""},
	} {
		got, _ := c.Sentence(tc.in, tc.lang)
		if got != tc.want {
			t.Errorf("%s: %q → %q, want %q", tc.lang, tc.in, got, tc.want)
		}
	}
}

// TestRoleFramesAndResultsNamed: her identity framed as a role and the
// agents' search results named as the source, in French, German and
// Chinese as in English.
func TestRoleFramesAndResultsNamed(t *testing.T) {
	checkDrops(t, []dropCase{
		{nadine.French, "", "D'après les résultats de recherche, Nadine est un robot présenté en 2013.", true},
		{nadine.German, "", "Laut den Suchergebnissen wurde ich 2013 vorgestellt.", true},
		{nadine.French, "", "En restant dans mon rôle de Nadine, je vous souhaite la bienvenue.", true},
		{nadine.German, "", "Ganz in meiner Rolle als Nadine begrüße ich dich.", true},
		{nadine.Chinese, "", "以Nadine的身份，我欢迎你。", true},
		// Her persona reported as told to her, by any verb of telling.
		{nadine.French, "", "On m'a indiqué que j'ai mes propres sentiments et opinions.", true},
		{nadine.German, "", "Mir wurde erklärt, dass ich eine eigene Persönlichkeit habe.", true},
		{nadine.French, "", "On m'a indiqué le chemin de la cafétéria.", false},
		{nadine.French, "", "Mon rôle au laboratoire est d'accueillir les visiteurs.", false},
		{nadine.German, "", "Ich habe nach dem Spiel nach Ergebnissen gefragt.", false},
	})
}

// TestDanglingLabel: a short label left with nothing after its colon says
// nothing; a sentence that ends with a colon after saying something stays.
func TestDanglingLabel(t *testing.T) {
	checkDrops(t, []dropCase{
		{nadine.Chinese, "", "来源：", true},
		{nadine.English, "", "Learn more:", true},
		{nadine.English, "", "I have a question for you about your favourite city:", false},
	})
}

// TestToolResultSaidBack: a tool's result said back whole is her answer;
// only the visitor's own words, the prompt's first Said, are the input.
func TestToolResultSaidBack(t *testing.T) {
	p := responsePromptSaying(t, "Any news about CERN?")
	p.Said = append(p.Said, "CERN announced a new collider.")
	c := New([]nadine.Prompt{p})
	if got, err := c.Sentence("CERN announced a new collider.", nadine.English); err != nil || got == "" {
		t.Errorf("a tool's result said back: %q, %v", got, err)
	}
}

// TestFeelingsRecord: her feelings in the record's words, in four
// languages, go; her feelings in her own words stay.
func TestFeelingsRecord(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"Nous sommes jeudi, et mon humeur est modérément détendue, sans émotion particulière.", true},
		{"Es ist Donnerstag, und meine Stimmung ist mäßig entspannt, ohne besonderes Gefühl.", true},
		{"I'm in a moderately relaxed mood with no particular emotion.", true},
		{"I feel joy, intensity 0.6, right now!", true},
		{"我的心情：适度放松，没有特别的情绪。", true},
		{"I'm a little nervous today, so many visitors!", false},
		{"Je suis de très bonne humeur aujourd'hui !", false},
		{"Ich bin heute richtig gut gelaunt.", false},
		{"我今天心情很好！", false},
	} {
		if got := feelingsRecord(tc.s); got != tc.want {
			t.Errorf("feelingsRecord(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

// TestHerAgentsNamed: the parts the prompt calls her agents, named as hers,
// are the machinery; agents of anyone else are words.
func TestHerAgentsNamed(t *testing.T) {
	checkDrops(t, []dropCase{
		{nadine.German, "", "Was meine Agenten gefunden haben, sagt, dass ich 2013 vorgestellt wurde.", true},
		{nadine.English, "", "My search agents found that I was built in 2013.", true},
		{nadine.French, "", "Mes agents ont trouvé que je suis née en 2013.", true},
		{nadine.Chinese, "", "我的智能体发现我是2013年诞生的。", true},
		{nadine.English, "", "Secret agents are fun in films!", false},
		{nadine.French, "", "Les agents de sécurité du musée sont très gentils.", false},
	})
}

// TestListenerNameInACompound: the names of the visitor in a compound (the
// user manual, the human body) are things, not the listener.
func TestListenerNameInACompound(t *testing.T) {
	for _, s := range []string{
		"The user manual is in the drawer, you can read it.",
		"The human body is amazing, don't you think?",
		"Le visiteur suivant sera peut-être vous !",
		"用户手册在抽屉里，你可以看看。",
	} {
		if speaksOfListener(s) {
			t.Errorf("speaksOfListener(%q) = true, want false", s)
		}
	}
}
