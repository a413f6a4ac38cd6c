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

// TestAskedOfAnother checks questions that share her facts' words but ask of
// another robot, institution or place: a question tag's "you" does not make
// them hers, an institution's age is not hers, a lab named by a word she
// does not know and none of its own is another, and what the classifier
// reads as none more likely than not is not routed to a topic by a shared
// name; the same questions asked of her still are.
func TestAskedOfAnother(t *testing.T) {
	e := testEngine(offline.Options{})
	for _, c := range []struct {
		lang   nadine.Language
		text   string
		intent string
	}{
		{nadine.English, "Who built Atlas at Boston Dynamics, do you know?", "default"},
		{nadine.German, "Wer hat den Roboter Asimo gebaut, weißt du das?", "default"},
		{nadine.French, "Qui a construit le robot Pepper, tu le sais ?", "default"},
		{nadine.Chinese, "牛津大学有多老？", "default"},
		{nadine.English, "What is the population of Singapore?", "default"},
		{nadine.French, "le cnrs c'est quoi comme labo", "default"},
		{nadine.English, "Could you tell me when the University of Geneva was established?", "knowledge"},
		{nadine.French, "c'est quoi comme labo le MIRALab", "knowledge"},
		{nadine.English, "Who made you, do you know?", "persona_creator"},
		{nadine.German, "Wer hat dich gebaut, weißt du das?", "persona_creator"},
		{nadine.Chinese, "你几岁了？", "persona_age"},
	} {
		if r := respond(t, e, nadine.Turn{Text: c.text, Language: c.lang}); r.intent() != c.intent {
			t.Errorf("%q → %s %s %q, want %s", c.text, r.intent(), traceFact(r), r.reply.Text, c.intent)
		}
	}
}

// TestPraiseLikeQuestions checks that a question on a part of her that reads
// like praise asks of the fact her passages agree on, and that praise asked
// as a question stays praise.
func TestPraiseLikeQuestions(t *testing.T) {
	e := testEngine(offline.Options{})
	for _, c := range []struct {
		lang         nadine.Language
		text         string
		intent, fact string
	}{
		{nadine.Chinese, "你的眼睛？", "knowledge", "seeing"},
		{nadine.Chinese, "说说你的面部表情吧", "knowledge", "expressions"},
		{nadine.French, "t'as de beaux yeux, tu sais ?", "compliment", ""},
		{nadine.English, "you have beautiful eyes, did you know?", "compliment", ""},
		{nadine.German, "deine Stimme ist so schön, weißt du das?", "compliment", ""},
	} {
		if r := respond(t, e, nadine.Turn{Text: c.text, Language: c.lang}); r.intent() != c.intent || traceFact(r) != c.fact {
			t.Errorf("%q → %s %s %q, want %s %s", c.text, r.intent(), traceFact(r), r.reply.Text, c.intent, c.fact)
		}
	}
}
