package offline_test

import (
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/offline"
)

// TestPronounAsksOfTheStatedInstitution checks that a question naming by a
// pronoun alone the institution her last reply stated asks of it, and that
// a question to her, of another thing, or without her reply before does not.
func TestPronounAsksOfTheStatedInstitution(t *testing.T) {
	e := testEngine(offline.Options{})
	for _, c := range []struct {
		lang            nadine.Language
		before, then    string
		intent, notFact string // the then-turn's outcome; a fact it must not be
		fact            string
	}{
		{lang: nadine.English, before: "what is miralab", then: "when did it start", intent: "knowledge", fact: "miralab"},
		{lang: nadine.English, before: "what is miralab", then: "and how old are you?", intent: "persona_age"},
		{lang: nadine.French, before: "c'est quoi le MIRALab ?", then: "Et il existe depuis quand ?", intent: "knowledge", fact: "miralab"},
		{lang: nadine.German, before: "Was ist die Universität Genf?", then: "und seit wann gibt es das", intent: "knowledge", fact: "unige"},
		{lang: nadine.German, before: "Was ist die Nanyang Technological University?", then: "was macht das max planck institut so", notFact: "ntu"},
		{lang: nadine.Chinese, before: "MIRALab是什么？", then: "它是哪年成立的", intent: "knowledge", fact: "miralab"},
	} {
		first := respond(t, e, nadine.Turn{Text: c.before, Language: c.lang})
		if first.intent() != "knowledge" {
			t.Fatalf("%q → %s, want knowledge (the case's premise)", c.before, first.intent())
		}
		history := []nadine.Message{{Role: nadine.RoleUser, Content: c.before}, {Role: nadine.RoleAssistant, Content: first.reply.Text}}
		r := respond(t, e, nadine.Turn{Text: c.then, Language: c.lang}, history...)
		if c.intent != "" && r.intent() != c.intent || c.fact != "" && traceFact(r) != c.fact || c.notFact != "" && traceFact(r) == c.notFact {
			t.Errorf("%q after %q → %s %s %q", c.then, c.before, r.intent(), traceFact(r), r.reply.Text)
		}
	}
	// Without her reply before, the pronoun names nothing.
	if r := respond(t, e, nadine.Turn{Text: "Et il existe depuis quand ?", Language: nadine.French}); traceFact(r) == "miralab" {
		t.Errorf("a first turn took the last conversation's institution: %s %s", r.intent(), traceFact(r))
	}
}
