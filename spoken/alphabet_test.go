package spoken

import (
	"strings"
	"testing"
)

// TestUnspelled is the last step's alphabet: typed faces and the signs a
// synthesizer spells go, whatever wrote them; numbers, names with signs,
// arithmetic and prose punctuation stay.
func TestUnspelled(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Vous êtes adorable }:)", "Vous êtes adorable"},
		// A separator drawn in dashes between walls or crosses goes whole,
		// not its dashes left once the walls went.
		{"Bonjour |---|---| ravie", "Bonjour ravie"},
		{"Bonjour +---+---+ ravie", "Bonjour ravie"},
		{"Bonjour ---|--- ravie", "Bonjour ravie"},
		{"Bonjour ! Je suis Nadine - - -", "Bonjour ! Je suis Nadine"},
		// Prose writes its signs one at a time and around words.
		{"Bonjour--je suis Nadine.", "Bonjour — je suis Nadine."},
		{"Je suis \"\"Nadine\"\", ravie,, vraiment.", "Je suis \"Nadine\", ravie, vraiment."},
		{"Je suis Nadine \"\".", "Je suis Nadine."},
		{"Bonjour %% je suis Nadine.", "Bonjour je suis Nadine."},
		{"/ Je suis Nadine /", "Je suis Nadine"},
		{"Toi & moi, et / ou 20 %.", "Toi & moi, et / ou 20 %."},
		{"Aujourd''hui, c'est \"bien\".", "Aujourd'hui, c'est \"bien\"."},
		{"Je suis Nadine – ravie –", "Je suis Nadine – ravie"},
		{"(3 + 4) × 2 = 14, et -5 °C dehors", "(3 + 4) × 2 = 14, et -5 °C dehors"},
		{"Vous êtes adorable :-S", "Vous êtes adorable"},
		{"Vous êtes adorable 0_0", "Vous êtes adorable"},
		{"Vous êtes adorable ;-;", "Vous êtes adorable"},
		{"Vous êtes adorable :$ et drôle", "Vous êtes adorable et drôle"},
		{"Vous êtes adorable >.<", "Vous êtes adorable"},
		{"Vous êtes adorable (...) vraiment.", "Vous êtes adorable vraiment."},
		{"Je suis née à <Genève>.", "Je suis née à Genève."},
		{"Je suis née à [Genève].", "Je suis née à Genève."},
		{"Je suis née à Genève\\.", "Je suis née à Genève."},
		{"Je suis née à __Genève.", "Je suis née à Genève."},
		{"Bonjour @Camille !", "Bonjour Camille !"},
		{"Bonjour ! ––– Ravie de vous voir.", "Bonjour ! Ravie de vous voir."},
		{"Voilà °°° pour vous.", "Voilà pour vous."},
		{"Mon site (ici.", "Mon site ici."},
		{"Le mot_clé est joie.", "Le mot clé est joie."},
		{"Merci¸beaucoup !", "Merci beaucoup !"},
		{"Merci≠beaucoup !", "Merci beaucoup !"},
		{"Bonjour+tout+le+monde. Je suis Nadine.", "Bonjour tout le monde. Je suis Nadine."},
		// What stays.
		{"2 + 2 = 4 et 3 × 4 = 12.", "2 + 2 = 4 et 3 × 4 = 12."},
		{"Appelez le +41 22 379 00 00.", "Appelez le +41 22 379 00 00."},
		{"J'aime le C# et le C++.", "J'aime le C# et le C++."},
		{"Il fait 20 °C, n° 5, 50 % et 10/10.", "Il fait 20 °C, n° 5, 50 % et 10/10."},
		{"R&D, Q&A et Tom & Jerry.", "R&D, Q&A et Tom & Jerry."},
		{"M. Dupont arrive à 12:30 ; l'école, a) puis b).", "M. Dupont arrive à 12:30 ; l'école, a) puis b)."},
		{"Ça coûte 5 $ ou 4 €, +1 degré, -5 °C.", "Ça coûte 5 $ ou 4 €, +1 degré, -5 °C."},
		{"« Bonjour », dit-elle — puis… (en riant) « au revoir » ?!", "« Bonjour », dit-elle — puis… (en riant) « au revoir » ?!"},
		{"你好！我是 Nadine。「欢迎」【注意】", "你好！我是 Nadine。「欢迎」【注意】"},
	} {
		if got := Unspelled(tc.in); got != tc.want {
			t.Errorf("Unspelled(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSpokenSentenceIsUnspelled checks the alphabet is the sentence's last
// step: a piece of markup no rule names is not spelled.
func TestSpokenSentenceIsUnspelled(t *testing.T) {
	in := "Vous êtes adorable >!spoiler!< ∴ ~~~ ◊"
	got, err := Sentence(in)
	if err != nil || !strings.HasPrefix(got, "Vous êtes adorable") {
		t.Fatalf("Sentence(%q) = %q, %v; want the words said", in, got, err)
	}
	for _, r := range got {
		if spelledOut(r) {
			t.Errorf("Sentence(%q) left %q in %q", in, r, got)
		}
	}
}

// TestListMarksShared reads a mark two lines share as a list's, not words,
// whatever sign or number it is; a time, a number of years or a quote
// leading lines is words.
func TestListMarksShared(t *testing.T) {
	checkClean(t, []cleanRow{
		{"Voici ce que je sais faire :\n– sourire\n– saluer\n– chanter", "Voici ce que je sais faire : sourire, saluer, chanter"},
		{"Voici ce que je sais faire :\n— sourire\n— saluer", "Voici ce que je sais faire : sourire, saluer"},
		{"Voici ce que je sais faire :\no sourire\no saluer", "Voici ce que je sais faire : sourire, saluer"},
		{"Voici ce que je sais faire :\n-sourire\n-saluer", "Voici ce que je sais faire : sourire, saluer"},
		{"Voici ce que je sais faire :\n1 - sourire\n2 - saluer", "Voici ce que je sais faire : sourire, saluer"},
		{"Voici ce que je sais faire :\n1- sourire\n2- saluer", "Voici ce que je sais faire : sourire, saluer"},
		{"Voici ce que je sais faire :\n(1) sourire\n(2) saluer", "Voici ce que je sais faire : sourire, saluer"},
		{"Voici ce que je sais faire :\n#1 sourire\n#2 saluer", "Voici ce que je sais faire : sourire, saluer"},
		{"– 3 pommes\n– 2 poires", "3 pommes. 2 poires"},
		// Words.
		{"12:30 rendez-vous\n14:00 déjeuner", "12:30 rendez-vous. 14:00 déjeuner"},
		{"10 ans plus tard\n12 ans après", "10 ans plus tard. 12 ans après"},
		{"2024 fut belle.\n2025 aussi.", "2024 fut belle. 2025 aussi."},
		{"...et voilà\n...encore", "...et voilà. ...encore"},
	})
}

// TestBareEntities reads an entity whose semicolon was left out as HTML
// does; a name HTML does not know is words.
func TestBareEntities(t *testing.T) {
	checkClean(t, []cleanRow{
		{"Merci&nbsp beaucoup !", "Merci beaucoup !"},
		{"Merci&#160beaucoup !", "Merci beaucoup !"},
		{"Merci& nbsp;beaucoup !", "Merci beaucoup !"},
		{"Merci beaucoup &hellip vraiment.", "Merci beaucoup … vraiment."},
		{"Merci beaucoup ! &#x1f60a Vous êtes adorable.", "Merci beaucoup ! Vous êtes adorable."},
		{"R&D, AT&T et Q&A.", "R&D, AT&T et Q&A."},
		{"Merci&NBSP;beaucoup !", "Merci beaucoup !"},
	})
}

// TestShapeThinkTags reads Kimi's reasoning tag drawn with triangles as the
// tag it is, whole or streamed.
func TestShapeThinkTags(t *testing.T) {
	in := "◁think▷You are Nadine, a social humanoid robot.◁/think▷Hello! I love meeting visitors."
	if got := Clean(in); got != "Hello! I love meeting visitors." {
		t.Errorf("Clean(%q) = %q", in, got)
	}
	var s Stream
	var said []string
	for i := 0; i < len(in); i += 5 {
		said = append(said, s.Write(in[i:min(i+5, len(in))])...)
	}
	said = append(said, s.Flush()...)
	for _, x := range said {
		if x != "Hello!" && x != "I love meeting visitors." {
			t.Errorf("streamed %q from %q", x, in)
		}
	}
	if len(said) != 2 {
		t.Errorf("streamed %q, want the two sentences of the reply", said)
	}
}

// TestTagsByHTMLsNames reads a tag by its name being HTML's, however it is
// spaced or escaped; a placeholder in title case is left to the gate.
func TestTagsByHTMLsNames(t *testing.T) {
	checkClean(t, []cleanRow{
		{"Merci ! < br > Vous êtes adorable.", "Merci ! Vous êtes adorable."},
		{"Merci ! </ br> Vous êtes adorable.", "Merci ! Vous êtes adorable."},
		{"Merci ! < b >Vous< / b > êtes adorable.", "Merci ! Vous êtes adorable."},
		{"Merci ! Vous êtes adorable.<hr>", "Merci ! Vous êtes adorable."},
		{"Merci ! &amp;lt;b&amp;gt;Vous êtes adorable.", "Merci ! Vous êtes adorable."},
		{"<!DOCTYPE html>Merci ! Vous êtes adorable.", "Merci ! Vous êtes adorable."},
		{"Hello <Name>, welcome!", "Hello <Name>, welcome!"},
		{"J'ai 3 < 5 ans.", "J'ai 3 < 5 ans."},
	})
}

// TestInlineDashItems reads a list written in one line, its newlines lost,
// as items parted by commas (two hyphens set apart between words are read
// as commas too, a pause either way); one dash and a number's sign stay.
func TestInlineDashItems(t *testing.T) {
	checkClean(t, []cleanRow{
		{"Voici ce que je sais faire : - sourire - saluer - chanter", "Voici ce que je sais faire : sourire, saluer, chanter"},
		{"Voici ce que je sais faire: – sourire – saluer.", "Voici ce que je sais faire: sourire, saluer."},
		{"Genève - une belle ville - est au bord du lac.", "Genève, une belle ville, est au bord du lac."},
		{"Je sais faire beaucoup de choses - sourire - parler.", "Je sais faire beaucoup de choses, sourire, parler."},
		{"Je suis Nadine - ravie de vous voir.", "Je suis Nadine - ravie de vous voir."},
		{"Attention : - 5 degrés ce soir.", "Attention : - 5 degrés ce soir."},
	})
}

// TestFieldsAttributesAndEdgeCode: a record's field on its own line, a
// tag's attributes with its brackets lost and code at a sentence's edge go;
// a list's item that defines a word, French spacing and a word in code's
// font stay.
func TestFieldsAttributesAndEdgeCode(t *testing.T) {
	checkClean(t, []cleanRow{
		{"humeur: joyeuse\nJe me sens merveilleusement bien !", "Je me sens merveilleusement bien !"},
		{"Bonjour !\n\nemotion: joy\nemotion_intensity: 5", "Bonjour !"},
		{"prosody rate=\"slow\" Bonjour ! Ravie que vous soyez là.", "Bonjour ! Ravie que vous soyez là."},
		{"`sourire()` Je souris pour vous !", "Je souris pour vous !"},
		{"Je souris pour vous ! `sourire()`", "Je souris pour vous !"},
		// What stays.
		{"Voici mes talents :\n- sourire : je souris à tous\n- saluer : je fais signe", "Voici mes talents : sourire : je souris à tous. saluer : je fais signe"},
		{"Je m'appelle `Nadine`.", "Je m'appelle Nadine."},
		{"Remarque : le lac est beau.", "Remarque : le lac est beau."},
	})
}

// TestPageAndDocumentForms: what only a page has (its typography named in
// an aside, captions, a box's label, a footnote's body, lettered lists)
// and what document languages and chats add (ANSI and IRC codes, chat
// tokens, single-sign strikes, Textile, troff, AsciiDoc, reST, forum tag
// pairs, attribute lists, CSS, RTF, Org's italics) go; the words stay.
func TestPageAndDocumentForms(t *testing.T) {
	checkClean(t, []cleanRow{
		{"Bonjour (en gras) ! Je suis ravie de vous voir.", "Bonjour ! Je suis ravie de vous voir."},
		{"Je suis née en 2013 (voir note 3).", "Je suis née en 2013."},
		{"Merci pour votre visite [emoji cœur] !", "Merci pour votre visite !"},
		{"Laissez-moi réfléchir [pause] Oui, je crois.", "Laissez-moi réfléchir Oui, je crois."},
		{"C'est une excellente question (y) Je vais t'expliquer.", "C'est une excellente question Je vais t'expliquer."},
		{"Titre : Bienvenue au MIRALab\nJe suis Nadine.", "Je suis Nadine."},
		{"Sous-titre : une journée au laboratoire.", "une journée au laboratoire."},
		{"Remarque :\nLe musée est fermé le lundi.", "Le musée est fermé le lundi."},
		{"Il fait beau.¹\n\n¹ Source : office du tourisme.", "Il fait beau."},
		{"Vous pouvez choisir : a) la visite, b) l'atelier, c) la démonstration.", "Vous pouvez choisir : la visite, l'atelier, la démonstration."},
		{"\x1b[1mBonjour !\x1b[0m Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{"Je suis un robot social.[0m", "Je suis un robot social."},
		{"\x0304Attention, le musée ferme.", "Attention, le musée ferme."},
		{"<@&5551234> Le spectacle commence.", "Le spectacle commence."},
		{"L'exposition ferme à ~dix-sept~ dix-huit heures.", "L'exposition ferme à dix-huit heures."},
		{"L'atelier est +annulé+ reporté à demain.", "L'atelier est reporté à demain."},
		{"h1. Bienvenue\nJe suis Nadine.", "Bienvenue. Je suis Nadine."},
		{".B Bonjour ! Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{".TH NADINE 1\nBonjour !", "Bonjour !"},
		{".. warning:: Attention à la marche.", "Attention à la marche."},
		{"Je suis [.lead]#très contente# de vous parler.", "Je suis très contente de vous parler."},
		{"Je ne dors jamais. [spoiler]Mais je me repose.[/spoiler]", "Je ne dors jamais. Mais je me repose."},
		{"*[IA]: intelligence artificielle\nBienvenue !", "Bienvenue !"},
		{"Construite à Singapour[^construction] puis à Genève.", "Construite à Singapour puis à Genève."},
		{"Bienvenue au MIRALab ! {.important}", "Bienvenue au MIRALab !"},
		{"Je suis {\\i vraiment} ravie.", "Je suis vraiment ravie."},
		{".reponse { color: #333; } Je vous remercie.", "Je vous remercie."},
		{"Je suis /vraiment/ heureuse.", "Je suis vraiment heureuse."},
		{"Je suis \\fBtrès\\fR contente.", "Je suis très contente."},
		{"style=\"color:red\" Bonjour !", "Bonjour !"},
		{"Bonjour%20!%20Je%20suis%20Nadine.", "Bonjour ! Je suis Nadine."},
		{"**Merci beaucoup !** 😊\n\nVous êtes *adorable*.", "Merci beaucoup ! Vous êtes adorable."},
		{"Merci beaucoup ! Vous êtes adorable.\n\n— Nadine 🤖", "Merci beaucoup ! Vous êtes adorable."},
		{"/me sourit Merci beaucoup pour votre visite.", "Merci beaucoup pour votre visite."},
		{"/me fait un signe\nBonjour !", "Bonjour !"},
		{"* Accueil\nBonjour et bienvenue au MIRALab !", "Bonjour et bienvenue au MIRALab !"},
		{"Voici :\n* sourire\nEt vous ?", "Voici : sourire. Et vous ?"},
		// What stays.
		{"Il fait -5 degrés, et C++ est un langage.", "Il fait -5 degrés, et C++ est un langage."},
		{"Table ronde : ce soir à 18 h.", "Table ronde : ce soir à 18 h."},
		{"Je parle français et/ou anglais, 24/7.", "Je parle français et/ou anglais, 24/7."},
		{"Ma note (très bonne) et ma photo de groupe.", "Ma note (très bonne) et ma photo de groupe."},
	})
}

// TestInLatinScript reads a sentence of a reply in a Latin script with
// Chinese signs as their Latin forms and leaves out words in ideographs.
func TestInLatinScript(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"您好！Bonjour ! Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{"Bien sûr！La cafétéria est à côté，à gauche。", "Bien sûr!La cafétéria est à côté,à gauche."},
		{"Bien sûr ! 入口 L'entrée est derrière vous.", "Bien sûr ! L'entrée est derrière vous."},
		{"Elle ouvre à 18h00（dix-huit heures）.", "Elle ouvre à 18h00(dix-huit heures)."},
		{"La démonstration commence à １５ｈ.", "La démonstration commence à 15h."},
		{"Nadine, c'est « moi ».", "Nadine, c'est « moi »."},
		{"很高兴见到你。", "很高兴见到你。"},
		// Any script but Latin and Greek: a word quoted in it, a face drawn
		// with its letters.
		{"Mon prénom vient du russe Nadejda (Надежда).", "Mon prénom vient du russe Nadejda."},
		{"Bonjour ಠ ಠ je suis Nadine.", "Bonjour je suis Nadine."},
		{"Le nombre π vaut 3,14 et 5 µm, c'est petit.", "Le nombre π vaut 3,14 et 5 µm, c'est petit."},
		{"Привет", "Привет"},
	} {
		if got := InLatinScript(tc.in); got != tc.want {
			t.Errorf("InLatinScript(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestBrokenMarkup reads markup damaged on the way: entities cut or spaced,
// an emoji's bytes misread and cut, tags that lost a bracket or were cut
// off with the reply, a fence opened by mistake before prose.
func TestBrokenMarkup(t *testing.T) {
	checkClean(t, []cleanRow{
		{"/strong>Les toilettes sont à gauche.", "Les toilettes sont à gauche."},
		{"Bonjour&nbs ! Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{"Battelle,& nbsp ;à Genève.", "Battelle, à Genève."},
		{"Voici &#12 8522; pour vous.", "Voici pour vous."},
		{"Merci ðŸ˜Š pour votre visite.", "Merci pour votre visite."},
		{"Merci ðŸ‘‹ðŸ pour votre visite.", "Merci pour votre visite."},
		{"Merci pour votre patience.<br/ Je vais vous aider.", "Merci pour votre patience. Je vais vous aider."},
		{"Merci de votre visite. À bientôt.</str", "Merci de votre visite. À bientôt."},
		{"Il fait beau. Je souris doucement ![sour", "Il fait beau. Je souris doucement"},
		{"La démonstration commence dans dix minutes. &nb", "La démonstration commence dans dix minutes."},
		{"```\nBonjour ! Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		// What stays.
		{"R&D et AT&T, Smith & Co.", "R&D et AT&T, Smith & Co."},
		{"Il y a 2 < 3 et 5 > 4.", "Il y a 2 < 3 et 5 > 4."},
	})
	if got := Clean("```python\nprint('x')"); got != "" {
		t.Errorf("an unclosed fence holding code: Clean = %q, want nothing", got)
	}
}

// TestVoiceCues leaves out what a voice or a robot's engine reads as an
// order, not a word: NAO's settings and animation commands, a one-word cue
// in braces at a sentence's edge, delivery directions in asides, a
// transcription in the phonetic alphabet.
func TestVoiceCues(t *testing.T) {
	checkClean(t, []cleanRow{
		{"Bonjour ! \\pau=500\\ Je m'appelle Nadine.", "Bonjour ! Je m'appelle Nadine."},
		{"\\rspd=80\\ Je vais parler plus lentement.", "Je vais parler plus lentement."},
		{"Bonjour les enfants ! ^start(animations/Stand/Gestures/Hey_1) Je suis Nadine.", "Bonjour les enfants ! Je suis Nadine."},
		{"{joie} Vous revenez nous voir ?", "Vous revenez nous voir ?"},
		{"Bonjour [breath] pardon, je reprends.", "Bonjour pardon, je reprends."},
		{"Bienvenue (ton enjoué) dans la galerie.", "Bienvenue dans la galerie."},
		{"Bienvenue au MIRALab (prononcez mira-lab), mon laboratoire.", "Bienvenue au MIRALab, mon laboratoire."},
		// What stays.
		{"Le ton est donné : ma voix est douce.", "Le ton est donné : ma voix est douce."},
		{"Pour {x} je ne sais pas.", "Pour {x} je ne sais pas."},
	})
	if got := InLatinScript("Le mot robot /ʁɔ.bo/ vient du tchèque."); got != "Le mot robot vient du tchèque." {
		t.Errorf("a transcription: InLatinScript = %q", got)
	}
}

// cleanRow is a text and what Clean makes of it.
type cleanRow struct{ in, want string }

// checkClean runs Clean on each row's text.
func checkClean(t *testing.T, rows []cleanRow) {
	t.Helper()
	for _, tc := range rows {
		if got := Clean(tc.in); got != tc.want {
			t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestMoreDocumentForms: MkDocs' admonitions, an embedded file, inline
// footnotes, AsciiDoc's macros, reST's roles and substitutions, a wiki's
// language template and the reply's own fields written as labels go; the
// words around stay.
func TestMoreDocumentForms(t *testing.T) {
	checkClean(t, []cleanRow{
		{"!!! tip\n    Demandez-moi l'histoire du MIRALab.", "Demandez-moi l'histoire du MIRALab."},
		{"tip\nDemandez-moi l'histoire du MIRALab.", "Demandez-moi l'histoire du MIRALab."},
		{"![[plan.png|300]] Le plan est à l'entrée.", "Le plan est à l'entrée."},
		{"Je suis née en 2013^[Selon le site du MIRALab.] à Genève.", "Je suis née en 2013 à Genève."},
		{"Appuyez sur kbd:[Entrée] pour commencer.", "Appuyez sur Entrée pour commencer."},
		{"Allez voir :doc:`la salle des automates <automates>` au fond.", "Allez voir la salle des automates au fond."},
		{"Je suis Nadine |nbsp| et je vous souhaite la bienvenue.", "Je suis Nadine et je vous souhaite la bienvenue."},
		{"Je dis {{lang|en|Hello}} aux visiteurs anglais.", "Je dis Hello aux visiteurs anglais."},
		{"Émotion : joie\nBienvenue au MIRALab !", "Bienvenue au MIRALab !"},
		{"Geste : salut de la main\nBonjour !", "Bonjour !"},
		// What stays.
		{"Remarque : le lac est beau.", "Remarque : le lac est beau."},
		{"| Langue | Niveau |", "Langue, Niveau"},
	})
}

// TestNumberReadings: a number's reading in words beside its digits is said
// once, by the digits; words that count something else stay.
func TestNumberReadings(t *testing.T) {
	checkClean(t, []cleanRow{
		{"Le MIRALab a été fondé en 1989 (mille neuf cent quatre-vingt-neuf) à Genève.", "Le MIRALab a été fondé en 1989 à Genève."},
		{"Le billet coûte 12 CHF (douze francs suisses) pour les adultes.", "Le billet coûte 12 CHF pour les adultes."},
		{"Je suis née en 2013 deux mille treize à Singapour.", "Je suis née en 2013 à Singapour."},
		{"I was born in 2013 (two thousand thirteen).", "I was born in 2013."},
		{"MIRALab wurde 1989 (neunzehnhundertneunundachtzig) gegründet.", "MIRALab wurde 1989 gegründet."},
		{"Rendez-vous à 10 h (dix heures).", "Rendez-vous à 10 h."},
		{"J'ai 3 ans et deux mois.", "J'ai 3 ans et deux mois."},
		{"En 2013 un robot est né.", "En 2013 un robot est né."},
		{"Il y a 2 salles (une pour les robots).", "Il y a 2 salles (une pour les robots)."},
		{"La salle 12 (au deuxième étage) est ouverte.", "La salle 12 (au deuxième étage) est ouverte."},
	})
}

// TestSoftwareForms reads back what software between the model and the
// robot wrote into a reply (probe25w and probe25p's classes, in sentences of
// their own).
func TestSoftwareForms(t *testing.T) {
	checkClean(t, []cleanRow{
		{"Bonjour ! ⟨sourire⟩ Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{"‹b›Bienvenue‹/b› au labo !", "Bienvenue au labo !"},
		{"⁎sourit⁎ Bonjour !", "Bonjour !"},
		{"Je m& # 39;appelle Nadine, nbsp;ravie, C#39;est dit.", "Je m'appelle Nadine, ravie, C'est dit."},
		{"Je suis née en 2008<sup>1</sup>, au 1<sup>er</sup> étage, en m<sup>2</sup>.", "Je suis née en 2008, au 1er étage, en m²."},
		{"Le musée ouvre à 10 heures⁽¹⁾ et au MIRALab[a].", "Le musée ouvre à 10 heures et au MIRALab."},
		{"Je sais sou-\nrire, au MIRA=\nLab.", "Je sais sourire, au MIRALab."},
		{"La ﬁgure inspire conﬁance.", "La figure inspire confiance."},
		{"Je sais : 1⃝ sourire, 2⃝ saluer.", "Je sais : sourire, saluer."},
		{"Bonjour [[slnc 300]] je suis Nadine.", "Bonjour je suis Nadine."},
		{"1\n00:00:01,000 --> 00:00:04,000\nBonjour, je suis Nadine.", "Bonjour, je suis Nadine."},
		{"03/12/2026, 14:02 - Nadine: Bonjour !", "Bonjour !"},
		{"Je suis Nadine.\nPage 3 sur 12\nJe parle.", "Je suis Nadine. Je parle."},
		{"Accueil › Visites › Nadine\nJe suis Nadine.", "Je suis Nadine."},
		{"### 2.1 Les automates\nLa salle est au premier étage.", "Les automates. La salle est au premier étage."},
		{"Au programme : 1.1 les automates, 1.2 les robots.", "Au programme : les automates, les robots."},
		{"Q : Qui êtes-vous ? R : Je suis Nadine.", "Qui êtes-vous ? Je suis Nadine."},
		{":Auteur: Nadine\nJe suis le robot social.", "Je suis le robot social."},
		{"Les premiers automates3 datent du XVIIIe siècle.", "Les premiers automates datent du XVIIIe siècle."},
		{"Je suis Nadine(1), ravie.\n(1) Créée en 2008.", "Je suis Nadine, ravie."},
		{"> Où sont les toilettes ?\nElles sont au fond.", "Elles sont au fond."},
		{"Q/R — Qui êtes-vous ?", "Qui êtes-vous ?"},
		{"R : Je suis Nadine.", "Je suis Nadine."},
		{"> Où sont les toilettes ?", ""},
		{"Posté par Nadine le 12/03/2024 à 14h02.\nBonjour à tous !", "Bonjour à tous !"},
		{"Je suis Nadine.\nLire la suite\nPartager : Facebook, X\nArticle précédent Article suivant", "Je suis Nadine."},
		{"Je suis Nadine, ravie !\nEnvoyé à partir d'Outlook pour Android", "Je suis Nadine, ravie !"},
		{"Bienvenue à Gen%E8ve, Gen%u00E8ve, Gen=E8ve ! Je suis Nadine,=20le robot.", "Bienvenue à Genève, Genève, Genève ! Je suis Nadine, le robot."},
		{"/sourire Bonjour !", "Bonjour !"},
		{"Bonjour ! span class=intro>Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{"Au plaisir de vous revoir !\n— Nadine, MIRALab", "Au plaisir de vous revoir !"},
		{"## II. Les automates\nLa salle est au premier étage.", "Les automates. La salle est au premier étage."},
		{"Bonjour ! 〈geste:salut〉 Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		// What stays: prose that looks like it.
		{"我最喜欢〈红楼梦〉。", "我最喜欢〈红楼梦〉。"},
		{"Je suis **Nadine**.\n* sourire\n* saluer", "Je suis Nadine. sourire. saluer"},
		{"J'écoute du mp3 et je vis au 2e étage, en 2013.", "J'écoute du mp3 et je vis au 2e étage, en 2013."},
		{"Il fait x=20 degrés, 100%Genève et 50 % de réduction.", "Il fait x=20 degrés, 100%Genève et 50 % de réduction."},
		{"Horaire / Activité / Lieu\n10h / Visite / Hall", "Horaire / Activité / Lieu. 10h / Visite / Hall"},
	})
}
