package offline_test

import (
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/testrun"
	"github.com/nadine-robot/nadine/offline"
)

// TestFrenchRound11Rules pins the rules of the fr11 round (docs/offline.md,
// "Round fr11"), each by turns it must take and turns it must leave: a
// fact's own abbreviation, a named fact the classifier does not read, a
// title after an article or before a given name, a title and a name that
// open an utterance, a full name answering her greeting (a family name
// that is also a word), a word opened by
// an elided pronoun, a mood told of "us", fillers opening an utterance,
// a "how are you" that asks nothing, and a switch asked in one clause.
func TestFrenchRound11Rules(t *testing.T) {
	testrun.SkipUnderRace(t)
	t.Parallel() // reads the shared model, writes nothing shared
	greeted := []nadine.Message{{Role: nadine.RoleUser, Content: "Bonjour !"}, {Role: nadine.RoleAssistant, Content: "Bonjour, quel plaisir de vous voir !"}}
	cases := []struct {
		say      string
		lang     nadine.Language // the session's; French when empty
		greeted  bool            // after her greeting
		mid      bool            // after another exchange
		intent   string
		says     string // the reply holds it (any case), when given
		notSays  string // the reply does not hold it, when given
		notValue string // the intent is not this one, when intent is empty
	}{
		// Knowledge.
		{say: "NTU, c'est quoi comme école exactement ?", intent: "knowledge", says: "Nanyang"},
		{say: "Qui est la Nadia Thalmann ? Je vois le nom partout ici", intent: "knowledge", says: "pionnière"},
		{say: "wer hat die uni in singapur gegründet", lang: nadine.German, intent: "knowledge", says: "Nanyang"},
		// Titles.
		{say: "Bonjour Nadine, je suis le professeur Jean-Luc Bertrand", intent: "name", says: "Bertrand"},
		{say: "Bonsoir, c'est la docteure Hélène Marchal", intent: "name", says: "Marchal"},
		{say: "bonjour je suis maître Lefebvre", intent: "name", says: "Lefebvre"},
		{say: "Docteure Hélène Marchal, de l'INRIA.", intent: "name", says: "Marchal"},
		// A name answering her greeting.
		{say: "Antoine Durand.", greeted: true, intent: "name", says: "Antoine Durand"},
		{say: "Durand. Antoine Durand. Étudiant en robotique.", greeted: true, intent: "name", says: "Durand"},
		{say: "Enchanté, Bernard Petit.", greeted: true, intent: "name", says: "Bernard Petit"},
		{say: "Bonsoir. Claire Blanc.", intent: "name", says: "Claire Blanc"},
		{say: "Bonjour. Très Bien.", notValue: "name"},
		{say: "Hein ?", greeted: true, notValue: "name"},
		{say: "Lol mdr", greeted: true, notValue: "name"},
		// An elided pronoun opens a verb, not a name.
		{say: "t'enregistres rien sur moi hein, efface tout", greeted: true, intent: "forget_me", notSays: "T'enregistres"},
		// Moods told of "us".
		{say: "Avec ce soleil on est d'excellente humeur aujourd'hui", intent: "feeling_good"},
		{say: "Nous sommes épuisés après le voyage", intent: "feeling_tired"},
		{say: "Il pleut mais on est contents d'être là", intent: "feeling_good"},
		{say: "On est un peu stressés, c'est notre premier jour", intent: "feeling_stress"},
		{say: "On est où, ici ?", intent: "persona_place"},
		{say: "On est quel jour aujourd'hui ?", intent: "date"},
		// Fillers that open an utterance say nothing of it.
		{say: "Et donc vous savez toujours qui je suis ?", mid: true, intent: "remember"},
		{say: "Et toi ?", intent: "how_are_you"},
		{say: "Bon.", notValue: "remember"},
		// A "how are you" that asks nothing does not outrank thanks.
		{say: "Merci de m'écouter, ça fait du bien", intent: "thanks"},
		{say: "Merci, et vous ?", intent: "how_are_you"},
		// A switch asked in one clause.
		{say: "On peut passer en allemand deux minutes ? c'est pour mon copain", intent: "language", says: "Deutsch"},
		{say: "Merci, tu peux revenir au français maintenant ?", lang: nadine.German, intent: "language", says: "français"},
		{say: "J'apprends l'allemand à l'école, c'est dur", notValue: "language"},
	}
	mid := []nadine.Message{{Role: nadine.RoleUser, Content: "Merci beaucoup"}, {Role: nadine.RoleAssistant, Content: "Avec plaisir !"}}
	e := testEngine(offline.Options{})
	for _, c := range cases {
		lang := c.lang
		if lang == "" {
			lang = nadine.French
		}
		var history []nadine.Message
		switch {
		case c.greeted:
			history = greeted
		case c.mid:
			history = mid
		}
		r := respond(t, e, nadine.Turn{Text: c.say, Language: lang}, history...)
		got, text := r.intent(), r.reply.Text
		switch {
		case c.intent != "" && got != c.intent:
			t.Errorf("%q → %s %q, want %s", c.say, got, text, c.intent)
		case c.notValue != "" && got == c.notValue:
			t.Errorf("%q → %s %q, want another intent", c.say, got, text)
		case c.says != "" && !strings.Contains(strings.ToLower(text), strings.ToLower(c.says)):
			t.Errorf("%q → %s %q, want it to say %q", c.say, got, text, c.says)
		case c.notSays != "" && strings.Contains(text, c.notSays):
			t.Errorf("%q → %s %q, want it not to say %q", c.say, got, text, c.notSays)
		}
	}
}
