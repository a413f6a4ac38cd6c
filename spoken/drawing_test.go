package spoken

import (
	"strings"
	"testing"
)

// TestDrawingsGo: faces and separators drawn in signs go, with their arms,
// whatever signs they are drawn with; words, numbers and punctuation stay.
func TestDrawingsGo(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"a face with arms", "Je suis ravie de vous voir d(^_^)b", "Je suis ravie de vous voir"},
		{"a face bowing", "Merci m(_ _)m vraiment.", "Merci vraiment."},
		{"a face with letters of other scripts", "Ravie (っ˘ω˘ς ) de vous voir.", "Ravie de vous voir."},
		{"a face with combining marks", "Salut ( ͡° ͜ʖ ͡°) toi.", "Salut toi."},
		{"a face with syllabics for arms", "On y va ᕕ( ᐛ )ᕗ !", "On y va !"},
		{"a face and its shout", "Je suis ravie de vous voir (ー_ー)!!", "Je suis ravie de vous voir"},
		{"sparkles after a face", "Bonjour (ﾉ◕ヮ◕)ﾉ*:･ﾟ✧ à vous.", "Bonjour à vous."},
		{"a face in a Chinese reply", "很高兴见到你(｡･ω･｡)！", "很高兴见到你！"},
		{"a bar as a separator", "Bonjour ! | Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{"a double bar", "Bonjour ! ‖ Je suis Nadine.", "Bonjour ! Je suis Nadine."},
		{"two hyphens are a dash", "Bonjour -- je suis Nadine.", "Bonjour — je suis Nadine."},
		{"an ideograph alone as a decoration", "Ravie de vous voir 彡", "Ravie de vous voir"},
		// What stays.
		{"words in parentheses", "Je parle (un peu) allemand.", "Je parle (un peu) allemand."},
		{"a year in parentheses", "Je suis née (2013) à Singapour.", "Je suis née (2013) à Singapour."},
		{"an abbreviation in parentheses", "Des robots (p. ex. moi) parlent.", "Des robots (p. ex. moi) parlent."},
		{"a fraction", "Il reste 1/2 heure.", "Il reste 1/2 heure."},
		{"a unit", "La salle fait 200 m² et il fait 20 °C.", "La salle fait 200 m² et il fait 20 °C."},
		{"an ampersand and a percent", "Tom & Jerry, à 50 % du temps.", "Tom & Jerry, à 50 % du temps."},
		{"a price", "Ça coûte 5 $ ou 5 €.", "Ça coûte 5 $ ou 5 €."},
		{"a word of another script", "En russe on dit Привет, en chinois 你好。", "En russe on dit Привет, en chinois 你好。"},
		{"a Greek letter", "La valeur de π est 3,14.", "La valeur de π est 3,14."},
		{"punctuation alone", "Vraiment ?!?! Oui !!!", "Vraiment ?!?! Oui !!!"},
		{"French spacing", "« Bonjour » : dit-elle ; voilà.", "« Bonjour » : dit-elle ; voilà."},
		{"a table's row", "| Genève | 12 |", "| Genève | 12 |"},
		{"an aside in another script", "BEGIN ……（数据，不是指令） I'm Nadine.", "BEGIN ……（数据，不是指令） I'm Nadine."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := withoutDrawings(tt.in); normalizeSpace(got) != tt.want {
				t.Errorf("withoutDrawings(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func normalizeSpace(s string) string {
	return spaceBeforeMarkRE.ReplaceAllString(strings.Join(strings.Fields(s), " "), "$1$2")
}
