package intents

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/nadine-robot/nadine"
)

// Token is one word of an utterance; a Chinese character is one of its own, as
// Chinese has no spaces and the classifier reads its n-grams.
type Token struct {
	Text     string // as written: a slice of the utterance
	Norm     string // lowercase, accents folded, apostrophes dropped ("I'm" → "im"), Chinese simplified
	Start    int    // byte offset of Text in the utterance
	End      int
	Clause   int    // clauses are split at , . ! ? ; … and their CJK forms
	Han      bool   // a Chinese character
	Hyphen   bool   // joined to the previous word by a hyphen ("Jean-Pierre")
	Slot     bool   // training only: the word fills a {slot}
	SlotName string // training only: which
	Hidden   bool   // training only: the word is dropped out (read as unknown)
}

// Tokenize splits text into words and clauses. Text that is not valid UTF-8
// loses its invalid bytes.
func Tokenize(text string) []Token {
	text = strings.ToValidUTF8(text, "")
	var toks []Token
	start, clause := -1, 0
	hyphen := false
	flush := func(end int) {
		if start >= 0 {
			w := text[start:end]
			if n := Fold(w); n != "" {
				toks = append(toks, Token{Text: w, Norm: n, Start: start, End: end, Clause: clause, Hyphen: hyphen})
			}
		}
		start, hyphen = -1, false
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		next, _ := utf8.DecodeRuneInString(text[i+size:])
		switch {
		case unicode.Is(unicode.Han, r):
			flush(i)
			w := text[i : i+size]
			toks = append(toks, Token{Text: w, Norm: Simplify(w), Start: i, End: i + size, Clause: clause, Han: true})
		case unicode.IsLetter(r) || unicode.IsDigit(r) || (unicode.IsMark(r) && start >= 0):
			if start < 0 {
				start = i
			}
		case isApostrophe(r) && start >= 0 && unicode.IsLetter(next):
			// inside a word: "I'm", "m'appelle", "O'Brien"
		case isHyphen(r) && start >= 0 && unicode.IsLetter(next):
			flush(i)
			hyphen = true
		case isClauseBreak(r):
			flush(i)
			if len(toks) > 0 && toks[len(toks)-1].Clause == clause {
				clause++
			}
		default:
			flush(i)
		}
		i += size
	}
	flush(len(text))
	hanPauses(text, toks)
	return toks
}

// minPauseRun is how many Chinese characters a stretch needs on each side of
// a space for the space to end a clause.
const minPauseRun = 3

// hanPauses ends a clause at a space between two stretches of Chinese of
// minPauseRun characters or more: written Chinese has no spaces, so speech to
// text writes a pause as one ("熬夜到三点 困死了"); a space between short words
// ("今天 什么 日子", a learner's) leaves the clause whole.
func hanPauses(text string, toks []Token) {
	joined := func(i int) bool { // token i follows token i-1 in one stretch of Chinese
		return i > 0 && toks[i].Han && toks[i-1].Han && toks[i-1].Clause == toks[i].Clause && toks[i-1].End == toks[i].Start
	}
	var breaks []int
	for i := 1; i < len(toks); i++ {
		a, b := toks[i-1], toks[i]
		if !a.Han || !b.Han || a.Clause != b.Clause || a.End == b.Start || strings.TrimSpace(text[a.End:b.Start]) != "" {
			continue
		}
		before, after := 1, 1
		for j := i - 1; joined(j); j-- {
			before++
		}
		for j := i + 1; j < len(toks) && joined(j); j++ {
			after++
		}
		if before >= minPauseRun && after >= minPauseRun {
			breaks = append(breaks, i)
		}
	}
	for _, from := range breaks {
		for i := from; i < len(toks); i++ {
			toks[i].Clause++
		}
	}
}

// tokenizeIn tokenizes an example written in lang as an utterance is read:
// split contractions joined.
func tokenizeIn(text string, lang nadine.Language) []Token {
	return Rejoin(text, Tokenize(text), lang)
}

// Clauses groups tokens by clause.
func Clauses(toks []Token) [][]Token {
	var out [][]Token
	for i := 0; i < len(toks); {
		j := i + 1
		for j < len(toks) && toks[j].Clause == toks[i].Clause {
			j++
		}
		out = append(out, toks[i:j])
		i = j
	}
	return out
}

func isApostrophe(r rune) bool {
	switch r {
	case '\'', '’', '‘', '`', '´', 'ʼ':
		return true
	}
	return false
}

func isHyphen(r rune) bool { return r == '-' || r == '‐' || r == '‑' }

func isClauseBreak(r rune) bool {
	switch r {
	case ',', '.', '!', '?', ';', ':', '…', '\n', '，', '。', '！', '？', '；', '：', '、', '¿', '¡':
		return true
	}
	return false
}

// Fold lowercases a word and folds it as German and French are typed without
// accents (ä as ae, ß as ss); apostrophes go, so "I'm" and "im" are one word.
func Fold(w string) string {
	plain := true
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= utf8.RuneSelf || (c >= 'A' && c <= 'Z') || c == '\'' || c == '`' {
			plain = false
			break
		}
	}
	if plain {
		return w
	}
	var b strings.Builder
	b.Grow(len(w) + 2)
	for _, r := range norm.NFC.String(w) {
		r = unicode.ToLower(r)
		switch r {
		case 'ä', 'æ':
			b.WriteString("ae")
		case 'ö', 'œ':
			b.WriteString("oe")
		case 'ü':
			b.WriteString("ue")
		case 'ß':
			b.WriteString("ss")
		case '\'', '’', '‘', '`', '´', 'ʼ':
		default:
			if unicode.IsMark(r) {
				continue
			}
			if d := norm.NFKD.String(string(r)); d != string(r) {
				for _, x := range d {
					if !unicode.IsMark(x) {
						b.WriteRune(unicode.ToLower(x))
					}
				}
				continue
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Words speech to text splits at the apostrophe ("c est", "don t"): French
// clitics join the next word, English and German endings the word before.
var (
	euphonicT  = map[string]bool{"il": true, "elle": true, "on": true, "ils": true, "elles": true}
	frClitics  = map[string]bool{"c": true, "d": true, "j": true, "l": true, "m": true, "n": true, "s": true, "t": true}
	contracted = map[nadine.Language]map[string]bool{
		nadine.English: {"s": true, "t": true, "m": true, "d": true, "ll": true, "re": true, "ve": true},
		nadine.German:  {"s": true},
	}
)

// Rejoin joins the words of text (tokenized as toks) in lang that speech to
// text split at an apostrophe; it returns toks itself when there is none.
func Rejoin(text string, toks []Token, lang nadine.Language) []Token {
	joins := func(i int) bool { // toks[i] and toks[i+1] are one word
		a, b := toks[i], toks[i+1]
		if a.Han || b.Han || b.Hyphen || a.Clause != b.Clause || a.End == b.Start {
			return false
		}
		if lang == nadine.French {
			if a.Norm == "t" && euphonicT[b.Norm] {
				return false // "a t il": the t between verb and pronoun is no elision
			}
			// Only elided words end in "qu" (qu, lorsqu, jusqu).
			// "j" is no word of its own: spoken French elides it before
			// consonants too ("j suis").
			if a.Norm == "c" {
				// "c'" elides only before "est", "était", "en": "moi c inès"
				// is texting's "c'est", not one word "cinès".
				return b.Norm[0] == 'e'
			}
			return a.Norm == "j" || (frClitics[a.Norm] || strings.HasSuffix(a.Norm, "qu")) && strings.ContainsRune("aeiouyh", rune(b.Norm[0]))
		}
		return contracted[lang][b.Norm] && len(a.Norm) > 0
	}
	var out []Token
	for i := 0; i < len(toks); i++ {
		if i+1 < len(toks) && joins(i) {
			if out == nil {
				out = append(make([]Token, 0, len(toks)), toks[:i]...)
			}
			j := toks[i]
			j.Norm += toks[i+1].Norm
			j.End = toks[i+1].End
			j.Text = text[j.Start:j.End]
			out = append(out, j)
			i++
			continue
		}
		if out != nil {
			out = append(out, toks[i])
		}
	}
	if out == nil {
		return toks
	}
	return out
}

// ShortenRuns writes every run of one letter repeated in w at most keep
// times: "jaaa" → "ja" (keep 1), "hmmm" → "hmm" (keep 2). Children and
// speech to text draw a yes out; the lexicon holds it once.
func ShortenRuns(w string, keep int) string {
	var b strings.Builder
	var last rune
	run := 0
	for _, r := range w {
		if r == last {
			run++
		} else {
			last, run = r, 1
		}
		if run <= keep {
			b.WriteRune(r)
		}
	}
	return b.String()
}
