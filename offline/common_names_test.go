package offline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// TestCommonGermanNames reads the commonest German, Austrian and Swiss
// given and family names (public frequency lists, not the examples) in four
// introductions each: names that are also words ("Franz" begins
// "französisch", "Müller", "Schneider", "Klein") are names. The misses
// measured are a ceiling; they are family names the examples use as
// adjectives ("Lange", "Weiß", "Jung", "Groß", "Sauer") and "Lisa" of "Mona
// Lisa".
func TestCommonGermanNames(t *testing.T) {
	t.Parallel() // reads the shared model, writes nothing shared
	e := New(Options{})
	given := strings.Fields(`Maximilian Alexander Paul Elias Ben Noah Leon Louis Jonas Felix Luis Henry Emil Theo Anton Finn
		Lukas Jakob David Oskar Matteo Moritz Julian Niklas Leo Raphael Tobias Valentin Florian Johannes Sebastian Simon
		Philipp Fabian Dominik Stefan Markus Andreas Michael Thomas Christian Wolfgang Josef Johann Franz Karl Georg Ernst
		Helmut Herbert Gerhard Günter Dieter Klaus Jürgen Manfred Uwe Bernd Rolf Horst Heinz Werner Walter Kurt Otto Hans
		Fritz Rudolf Alois Sepp Ferdinand Anna Emma Mia Sophia Hannah Emilia Lina Marie Lea Clara Ella Leni Mila Lena Laura
		Julia Sarah Lisa Katharina Theresa Magdalena Johanna Eva Maria Elisabeth Barbara Ursula Monika Petra Sabine Renate
		Ingrid Helga Gisela Brigitte Christa Karin Heike Silke Anke Birgit Gudrun Waltraud Hildegard Roswitha Resi Vroni
		Gretl Liesl Burgi Reto Urs Beat Jörg Mehmet Ayşe Fatma Ali Murat Elif Yusuf`)
	family := strings.Fields(`Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Schäfer Koch Bauer
		Richter Klein Wolf Schröder Neumann Schwarz Zimmermann Braun Krüger Hofmann Hartmann Lange Schmitt Werner Schmitz
		Krause Meier Lehmann Schmid Schulze Maier Köhler Herrmann König Walter Mayer Huber Kaiser Fuchs Peters Lang Scholz
		Möller Weiß Jung Hahn Schubert Vogel Friedrich Keller Günther Frank Berger Winkler Roth Beck Lorenz Baumann Franke
		Albrecht Schuster Simon Ludwig Böhm Winter Kraus Martin Schumacher Krämer Vogt Stein Jäger Otto Sommer Groß Seidel
		Heinrich Brandt Haas Schreiber Graf Schulte Dietrich Ziegler Kuhn Pohl Engel Horn Busch Bergmann Voigt Sauer Arnold
		Pfeiffer Gruber Steiner Moser Hofer Leitner Eder Pichler Brunner`)
	tests := []struct {
		names     []string
		templates []string
		most      int
	}{
		{given, []string{"Hallo, ich bin %s.", "ich heiße %s", "Guten Tag, mein Name ist %s Huber.", "Servus, i bin da %s"}, 4},
		{family, []string{"Hallo, ich bin Anna %s.", "mein Name ist Peter %s", "Guten Tag, ich bin Frau %s.", "Grüß Gott, Thomas %s mein Name."}, 15},
	}
	for _, tt := range tests {
		var missed []string
		for _, n := range tt.names {
			for _, tmpl := range tt.templates {
				text := fmt.Sprintf(tmpl, n)
				if got, _ := e.personName(intents.Tokenize(text), text, nadine.German, bareNever); !strings.Contains(got, n) {
					missed = append(missed, fmt.Sprintf("%q → %q", text, got))
				}
			}
		}
		t.Logf("%d of %d introductions missed their name", len(missed), len(tt.names)*len(tt.templates))
		if len(missed) > tt.most {
			t.Errorf("%d introductions missed their name (at most %d measured): %s", len(missed), tt.most, strings.Join(missed, "; "))
		}
	}
}
