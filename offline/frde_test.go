package offline_test

import (
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/offline"
)

// TestRelativeAfterInstitution checks that a "you" inside the relative
// clause German writes with an article ("das Sie entwickelt hat"), or a
// relative after a preposition ("in dem", "dans lequel"), does not make a
// question of the institution one of her; asked of her, it stays hers.
func TestRelativeAfterInstitution(t *testing.T) {
	e := testEngine(offline.Options{})
	for _, c := range []struct {
		lang   nadine.Language
		say    string
		intent string
		fact   string
	}{
		{nadine.German, "Das Labor, das Sie entwickelt hat, wo befindet sich das genau?", "knowledge", "miralab"},
		{nadine.German, "Wo steht das Labor, in dem du gebaut wurdest?", "knowledge", "miralab"},
		{nadine.German, "Das Labor, in dem Sie entstanden sind, wo ist das?", "knowledge", "miralab"},
		{nadine.French, "Le labo dans lequel tu as été fabriquée, il est où ?", "knowledge", "miralab"},
		{nadine.German, "Wo wurdest du gebaut?", "persona_origin", ""},
		{nadine.German, "Wo bist du gerade?", "persona_place", ""},
		{nadine.French, "Tu as été fabriquée où ?", "persona_origin", ""},
	} {
		r := respond(t, e, nadine.Turn{Text: c.say, Language: c.lang})
		if in := r.intent(); in != c.intent || c.fact != "" && traceFact(r) != c.fact {
			t.Errorf("%s %q → %s %s %q, want %s %s", c.lang, c.say, in, traceFact(r), r.reply.Text, c.intent, c.fact)
		}
	}
}

// TestGoodMoodTold checks that a good mood told by its noun ("humeur",
// "Laune", "Stimmung"), by its cause ("le soleil me met de bonne humeur")
// or in dialect is a good mood, not the weather, news or nothing: the
// round's feeling.good examples teach those forms.
func TestGoodMoodTold(t *testing.T) {
	e := testEngine(offline.Options{})
	for _, c := range []struct {
		lang nadine.Language
		say  string
	}{
		{nadine.French, "Je suis d'excellente humeur."},
		{nadine.French, "Le soleil me met de bonne humeur."},
		{nadine.French, "Je suis aux anges."},
		{nadine.French, "Je suis d'humeur joyeuse."},
		{nadine.German, "Ich bin bester Laune."},
		{nadine.German, "Ich habe gute Laune."},
		{nadine.German, "Ich bin in Hochstimmung."},
		{nadine.German, "Die Sonne macht mich richtig froh."},
		{nadine.German, "I bin heit guat drauf."},
	} {
		r := respond(t, e, nadine.Turn{Text: c.say, Language: c.lang})
		if in := r.intent(); in != "feeling_good" {
			t.Errorf("%s %q → %s %q, want feeling_good", c.lang, c.say, in, r.reply.Text)
		}
	}
}

// TestStateAfterNews checks that a French speaker's state told after good
// news ("mais je suis tellement stressé") is the state, as in German, and
// that news told with joy stays news.
func TestStateAfterNews(t *testing.T) {
	e := testEngine(offline.Options{})
	for _, c := range []struct {
		lang   nadine.Language
		say    string
		intent string
	}{
		{nadine.French, "J'ai eu une promotion mais je suis tellement stressé.", "feeling_stress"},
		{nadine.French, "On a gagné le match mais je suis épuisé.", "feeling_tired"},
		{nadine.French, "J'ai eu mon permis, je suis trop contente !", "feeling_news_good"},
		{nadine.German, "Ich habe heute meinen Marathon gelaufen und bin kaputt.", "feeling_tired"},
	} {
		r := respond(t, e, nadine.Turn{Text: c.say, Language: c.lang})
		if in := r.intent(); in != c.intent {
			t.Errorf("%s %q → %s %q, want %s", c.lang, c.say, in, r.reply.Text, c.intent)
		}
	}
}
