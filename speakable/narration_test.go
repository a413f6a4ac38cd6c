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
