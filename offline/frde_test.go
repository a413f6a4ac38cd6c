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
