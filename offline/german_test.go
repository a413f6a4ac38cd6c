package offline_test

import (
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/offline"
)

// TestGermanIntroductions keeps the rules of the round that wrote probe9
// (docs/offline.md, "Round de11"), each with what it must leave alone: a
// verb's dropped final e next to "ich" given back ("ich wär die Birgit"),
// the article the examples put between a context and a name after any
// context ("hier ist der Heinz"), kin, nurses and clergy as forms of
// address ("Opa Heinz", "Schwester Monika"), a name run before "hier"
// after a greeting, and a name alone, or a clause of one, after her
// greeting. want is the name said back, "" when the turn must be no
// introduction.
func TestGermanIntroductions(t *testing.T) {
	t.Parallel() // reads the shared model, writes nothing shared
	e := testEngine(offline.Options{})
	for _, tt := range []struct {
		greeted bool // the second turn, after her greeting
		text    string
		want    string
	}{
		{false, "Hallöchen, ich wär die Birgit", "Birgit"},
		{true, "ich wär der Kurt", "Kurt"},
		{false, "hallo nadine hier ist der opa heinz mit den enkeln", "Heinz"},
		{false, "Guten Tag, hier ist die Frau Wendt", "Wendt"},
		{false, "Guten Morgen, Schwester Monika hier", "Monika"},
		{false, "Servus, Tante Gerda hier aus Passau", "Gerda"},
		{true, "Anna-Lena.", "Anna-Lena"},
		{true, "Karl-Heinz, aber sag ruhig Kalle", "Karl-Heinz"},
		// Left alone: a kin word with no name, an article before a noun,
		// a known word alone or first after her greeting, a call.
		{false, "Hallo, ich bin Oma geworden!", ""},
		{false, "Hallo, ich bin die Beste", ""},
		{false, "hallo hier ist der Wahnsinn los", ""},
		{true, "Danke.", ""},
		{true, "Super, danke!", ""},
		{true, "Emil, komm her!", ""},
		{true, "Hallo, Nadine.", ""},
		// One word alone after her greeting is no name unless the
		// examples give it as one: it answers her greeting as often.
		{true, "Gudrun.", ""},
		{true, "Gleichfalls!", ""},
		{true, "Ebenso.", ""},
	} {
		var hist []nadine.Message
		if tt.greeted {
			hist = []nadine.Message{{Role: nadine.RoleUser, Content: "Hallo"}, {Role: nadine.RoleAssistant, Content: greetedBack[nadine.German]}}
		}
		r := respond(t, e, nadine.Turn{Text: tt.text, Language: nadine.German}, hist...)
		switch {
		case tt.want != "" && !saysName(r, tt.want):
			t.Errorf("%q (greeted %t) → %s %q, want the name %s", tt.text, tt.greeted, r.intent(), r.reply.Text, tt.want)
		case tt.want == "" && r.intent() == "name":
			t.Errorf("%q (greeted %t) → a name: %q", tt.text, tt.greeted, r.reply.Text)
		}
	}
}

// TestGermanOwnName: a question of a name that speaks only of the speaker
// asks her to remember theirs, with the verb's e dropped too; one that
// speaks to her asks hers.
func TestGermanOwnName(t *testing.T) {
	t.Parallel() // reads the shared model, writes nothing shared
	e := testEngine(offline.Options{})
	checkIntents(t, e, nadine.German, []struct{ text, want string }{
		{"Und wie heiß ich?", "remember"},
		{"Und, wie heiß ich nochmal?", "remember"},
		{"Wie heiße ich?", "remember"},
		{"Wie heißt du?", "persona_name"},
		{"Und wie heißen Sie?", "persona_name"},
		{"Ich heiß Jonas", "name"},
	})
}

// TestGermanStatedState: a state said of oneself after what happened
// ("… und bin kaputt") is what is told, not the event's good news; a good
// state after good news, and good news alone, stay good news.
func TestGermanStatedState(t *testing.T) {
	t.Parallel() // reads the shared model, writes nothing shared
	e := testEngine(offline.Options{})
	checkIntents(t, e, nadine.German, []struct{ text, want string }{
		{"Ich habe heute meinen Marathon gelaufen und bin kaputt", "feeling_tired"},
		{"Wir haben heute geheiratet und ich bin einfach nur müde", "feeling_tired"},
		{"Ich habe meine Prüfung bestanden und bin so glücklich", "feeling_news_good"},
		{"Ich habe heute meinen Marathon geschafft", "feeling_news_good"},
		{"Ich bin Opa geworden", "feeling_news_good"},
	})
}
