package intents

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Token is one word of an utterance; a Chinese character is one of its own, as
// Chinese has no spaces and the classifier reads its n-grams.
type Token struct {
	Text     string // as written: a slice of the utterance
	Norm     string // lowercase, accents folded, apostrophes dropped ("I'm" → "im")
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
			toks = append(toks, Token{Text: w, Norm: w, Start: i, End: i + size, Clause: clause, Han: true})
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
	return toks
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
