package react

import (
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestStandalone judges inputs the way people say them to the robot (as
// speech-to-text writes them: capitalized, punctuated), in the four
// languages: those that need no history, and the follow-ups that do.
func TestStandalone(t *testing.T) {
	tests := []struct {
		lang nadine.Language
		text string
		want bool
	}{
		// English, self-contained.
		{nadine.English, "Tell me about Geneva.", true},
		{nadine.English, "How long have you lived in Geneva?", true},
		{nadine.English, "What is the latest news about the Geneva motor show?", true},
		{nadine.English, "Who won the football match in Geneva last night?", true},
		{nadine.English, "What is new at CERN this week?", true},
		{nadine.English, "What time is it now?", true},
		{nadine.English, "Is it raining in Geneva today?", true},
		{nadine.English, "What's the weather like in Paris?", true},
		{nadine.English, "Is there a good restaurant near the University of Geneva?", true},
		{nadine.English, "Can you sing me a song?", true},
		{nadine.English, "Do you remember my name?", true},
		{nadine.English, "Nadine, how old are you?", true},
		// English, follow-ups.
		{nadine.English, "And what about the lake?", false},
		{nadine.English, "What else is there to see?", false},
		{nadine.English, "Is it a good place to live?", false},
		{nadine.English, "What do you like most there?", false},
		{nadine.English, "And tomorrow?", false},
		{nadine.English, "Why?", false},
		{nadine.English, "Tell me more about it.", false},
		{nadine.English, "How tall is he?", false},
		{nadine.English, "What's her name?", false},
		{nadine.English, "That's interesting, how does that work?", false},
		{nadine.English, "How old is the tower?", false},
		{nadine.English, "Can you tell me about the second one?", false},
		{nadine.English, "What about in Paris?", false},
		{nadine.English, "Did they win the match?", false},
		{nadine.English, "Is this one better?", false},
		{nadine.English, "So how much does it cost?", false},
		{nadine.English, "tell me about the lake", false}, // lowercased: no name shows
		{nadine.English, "Why do you say so?", false},
		{nadine.English, "What do you mean by that?", false},
		{nadine.English, "What did you just say?", false},
		{nadine.English, "How many people live in the city?", false},
		{nadine.English, "What is the capital of Switzerland?", true},
		{nadine.English, "What is your favourite colour?", true},
		// French.
		{nadine.French, "Parlez-moi de Genève.", true},
		{nadine.French, "Quelle heure est-il maintenant ?", true},
		{nadine.French, "Quel temps fait-il à Genève aujourd'hui ?", true},
		{nadine.French, "Qu'est-ce que le CERN ?", true},
		{nadine.French, "Vous habitez à Genève depuis combien de temps ?", true},
		{nadine.French, "Pouvez-vous me chanter une chanson, s'il vous plaît ?", true},
		{nadine.French, "Quoi de neuf au CERN cette semaine ?", true},
		{nadine.French, "Et demain ?", false},
		{nadine.French, "Est-ce qu'il fait bon y vivre ?", false},
		{nadine.French, "Qu'est-ce qu'il y a d'autre à voir ?", false},
		{nadine.French, "Et le lac, il est comment ?", false},
		{nadine.French, "C'est loin d'ici ?", false},
		{nadine.French, "Vous en pensez quoi, du lac ?", false},
		{nadine.French, "Elle a quel âge ?", false},
		{nadine.French, "Combien coûte ce billet ?", false},
		{nadine.French, "Qu'est-ce que vous aimez le plus là-bas ?", false},
		// German.
		{nadine.German, "Erzählen Sie mir von Genf.", true},
		{nadine.German, "Wie ist das Wetter in Genf?", true},
		{nadine.German, "Wie spät ist es jetzt?", true},
		{nadine.German, "Gibt es gute Restaurants in Genf?", true},
		{nadine.German, "Wie lange leben Sie schon in Genf?", true},
		{nadine.German, "Was gibt es Neues beim CERN diese Woche?", true},
		{nadine.German, "Und morgen?", false},
		{nadine.German, "Was gibt es dort sonst noch zu sehen?", false},
		{nadine.German, "Ist es ein guter Ort zum Leben?", false},
		{nadine.German, "Wie alt ist er?", false},
		{nadine.German, "Was ist mit dem See?", false},
		{nadine.German, "Wie tief ist der See?", false},
		{nadine.German, "Was gefällt Ihnen dort am besten?", false},
		{nadine.German, "Kannst du mir mehr darüber erzählen?", false},
		{nadine.German, "Wie heißt sie denn?", false},
		// Chinese: always contextualized.
		{nadine.Chinese, "日内瓦的天气怎么样？", false},
		{nadine.Chinese, "明天呢？", false},
		{nadine.Chinese, "湖怎么样？", false},
		{nadine.English, "Tell me about 日内瓦 please.", false},
	}
	for _, tt := range tests {
		if got := standalone(tt.text, tt.lang); got != tt.want {
			t.Errorf("standalone(%q, %s) = %v, want %v (words %+v)", tt.text, tt.lang, got, tt.want, tokenize(tt.text))
		}
	}
}

// FuzzStandalone: any transcript is judged without a panic, the same way
// twice, and nothing of fewer than four words or outside Latin script is
// ever standalone.
func FuzzStandalone(f *testing.F) {
	for _, s := range []string{"Tell me about Geneva.", "And what about the lake?", "Quelle heure est-il ?",
		"Qu'est-ce qu'il y a d'autre à voir ?", "Wie ist das Wetter in Genf?", "明天呢？", "it's", "'", "l'", "s'il",
		"What's the time, Nadine?", "", "   ", "a-b-c d'e f’g h", "ÉTÉ À GENÈVE, C'EST BEAU ?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, lang := range nadine.Languages() {
			got := standalone(s, lang)
			if got != standalone(s, lang) {
				t.Fatalf("standalone(%q) is not deterministic", s)
			}
			if got && len(tokenize(s)) < 4 {
				t.Fatalf("standalone(%q) with %d words", s, len(tokenize(s)))
			}
		}
	})
}
