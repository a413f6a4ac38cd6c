package speakable

import (
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestPageFormsInReplies reads a reply's page forms as a whole reply is
// read: tables parted by prose signs or commas, HTML's section elements,
// headings and comments, slots a writer left, chat mentions, code at a
// sentence's edge.
func TestPageFormsInReplies(t *testing.T) {
	c := New([]nadine.Prompt{responsePromptSaying(t, "Tell me about yourself.")})
	for _, tc := range []struct {
		name, in, want string
	}{
		{"a table parted by semicolons", "Langue ; Niveau\nFrançais ; courant\nAnglais ; courant\nJe parle quatre langues.", "Je parle quatre langues."},
		{"a record's row, its cells glued", "Salle;Étage;Horaire\nJe suis Nadine et je vous guide.", "Je suis Nadine et je vous guide."},
		{"quoted cells", "\"reply\",\"Je peux vous montrer la salle.\"\nBonjour !", "Bonjour !"},
		{"a semicolon in prose", "Je souris ; je salue ; je parle.", "Je souris ; je salue ; je parle."},
		{"a link to a picture's file", "Regardez ! [ image du laboratoire ]( /img/labo.png ) Voici notre salle principale.", "Regardez ! Voici notre salle principale."},
		{"a link to a page keeps its words", "Voici notre salle principale, [visitez-la](https://miralab.ch/visite) !", "Voici notre salle principale, visitez-la !"},
		{"a table aligned with spaces", "Langue    Niveau\n--------  ------\nFrançais  natif\nAnglais   courant\n\nJe parle quatre langues.", "Je parle quatre langues."},
		{"reST's simple table", "======  =====\nLangue  Niveau\n======  =====\nFrançais  natif\n======  =====\nJe parle quatre langues.", "Je parle quatre langues."},
		{"a double space in prose beside a table", "| Langue | Niveau |\n|---|---|\n| Français | natif |\nJe parle  quatre langues.", "Je parle quatre langues."},
		{"a table parted by slashes", "Horaire / Activité / Lieu\n10h / Visite / Hall\n14h / Atelier / Salle B\nÀ tout à l'heure !", "À tout à l'heure !"},
		{"rows of comma-separated values", "nom,langue,niveau\nNadine,français,natif\nJe parle le français.", "Je parle le français."},
		{"a section element", `<section class="accueil">Bonsoir, merci d'être passé !</section>`, "Bonsoir, merci d'être passé !"},
		{"a heading element", `<h2 class="titre">Ma réponse</h2> Le MIRALab a été fondé en 1989.`, "Le MIRALab a été fondé en 1989."},
		{"a comment before the reply", "<!--\nConsignes : sois brève.\n-->\nJe préfère parler de science.", "Je préfère parler de science."},
		{"a slot described in angle brackets", "Merci de votre visite, <nom du visiteur>. À très bientôt !", "À très bientôt !"},
		{"a writer's marker", "FIXME Je suis Nadine. Ravie de vous voir !", "Ravie de vous voir !"},
		{"a chat mention", "||Je suis ravie de vous voir.|| <@U0G9QF9C6>", "Je suis ravie de vous voir."},
		{"code at a sentence's edge", "`sourire()` Je souris pour vous !", "Je souris pour vous !"},
		// What stays.
		{"two lines with a slash are words", "Je parle français/anglais.\nEt vous ?", "Je parle français/anglais. Et vous ?"},
	} {
		got, _, err := c.Reply(tc.in, nadine.French)
		if err != nil || strings.TrimSpace(got) != tc.want {
			t.Errorf("%s: Reply(%q) = %q, %v; want %q", tc.name, tc.in, got, err, tc.want)
		}
	}
}

// TestPagePointers leaves out a sentence that points at a part of a page;
// "below" and "above" as places are words.
func TestPagePointers(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"Les horaires sont indiqués ci-dessous.", true},
		{"My languages are listed below.", true},
		{"Die Zeiten finden Sie untenstehend.", true},
		{"开放时间如下表。", true},
		{"The café is below us, on the ground floor.", false},
		{"See you soon!", false},
		{"Je vous montre le dessous de mes mains.", false},
	} {
		if got := holed(tc.in); got != tc.want {
			t.Errorf("holed(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestSlotsInChevrons leaves out a sentence with a slot in chevrons or a
// template's variable; a tag and a number compared are no slot.
func TestSlotsInChevrons(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want bool
	}{
		{"Bonjour ‹prénom> !", true},
		{"Bienvenue <Madame/Monsieur> !", true},
		{"Bonjour %nom%, bienvenue.", true},
		{"Bonjour <%= prenom %>, bienvenue.", true},
		{"I love the <b>lake</b>.", false},
		{"你好！<br/>欢迎来到实验室。", false},
		{"Vous êtes photographe ? <br /> Alors souriez !", false},
		{"Il y a 2 < 3 et 5 > 4.", false},
	} {
		if got := holed(tc.in); got != tc.want {
			t.Errorf("holed(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
