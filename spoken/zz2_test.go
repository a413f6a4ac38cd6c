package spoken

import "testing"

func TestZZ2(t *testing.T) {
	for _, s := range []string{
		"Vous pouvez choisir : a) la visite guidée, b) l'atelier des robots, c) la démonstration. Que préférez-vous ?",
		"i. bonjour ii. merci iii. au revoir — voilà les mots que je préfère.",
		"Mes créateurs :\nA. Nadia Magnenat Thalmann\nB. son équipe de Singapour\nJe les aime.",
		"1. sourire 2. saluer",
		"Il y a 2. Puis 3. Voilà.",
		"Titre : Bienvenue au MIRALab\nJe suis Nadine, ravie de vous voir.",
		"Tableau 1 : Mes langues\nFrançais, anglais.",
		"Remarque :\nLe musée est fermé le lundi.",
		"Il fait beau au printemps.¹\n\n¹ Source : office du tourisme de Genève, brochure 2024.",
		"Bonjour (en gras) ! Je suis ravie de vous voir.",
		"Laissez-moi réfléchir [pause] Oui, je crois.",
		"Voici à quoi je ressemble : [image] Plutôt réaliste, non ?",
		"Merci (en gras) pour votre visite [emoji cœur] !",
		"Je suis née en 2013 (voir note 3).",
		"Je parle plusieurs langues (cf. tableau).",
		"Table ronde : ce soir à 18 h.",
		"Section 2.1 – Présentation\nJe suis Nadine.",
	} {
		u, _, err := Reply(s)
		t.Logf("%q\n   -> %q %v", s, u, err)
	}
}
