package offline

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
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
			a.tokens = append(a.tokens, token{orig: w, norm: normalizeWord(w), start: start, clause: clause, hyphen: hyphen})
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

// normalizeWord lowercases w, folds accents (German umlauts and ß as ae,
// oe, ue, ss; French accents to the bare letter) and writes every
// apostrophe as '.
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

// matchKind is what a phrase signals. Several kinds feed one intent (a
// name trigger and an ambiguous name trigger both introduce a name).
type matchKind int

const (
	mGreeting      matchKind = iota
	mFarewell                // goodbye
	mName                    // "my name is": what follows is a name
	mNameMaybe               // "I'm": what follows may be a name
	mRemember                // "do you remember me?"
	mTime                    // "what time is it?"
	mDate                    // "what day is it?"
	mHowAreYou               // "how are you?"
	mSmile                   // "smile"
	mWave                    // "wave"
	mAnger                   // "be angry"
	mSong                    // "sing a song"
	mLangVerb                // "speak": the next word should name a language
	mLangSwitch              // "switch to": a supported language must follow
	mLangPrep                // "in": weak, only when a supported language follows
	mLanguages               // "which languages do you speak?"
	mAbilities               // "what can you do?"
	mInsult                  // an insult on its own ("idiot")
	mInsultAdj               // an insult after "you" ("you are stupid")
	mCompliment              // a compliment on its own ("I like you")
	mComplimentAdj           // a compliment after "you" ("you are smart")
	mThanks                  // "thank you"
	mYou                     // a word addressing Nadine ("you", "vous", "du", "你")
	mNegation                // "not", "pas", "nicht", "不"
	numMatchKinds
)

// phrase is one compiled entry of the phrase table.
type phrase struct {
	kind  matchKind
	lang  nadine.Language
	words []string // normalized words of a Latin phrase
	han   string   // a Chinese phrase, matched as a substring
	size  int      // length in bytes, to prefer the longest phrase
}

// hit is one phrase found in the input.
type hit struct {
	phrase
	clause int             // the clause it is in
	pref   nadine.Language // adjectives: the language of the word addressing Nadine
	first  int             // Latin: index of its first token; Chinese: byte offset
	next   int             // Latin: index of the token after it; Chinese: byte offset after it
}

// matcher finds the phrases of the table in an input.
type matcher struct {
	byFirst map[string][]phrase // Latin phrases by their first word
	han     []phrase
}

// newMatcher compiles the phrase table.
func newMatcher(table map[matchKind]map[nadine.Language][]string) *matcher {
	m := &matcher{byFirst: make(map[string][]phrase)}
	for kind := matchKind(0); kind < numMatchKinds; kind++ {
		for _, lang := range nadine.Languages() {
			for _, s := range table[kind][lang] {
				p := phrase{kind: kind, lang: lang, size: len(s)}
				if hasHan(s) {
					p.han = s
					m.han = append(m.han, p)
					continue
				}
				for _, t := range analyze(s).tokens {
					p.words = append(p.words, t.norm)
				}
				if len(p.words) == 0 {
					continue
				}
				m.byFirst[p.words[0]] = append(m.byFirst[p.words[0]], p)
			}
		}
	}
	return m
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// find returns every phrase of the table that occurs in a, in the order of
// the input (Latin first, then Chinese).
func (m *matcher) find(a *analysis) []hit {
	var hits []hit
	toks := a.tokens
	for i := range toks {
		for _, p := range m.byFirst[toks[i].norm] {
			n := len(p.words)
			if i+n > len(toks) || toks[i+n-1].clause != toks[i].clause {
				continue
			}
			ok := true
			for j := 1; j < n; j++ {
				if toks[i+j].norm != p.words[j] {
					ok = false
					break
				}
			}
			if ok {
				hits = append(hits, hit{phrase: p, clause: toks[i].clause, first: i, next: i + n})
			}
		}
	}
	if a.han {
		for _, p := range m.han {
			// Every occurrence counts: "你" may address Nadine twice.
			for off := 0; off < len(a.text); {
				j := strings.Index(a.text[off:], p.han)
				if j < 0 {
					break
				}
				at := off + j
				hits = append(hits, hit{phrase: p, clause: hanClause(a.text, at), first: at, next: at + len(p.han)})
				off = at + len(p.han)
			}
		}
	}
	return hits
}

// hanClause numbers the clause that byte offset at falls in, counting clause
// breaks before it. Chinese hits use it to compare clauses with each other.
func hanClause(text string, at int) int {
	n := 0
	for _, r := range text[:at] {
		if isClauseBreak(r) {
			n++
		}
	}
	return -1 - n // negative: never equal to a Latin token's clause
}
