package offline_test

import (
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/testrun"
	"github.com/nadine-robot/nadine/offline"
)

// TestFrenchIntroductionForms crosses the ways French speakers give their
// name ("moi, Louise", "Paul à l'appareil", "je me prénomme", "je suis
// Jade, enchantée") with greetings, names and lowercase: written before the
// examples of those forms (789 of 960 read as an introduction with the name
// then, 942 after).
func TestFrenchIntroductionForms(t *testing.T) {
	testrun.SkipUnderRace(t)
	t.Parallel() // reads the shared model, writes nothing shared
	greetings := []string{"", "Bonjour", "Salut", "Bonsoir Nadine", "Coucou", "Re-bonjour", "Bien le bonjour", "Bonjour à vous", "Hé salut", "Bonjour madame Nadine"}
	intros := []string{"%s à l'appareil", "c'est moi, %s", "moi, %s", "enchantée, moi c'est %s", "je suis %s, enchantée", "tout le monde m'appelle %s", "appelle-moi %s", "tu peux m'appeler %s", "vous pouvez m'appeler %s", "je me nomme %s", "je m'prénomme %s", "mon petit nom c'est %s", "je m'appelle %s", "moi c'est %s", "c'est %s", "je suis %s"}
	names := []string{"Aïssatou", "Zoé", "Chloé", "Noé", "Léon", "Jade", "Louise", "Hugo", "Rose", "Lou", "Ambre", "Paul", "Océane", "Ange", "Inès", "Marc-Antoine", "Nour", "Yasmine"}
	e := testEngine(offline.Options{})
	total, failed := 0, 0
	for gi, g := range greetings {
		for ii, in := range intros {
			for ni, name := range names {
				if (gi+ii+ni)%3 != 0 {
					continue
				}
				text := strings.Replace(in, "%s", name, 1)
				if g != "" {
					text = g + []string{", ", " ! ", " ", ". "}[(gi+ni)%4] + text
				}
				if (ni+ii)%3 == 0 {
					text = strings.ToLower(text)
				}
				total++
				r := respond(t, e, nadine.Turn{Text: text, Language: nadine.French})
				if r.intent() != "name" || !strings.Contains(strings.ToLower(r.reply.Text), strings.ToLower(strings.Split(name, "-")[0])) {
					failed++
					t.Logf("%q → %s %q", text, r.intent(), r.reply.Text)
				}
			}
		}
	}
	t.Logf("French introductions read with their name: %d of %d", total-failed, total)
	// Left: a lowercase "je suis louise" (also "je suis lasse"), greetings
	// run into a name without a pause.
	if failed*20 > total {
		t.Errorf("%d of %d French introductions missed (at most 5%%)", failed, total)
	}
}
