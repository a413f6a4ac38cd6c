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
	iPersona   // a question about Nadine: classified.fact
	iKnowledge // a question the knowledge base may answer: classified.fact when known
	iFeeling   // the person tells how they feel or what happened: classified.feel
	iApology
	iOfflineWhy
	iWeather
	iJoke
	iFavorite
	iDoing
	iFromUser
	iListen // what the person says after Nadine's empathy
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
	case iPersona:
		return "persona"
	case iKnowledge:
		return "knowledge"
	case iFeeling:
		return "feeling"
	case iApology:
		return "apology"
	case iOfflineWhy:
		return "offline_why"
	case iWeather:
		return "weather"
	case iJoke:
		return "joke"
	case iFavorite:
		return "favorite"
	case iDoing:
		return "doing"
	case iFromUser:
		return "from_user"
	case iListen:
		return "listen"
	}
	return "default"
}

// Feelings and news a person tells about (classified.feel).
const (
	feelGood     = "good"
	feelBad      = "bad"
	feelTired    = "tired"
	feelStress   = "stress"
	feelSick     = "sick"
	feelBored    = "bored"
	feelAngry    = "angry"
	feelNewsGood = "news_good"
	feelNewsBad  = "news_bad"
	feelBirthday = "birthday"
)

// classified is the outcome of classification.
type classified struct {
	intent   intent
	lang     nadine.Language // language of the phrase that decided; "" for the session's
	greeting bool            // a greeting came along ("Hello, I'm Alex")
	andYou   bool            // "and you?" came along ("I'm fine, and you?")
	name     string          // iName: the name given
	target   nadine.Language // iLangSwitch: the language asked for
	songLang nadine.Language // iSong: a language named in the request
	fact     string          // iPersona, iKnowledge: the fact asked for
	feel     string          // iFeeling: what the person feels
	grade    int             // iInsult, iCompliment: 1 mild, 2 plain, 3 strong
}

// traceName names the outcome in the trace: the intent, with the fact or
// the feeling ("persona_creator", "feeling_sad").
func (c classified) traceName() string {
	switch c.intent {
	case iPersona:
		return "persona_" + c.fact
	case iFeeling:
		return "feeling_" + c.feel
	}
	return c.intent.String()
}

// hints is what the conversation so far says about this turn.
type hints struct {
	pendingName nadine.Language // Nadine just asked for the person's name, in this language
	pendingHow  bool            // Nadine just asked "how are you?"
	listening   bool            // Nadine just answered sad news with empathy
}

// classify finds the turn's intent. session is the session language, which
// wins ties between languages.
func (e *Engine) classify(text string, session nadine.Language, h hints) classified {
	a := analyze(text)
	if !a.letters || utf8.RuneCountInString(a.text) > maxInputRunes {
		return classified{}
	}
	c := classifier{a: &a, hits: e.match.find(&a), session: session, e: e}
	c.filter()
	out := c.decide(h)
	if out.lang == "" || out.lang == anyLanguage {
		out.lang = c.languageHint()
	}
	if out.lang == "" && e.detector != nil && out.intent != iLangSwitch {
		// Nothing in the phrase tables tells the language: ask the
		// detector, which answers only when it is sure.
		if l, _, ok := e.detector.Detect(a.text); ok {
			out.lang = l
		}
	}
	return out
}

// decide applies the rules, most specific first.
func (c *classifier) decide(h hints) classified {
	var out classified
	_, out.greeting = c.best(mGreeting)
	_, out.andYou = c.best(mAndYou)

	// Language requests first: they change how everything else is said.
	if target, ok := c.switchTarget(); ok {
		out.intent, out.target = iLangSwitch, target
		return out
	}
	if hit, ok := c.best(mLanguages); ok {
		return out.with(iLanguages, hit)
	}
	if lang, ok := c.e.unsupportedLanguage(c); ok {
		out.intent, out.lang = iLangUnsupported, lang
		return out
	}
	if hit, ok := c.best(mRemember); ok {
		return out.with(iRemember, hit)
	}
	if name, lang, ok := c.e.introduction(c); ok {
		out.intent, out.lang, out.name = iName, lang, name
		return out
	}
	if name, ok := c.nameAnswer(h.pendingName); ok {
		out.intent, out.lang, out.name = iName, h.pendingName, name
		return out
	}
	if o, ok := c.timeOrDate(out); ok {
		return o
	}
	if hit, ok := c.best(mInsult, mInsultAdj); ok {
		out.grade = c.strongest(hit, mInsult, mInsultAdj)
		return out.with(iInsult, hit)
	}
	if hit, ok := c.best(mCompliment, mComplimentAdj); ok {
		out.grade = c.strongest(hit, mCompliment, mComplimentAdj)
		return out.with(iCompliment, hit)
	}
	if hit, ok := c.bestNegated(mAnger); ok {
		return out.with(iCalm, hit)
	}
	for _, g := range []struct {
		kind   matchKind
		intent intent
	}{{mSmile, iSmile}, {mWave, iWave}} {
		if hit, ok := c.best(g.kind); ok {
			return out.with(g.intent, hit)
		}
	}
	if hit, ok := c.best(mSong); ok {
		out.songLang, _ = c.namedLanguage()
		return out.with(iSong, hit)
	}
	if hit, ok := c.best(mFact); ok {
		out.fact = hit.fact
		if personaFacts[hit.fact] {
			return out.with(iPersona, hit)
		}
		return out.with(iKnowledge, hit)
	}
	if hit, ok := c.best(mAbilities); ok {
		return out.with(iAbilities, hit)
	}
	if hit, ok := c.best(mOfflineWhy); ok {
		return out.with(iOfflineWhy, hit)
	}
	if _, how := c.best(mHowAreYou); how {
		// "I'm fine, how are you?" tells how one feels and asks back.
		h.pendingHow = h.pendingHow || out.andYou
		if feel, hit, ok := c.feeling(h, true); ok {
			out.feel, out.andYou = feel, true
			return out.with(iFeeling, hit)
		}
	}
	if feel, hit, ok := c.feeling(h, out.andYou); ok {
		out.feel = feel
		return out.with(iFeeling, hit)
	}
	if hit, ok := c.best(mAnger); ok {
		return out.with(iAnger, hit)
	}
	if hit, ok := c.best(mSorry); ok {
		return out.with(iApology, hit)
	}
	if hit, ok := c.best(mHowAreYou); ok {
		return out.with(iHowAreYou, hit)
	}
	if hit, ok := c.best(mFromUser); ok {
		return out.with(iFromUser, hit)
	}
	if hit, ok := c.best(mAndYou); ok {
		// A bare "and you?": most often it returns "how are you?"; with a
		// number it returns an age ("I'm 30, and you?").
		if c.hasNumber() {
			out.fact = fAge
			return out.with(iPersona, hit)
		}
		return out.with(iHowAreYou, hit)
	}
	for _, g := range []struct {
		kind   matchKind
		intent intent
	}{{mWeather, iWeather}, {mJoke, iJoke}, {mDoing, iDoing}, {mFavorite, iFavorite}} {
		if hit, ok := c.best(g.kind); ok {
			return out.with(g.intent, hit)
		}
	}
	if target, ok := c.prepositionTarget(); ok {
		out.intent, out.target = iLangSwitch, target
		return out
	}
	if hit, ok := c.best(mFarewell); ok {
		return out.with(iFarewell, hit)
	}
	if hit, ok := c.best(mThanks); ok {
		return out.with(iThanks, hit)
	}
	if hit, ok := c.best(mGreeting); ok {
		return out.with(iGreeting, hit)
	}
	if h.listening {
		return classified{intent: iListen}
	}
	if _, ok := c.best(mAsk); ok {
		return classified{intent: iKnowledge}
	}
	return classified{}
}

// with sets the intent and the language of the phrase that decided it.
func (o classified) with(i intent, h hit) classified {
	o.intent, o.lang = i, h.lang
	return o
}

// timeOrDate recognizes "what time is it?", "what day is it?" and both.
func (c *classifier) timeOrDate(out classified) (classified, bool) {
	th, isTime := c.best(mTime)
	dh, isDate := c.best(mDate)
	switch {
	case isTime && isDate:
		out.intent, out.lang = iDateTime, th.lang
		if dh.size > th.size {
			out.lang = dh.lang
		}
	case isTime:
		out = out.with(iTime, th)
	case isDate:
		out = out.with(iDate, dh)
	default:
		return out, false
	}
	return out, true
}

// nameAnswer reads the answer to "What is your name?": "Alex".
func (c *classifier) nameAnswer(pending nadine.Language) (string, bool) {
	a := c.a
	if pending == "" || len(a.tokens) == 0 || len(a.tokens) > maxNameWords || len(c.hits) > 0 {
		return "", false
	}
	var name string
	if a.han {
		name = c.e.hanName(a, 0, false)
	} else {
		name = c.e.latinName(a.tokens, 0, a.tokens[0].clause, true, pending)
	}
	return name, name != ""
}

// strongest returns the highest grade among the hits of the given kinds
// that no negation turns around (an insult in two words is as strong as
// its strongest word).
func (c *classifier) strongest(h hit, kinds ...matchKind) int {
	g := h.grade
	for i, x := range c.hits {
		if !c.negated[i] && hasKind(kinds, x.kind) && x.grade > g {
			g = x.grade
		}
	}
	return g
}

// languageHint returns the language of the strongest phrase of any kind
// that is tied to a language, or "".
func (c *classifier) languageHint() nadine.Language {
	var best hit
	found := false
	for i, h := range c.hits {
		if c.negated[i] || h.lang == anyLanguage || weakHint(h.kind) {
			continue
		}
		if !found || better(h, best, c.session) {
			best, found = h, true
		}
	}
	if found {
		return best.lang
	}
	return ""
}

// weakHint reports whether phrases of kind k are too short and too common
// to tell a language: "du" is German "you" and French "of the", "me" is in
// English and French.
func weakHint(k matchKind) bool {
	switch k {
	case mLangPrep, mYou, mMe, mNegation:
		return true
	}
	return false
}

// hasNumber reports whether the input holds a number ("I'm 30").
func (c *classifier) hasNumber() bool {
	for _, r := range c.a.text {
		if unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// feelingKinds are the feelings a person can tell about, most telling
// first: news and being sick say more than "good".
var feelingKinds = []struct {
	kind matchKind
	feel string
}{
	{mNewsBad, feelNewsBad}, {mBirthday, feelBirthday}, {mNewsGood, feelNewsGood}, {mSick, feelSick},
	{mAngryAdj, feelAngry}, {mStress, feelStress}, {mTired, feelTired}, {mBored, feelBored},
	{mFeelBadAdj, feelBad}, {mFeelBadWord, feelBad}, {mFeelGoodAdj, feelGood}, {mFeelGoodWord, feelGood},
}

// feeling finds what the person says they feel. News ("I passed my
// exam") needs nothing more; an adjective needs the person speaking of
// themself just before it ("I am so tired"); a short answer ("Fine,
// thanks") counts when Nadine asked how they are, when they ask back, or
// when it is all they say. A negation turns a feeling around: "not bad" is
// good, "not tired" is fine.
func (c *classifier) feeling(h hints, askedBack bool) (string, hit, bool) {
	short := len(c.a.tokens) <= 4 && !strings.ContainsAny(c.a.text, "?？")
	if c.a.han {
		short = utf8.RuneCountInString(c.a.text) <= 6 && !strings.ContainsAny(c.a.text, "?？")
	}
	for _, fk := range feelingKinds {
		for i, x := range c.hits {
			if x.kind != fk.kind || c.inside(x, mGreeting) || c.inside(x, mHowAreYou) {
				continue
			}
			switch x.kind {
			case mNewsBad, mNewsGood, mBirthday:
			case mFeelGoodWord, mFeelBadWord:
				// "Fine" alone answers "how are you?"; "merci bien" thanks.
				if !h.pendingHow && !askedBack && !c.speaking(x) && (!short || c.has(mThanks, mGreeting, mFarewell)) {
					continue
				}
			default:
				if !c.speaking(x) {
					continue
				}
			}
			feel := fk.feel
			if c.negated[i] {
				feel = oppositeFeeling(feel)
			}
			return feel, x, true
		}
	}
	return "", hit{}, false
}

// has reports whether a hit of one of the kinds was found.
func (c *classifier) has(kinds ...matchKind) bool {
	for _, h := range c.hits {
		if hasKind(kinds, h.kind) {
			return true
		}
	}
	return false
}

// oppositeFeeling is what a negation makes of a feeling: "not good" is
// bad, "not sad" or "not tired" good.
func oppositeFeeling(f string) string {
	switch f {
	case feelGood:
		return feelBad
	case feelNewsGood, feelNewsBad, feelBirthday:
		return f
	}
	return feelGood
}

// gapWords may stand between the person speaking of themself and the
// feeling: "I am really very tired", "je me sens un peu triste", "mir
// geht es heute nicht gut". Normalized spelling.
var gapWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`am feel feeling felt so very really quite pretty a bit little rather too
		extremely kind of just totally been was still getting not also truly super incredibly terribly awfully
		today now right always sometimes lot m being
		suis me sens sentais très vraiment un peu si trop tellement assez pas ne plutôt toujours aussi vais
		aujourd'hui complètement en ce moment
		bin fühle mich sehr so ziemlich total echt etwas ein bisschen wirklich nicht heute gerade ist geht
		es auch noch jetzt furchtbar irgendwie richtig voll mega ganz`) {
		m[normalizeWord(w)] = true
	}
	return m
}()

// speaking reports whether the person speaks of themself right before h:
// "I" and h in one clause with only gap words between them (Latin), or
// "我" at most four characters before h (Chinese).
func (c *classifier) speaking(h hit) bool {
	for _, y := range c.hits {
		if y.kind != mMe || y.clause != h.clause || (y.han != "") != (h.han != "") || y.first > h.first {
			continue
		}
		if h.han != "" {
			if y.next <= h.first && h.first-y.next <= 12 {
				return true
			}
			continue
		}
		ok := true
		for i := y.next; i < h.first; i++ {
			if !gapWords[c.a.tokens[i].norm] {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// inside reports whether h is part of a longer phrase of kind: a greeting
// ("happy to meet you"), a question ("ça va ?").
func (c *classifier) inside(h hit, kind matchKind) bool {
	for _, g := range c.hits {
		if g.kind == kind && g.clause == h.clause && (g.han != "") == (h.han != "") && g.first <= h.first && h.next <= g.next && g.size >= h.size {
			return true
		}
	}
	return false
}

// classifier holds one input's hits while the rules look at them.
type classifier struct {
	e       *Engine
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
		case mAnger, mFeelGoodAdj, mFeelBadAdj, mTired, mStress, mSick, mBored, mAngryAdj, mFeelGoodWord, mFeelBadWord:
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
	// A feeling's phrase may hold its own negation ("not bad", "pas
	// terrible"): only a negation outside it turns it around.
	own := isFeelingKind(h.kind)
	for _, n := range c.hits {
		if n.kind == mNegation && n.han == "" && n.clause == h.clause && !(own && n.first >= h.first && n.next <= h.next) {
			return true
		}
	}
	for i, t := range c.a.tokens {
		if t.clause == h.clause && strings.HasPrefix(t.norm, "n'") && (!own || i < h.first || i >= h.next) { // "vous n'êtes pas"
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
			if c.has(mSong) {
				continue // "用中文唱歌": sing in Chinese, not switch to it
			}
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
		if l, ok := languageAdjectives[t.norm]; ok {
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

// languageAdjectives are the forms of the languages' names that agree with
// a noun ("une chanson allemande", "ein französisches Lied"), which
// nadine.ParseLanguage does not take for names. Normalized spelling.
var languageAdjectives = map[string]nadine.Language{
	"anglaise": nadine.English, "anglaises": nadine.English, "francaise": nadine.French, "francaises": nadine.French,
	"allemande": nadine.German, "allemandes": nadine.German, "chinoise": nadine.Chinese, "chinoises": nadine.Chinese,
	"englisches": nadine.English, "englische": nadine.English, "englischen": nadine.English,
	"franzoesisches": nadine.French, "franzoesische": nadine.French, "franzoesischen": nadine.French,
	"deutsches": nadine.German, "deutschen": nadine.German,
	"chinesisches": nadine.Chinese, "chinesische": nadine.Chinese, "chinesischen": nadine.Chinese,
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

// describes reports whether a phrase that describes the person (a
// feeling, news, where they come from) starts at position at: after "I'm"
// it is no name.
func (c *classifier) describes(at int, han bool) bool {
	for _, x := range c.hits {
		if x.first != at || (x.han != "") != han {
			continue
		}
		switch x.kind {
		case mMe, mYou, mNegation, mName, mNameMaybe, mLangPrep, mAsk:
		default:
			return true
		}
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
		if ambiguous && c.describes(h.next, h.han != "") {
			continue // "I'm exhausted", "je suis ravie de vous voir"
		}
		var name string
		if h.han != "" && hanCallsSomeone(c.a.text, h.first) {
			continue // "帮我叫辆出租车": 叫 is "call (a taxi)", not "my name is"
		}
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

// isFeelingKind reports whether k tells how the person feels.
func isFeelingKind(k matchKind) bool {
	switch k {
	case mFeelGoodAdj, mFeelBadAdj, mTired, mStress, mSick, mBored, mAngryAdj, mFeelGoodWord, mFeelBadWord:
		return true
	}
	return false
}

// hanCallsSomeone reports whether the Chinese trigger at byte offset at
// follows a verb that makes "我叫" mean "call for me" ("帮我叫", "给我叫").
func hanCallsSomeone(text string, at int) bool {
	r, _ := utf8.DecodeLastRuneInString(text[:at])
	return strings.ContainsRune("帮给替为让请", r)
}
