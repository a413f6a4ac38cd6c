package offline_test

import (
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/offline"
)

// TestEnglishSlips keeps the English rules of round en12: a typed slip
// (stretched, swapped or dropped letters) reads as the word it misses; a
// lowercase adverb after "it's" is no name; a sigh before a feeling told
// after her greeting is no name; a Singaporean tag ("or not", "lah") adds
// nothing to its clause. Each with what it must leave alone: a
// capitalized unknown word (a name), a short slang word, "and" before the
// feeling. want is the intent; name, when set, the name said back.
func TestEnglishSlips(t *testing.T) {
	t.Parallel() // reads the shared model, writes nothing shared
	e := testEngine(offline.Options{})
	for _, tt := range []struct {
		greeted    bool
		text, want string
		name       string
	}{
		// Slips.
		{false, "hiiii", "greeting", ""},
		{false, "omg hiiii", "greeting", ""},
		{false, "byeee", "farewell", ""},
		{false, "Helo Nadine", "greeting", ""},
		{false, "thnks", "thanks", ""},
		{false, "waht can you do", "abilities", ""},
		{false, "what tiem is it", "time", ""},
		{false, "my nmae is Oliver", "name", "Oliver"},
		// Left alone: a capitalized unknown word inside the clause.
		{false, "my name is Nmae", "name", "Nmae"},
		{false, "hi i'm Tiem", "name", "Tiem"},
		// An adverb after "it's" says how, not who.
		{false, "its basically lunchtime and im starving", "", ""},
		{false, "it's literally freezing in here", "", ""},
		{false, "it's beverly", "name", "Beverly"},
		{true, "emily here", "name", "Emily"},
		// Singaporean tags ask or stress what their clause says.
		{false, "you know who I am or not", "remember", ""},
		{false, "can forget me or not", "forget_me", ""},
		{false, "ok bye lah", "farewell", ""},
		{false, "or not", "default", ""},
		// A sigh before a feeling told, after her greeting.
		{true, "ugh my train was cancelled", "feeling_news_bad", ""},
		{true, "ugh i am tired", "feeling_tired", ""},
		{true, "declan and i'm so happy to be here", "name", "Declan"},
		{true, "declan i am from dundee", "name", "Declan"},
	} {
		var hist []nadine.Message
		if tt.greeted {
			hist = []nadine.Message{{Role: nadine.RoleUser, Content: "Hi"}, {Role: nadine.RoleAssistant, Content: greetedBack[nadine.English]}}
		}
		r := respond(t, e, nadine.Turn{Text: tt.text, Language: nadine.English}, hist...)
		switch {
		case tt.want == "" && r.intent() == "name":
			t.Errorf("%q (greeted %t) → a name: %q", tt.text, tt.greeted, r.reply.Text)
		case tt.want != "" && r.intent() != tt.want:
			t.Errorf("%q (greeted %t) → %s %q, want %s", tt.text, tt.greeted, r.intent(), r.reply.Text, tt.want)
		case tt.name != "" && !saysName(r, tt.name):
			t.Errorf("%q (greeted %t) → %q, want the name %s", tt.text, tt.greeted, r.reply.Text, tt.name)
		}
	}
}
