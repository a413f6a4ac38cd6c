package speakable

import (
	"strings"
)

// lexicon is one concept's words in Nadine's languages: folded prefixes
// ("repond" is répondre, réponse), phrases, and substrings for CJK.
type lexicon struct {
	prefixes []string
	phrases  []string
	cjk      []string
}

// text is a sentence prepared for lexicon lookups.
type text struct {
	raw    string
	words  []string // folded
	joined string   // " " + folded words + " "
}

func newText(s string) text {
	ws := words(s)
	for i, w := range ws {
		ws[i] = fold(w)
	}
	return text{raw: s, words: ws, joined: " " + strings.Join(ws, " ") + " "}
}

// in reports whether the text holds a word of the concept.
func (l lexicon) in(t text) bool {
	return l.count(t) > 0
}

// count returns how many of the concept's words the text holds.
func (l lexicon) count(t text) int {
	n := 0
	for _, w := range t.words {
		for _, p := range l.prefixes {
			if strings.HasPrefix(w, p) {
				n++
				break
			}
		}
	}
	for _, p := range l.phrases {
		n += strings.Count(t.joined, " "+p+" ")
	}
	for _, c := range l.cjk {
		n += strings.Count(t.raw, c)
	}
	return n
}
