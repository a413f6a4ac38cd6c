package offline

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
)

// intent is what the engine understood the turn to ask for.
type intent int

const (
	iDefault intent = iota
	iGreeting
	iFarewell
	iName
	iRemember
	iTime
	iDate
	iDateTime
	iHowAreYou
	iSmile
	iWave
	iAnger
	iCalm // "don't be angry"
	iSong
	iLangSwitch
	iLangUnsupported
	iLanguages
	iAbilities
	iInsult
	iCompliment
	iThanks
)

// String names the intent in traces ("offline:greeting").
func (i intent) String() string {
	switch i {
	case iGreeting:
		return "greeting"
	case iFarewell:
		return "farewell"
	case iName:
		return "name"
	case iRemember:
		return "remember"
	case iTime:
		return "time"
	case iDate:
		return "date"
	case iDateTime:
		return "datetime"
	case iHowAreYou:
		return "how_are_you"
	case iSmile:
		return "smile"
	case iWave:
		return "wave"
	case iAnger:
		return "anger"
	case iCalm:
		return "calm"
	case iSong:
		return "song"
	case iLangSwitch:
		return "language"
	case iLangUnsupported:
		return "language_unsupported"
	case iLanguages:
		return "languages"
	case iAbilities:
		return "abilities"
	case iInsult:
		return "insult"
	case iCompliment:
		return "compliment"
	case iThanks:
		return "thanks"
	}
	return "default"
}

// classified is the outcome of classification.
type classified struct {
	intent   intent
	lang     nadine.Language // language of the phrase that decided; "" for the session's
	greeting bool            // a greeting came along ("Hello, I'm Alex")
	name     string          // iName: the name given
	target   nadine.Language // iLangSwitch: the language asked for
	songLang nadine.Language // iSong: a language named in the request
}

// classify finds the turn's intent. session is the session language, which
// wins ties between languages; pendingName says Nadine just asked for the
// person's name, in that language.
func (e *Engine) classify(text string, session, pendingName nadine.Language) classified {
	a := analyze(text)
	if !a.letters || utf8.RuneCountInString(a.text) > maxInputRunes {
		return classified{}
	}
	hits := e.match.find(&a)
	c := classifier{a: &a, hits: hits, session: session}
	c.filter()

	var out classified
	_, out.greeting = c.best(mGreeting)

	// Language requests first: they change how everything else is said.
	if target, ok := c.switchTarget(); ok {
		out.intent, out.target = iLangSwitch, target
		return out
	}
	if h, ok := c.best(mLanguages); ok {
		out.intent, out.lang = iLanguages, h.lang
		return out
	}
	if lang, ok := e.unsupportedLanguage(&c); ok {
		out.intent, out.lang = iLangUnsupported, lang
		return out
	}
	if h, ok := c.best(mRemember); ok {
		out.intent, out.lang = iRemember, h.lang
		return out
	}
	if name, lang, ok := e.introduction(&c); ok {
		out.intent, out.lang, out.name = iName, lang, name
		return out
	}
	if pendingName != "" && len(a.tokens) > 0 && len(a.tokens) <= maxNameWords && len(hits) == 0 {
		// The answer to "What is your name?": "Alex".
		var name string
		if a.han {
			name = e.hanName(&a, 0, false)
		} else {
			name = e.latinName(a.tokens, 0, a.tokens[0].clause, true, pendingName)
		}
		if name != "" {
			out.intent, out.lang, out.name = iName, pendingName, name
			return out
		}
	}
	th, isTime := c.best(mTime)
	dh, isDate := c.best(mDate)
	switch {
	case isTime && isDate:
		out.intent, out.lang = iDateTime, th.lang
		if dh.size > th.size {
			out.lang = dh.lang
		}
		return out
	case isTime:
		out.intent, out.lang = iTime, th.lang
		return out
	case isDate:
		out.intent, out.lang = iDate, dh.lang
		return out
	}
	if h, ok := c.best(mSong); ok {
		out.intent, out.lang = iSong, h.lang
		out.songLang, _ = c.namedLanguage()
		return out
	}
	if h, ok := c.best(mInsult, mInsultAdj); ok {
		out.intent, out.lang = iInsult, h.lang
		return out
	}
	if h, ok := c.best(mCompliment, mComplimentAdj); ok {
		out.intent, out.lang = iCompliment, h.lang
		return out
	}
	if h, ok := c.bestNegated(mAnger); ok {
		out.intent, out.lang = iCalm, h.lang
		return out
	}
	for _, g := range []struct {
		kind   matchKind
		intent intent
	}{{mSmile, iSmile}, {mWave, iWave}, {mAnger, iAnger}} {
		if h, ok := c.best(g.kind); ok {
			out.intent, out.lang = g.intent, h.lang
			return out
		}
	}
	if h, ok := c.best(mAbilities); ok {
		out.intent, out.lang = iAbilities, h.lang
		return out
	}
	if h, ok := c.best(mHowAreYou); ok {
		out.intent, out.lang = iHowAreYou, h.lang
		return out
	}
	if target, ok := c.prepositionTarget(); ok {
		out.intent, out.target = iLangSwitch, target
		return out
	}
	if h, ok := c.best(mFarewell); ok {
		out.intent, out.lang = iFarewell, h.lang
		return out
	}
	if h, ok := c.best(mThanks); ok {
		out.intent, out.lang = iThanks, h.lang
		return out
	}
	if h, ok := c.best(mGreeting); ok {
		out.intent, out.lang = iGreeting, h.lang
		return out
	}
	// Nothing to act on, but the words may still tell the language
	// ("je suis fatigué").
	all := make([]matchKind, 0, numMatchKinds)
	for k := matchKind(0); k < numMatchKinds; k++ {
		if k != mLangPrep {
			all = append(all, k)
		}
	}
	if h, ok := c.pick(false, all...); ok {
		return classified{lang: h.lang}
	}
	if h, ok := c.pick(true, all...); ok {
		return classified{lang: h.lang}
	}
	return classified{}
}

// classifier holds one input's hits while the rules look at them.
type classifier struct {
	a       *analysis
	hits    []hit
	session nadine.Language
	negated []bool // parallel to hits
}

// filter drops the adjectives that address nobody ("this is stupid") and
// marks the hits a negation turns around ("you are not stupid", "ne vous
// fâchez pas", "别生气").
func (c *classifier) filter() {
	kept := make([]hit, 0, len(c.hits))
	negated := make([]bool, 0, len(c.hits))
	for _, h := range c.hits {
		if h.kind == mInsultAdj || h.kind == mComplimentAdj {
			you, ok := c.addressed(h)
			if !ok {
				continue
			}
			h.pref = you
		}
		neg := false
		switch h.kind {
		case mInsult, mInsultAdj, mCompliment, mComplimentAdj:
			// "You are not stupid" is a compliment, "I don't like you" an insult.
			if c.isNegated(h) {
				h.kind = flipped(h.kind)
			}
		case mAnger:
			neg = c.isNegated(h)
		}
		kept = append(kept, h)
		negated = append(negated, neg)
	}
	c.hits, c.negated = kept, negated
}

// flipped turns an insult into a compliment and back.
func flipped(k matchKind) matchKind {
	switch k {
	case mInsult:
		return mCompliment
	case mInsultAdj:
		return mComplimentAdj
	case mCompliment:
		return mInsult
	case mComplimentAdj:
		return mInsultAdj
	}
	return k
}

// addressed reports whether a word addressing Nadine ("you", "vous", "du",
// "你") comes before h in its clause, and returns the language of the
// nearest one ("du bist super" is German, "vous êtes super" French).
func (c *classifier) addressed(h hit) (nadine.Language, bool) {
	var lang nadine.Language
	found, at := false, -1
	for _, y := range c.hits {
		if y.kind == mYou && y.clause == h.clause && y.next <= h.first && (y.han != "") == (h.han != "") && y.first > at {
			lang, found, at = y.lang, true, y.first
		}
	}
	return lang, found
}

// isNegated reports whether a negation applies to h: anywhere in its clause
// for Latin languages, immediately before it (one character between at
// most) in Chinese.
func (c *classifier) isNegated(h hit) bool {
	if h.han != "" {
		for _, n := range c.hits {
			if n.kind == mNegation && n.han != "" && n.next <= h.first && h.first-n.next <= 3 {
				return true
			}
		}
		return false
	}
	for _, n := range c.hits {
		if n.kind == mNegation && n.han == "" && n.clause == h.clause {
			return true
		}
	}
	for _, t := range c.a.tokens {
		if t.clause == h.clause && strings.HasPrefix(t.norm, "n'") { // "vous n'êtes pas"
			return true
		}
	}
	return false
}

// best returns the strongest hit of the given kinds that no negation turns
// around: the longest phrase; among equals the session language; then the
// earliest.
func (c *classifier) best(kinds ...matchKind) (hit, bool) { return c.pick(false, kinds...) }

// bestNegated is best for negated hits only.
func (c *classifier) bestNegated(kinds ...matchKind) (hit, bool) { return c.pick(true, kinds...) }

func (c *classifier) pick(negated bool, kinds ...matchKind) (hit, bool) {
	var best hit
	found := false
	for i, h := range c.hits {
		if c.negated[i] != negated || !hasKind(kinds, h.kind) {
			continue
		}
		if !found || better(h, best, c.session) {
			best, found = h, true
		}
	}
	return best, found
}

func hasKind(kinds []matchKind, k matchKind) bool {
	for _, x := range kinds {
		if x == k {
			return true
		}
	}
	return false
}

// better reports whether h beats cur: the longer phrase; then the language
// of the word that addressed Nadine; then the session language.
func better(h, cur hit, session nadine.Language) bool {
	if h.size != cur.size {
		return h.size > cur.size
	}
	if (h.lang == h.pref) != (cur.lang == cur.pref) {
		return h.lang == h.pref
	}
	if (h.lang == session) != (cur.lang == session) {
		return h.lang == session
	}
	return false // the earlier one stays
}

// switchTarget finds an explicit request for a supported language: "speak
// French", "parlez-vous anglais ?", "kannst du Deutsch sprechen?", "说中文".
func (c *classifier) switchTarget() (nadine.Language, bool) {
	for _, h := range c.hits {
		if h.kind != mLangVerb && h.kind != mLangSwitch {
			continue
		}
		if h.han != "" {
			if l, err := nadine.ParseLanguage(c.a.text); err == nil {
				return l, true
			}
			continue
		}
		// A language named after the verb, else before it ("Deutsch sprechen").
		toks := c.a.tokens
		for i := h.next; i < len(toks) && toks[i].clause == h.clause; i++ {
			if l, ok := languageOf(toks[i]); ok {
				return l, true
			}
		}
		for i := h.first - 1; i >= 0 && toks[i].clause == h.clause; i-- {
			if l, ok := languageOf(toks[i]); ok {
				return l, true
			}
		}
	}
	return "", false
}

// prepositionTarget finds "in French", "en anglais", "auf Deutsch".
func (c *classifier) prepositionTarget() (nadine.Language, bool) {
	toks := c.a.tokens
	for _, h := range c.hits {
		if h.kind != mLangPrep || h.next >= len(toks) || toks[h.next].clause != h.clause {
			continue
		}
		if l, ok := languageOf(toks[h.next]); ok {
			return l, true
		}
	}
	return "", false
}

// namedLanguage returns a supported language named anywhere in the input
// ("sing a French song", "唱一首英文歌").
func (c *classifier) namedLanguage() (nadine.Language, bool) {
	for _, t := range c.a.tokens {
		if l, ok := languageOf(t); ok {
			return l, true
		}
	}
	if c.a.han {
		if l, err := nadine.ParseLanguage(c.a.text); err == nil {
			return l, true
		}
	}
	return "", false
}

// langSkip reports whether a word may stand between "speak" and a
// language's name: "speak in Klingon", "parlez-vous klingon", "sprechen Sie
// Klingonisch".
func langSkip(norm string) bool {
	switch norm {
	case "in", "en", "auf", "vous", "sie", "du", "tu":
		return true
	}
	return false
}

// unsupportedLanguage finds a request to speak a language Nadine does not
// speak ("speak Klingon", "你会说日语吗") and returns the language of the
// request.
func (e *Engine) unsupportedLanguage(c *classifier) (nadine.Language, bool) {
	toks := c.a.tokens
	for _, h := range c.hits {
		if h.kind != mLangVerb {
			continue
		}
		if h.han != "" {
			if hanLanguageName(c.a.text[h.next:]) {
				return h.lang, true
			}
			continue
		}
		i := h.next
		for i < len(toks) && toks[i].clause == h.clause && langSkip(toks[i].norm) {
			i++
		}
		if i < len(toks) && toks[i].clause == h.clause {
			if e.looksLikeLanguage(toks[i]) {
				return h.lang, true
			}
			continue
		}
		// The verb ends the clause: German puts it last ("Klingonisch sprechen").
		if h.lang == nadine.German {
			j := h.first - 1
			for j >= 0 && toks[j].clause == h.clause && langSkip(toks[j].norm) {
				j--
			}
			if j >= 0 && toks[j].clause == h.clause && e.looksLikeLanguage(toks[j]) {
				return h.lang, true
			}
		}
	}
	return "", false
}

// looksLikeLanguage reports whether the word after "speak" may name a
// language: a word of letters that is not "slowly", "louder", "to", ...
func (e *Engine) looksLikeLanguage(t token) bool {
	if utf8.RuneCountInString(t.norm) < 3 || e.langNotNames[t.norm] {
		return false
	}
	for _, r := range t.norm {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// hanLanguageName reports whether s starts with the name of a language in
// Chinese: a few characters ending in 语 or 文 ("日语", "西班牙语"), but not
// 语言 ("language").
func hanLanguageName(s string) bool {
	n := 0
	for i, r := range s {
		if !unicode.Is(unicode.Han, r) || n >= 6 {
			return false
		}
		if n > 0 && (r == '语' || r == '文') {
			next, _ := utf8.DecodeRuneInString(s[i+len(string(r)):])
			return next != '言'
		}
		n++
	}
	return false
}

// introduction finds a name the person gives: "my name is Alex", "I'm
// Alex", "je m'appelle Alex", "ich heiße Alex", "我叫Alex". The first
// trigger followed by a plausible name wins.
func (e *Engine) introduction(c *classifier) (string, nadine.Language, bool) {
	for _, h := range c.hits {
		if h.kind != mName && h.kind != mNameMaybe {
			continue
		}
		ambiguous := h.kind == mNameMaybe
		var name string
		if h.han != "" {
			name = e.hanName(c.a, h.next, ambiguous)
		} else {
			name = e.latinName(c.a.tokens, h.next, h.clause, ambiguous, h.lang)
		}
		if name != "" {
			return name, h.lang, true
		}
	}
	return "", "", false
}
