package react

import (
	"strings"
	"unicode"

	"github.com/nadine-robot/nadine"
)

// The standalone check (Options.SkipStandalone, a change from the original
// ReAct manager, which rewrites every input that has history). The contextualizer's only
// use is the retrieval query, and its prompt says to return an input that
// needs no history as it is: for such an input the call costs one model
// latency before retrieval and gives back what it got. Standalone judges
// that from the words, conservatively: an input is standalone only when
// nothing in it can point back into the conversation. Anything it cannot
// judge goes to the contextualizer as the seed does, so a wrong "no" costs
// one model latency and a wrong "yes" retrieves with the input as said (the
// agent's prompt carries the history either way).
//
// An input is not standalone when
//   - it has fewer than four words ("And tomorrow?", "Why?", "Tell me more");
//   - it starts with a word that continues the conversation (and, but,
//     so, what about, et, mais, und, aber, ...);
//   - it has a word that refers back: a third-person pronoun (it, she,
//     they, il, elle, ça, y, en, er, es, ihn, dort, ...), a demonstrative
//     (this, that, ce, cette, dies, ...; not before a time word: "this
//     week", "ce soir", "diese Woche"), an anaphoric "there" / "là" /
//     "dort", or a word of ellipsis or comparison (else, other, too, also,
//     more, again, autre, aussi, encore, sonst, auch, noch, ...); the
//     impersonal "it" / "il" / "es" of time and weather ("What time is
//     it?", "Quelle heure est-il ?", "Gibt es ...") does not refer back;
//   - it has a definite article ("the lake", "le lac", "der See") without
//     a name in it ("the motor show in Geneva" has one): a definite noun
//     points at something already known, unless it is one of the world's
//     unique things (the weather, the time, the news, ...). A name is a
//     capitalized word inside the sentence (in German, where every noun is
//     capitalized, one that no article or determiner precedes);
//   - it is not written in Latin script: Chinese has no articles or
//     capitals to show that a bare noun refers back ("湖怎么样？"), so
//     every Chinese input is contextualized.

// standalone reports whether text needs no chat history; lang only decides
// how names are told apart in German.
func standalone(text string, lang nadine.Language) bool {
	toks := tokenize(text)
	if len(toks) < 4 {
		return false
	}
	for _, r := range text {
		if unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) {
			return false
		}
	}
	german := lang == nadine.German
	for _, t := range toks {
		if germanArticles[t.lower] {
			german = true
		}
	}
	if continuation[toks[0].lower] || (len(toks) > 1 && continuation2[toks[0].lower+" "+toks[1].lower]) {
		return false
	}
	definite, named := false, false
	for i, t := range toks {
		if refersBack(toks, i, text) {
			return false
		}
		if definiteArticles[t.lower] && !uniqueNext(toks, i) {
			definite = true
		}
		if isName(toks, i, german) {
			named = true
		}
	}
	return !definite || named
}

// token is a word of the input: as written, lowercased, and whether it
// begins a sentence.
type token struct {
	word, lower string
	initial     bool
}

// tokenize splits words; an elided article ("l'", "j'") is a word with its
// apostrophe, and a hyphen splits ("est-il").
func tokenize(text string) []token {
	var (
		out     []token
		cur     []rune
		initial = true
	)
	flush := func() {
		if len(cur) > 0 {
			w := string(cur)
			out = append(out, token{word: w, lower: strings.ToLower(w), initial: initial})
			initial = false
			cur = cur[:0]
		}
	}
	for _, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			cur = append(cur, r)
		case r == '\'' || r == '’':
			if len(cur) > 0 && len(cur) <= 3 && elided[strings.ToLower(string(cur))] {
				cur = append(cur, '\'')
				flush()
			} else if len(cur) > 0 {
				cur = append(cur, '\'') // "what's", "o'clock": one word
			}
		default:
			flush()
			if r == '.' || r == '!' || r == '?' {
				initial = true
			}
		}
	}
	flush()
	// English contractions: "that's" is "that" and "'s".
	split := out[:0:0]
	for _, t := range out {
		if i := strings.IndexByte(t.lower, '\''); i > 0 && contractions[t.lower[i:]] {
			split = append(split, token{word: t.word[:i], lower: t.lower[:i], initial: t.initial}, token{word: t.word[i:], lower: t.lower[i:]})
			continue
		}
		split = append(split, t)
	}
	return split
}

// refersBack reports whether the i-th word can point into the
// conversation.
func refersBack(toks []token, i int, text string) bool {
	t := toks[i]
	prev, next := "", ""
	if i > 0 {
		prev = toks[i-1].lower
	}
	if i+1 < len(toks) {
		next = toks[i+1].lower
	}
	switch t.lower {
	case "it":
		return !timeOrWeather(toks)
	case "il":
		if prev == "s'" && (next == "vous" || next == "te") {
			return false // "s'il vous plaît"
		}
		return !(impersonalFrNext[next] || impersonalFrPrev[prev] || (prev == "est" && timeOrWeather(toks)))
	case "y":
		return !(next == "a" || prev == "il") // "il y a", "y a-t-il"
	case "en":
		// The pronoun ("j'en veux", "parlez-en"), not the preposition
		// ("en Suisse").
		return subjectFr[prev] || strings.HasSuffix(prev, "'") || strings.Contains(strings.ToLower(text), "-en")
	case "es":
		return !(impersonalDe[next] || impersonalDe[prev] || (prev == "ist" && timeOrWeather(toks)))
	case "sie", "ihr", "ihre", "ihren", "ihrem", "ihrer", "ihres", "ihnen":
		// Capitalized inside a sentence it is the formal "you" (Sie,
		// Ihnen, Ihr): Nadine, not someone in the history.
		return t.word != strings.ToUpper(t.word[:1])+t.word[1:] || t.initial
	case "this", "these", "ce", "cet", "cette", "ces", "dies", "diese", "dieser", "dieses", "diesen", "diesem":
		if t.lower == "ce" && (next == "que" || next == "qui" || prev == "est") {
			return false // "ce que", "qu'est-ce"
		}
		return !timeWords[next]
	case "there":
		// The existential "is there", "there are" does not point anywhere.
		return !(beForms[prev] || beForms[next])
	}
	return anaphoric[t.lower]
}

// uniqueNext reports whether the article at i names a unique thing (the
// weather, l'heure), which needs no earlier mention.
func uniqueNext(toks []token, i int) bool {
	for j := i + 1; j < len(toks) && j <= i+2; j++ {
		if unique[toks[j].lower] {
			return true
		}
	}
	return false
}

// isName reports a word capitalized inside its sentence, not "I" or Nadine,
// and in German not after an article (every noun is capitalized there).
func isName(toks []token, i int, german bool) bool {
	t := toks[i]
	r := []rune(t.word)
	if t.initial || !unicode.IsUpper(r[0]) || t.lower == "i" || t.lower == "nadine" {
		return false
	}
	if german {
		if formalDe[t.lower] || (i > 0 && determinersDe[toks[i-1].lower]) {
			return false
		}
	}
	return true
}

// timeOrWeather reports whether the input speaks of the time or the
// weather, whose "it" / "il" / "es" is impersonal.
func timeOrWeather(toks []token) bool {
	for _, t := range toks {
		if impersonalTopic[t.lower] {
			return true
		}
	}
	return false
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

var (
	elided = set("l", "d", "c", "j", "qu", "n", "s", "m", "t")

	// continuation begins an input that goes on from the last exchange.
	continuation = set("and", "but", "so", "or", "also", "plus", "then",
		"et", "mais", "donc", "ou", "alors", "puis",
		"und", "aber", "also", "oder", "dann", "sondern")
	continuation2 = set("what about", "how about", "what if", "et pour", "et si", "et toi", "et vous", "was ist", "wie wäre", "und was")

	// anaphoric words refer back, or leave out what was said before.
	anaphoric = set(
		"its", "he", "him", "his", "himself", "she", "her", "hers", "herself", "itself",
		"they", "them", "their", "theirs", "themselves", "that", "those", "one", "ones",
		"else", "other", "others", "another", "same", "too", "also", "more", "again",
		"instead", "former", "latter", "such", "so", "mean", "meant", "just",
		"ils", "elle", "elles", "lui", "leur", "leurs", "ça", "ca", "cela", "ceci",
		"celui", "celle", "ceux", "celles", "c'", "là", "aussi", "encore", "autre", "autres",
		"sinon", "pareil", "même", "mêmes",
		"er", "ihn", "ihm", "sein", "seine", "seinen", "seinem", "seiner", "seines",
		"dort", "da", "dahin", "dorthin", "daher", "daran", "darauf", "darüber", "davon",
		"dafür", "dazu", "damit", "dabei", "darin", "danach", "davor", "dessen", "deren",
		"jene", "jener", "jenes", "jenen", "auch", "noch", "sonst", "andere", "anderen",
		"anderes", "anderer", "anders", "mehr", "wieder", "stattdessen", "ebenfalls",
		"genauso", "gleiche", "gleichen", "selbe", "selben")

	definiteArticles = set("the", "le", "la", "les", "l'", "du", "au", "aux",
		"der", "die", "das", "den", "dem", "des", "im", "am", "zum", "zur", "vom", "beim", "ins", "ans")
	germanArticles = set("der", "die", "das", "den", "dem", "im", "am", "zum", "zur", "vom", "beim", "ins", "ist", "und", "ich", "du", "wie", "wer", "wo")
	determinersDe  = set("der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "einer", "eines",
		"kein", "keine", "keinen", "mein", "meine", "meinen", "dein", "deine", "unser", "unsere", "euer", "eure",
		"jeder", "jede", "jedes", "welche", "welcher", "welches", "im", "am", "zum", "zur", "vom", "beim", "ins", "ans",
		"diese", "dieser", "dieses", "diesen", "diesem", "viele", "alle")
	formalDe = set("sie", "ihnen", "ihr", "ihre", "ihren", "ihrem", "ihrer", "ihres")

	// unique things need no earlier mention.
	unique = set("weather", "time", "date", "news", "world", "sun", "moon", "sky", "weekend",
		"météo", "temps", "heure", "actualité", "actualités", "nouvelles", "monde", "soleil", "lune", "ciel",
		"wetter", "uhrzeit", "zeit", "datum", "nachrichten", "welt", "sonne", "mond", "himmel", "wochenende")

	// timeWords after "this" / "ce" / "diese" are the present, not
	// something said before.
	timeWords = set("morning", "afternoon", "evening", "week", "weekend", "month", "year", "summer", "winter", "spring", "autumn",
		"matin", "soir", "après", "midi", "semaine", "week", "mois", "année", "an", "été", "hiver", "printemps", "automne",
		"woche", "wochenende", "monat", "jahr", "sommer", "winter", "frühling", "herbst", "morgen", "abend", "nachmittag")

	impersonalTopic = set("time", "raining", "rain", "snowing", "snow", "sunny", "cold", "hot", "warm", "late", "early",
		"o'clock", "clock", "day", "weather", "heure", "temps", "pleut", "neige", "froid", "chaud", "tard", "tôt",
		"spät", "früh", "kalt", "warm", "heiß", "uhr", "wetter")
	impersonalFrNext = set("y", "fait", "pleut", "neige", "faut")
	impersonalFrPrev = set("fait", "faut", "t", "pleut", "neige")
	impersonalDe     = set("gibt", "geht", "regnet", "schneit")
	subjectFr        = set("je", "tu", "il", "elle", "on", "nous", "vous", "ils", "elles", "ne")
	contractions     = set("'s", "'re", "'ll", "'d", "'ve", "'m", "'t")
	beForms          = set("is", "are", "was", "were", "be", "'s", "'re", "isn", "aren", "wasn", "weren")
)
