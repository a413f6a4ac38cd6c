package speakable

import (
	"maps"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/nadine-robot/nadine"
)

// words returns s's lowercased words; each character of a script written
// without spaces (Chinese, Japanese, Korean, Thai) is one.
func words(s string) []string {
	var out []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range s {
		switch {
		case isIdeographic(r):
			flush()
			out = append(out, string(r))
		case r < 0x80 && ('a' <= r && r <= 'z' || '0' <= r && r <= '9'):
			b.WriteByte(byte(r))
		case r < 0x80 && 'A' <= r && r <= 'Z':
			b.WriteByte(byte(r) + 'a' - 'A')
		case r >= 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)):
			b.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	return out
}

func isIdeographic(r rune) bool {
	return r >= 0x0E00 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Thai)
}

// fold removes the accents of a lowercased word ("humanoïde" →
// "humanoide"), to compare words across languages.
func fold(w string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(w) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// cognate reports whether two words are equal without accents or share
// their first five letters ("robot" and "Roboter").
func cognate(a, b string) bool {
	a, b = fold(a), fold(b)
	if a == b {
		return true
	}
	const n = 5
	return len(a) >= n && len(b) >= n && a[:n] == b[:n]
}

// listener are the words that address the listener, per language (German
// "Ton" is no French "ton").
var listener = map[nadine.Language]map[string]bool{
	nadine.English: set("you", "your", "yours", "yourself"),
	nadine.French:  set("vous", "votre", "vos", "tu", "ton", "ta", "tes", "toi", "te"),
	nadine.German:  set("du", "dein", "deine", "deinen", "deinem", "deiner", "dich", "dir", "euch", "euer"),
	nadine.Chinese: set("你", "您"),
}

// secondPerson are those words in any language: the prompt speaks to the
// model in the second person, Nadine of herself in the first.
var secondPerson = func() map[string]bool {
	out := map[string]bool{}
	for _, words := range listener {
		maps.Copy(out, words)
	}
	return out
}()

// copulas are "you are" and "you were" in the languages Nadine speaks, as
// word pairs.
var copulas = [][2]string{
	{"you", "are"}, {"you", "re"}, {"you", "were"}, {"vous", "êtes"}, {"vous", "etes"}, {"tu", "es"}, {"vous", "étiez"},
	{"du", "bist"}, {"sie", "sind"}, {"ihr", "seid"}, {"du", "warst"}, {"你", "是"}, {"您", "是"},
}

// articles may stand between "you are" and what follows.
var articles = set("a", "an", "the", "un", "une", "le", "la", "ein", "eine", "einen", "der", "die", "das", "一", "个", "位", "名", "台")

// firstPerson are the words by which a speaker means herself.
var firstPerson = set("i", "me", "my", "mine", "myself", "je", "j", "me", "moi", "mon", "ma", "mes", "ich", "mich", "mir", "mein", "meine", "meinen", "meinem", "我")

func set(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}
