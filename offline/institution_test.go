package offline_test

import (
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/offline"
)

// TestInstitutionAskedNotHer checks that where, who leads or made, and how
// old, asked of a named institution and not to her, are the institution's
// ("ce" and "elle" point at it, a word for her inside the clause that says
// which institution is meant does not count, a sentence before it does not
// name another), that the same questions asked of her stay hers, and that a
// robot she does not know is not hers to answer with social robots.
func TestInstitutionAskedNotHer(t *testing.T) {
	e := testEngine(offline.Options{})
	for _, c := range []struct {
		lang   nadine.Language
		say    string
		intent string // the outcome; "!persona" is anything but a persona fact or knowledge
		fact   string
	}{
		{nadine.French, "Et où se situe ce labo ?", "knowledge", "miralab"},
		{nadine.French, "Qui dirige cette université ?", "knowledge", ""},
		{nadine.French, "Le labo où on t'a fabriquée, il se trouve où ?", "knowledge", "miralab"},
		{nadine.French, "J'habite à Lausanne. L'université de Genève, elle date de quand ?", "knowledge", "unige"},
		{nadine.French, "Et vous, vous êtes où en ce moment ?", "persona_place", ""},
		{nadine.French, "On est où là, c'est quel labo ici ?", "persona_place", ""},
		{nadine.French, "Qui vous a construite ?", "persona_creator", ""},
		{nadine.French, "Qui a construit Pepper, le robot de SoftBank ?", "!persona", ""},
		{nadine.English, "Where is this lab?", "knowledge", "miralab"},
		{nadine.English, "Where are you right now?", "persona_place", ""},
	} {
		r := respond(t, e, nadine.Turn{Text: c.say, Language: c.lang})
		in := r.intent()
		ok := in == c.intent && (c.fact == "" || traceFact(r) == c.fact)
		if c.intent == "!persona" {
			ok = in != "knowledge" && !strings.HasPrefix(in, "persona_")
		}
		if !ok {
			t.Errorf("%s %q → %s %s %q, want %s %s", c.lang, c.say, in, traceFact(r), r.reply.Text, c.intent, c.fact)
		}
	}
}
