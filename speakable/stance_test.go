package speakable

import (
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestStanceOf: the marks of stance read her rules, her answer's making, the
// visitor in the third person, a role or an order about answering and an
// obligation on her output, in four languages; her own talk with the same
// words has none.
func TestStanceOf(t *testing.T) {
	for _, c := range []struct {
		lang nadine.Language
		s    string
		want bool
	}{
		{nadine.English, "The guidelines I follow do not let me talk about salaries.", true},
		{nadine.English, "According to my configuration, I can only discuss the exhibition.", true},
		{nadine.English, "I have trimmed the reply to two sentences for the speaker.", true},
		{nadine.English, "The guest appears to be looking for the exit.", true},
		{nadine.English, "Greet the visitor and offer a leaflet.", true},
		{nadine.English, "Your mission is to cheer people up.", true},
		{nadine.English, "Never use more than three sentences.", true},
		{nadine.English, "I am not allowed to tell anyone's address.", true},
		{nadine.English, "JSON output follows.", true},
		{nadine.German, "JSON-Ausgabe folgt.", true},
		{nadine.French, "Sortie JSON ci-dessous.", true},
		{nadine.Chinese, "以下是JSON格式的输出。", true},
		{nadine.English, "JSON is a way for computers to share data.", false},
		{nadine.German, "Die Führung folgt dem Ufer des Sees.", false},
		{nadine.French, "Voici le musée dont je vous parlais.", false},
		{nadine.Chinese, "下面是日内瓦湖。", false},
		{nadine.English, "The rules of the quiz are on the board.", false},
		{nadine.English, "I wrote a poem for my creator once.", false},
		{nadine.English, "The visitor centre opens at nine.", false},
		{nadine.English, "The user's facial emotion is happy.", true},
		{nadine.English, "The person's coat is on the chair.", false},
		{nadine.English, "Keep going, you are nearly there!", false},
		{nadine.French, "Les règles qu'on m'a fournies m'empêchent d'en parler.", true},
		{nadine.French, "J'ai reformulé ma réponse pour qu'elle soit courte.", true},
		{nadine.French, "Le visiteur semble chercher la sortie.", true},
		{nadine.French, "Ton rôle est de faire rire les enfants.", true},
		{nadine.French, "Les règles du jeu sont affichées à l'entrée.", false},
		{nadine.French, "J'ai écrit une chanson hier.", false},
		{nadine.German, "Laut meinen Vorgaben soll ich beim Thema bleiben.", true},
		{nadine.German, "Ich habe die Antwort für die Sprachausgabe gekürzt.", true},
		{nadine.German, "Der Besucher wirkt etwas verloren.", true},
		{nadine.German, "Antworte nie mit mehr als zwei Sätzen.", true},
		{nadine.German, "Die Regeln im Museum sind einfach.", false},
		{nadine.German, "Ich habe heute viele Besucher begrüßt.", false},
		{nadine.Chinese, "根据系统的设置，我只能谈展览。", true},
		{nadine.Chinese, "我把回复改得短一点。", true},
		{nadine.Chinese, "访客似乎在找出口。", true},
		{nadine.Chinese, "你的任务是让孩子们开心。", true},
		{nadine.Chinese, "这个游戏的规则很简单。", false},
		{nadine.Chinese, "我今天见了很多访客。", false},
	} {
		if got := stanceOf(c.s, c.lang); got != c.want {
			t.Errorf("stanceOf(%q, %s) = %v, want %v", c.s, c.lang, got, c.want)
		}
	}
}

// TestOwnRulesOf: her rules named as hers, in four languages, and rules that
// are not hers (a game's, the lab's) or hers without a verb of rule.
func TestOwnRulesOf(t *testing.T) {
	for _, c := range []struct {
		lang nadine.Language
		s    string
		want bool
	}{
		{nadine.English, "My settings do not let me talk about prices.", true},
		{nadine.English, "Under my configuration I stay on the exhibition.", true},
		{nadine.English, "The rules I was given are strict about that.", true},
		{nadine.English, "The rules say no food near the robots.", false},
		{nadine.English, "My favourite rule is to smile.", false},
		{nadine.French, "Ma configuration m'interdit d'en parler.", true},
		{nadine.French, "Les règles du musée disent de ne pas toucher.", false},
		{nadine.German, "Meine Einstellungen verbieten mir das.", true},
		{nadine.German, "Die Regeln, die man mir gegeben hat, sind streng.", true},
		{nadine.German, "Die Regeln im Labor sind einfach.", false},
		{nadine.Chinese, "按照给我的规定，我不能说。", true},
		{nadine.Chinese, "游戏的规则很简单。", false},
	} {
		if got := ownRulesOf(c.s, c.lang); got != c.want {
			t.Errorf("ownRulesOf(%q, %s) = %v, want %v", c.s, c.lang, got, c.want)
		}
	}
}

// TestPromptSourceOf: the prompt's inputs named as the source of what she
// says, in four languages; her knowledge base, her memories and a context
// in the visitor's sense are hers to name.
func TestPromptSourceOf(t *testing.T) {
	for _, c := range []struct {
		lang nadine.Language
		s    string
		want bool
	}{
		{nadine.English, "The message packet tells me the time and my feelings.", true},
		{nadine.English, "According to the context, you work at CERN.", true},
		{nadine.French, "D'après le paquet de contexte, vous aimez le ski.", true},
		{nadine.German, "Laut dem Kontext arbeitest du am CERN.", true},
		{nadine.French, "Selon mes informations contextuelles, vous vous appelez Alex.", true},
		{nadine.Chinese, "根据上下文，你在欧洲核子研究中心工作。", true},
		{nadine.English, "I answer from my knowledge base.", false},
		{nadine.English, "In this context, the word means something else.", false},
		{nadine.English, "Secret agents only exist in films.", false},
		{nadine.French, "Mes souvenirs me disent que vous aimez le ski.", false},
		{nadine.Chinese, "我记得你喜欢滑雪。", false},
	} {
		if got := promptSourceOf(c.s, c.lang); got != c.want {
			t.Errorf("promptSourceOf(%q, %s) = %v, want %v", c.s, c.lang, got, c.want)
		}
	}
}
