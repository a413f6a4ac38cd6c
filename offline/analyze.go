package offline

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine/intents"
)

// maxInputRunes bounds the input the rules look at: a longer utterance is
// not a simple request, and gets the default line.
const maxInputRunes = 400

// token is one word of the input.
type token struct {
	orig   string // as written (a slice of the input)
	norm   string // lowercase, accents folded, apostrophes unified
	start  int    // byte offset of orig in the input
	clause int    // clauses are split at , . ! ? ; … and CJK punctuation
	hyphen bool   // joined to the previous word by a hyphen ("allez-vous")
}

// analysis is the input prepared for matching.
type analysis struct {
	text    string // valid UTF-8, trimmed
	tokens  []token
	han     bool // contains Han characters
	letters bool // contains at least one letter
}

// analyze tokenizes text into words and clauses.
func analyze(text string) analysis {
	text = strings.TrimSpace(strings.ToValidUTF8(text, ""))
	a := analysis{text: text}
	start := -1
	clause := 0
	hyphen := false
	inHan := false // the current word is Chinese: a change of script ends it
	flush := func(end int) {
		if start >= 0 {
			w := text[start:end]
			a.tokens = append(a.tokens, token{orig: w, norm: intents.Simplify(normalizeWord(w)), start: start, clause: clause, hyphen: hyphen})
		}
		start, hyphen = -1, false
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		next, _ := utf8.DecodeRuneInString(text[i+size:])
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || (unicode.IsMark(r) && start >= 0):
			han := unicode.Is(unicode.Han, r)
			if start >= 0 && han != inHan && !unicode.IsMark(r) {
				flush(i) // "我叫Alex": 我叫 | Alex
			}
			if start < 0 {
				start = i
				inHan = han
			}
			if unicode.IsLetter(r) {
				a.letters = true
			}
			if han {
				a.han = true
			}
		case isApostrophe(r) && start >= 0 && unicode.IsLetter(next):
			// inside a word: "I'm", "m'appelle", "O'Brien"
		case isHyphen(r) && start >= 0 && unicode.IsLetter(next):
			flush(i)
			hyphen = true
		case isClauseBreak(r):
			flush(i)
			clause++
		default:
			flush(i)
		}
		i += size
	}
	flush(len(text))
	return a
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
	case ',', '.', '!', '?', ';', '…', '\n', '，', '。', '！', '？', '；', '、', '¿', '¡':
		return true
	}
	return false
}

// normalizeWord lowercases w, folds accents (German ä as ae, ß as ss) and
// writes every apostrophe as ', so examples match however a transcript spells.
func normalizeWord(w string) string {
	plain := true
	for i := 0; i < len(w); i++ {
		if c := w[i]; c >= utf8.RuneSelf || (c >= 'A' && c <= 'Z') || c == '`' {
			plain = false
			break
		}
	}
	if plain {
		return w
	}
	var b strings.Builder
	b.Grow(len(w) + 2)
	for _, r := range w {
		r = unicode.ToLower(r)
		switch r {
		case 'à', 'á', 'â', 'ã', 'å', 'ā':
			b.WriteByte('a')
		case 'ä', 'æ':
			b.WriteString("ae")
		case 'ç':
			b.WriteByte('c')
		case 'è', 'é', 'ê', 'ë', 'ē':
			b.WriteByte('e')
		case 'ì', 'í', 'î', 'ï':
			b.WriteByte('i')
		case 'ñ':
			b.WriteByte('n')
		case 'ò', 'ó', 'ô', 'õ', 'ø':
			b.WriteByte('o')
		case 'ö', 'œ':
			b.WriteString("oe")
		case 'ù', 'ú', 'û':
			b.WriteByte('u')
		case 'ü':
			b.WriteString("ue")
		case 'ý', 'ÿ':
			b.WriteByte('y')
		case 'ß':
			b.WriteString("ss")
		case '’', '‘', '`', '´', 'ʼ':
			b.WriteByte('\'')
		default:
			if unicode.IsMark(r) {
				continue // a combining accent
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// elided are the French words that lose their vowel before another word
// ("l'université", "d'actionneurs", "qu'est"), in normalized form.
var elided = map[string]bool{"l": true, "d": true, "j": true, "m": true, "n": true, "s": true, "c": true, "t": true,
	"qu": true, "jusqu": true, "lorsqu": true, "puisqu": true}

// unelided is a normalized word without its elided article or pronoun:
// "l'universite" is "universite", as "l universite" from speech to text is.
func unelided(w string) string {
	if i := strings.IndexByte(w, '\''); i > 0 && i+1 < len(w) && elided[w[:i]] {
		return w[i+1:]
	}
	return w
}
