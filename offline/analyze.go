package offline

import (
	"slices"
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
	mMe                      // the person speaking of themself ("I", "je", "mir", "我")
	mFeelGoodAdj             // after mMe: "happy"
	mFeelBadAdj              // after mMe: "sad"
	mTired                   // after mMe: "tired"
	mStress                  // after mMe: "stressed"
	mSick                    // after mMe: "sick"
	mBored                   // after mMe: "bored"
	mAngryAdj                // after mMe: "angry"
	mFeelGoodWord            // a short answer: "fine", "not bad"
	mFeelBadWord             // a short answer: "not great"
	mNewsGood                // "I passed my exam"
	mNewsBad                 // "I lost my job"
	mBirthday                // "it's my birthday"
	mSorry                   // "sorry"
	mWeather                 // "what's the weather like?"
	mJoke                    // "tell me a joke"
	mFavorite                // "what is your favorite color?"
	mDoing                   // "what are you doing?"
	mFromUser                // "I'm from Paris"
	mAndYou                  // "and you?"
	mOfflineWhy              // "why are you offline?"
	mAsk                     // "tell me about", "what is"
	mFact                    // a cue for one of the facts Nadine knows
	numMatchKinds
)

// phrase is one compiled entry of the phrase table.
type phrase struct {
	kind   matchKind
	lang   nadine.Language // anyLanguage for names such as "MIRALab"
	words  []string        // normalized words of a Latin phrase
	han    string          // a Chinese phrase, matched as a substring
	size   int             // length in bytes, to prefer the longest phrase
	grade  int             // 1 mild, 2 plain, 3 strong (insults and compliments)
	prefix bool            // the last word matches the start of a word
	fact   string          // mFact: the fact asked for
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

// newMatcher compiles the phrase table and the fact cues.
func newMatcher(table map[matchKind]map[nadine.Language][]string, cues map[string]map[nadine.Language][]string) *matcher {
	m := &matcher{byFirst: make(map[string][]phrase)}
	langs := append(nadine.Languages(), anyLanguage)
	for kind := matchKind(0); kind < numMatchKinds; kind++ {
		for _, lang := range langs {
			for _, s := range table[kind][lang] {
				m.add(phrase{kind: kind, lang: lang}, s)
			}
		}
	}
	for _, f := range sortedKeys(cues) {
		for _, lang := range langs {
			for _, s := range cues[f][lang] {
				m.add(phrase{kind: mFact, lang: lang, fact: f}, s)
			}
		}
	}
	return m
}

// add compiles one phrase of the table: "+" and "-" in front grade it, a
// "*" at the end matches the start of a word.
func (m *matcher) add(p phrase, s string) {
	p.grade = 2
	switch {
	case len(s) > 1 && s[0] == '+':
		p.grade, s = 3, s[1:]
	case len(s) > 1 && s[0] == '-':
		p.grade, s = 1, s[1:]
	}
	if len(s) > 1 && s[len(s)-1] == '*' {
		p.prefix, s = true, s[:len(s)-1]
	}
	p.size = len(s)
	if hasHan(s) {
		p.han = s
		m.han = append(m.han, p)
		return
	}
	for _, t := range analyze(s).tokens {
		p.words = append(p.words, t.norm)
	}
	if len(p.words) == 0 {
		return
	}
	key := p.words[0]
	if p.prefix && len(p.words) == 1 {
		key = prefixKey
	}
	m.byFirst[key] = append(m.byFirst[key], p)
}

// prefixKey indexes the one-word prefix phrases, tried on every word.
const prefixKey = "*"

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
			if n := len(p.words); m.matches(toks, i, p) {
				hits = append(hits, hit{phrase: p, clause: toks[i].clause, first: i, next: i + n})
			}
		}
		for _, p := range m.byFirst[prefixKey] {
			if strings.HasPrefix(toks[i].norm, p.words[0]) {
				hits = append(hits, hit{phrase: p, clause: toks[i].clause, first: i, next: i + 1})
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

// matches reports whether the Latin phrase p starts at token i, within one
// clause.
func (m *matcher) matches(toks []token, i int, p phrase) bool {
	n := len(p.words)
	if i+n > len(toks) || toks[i+n-1].clause != toks[i].clause {
		return false
	}
	for j := 1; j < n; j++ {
		w := p.words[j]
		if p.prefix && j == n-1 {
			if !strings.HasPrefix(toks[i+j].norm, w) {
				return false
			}
			continue
		}
		if toks[i+j].norm != w {
			return false
		}
	}
	return true
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

// sortedKeys returns the keys of m in order, so that tables compile the
// same way every time.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
