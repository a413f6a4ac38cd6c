package offline

import (
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// TestToldDone pins the shape of a German thing done: an auxiliary with a
// participle in one clause, or a preterite, and neither a modal nor a
// negation that leaves it ahead or undone.
func TestToldDone(t *testing.T) {
	for _, c := range []struct {
		say  string
		want bool
	}{
		{"ich habe die Prüfung bestanden", true},
		{"weil ich gerade befördert worden bin", true},
		{"mein Enkel ist heute geboren", true},
		{"seit mein Chef mir drei Projekte aufgehalst hat", true},
		{"wir haben heute die Schlüssel gekriegt", true},
		{"meine Bewerbung war erfolgreich", true},
		{"der Antrag wurde genehmigt", true},
		{"ich habe morgen eine Prüfung", false},
		{"ich habe eine Prüfung, die ich bestehen muss", false},
		{"ich hab noch gar nicht gelernt", false},
		{"ich werde befördert", false},
		{"Ich heirate nächste Woche", false},
	} {
		if got := toldDone(intents.Tokenize(c.say)); got != c.want {
			t.Errorf("toldDone(%q) = %t, want %t", c.say, got, c.want)
		}
	}
}

// TestGermanFeelingsByEvent keeps the feeling rules of round de13: good
// news given as the cause of a good mood is the news; a trial ahead that
// the classifier reads as news is stress; what the rules must leave alone
// beside each.
func TestGermanFeelingsByEvent(t *testing.T) {
	e := New(Options{})
	for _, c := range []struct {
		say, want string
	}{
		// Good news as the cause of a good mood (was a good mood).
		{"Ich bin richtig gut gelaunt, weil ich gerade befördert worden bin", "feeling_news_good"},
		{"ich bin gut drauf weil ich meine probezeit bestanden habe", "feeling_news_good"},
		// A good mood with a cause that is no news stays a mood.
		{"Ich bin bester Stimmung, weil die Sonne scheint", "feeling_good"},
		{"Mir geht's gut, danke, ich hab ausgeschlafen und gefrühstückt", "feeling_good"},
		// A trial ahead read as news (was good or bad news).
		{"In zwei Tagen ist die Führerscheinprüfung", "feeling_stress"},
		{"Meine Operation ist nächste Woche", "feeling_stress"},
		{"Ich habe bald meine Abschlussprüfung und hab noch gar nicht gelernt", "feeling_stress"},
		{"Morgen ist mein erstes Vorstellungsgespräch", "feeling_stress"}, // was her greeting
		// A joy ahead, or a trial passed, stays news.
		{"Ich heirate nächste Woche", "feeling_news_good"},
		{"Nächsten Monat werde ich Vater", "feeling_news_good"},
		{"Morgen fahren wir in den Urlaub", "feeling_news_good"},
		{"Ich darf ab nächsten Monat endlich in Rente gehen, der Antrag ist durch", "feeling_news_good"},
		{"Ich habe gestern meine Führerscheinprüfung bestanden", "feeling_news_good"},
	} {
		if got := e.classify(c.say, nadine.German, hints{}).traceName(); got != c.want {
			t.Errorf("%q: %s, want %s", c.say, got, c.want)
		}
	}
}

// TestGermanIntroductionsPlain keeps the name rules of round de13: an
// introduction read plainly after a greeting gives the word that ends it
// when no context finds one; a naming context outranks "ich bin der …";
// "Morgen" with a verb after it is the day.
func TestGermanIntroductionsPlain(t *testing.T) {
	e := New(Options{})
	greeted := hints{greeted: true}
	checkIntroductions(t, e, nadine.German, []introCase{
		{"Grüß di, mei Nam is Resi", hints{}, "name", "Resi"},
		{"grüß di mei nam is resi", hints{}, "name", "Resi"},
		{"Guten Tag, meine Name ist Olga", hints{}, "name", "Olga"},
		{"Moin, ich bin hier der Hannes", hints{}, "name", "Hannes"},
		{"Mein Name ist Annette, ich bin die Klassenlehrerin.", hints{}, "name", "Annette"},
		{"Ich heiße Jörg und bin der Hausmeister hier", hints{}, "name", "Jörg"},
		{"Ich bin die Mutter von Lisa, mein Name ist Petra", hints{}, "name", "Petra"},
		{"morgen ich bin der jan", hints{}, "name", "Jan"},
		// No name: a place, a role, a state, a child named after a
		// preposition.
		{"Hallo, ich komme aus Wuppertal", hints{}, "", ""},
		{"Guten Tag, ich bin Lehrerin", hints{}, "", ""},
		{"Hallo, ich bin neu hier", hints{}, "", ""},
		{"Servus, ich bin der Vater von Lukas", hints{}, "", ""},
		{"Ich komme aus Dortmund", greeted, "", ""},
		{"Ich bin Informatiker", greeted, "", ""},
		{"Morgen zusammen", hints{}, "greeting", ""},
	})
}

// TestSwitchTarget: of several languages named, the one asked for is not
// the one told as lacked or left.
func TestSwitchTarget(t *testing.T) {
	e := New(Options{})
	for _, c := range []struct {
		say  string
		want nadine.Language
	}{
		{"Ich spreche nicht gut Deutsch, lieber auf Französisch bitte", nadine.French}, // was German
		{"Mein Deutsch ist nicht so gut, können wir Englisch sprechen?", nadine.English},
		{"Von Englisch auf Deutsch bitte", nadine.German},
		{"Ich kann kein Französisch, sprich bitte Deutsch", nadine.German},
		{"Auf Deutsch bitte, mein Englisch ist schlecht", nadine.German},
		{"Sprich Französisch", nadine.French},
	} {
		got := e.classify(c.say, nadine.German, hints{})
		if got.traceName() != "language" || got.target != c.want {
			t.Errorf("%q: %s %s, want language %s", c.say, got.traceName(), got.target, c.want)
		}
	}
}

// TestVocative: a form of address closing a German utterance after
// another act is whom the person speaks to, not a name of theirs; after a
// greeting or in an introduction it may be theirs.
func TestVocative(t *testing.T) {
	e := New(Options{})
	for _, c := range []struct {
		say, want, who string
	}{
		{"Pfiat di, Madl", "farewell", ""},                             // was the name Madl
		{"Weißt du noch, wie ich heiße, Roboterfrau?", "remember", ""}, // was the name Roboterfrau
		{"Erinnerst du dich an mich, Blechdame?", "remember", ""},
		{"Tschüss, bis bald", "farewell", ""},
		{"Tag auch, Kowalski", "name", "Kowalski"},
		{"Ich bin Anna, Nadine", "name", "Anna"},
		{"Mein Name ist Peter, Peter Müller", "name", "Peter"},
	} {
		got := e.classify(c.say, nadine.German, hints{})
		if got.traceName() != c.want || got.name != c.who {
			t.Errorf("%q: %s %q, want %s %q", c.say, got.traceName(), got.name, c.want, c.who)
		}
	}
}

// TestWeakAbilities: her abilities read below the threshold, asked of her
// with a word of a capacity, are asked; a question opened by "können"
// asks for one act and keeps its reading.
func TestWeakAbilities(t *testing.T) {
	e := New(Options{})
	for _, c := range []struct {
		say, want string
	}{
		{"Haben Sie besondere Talente?", "abilities"},               // was none (0.23)
		{"Man hat mir erzählt, Sie könnten allerhand", "abilities"}, // was none (0.17)
		{"Du kannst bestimmt ganz viel, oder?", "abilities"},        // was none (0.14)
		{"Könnten Sie das Fenster aufmachen?", "default"},           // one act asked for
		{"Kannst du schwimmen?", "default"},                         // one act asked for
		{"Erzähl mal was über deine Persönlichkeit", "knowledge"},   // no word of a capacity
	} {
		if got := e.classify(c.say, nadine.German, hints{}).traceName(); got != c.want {
			t.Errorf("%q: %s, want %s", c.say, got, c.want)
		}
	}
}

// TestStateAfterNews13: the state told after good news in any words, not
// only after "bin", is what the person is in; news with joy after it stays
// news.
func TestStateAfterNews13(t *testing.T) {
	e := New(Options{})
	for _, c := range []struct {
		say, want string
	}{
		{"Ich hab die Beförderung bekommen, aber jetzt hab ich doppelt so viel Arbeit", "feeling_stress"},           // was good news
		{"Wir haben ein Baby bekommen und ich schlafe kaum noch, alles wächst mir über den Kopf", "feeling_stress"}, // was good news
		{"Ich habe heute meine Festanstellung bekommen, ich freue mich so", "feeling_news_good"},
		{"Wir haben das Finale gewonnen, ich bin so stolz", "feeling_news_good"},
	} {
		if got := e.classify(c.say, nadine.German, hints{}).traceName(); got != c.want {
			t.Errorf("%q: %s, want %s", c.say, got, c.want)
		}
	}
}
