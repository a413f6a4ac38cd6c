package langid

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
)

//go:generate go run gen.go

// ngramsGz holds the n-gram tables (gen.go says where they come from).
//
//go:embed ngrams.gz
var ngramsGz []byte

// The Latin-script languages, in the order of the n-gram table's columns.
var latin = [nLatin]nadine.Language{nadine.English, nadine.French, nadine.German}

const nLatin = 3

// Scoring constants, in nats (natural-log units). They were tuned on
// testdata/dev.txt only; testdata/heldout.txt checks that they generalize.
const (
	// backoff is added for each letter of context dropped when an n-gram
	// is missing (trigram → bigram → unigram), "stupid backoff" style.
	backoff = -1.0
	// floor is the log-probability of a letter a language never uses.
	floor = -14.0
	// wordBonus is added to a language for each of its common words.
	wordBonus = 3.0
	// elisionBonus is added for a French elision (l', j', qu') or an
	// English contraction (n't, 's, 'm).
	elisionBonus = 3.0
	// minMargin is how far the best language's score must be ahead of the
	// second's for Detect to answer ok.
	minMargin = 4.5
	// temperature scales score differences into the reported confidence.
	temperature = 2.0
)

// Detector tells English, French, German and Chinese apart in short
// utterances. It is immutable after New and safe for concurrent use.
type Detector struct {
	// grams maps an n-gram (1 to 3 lowercase letters) to −ln p × 8 in each
	// Latin-script language, 0 meaning absent.
	grams map[string][nLatin]uint8
	// words maps a lowercase common word to the languages (bit i for
	// latin[i]) it is common in.
	words map[string]uint8
}

var _ nadine.LanguageDetector = (*Detector)(nil)

// New returns the process's Detector: the embedded tables are decoded once
// (about 10–20 ms and 2 MB), as every serve or chat started in one process
// would otherwise decode them again.
func New() (*Detector, error) { return decoded() }

// decoded is the Detector of the embedded tables; it is immutable.
var decoded = sync.OnceValues(decode)

// decode decodes the embedded tables into a Detector.
func decode() (*Detector, error) {
	zr, err := gzip.NewReader(bytes.NewReader(ngramsGz))
	if err != nil {
		return nil, fmt.Errorf("langid: open n-gram table: %w", err)
	}
	d := &Detector{
		grams: make(map[string][nLatin]uint8, 30000),
		words: make(map[string]uint8, 512),
	}
	sc := bufio.NewScanner(zr)
	for line := 1; sc.Scan(); line++ {
		// "<ngram> <en> <fr> <de>", parsed by hand: New runs at startup.
		b := sc.Bytes()
		var v [nLatin]uint8
		for i := nLatin - 1; i >= 0; i-- {
			sp := bytes.LastIndexByte(b, ' ')
			n, err := strconv.ParseUint(string(b[sp+1:]), 10, 8)
			if sp <= 0 || err != nil {
				return nil, fmt.Errorf("langid: n-gram table line %d: malformed %q", line, sc.Text())
			}
			v[i] = uint8(n)
			b = b[:sp]
		}
		d.grams[string(b)] = v
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("langid: read n-gram table: %w", err)
	}
	for i, list := range [nLatin]string{englishWords, frenchWords, germanWords} {
		for _, w := range strings.Fields(list) {
			d.words[w] |= 1 << i
		}
	}
	return d, nil
}

// Detect returns text's language; ok is false when the evidence is too thin
// (a name, "OK", "12"), so the caller keeps the language it had.
func (d *Detector) Detect(text string) (lang nadine.Language, confidence float64, ok bool) {
	t := tokenize(text)
	switch {
	case t.han > 0 && t.kana == 0 && t.han > len(t.words) && t.han >= t.other:
		// Latin-script words in Chinese text are mostly names: they count
		// half as much as a Han character against the answer.
		return nadine.Chinese, float64(t.han) / (float64(t.han) + float64(len(t.words)+t.other)/2), true
	case t.kana > 0 || len(t.words) == 0 || t.other > t.latinLetters:
		return "", 0, false
	}
	s := d.scores(t.words)
	best, second := 0, 1
	if s[second] > s[best] {
		best, second = second, best
	}
	for i := 2; i < nLatin; i++ {
		switch {
		case s[i] > s[best]:
			best, second = i, best
		case s[i] > s[second]:
			second = i
		}
	}
	var sum float64
	for i := range s {
		sum += math.Exp((s[i] - s[best]) / temperature)
	}
	confidence = 1 / sum
	if s[best]-s[second] < minMargin {
		return "", confidence, false
	}
	return latin[best], confidence, true
}

// scores returns each Latin-script language's log-likelihood of words,
// plus the word and elision bonuses.
func (d *Detector) scores(words []string) [nLatin]float64 {
	var s [nLatin]float64
	for _, w := range words {
		d.addWordBonus(&s, w)
		parts := strings.FieldsFunc(w, isApostrophe)
		if len(parts) == 2 {
			switch {
			case isFrenchElision(parts[0]) && utf8.RuneCountInString(parts[1]) >= 2:
				s[1] += elisionBonus
			case isEnglishContraction(parts[1]):
				s[0] += elisionBonus
			}
		}
		for _, p := range parts {
			if len(parts) > 1 {
				d.addWordBonus(&s, p) // the halves of "qu'il", "don't"
			}
			d.addLikelihood(&s, []rune(p))
		}
	}
	return s
}

// addWordBonus adds wordBonus to each language w is a common word of.
func (d *Detector) addWordBonus(s *[nLatin]float64, w string) {
	m := d.words[w]
	for i := range nLatin {
		if m&(1<<i) != 0 {
			s[i] += wordBonus
		}
	}
}

// addLikelihood adds the log-probability of each letter of word given the
// (up to two) letters before it.
func (d *Detector) addLikelihood(s *[nLatin]float64, word []rune) {
	for i := range word {
		g := word[max(0, i-2) : i+1]
		for l := range nLatin {
			s[l] += d.logProb(g, l)
		}
	}
}

// logProb returns the log-probability of the last rune of g given the
// others in language l, backing off to shorter contexts.
func (d *Detector) logProb(g []rune, l int) float64 {
	for k := range g {
		if v := d.grams[string(g[k:])][l]; v > 0 {
			return -float64(v)/8 + backoff*float64(k)
		}
	}
	return floor
}

// isFrenchElision reports whether s is the elided word before a French
// apostrophe ("l" of "l'hôtel").
func isFrenchElision(s string) bool {
	switch s {
	case "c", "d", "j", "l", "m", "n", "s", "t", "qu", "jusqu", "lorsqu", "puisqu":
		return true
	}
	return false
}

// isEnglishContraction reports whether s is the contracted word after an
// English apostrophe ("t" of "don't").
func isEnglishContraction(s string) bool {
	switch s {
	case "t", "s", "m", "re", "ll", "ve", "d":
		return true
	}
	return false
}

func isApostrophe(r rune) bool { return r == '\'' || r == '’' }

// tokens is what Detect needs to know about a text.
type tokens struct {
	// words are the lowercase Latin-script words, apostrophes kept.
	words        []string
	latinLetters int
	han          int // Han characters
	kana         int // Hiragana, Katakana and Hangul characters
	other        int // letters of any other script
}

func tokenize(text string) tokens {
	var t tokens
	var w strings.Builder
	flush := func() {
		if s := strings.TrimFunc(w.String(), isApostrophe); s != "" {
			t.words = append(t.words, s)
		}
		w.Reset()
	}
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Latin, r):
			t.latinLetters++
			w.WriteRune(unicode.ToLower(r))
			continue
		case isApostrophe(r) && w.Len() > 0:
			w.WriteRune('\'')
			continue
		case unicode.Is(unicode.Han, r):
			t.han++
		case unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			t.kana++
		case unicode.IsLetter(r):
			t.other++
		}
		flush()
	}
	flush()
	return t
}
