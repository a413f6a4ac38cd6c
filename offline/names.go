package offline

import (
	"cmp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// The entities an intent needs are read by small rules, each tested on its
// own (entities_test.go): where the value is comes from the contexts the
// examples put around their slots ("my name is {name}", "speak {lang}",
// "I'm from {place}"); what may be a value is checked here.

// maxNameWords and maxNameRunes bound an extracted name.
const (
	maxNameWords = 3
	maxNameRunes = 40
)

// strongContext is the intents.Span strength from which words announce a
// name ("my name is"), unlike "I'm", which mostly precedes other words.
const strongContext = 0.5

// bareName says when a clause that is only a name is one.
type bareName int

const (
	bareNever  bareName = iota
	bareClause          // a clause of a longer utterance ("Je me présente : Aurélie Dubois.")
	bareAny             // the whole utterance too: the answer to her question ("Alex")
)

// personName returns the name given in an utterance in lang, where the examples
// put {name}; sure: the words show it plainly (docs/architecture.md#offline).
func (e *Engine) personName(toks []intents.Token, text string, lang nadine.Language, bare bareName) (name string, sure bool) {
	// A strong context first: in "je m'appelle françois et je suis prof"
	// the name follows "je m'appelle", not the weak "je suis". Among weak
	// ones the first wins: the visitor's name comes before what they say
	// next ("I am Emma and I'm ten", "I'm Chloe, I'm here with my class").
	if name := e.hanNameBefore(toks, text, lang); name != "" {
		return name, true
	}
	if name := hanSelfNamed(toks, text); name != "" {
		return name, true
	}
	spans := e.model.SlotSpans("name", lang, withApocope(toks, lang))
	slices.SortStableFunc(spans, func(a, b intents.Span) int {
		as, bs := a.Strength >= strongContext, b.Strength >= strongContext
		switch {
		case as && bs:
			return cmp.Compare(b.Strength, a.Strength)
		case as != bs:
			return b2i(bs) - b2i(as)
		case a.Context == 0 || b.Context == 0:
			return cmp.Compare(b.Context, a.Context) // a bare clause last, as before
		}
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(b.Strength, a.Strength))
	})
	namingFirst(spans, toks, lang)
	for _, sp := range spans {
		if sp.Context == 0 && (bare == bareNever || bare == bareClause && sp.To-sp.From == len(toks) || !toks[sp.From].Han && examplePlaces()[foldedWords(toks[sp.From:sp.To])]) {
			continue
		}
		strong := sp.Strength >= strongContext
		if toks[sp.From].Han {
			// One character is no context in Chinese ("的" comes before
			// anything); nor is "帮我叫" ("call for me").
			if sp.Context == 1 || hanCallsSomeone(toks, sp.From) {
				continue
			}
			if name = hanName(text[toks[sp.From].Start:], hanAmbiguous(toks, sp.From)); name != "" {
				if full := hanGivenName(toks, text, sp, name); full != "" {
					return full, true
				}
				// Chinese has no capitals to show a name; a full name after
				// more than the bare "我是" ("我的名字是张静"), or one that ends
				// the clause ("嗨，我是李明"), shows it as plainly.
				end := sp.From + utf8.RuneCountInString(name)
				ends := end >= len(toks) || toks[end].Clause != toks[sp.From].Clause
				return name, strong || (hanFullName(name) || hanNickname([]rune(intents.Simplify(name)))) && (sp.Context > 2 || ends)
			}
			continue
		}
		from := sp.From
		if sp.After && (from == 0 || toks[from-1].Clause != toks[from].Clause) {
			// A context after the name spans the clause up to it: in
			// "hallo nadine torsten mein name" the name is the words
			// before "mein name", not the greeting that opens the clause.
			from = e.nameRunBefore(toks, from, sp.To, lang)
		}
		from = afterNameArticle(toks, from, sp.To, lang)
		from = articledTitle(toks, from, lang)
		from = stackedTitle(toks, from, lang)
		if strong {
			from = e.professionBefore(toks, text, from, sp.To, lang)
		}
		if name := e.titledName(toks, text, from, lang); name != "" {
			return name, true
		} else if isTitle(toks[from], lang) {
			continue // a form of address alone is no name ("je suis monsieur")
		}
		if from+1 < sp.To && e.model.Known(lang, toks[from].Norm) && !startsUpper(toks[from].Text) && !toks[from+1].Hyphen &&
			(strong || e.lonelyCapital(toks, from+1, lang)) {
			// A word between the context and the name: "nenn mich einfach
			// Jonas", "je m'appelle euh Julien"; after a weak context only
			// before a capitalized unknown word that ends its clause, as a
			// learner says it ("ich bin heißen Pedro", "je suis appelle Tom").
			from++
		}
		if name = e.latinName(toks, text, from, sp.To, lang); name != "" {
			capital := from > 0 && startsUpper(toks[from].Text) && lang != nadine.German && e.model.Tags(toks)[from] == ""
			if !strong && !capital && e.modifiesWhatFollows(toks, from, lang) {
				continue
			}
			return name, strong || capital
		}
		// After a strong context, the last word of the clause is plainly a
		// name when the examples give it as one, even if they also use
		// the word otherwise ("je m'appelle marie").
		if strong && from+1 == clauseEnd(toks, from) && !toks[from].Han && exampleNames()[toks[from].Norm] && !commonWord(toks[from], lang) {
			return titleCase(toks[from].Text), true
		}
	}
	return "", false
}

// modifiesWhatFollows reports whether the lowercase word a weak context
// gives as a name at from says how or when of what follows it in its
// clause ("it's nearly noon", "it is almost evening already"): a word the
// examples know as content comes next, after at most a surname's unknown
// words, no example puts it after a name ("i'm tom from leeds"), what
// follows is not what comes with one ("i'm marnie pleased to meet you")
// nor ends as what follows one ("it's caleb first time here").
func (e *Engine) modifiesWhatFollows(toks []intents.Token, from int, lang nadine.Language) bool {
	end := clauseEnd(toks, from)
	nb := exampleNeighbours()
	for k := from + 1; k < end && k <= from+maxNameWords; k++ {
		t := toks[k]
		if t.Han || nb.followers[lang][t.Norm] || selfWords[t.Norm] || commonWord(t, lang) || nb.openers[lang][t.Norm] {
			return false
		}
		if e.model.KnownStem(lang, t.Norm) && !e.germanSurname(toks, k, lang) {
			return !e.greetsWithName(toks[k:end]) && !nb.followers[lang][toks[end-1].Norm]
		}
	}
	return false
}

// greetsWithName reports whether rest is the social part of an
// introduction: a wish to meet, her name or "and you?" asked back.
func (e *Engine) greetsWithName(rest []intents.Token) bool {
	after := e.classifyPart(rest).Top()
	switch after.Label {
	case "persona.name":
		return true
	case "greeting":
		return after.Prob >= partSure
	case "how_are_you":
		return andWords[rest[0].Norm]
	}
	return false
}

// nameNeighbours are, per language, the words the examples put right after
// {name} ("{name} here", "{name} from Leeds") and those they open at least
// half of their uses with ("jsuis", "wie": after a name, one starts the
// next clause that speech to text left unmarked, "c moi maëlys jsuis en 4e").
type nameNeighbours struct {
	followers, openers map[nadine.Language]map[string]bool
}

// exampleNeighbours reads nameNeighbours off the examples in one pass.
var exampleNeighbours = sync.OnceValue(func() nameNeighbours {
	out := nameNeighbours{followers: map[nadine.Language]map[string]bool{}, openers: map[nadine.Language]map[string]bool{}}
	s, err := Examples()
	if err != nil {
		return out // the model's training reports it
	}
	type tally struct{ first, all int }
	counts := map[nadine.Language]map[string]*tally{}
	for _, ex := range s.Examples {
		if counts[ex.Lang] == nil {
			counts[ex.Lang] = map[string]*tally{}
			out.followers[ex.Lang] = map[string]bool{}
			out.openers[ex.Lang] = map[string]bool{}
		}
		if _, after, ok := strings.Cut(ex.Text, "{name}"); ok {
			if toks := intents.Tokenize(after); len(toks) > 0 {
				out.followers[ex.Lang][toks[0].Norm] = true
			}
		}
		for i, t := range intents.Tokenize(ex.Text) {
			c := counts[ex.Lang][t.Norm]
			if c == nil {
				c = &tally{}
				counts[ex.Lang][t.Norm] = c
			}
			c.all++
			if i == 0 {
				c.first++
			}
		}
	}
	for lang, words := range counts {
		for w, c := range words {
			if 2*c.first >= c.all {
				out.openers[lang][w] = true
			}
		}
	}
	return out
})

// nameRunBefore is where the words that may be a name and end at to start,
// at most maxNameWords of them after from; from when none may be.
func (e *Engine) nameRunBefore(toks []intents.Token, from, to int, lang nadine.Language) int {
	j := to
	for j > from && to-j < maxNameWords && (e.nameWord(toks, j-1, lang) || j == to && j-2 >= from && e.germanSurname(toks, j-1, lang) && e.nameWord(toks, j-2, lang)) {
		j--
	}
	if j == to {
		return from
	}
	return j
}

// unknownGreeted returns the name of an utterance that opens, after a
// greeting (its own, or hers just before) and her name, with words no
// example uses, in any case, then "my name" or what comes with an
// introduction ("bonjour nadine thibault enchanté", "Heike, und du?"): no
// word the examples know, so none of an intent, where a greeting is
// answered and more of an introduction follows, is a name.
func (e *Engine) unknownGreeted(r reading, h hints) string {
	toks, lang := r.toks, r.lang
	greetEnd := 0
	if !h.greeted {
		if len(r.parts) == 0 {
			return ""
		}
		g := r.parts[0]
		if g.from != 0 || g.top.Label != "greeting" || g.top.Prob < partSure {
			return ""
		}
		greetEnd = g.to
	}
	unknown := func(j int) bool {
		t := toks[j]
		return e.nameWord(toks, j, lang) && !e.model.KnownStem(lang, t.Norm) && !isTitle(t, lang) && !examplePlaces()[t.Norm]
	}
	// The greeting's part may take in the word after it ("hallo malte"
	// still reads as a greeting), or leave out a word of it ("hi" of "hi
	// there"): the name is the first unknown word after the greeting's
	// first word, the known words that still make a greeting, and her name.
	i := min(1, greetEnd)
	for i < len(toks) && !unknown(i) && (i < greetEnd || e.greets(toks[:i+1])) || i < len(toks) && toks[i].Norm == "nadine" {
		i++
	}
	if i >= len(toks) || !unknown(i) || !h.greeted && toks[0].Norm == "nadine" {
		return "" // "nadine yyds" greets no one: her name is no greeting
	}
	if i > 0 && toks[i-1].Norm+toks[i].Norm == "nadine" {
		return "" // "hallo na dine": her name as speech to text split it
	}
	// Who writes capitals writes a name with one ("Grüß Gott, junge Dame!").
	capitals := strings.ContainsFunc(r.text, unicode.IsUpper)
	j := i
	for j < len(toks) && j-i < 2 && toks[j].Clause == toks[i].Clause && unknown(j) {
		if capitals && !startsUpper(toks[j].Text) {
			return ""
		}
		j++
	}
	own := ownNameEnd(toks[j:])
	if rest := toks[j+own:]; own == 0 && !e.comesWithName(rest, r.text) || own > 0 && len(rest) > 0 && !e.comesWithName(rest, r.text) {
		return ""
	}
	var name strings.Builder
	for k := i; k < j; k++ {
		if k > i {
			name.WriteByte(' ')
		}
		name.WriteString(titleCase(toks[k].Text))
	}
	return name.String()
}

// greets reports whether toks read plainly as a greeting.
func (e *Engine) greets(toks []intents.Token) bool {
	top := e.classifyPart(toks).Top()
	return top.Label == "greeting" && top.Prob >= partSure
}

// andWords start "and you?" ("und du", "et toi"): "ça va" after a word
// is a question, "Nadine chérie ça va", the word no name.
var andWords = map[string]bool{"and": true, "und": true, "et": true}

// selfWords speak of the speaker: "and I'm from Dundee" is said of oneself.
var selfWords = map[string]bool{"i": true, "im": true, "my": true, "me": true, "je": true, "j": true, "moi": true, "mon": true,
	"ma": true, "ich": true, "mein": true, "meine": true, "mich": true, "mir": true}

// comesWithName reports whether rest, said after an unknown word a greeting
// answers, is what comes with an introduction: a wish to meet ("enchanté",
// "freut mich"), "and you?", her name asked back, or a statement of
// oneself ("und ich komme aus Bremen"). A word alone, or before anything
// else ("hey nadine lol", "bonjour nadine chérie ça va"), shows no name:
// nothing but the words the examples know tells a name from slang.
func (e *Engine) comesWithName(rest []intents.Token, text string) bool {
	if len(rest) == 0 {
		return false
	}
	after := e.classifyPart(rest).Top()
	asks := strings.ContainsAny(text[rest[len(rest)-1].End:], "?!？！")
	switch {
	case after.Label == "persona.name":
		return true
	case after.Label == "greeting" && after.Prob >= partSure:
		// Exclaimed, only a plain one: "Coucou. Corentin, viens voir !"
		// calls someone.
		return !asks || after.Prob >= wholeSure
	case after.Label == "how_are_you" && len(rest) <= maxTail:
		return andWords[rest[0].Norm]
	}
	return !asks && !addressed(rest) && slices.ContainsFunc(rest, func(t intents.Token) bool { return selfWords[t.Norm] }) &&
		(andWords[rest[0].Norm] || !e.tellsOwnFeeling(rest))
}

// greetedUnknownName is the name where the examples put one ("je suis
// solène", "it's beverly") in what reads as none of the intents, after a
// greeting (hers just before, or its own): a weak context before a word no
// example knows tells too little on its own ("I'm knackered"), but answering
// a greeting with it is introducing oneself.
func (e *Engine) greetedUnknownName(r reading, h hints) string {
	if !h.greeted && (len(r.parts) == 0 || r.parts[0].top.Label != "greeting" || r.parts[0].top.Prob < partSure) {
		return ""
	}
	name, _ := e.personName(r.toks, r.text, r.lang, bareNever)
	end := tokensEnd(r.toks, name)
	if name == "" || end <= 0 {
		return ""
	}
	for _, t := range intents.Tokenize(name) {
		if e.model.KnownStem(r.lang, t.Norm) {
			return ""
		}
	}
	return name
}

// nameNouns and ownWords make "my name" in the Latin languages: said right after
// a name ("Baptiste c'est mon nom", "Kerstin mein Name") it states the name,
// it asks nothing ("c'est mon nom" alone reads as asking her to remember).
var (
	nameNouns = map[string]bool{"name": true, "nom": true, "prenom": true, "vorname": true}
	ownWords  = map[string]bool{"my": true, "mon": true, "mein": true, "meine": true}
)

// ownNameEnd is how many of the first words of rest, at most four, end with
// "my name" in one clause ("c'est mon nom", "ist mein Name"); 0 if none do.
func ownNameEnd(rest []intents.Token) int {
	for k := 1; k < min(len(rest), 4); k++ {
		if nameNouns[rest[k].Norm] && ownWords[rest[k-1].Norm] && rest[k].Clause == rest[0].Clause {
			return k + 1
		}
	}
	return 0
}

// greetedName returns the name of an utterance that is greetings and a name
// on its own ("Bonsoir. Hélène Garnier.", "Bonjour, Jacqueline Martin,
// enchantée."), or a greeting, then the name, then what the person does or
// wants ("Guten Tag. Weber, Einkauf, ich habe wenig Zeit."): every word of
// the name's clause capitalized, or given as a name by the examples
// ("salut. hugo."), and none a word of the examples unless they give it as
// a name (a sentence's first capital shows nothing, so this is stricter
// than nameWord) or it is capitalized past the clause's first word outside
// German ("Enchanté, Bernard Petit.": family names are often words). Her
// greeting just before (hers) counts as the greeting ("Karl-Heinz, aber
// sag ruhig Kalle"), and then the name may be all that is said ("Gudrun.").
func (e *Engine) greetedName(toks []intents.Token, text string, parts []part, lang nadine.Language, hers bool) string {
	// Her greeting just before comes first too.
	greeted, first, from, to := hers, hers, -1, -1
	var top intents.Scored // the classifier's reading of the name's clause
	var after []part       // the clauses after the name
	if hers && len(parts) == 0 && !strings.ContainsAny(text, "?？") {
		// One clause after hers: "Anna-Lena.", "Frau Kowalski.". One word
		// alone is a name only when the examples give it as one: its
		// capital is the sentence's, and "Pareillement !", "Ouais.",
		// "Likewise!" answer a greeting as often as "Gudrun." does.
		if len(toks) == 1 && !exampleNames()[toks[0].Norm] {
			return ""
		}
		from, to = 0, len(toks)
	}
	for _, p := range parts {
		switch {
		case !p.clause:
			return ""
		case p.top.Label == "greeting" && p.top.Prob >= partSure && from < 0:
			// A greeting before the name; one read after it is what
			// follows the name ("Coucou. Corentin, viens voir !").
			greeted, first = true, true
		case from < 0:
			from, to, top = p.from, p.to, p.top
		default:
			after = append(after, p)
		}
	}
	if !greeted || from < 0 || to-from > maxNameWords || isTitle(toks[from], lang) && to-from == 1 {
		return ""
	}
	if len(after) > 0 {
		// Before more clauses, the name's clause must read as nothing else
		// ("Bonjour. Paris, c'est loin ?" asks where she is from), and a
		// name followed at once by a call or a question is whom the
		// person speaks to ("Coucou. Lucas, viens voir !"), not theirs.
		plainly := top.Label != "name" && top.Label != noneLabel && top.Prob >= partSure
		next := after[0]
		called := len(after) == 1 && strings.ContainsAny(text[toks[next.to-1].End:], "?!？！")
		if !first || plainly || called {
			return ""
		}
	}
	tags := e.model.Tags(toks)
	var name strings.Builder
	for i := from; i < to; i++ {
		t := toks[i]
		if t.Han || !isNameWord(t.Text) || !startsUpper(t.Text) && !exampleNames()[t.Norm] || isLanguageWord(t) || tags[i] != "" ||
			t.Norm == strings.ToLower(e.persona.Name) || (i == from || lang == nadine.German) && e.model.KnownStem(lang, t.Norm) && !exampleNames()[t.Norm] {
			return ""
		}
		switch {
		case i > from && t.Hyphen:
			name.WriteString("-") // "Anna-Lena" stays one name
		case i > from:
			name.WriteString(" ")
		}
		name.WriteString(titleCase(t.Text))
	}
	return name.String()
}

// greetedCapital reports whether an utterance that opens with a greeting,
// or follows her greeting (greeted), then gives, where the examples put
// {name}, a word that shows a name after a greeting: in German a
// capitalized word the examples do not use ("Hi, ich bin Ben."; the
// classifier read "ich bin" and an unknown word as a feeling, and "ich bin
// Marie" as good news), in any language a word the examples give as a name
// and use for nothing else in it, even lowercase ("grüß dich ich bin
// marie"). German capitalizes nouns, so a capital alone shows no name, but
// after a greeting an unknown noun where a name goes is rarer than a name;
// elsewhere capitals stay no sign in German.
func (e *Engine) greetedCapital(toks []intents.Token, text string, parts []part, lang nadine.Language, greeted bool) bool {
	from := 0
	if !greeted {
		if len(parts) == 0 {
			return false
		}
		g := parts[0]
		if g.from != 0 || g.top.Label != "greeting" || g.top.Prob < partSure {
			return false
		}
		from = g.to
	}
	for _, sp := range e.model.SlotSpans("name", lang, withApocope(toks, lang)) {
		if sp.Context == 0 || sp.From < from || toks[sp.From].Han {
			continue
		}
		at := sp.From
		if at == 0 || toks[at-1].Clause != toks[at].Clause {
			// A context after the name: the name words before it, as
			// personName reads them ("Guten Morgen, Schwester Monika hier").
			at = e.nameRunBefore(toks, at, sp.To, lang)
		}
		t := toks[at]
		if isTitle(t, lang) {
			continue
		}
		shows := lang == nadine.German && startsUpper(t.Text) || exampleNames()[t.Norm] && !e.model.KnownStem(lang, t.Norm)
		if shows && e.nameWord(toks, at, lang) && e.latinName(toks, text, at, sp.To, lang) != "" {
			return true
		}
	}
	return false
}

// titles are the forms of address given with a family name ("ich bin Frau
// Becker", "je suis Mme Martin") or, in German, with a first name by kin
// and by nurses and clergy ("Opa Heinz", "Schwester Monika"), by language.
var titles = map[nadine.Language][]string{
	nadine.English: {"mr", "mrs", "ms", "miss", "dr", "doctor", "prof", "professor"},
	nadine.French:  {"monsieur", "madame", "mademoiselle", "m", "mme", "mlle", "docteur", "docteure", "dr", "dre", "professeur", "professeure", "pr", "maitre"},
	nadine.German:  {"herr", "frau", "dr", "doktor", "prof", "professor", "oma", "opa", "tante", "onkel", "schwester", "bruder", "pfarrer", "pater"},
}

// titledName reads a form of address and the family name after it as the
// name ("Frau Becker", "Dr. Weber"), even when that name is also a word.
func (e *Engine) titledName(toks []intents.Token, text string, i int, lang nadine.Language) string {
	if i+1 >= len(toks) || !isTitle(toks[i], lang) || !startsUpper(toks[i+1].Text) && !e.nameWord(toks, i+1, lang) && !isTitle(toks[i+1], lang) {
		return ""
	}
	title, next := toks[i], toks[i+1]
	if between := text[title.End:next.Start]; next.Clause != title.Clause && strings.TrimSpace(between) != "." {
		return ""
	}
	if next.Han || !isNameWord(next.Text) || isLanguageWord(next) || next.Norm == "nadine" {
		return ""
	}
	name := titleCase(title.Text)
	if strings.HasPrefix(text[title.End:], ".") {
		name += "."
	}
	if isTitle(next, lang) {
		// Titles in a row ("Frau Dr. Wagner", "Herr Professor Huber"): the
		// name follows the last; a second title is no family name ("Frau Dr").
		rest := e.titledName(toks, text, i+1, lang)
		if rest == "" {
			return ""
		}
		name += " " + rest
	} else {
		name += " " + titleCase(e.familyName(toks, i+1, lang).Text)
	}
	if utf8.RuneCountInString(name) > maxNameRunes {
		return ""
	}
	return name
}

// isTitle reports whether t is a form of address in lang.
func isTitle(t intents.Token, lang nadine.Language) bool {
	return slices.Contains(titles[lang], t.Norm)
}

// exampleNames are the values the examples give the name slot, in every
// language, by their folded spelling: a lookup table, as Rasa's.
var exampleNames = sync.OnceValue(func() map[string]bool { return exampleValues("name") })

// examplePlaces are the place slot's values, each whole, by its folded
// words: a clause that is only one of them is no name ("Bonjour. Paris,
// c'est loin ?"), while "der" of "der Schweiz" still starts one ("Der Sepp.").
var examplePlaces = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	s, err := Examples()
	if err != nil {
		return out // the model's training reports it
	}
	for _, values := range s.Values {
		for _, v := range values["place"] {
			out[foldedWords(intents.Tokenize(v))] = true
		}
	}
	return out
})

// exampleValues are the words of a slot's values in every language, by
// their folded spelling.
func exampleValues(slot string) map[string]bool {
	out := map[string]bool{}
	s, err := Examples()
	if err != nil {
		return out // the model's training reports it
	}
	for _, values := range s.Values {
		for _, v := range values[slot] {
			for _, t := range intents.Tokenize(v) {
				out[t.Norm] = true
			}
		}
	}
	return out
}

// foldedWords joins the folded words of toks with spaces.
func foldedWords(toks []intents.Token) string {
	ws := make([]string, len(toks))
	for i, t := range toks {
		ws[i] = t.Norm
	}
	return strings.Join(ws, " ")
}

// clauseEnd is the index after the last token of the clause of token i.
func clauseEnd(toks []intents.Token, i int) int {
	j := i
	for j < len(toks) && toks[j].Clause == toks[i].Clause {
		j++
	}
	return j
}

// latinName reads the name starting at token i ("Alex", "Jean-Pierre", "Sarah
// Connor"); which words may be one is nameWord's rule.
func (e *Engine) latinName(toks []intents.Token, text string, i, end int, lang nadine.Language) string {
	if i >= end || i >= len(toks) {
		return ""
	}
	if !e.nameWord(toks, i, lang) && !e.compoundName(toks, i, lang) {
		return ""
	}
	var b strings.Builder
	words := 0
	clause := toks[i].Clause
	for i < end && toks[i].Clause == clause && words < maxNameWords {
		t := toks[i]
		if words > 0 && !e.germanSurname(toks, i, lang) && (t.Hyphen || !startsUpper(t.Text) || !e.nameWord(toks, i, lang) || e.model.KnownStem(lang, t.Norm)) {
			break
		}
		word := t.Text
		if words > 0 {
			b.WriteByte(' ')
		} else if lang == nadine.German {
			word = withoutElidedArticle(word)
		}
		b.WriteString(titleCase(word))
		words++
		i++
		for i < len(toks) && toks[i].Hyphen && toks[i].Clause == clause && isNameWord(toks[i].Text) {
			b.WriteByte('-')
			b.WriteString(titleCase(toks[i].Text))
			i++
		}
	}
	if i < len(toks) && strings.ContainsFunc(toks[i].Text, unicode.IsDigit) &&
		!strings.ContainsFunc(text[toks[i-1].End:toks[i].Start], unicode.IsSpace) {
		return "" // "Orchid-77", "Zebra4242": a word written with digits is a code
	}
	name := b.String()
	if utf8.RuneCountInString(name) > maxNameRunes {
		return ""
	}
	return name
}

// compoundName reports whether token j, a word the examples know, starts a
// hyphenated name whose next part may be one ("marie-claire" as speech to
// text writes it: "marie" is known from "mariée").
func (e *Engine) compoundName(toks []intents.Token, j int, lang nadine.Language) bool {
	if !nameShaped(toks[j]) || j+1 >= len(toks) {
		return false
	}
	next := toks[j+1]
	return next.Hyphen && next.Clause == toks[j].Clause && e.nameWord(toks, j+1, lang)
}

// nameShaped reports whether t is written as a word of a name may be: Latin
// letters, no language's name nor hers.
func nameShaped(t intents.Token) bool {
	return !t.Han && isNameWord(t.Text) && !isLanguageWord(t) && t.Norm != "nadine" && !elidedPronoun(t)
}

// nameWord reports whether token j may be a word of a name: Latin, no language's
// name nor hers, unknown to the examples, capitalized inside the sentence, or
// a name the examples give that they never use as a word ("Klaus", though
// "klausur" shares its stem).
func (e *Engine) nameWord(toks []intents.Token, j int, lang nadine.Language) bool {
	t := toks[j]
	if !nameShaped(t) || commonWord(t, lang) || progressive(t, lang) || adverbial(t, lang) {
		return false
	}
	return !e.model.KnownStem(lang, t.Norm) || (j > 0 && startsUpper(t.Text) && lang != nadine.German) ||
		exampleNames()[t.Norm] && !e.model.Known(lang, t.Norm)
}

// hanStops end a Chinese name: "我叫王小明很高兴认识您" gives 王小明.
const hanStops = "很我你您他她是和在的了呢吧啊呀哦嗯来从住但也就请谢今姓叫名"

// hanStopWords end a Chinese name though their characters may be in one:
// "我叫蒋雯认识你很高兴" gives 蒋雯.
var hanStopWords = []string{"认识", "第一", "一起"}

// hanStopWord reports whether rest starts with one of hanStopWords.
func hanStopWord(rest []rune) bool {
	return slices.ContainsFunc(hanStopWords, func(w string) bool { return strings.HasPrefix(string(rest), w) })
}

// hanQuestions start what follows "我叫" when it asks rather than tells
// ("我叫什么").
var hanQuestions = []string{"什么", "啥", "谁", "甚么", "名字", "几", "哪"}

// surnames are common Chinese family names: after the ambiguous "我是" a
// name is only accepted when it starts with one of them.
const surnames = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"

// hanAmbiguous reports whether the name at token i follows "是" ("我是",
// "这是"): "我是学生" says what one is, not who.
func hanAmbiguous(toks []intents.Token, i int) bool {
	return i > 0 && toks[i-1].Text == "是"
}

// hanCallsSomeone reports whether the context before token i follows a
// verb that makes "我叫" mean "call for me" ("帮我叫辆出租车", "给我叫").
func hanCallsSomeone(toks []intents.Token, i int) bool {
	for j := max(0, i-3); j < i; j++ {
		if strings.Contains("帮给替为让", toks[j].Text) {
			return true
		}
	}
	return false
}

// hanName reads the name at the start of rest, Chinese up to a stop or Latin;
// after an ambiguous context a Chinese name needs a common family name.
func hanName(rest string, ambiguous bool) string {
	rest = strings.TrimLeft(rest, " \t:：")
	rest = withoutCalledAs(rest)
	r, _ := utf8.DecodeRuneInString(rest)
	if r == utf8.RuneError {
		return ""
	}
	if !unicode.Is(unicode.Han, r) {
		return ""
	}
	simple := []rune(intents.Simplify(rest)) // the stops and family names are 简体: "我叫什麼" asks too
	for _, q := range hanQuestions {
		if strings.HasPrefix(string(simple), q) {
			return ""
		}
	}
	var runes []rune
	ended := true // the name ends at a non-Han character or the end
	for i, r := range []rune(rest) {
		if !unicode.Is(unicode.Han, r) || strings.ContainsRune(hanStops, simple[i]) || hanStopWord(simple[i:]) {
			break
		}
		if len(runes) == 4 {
			ended = false
			break
		}
		runes = append(runes, r)
	}
	if len(runes) == 4 && !ended {
		runes = runes[:3]
	}
	if len(runes) == 0 || (ambiguous && (len(runes) < 2 || len(runes) > 3 || !strings.ContainsRune(surnames, simple[0]) && !hanNickname(simple[:len(runes)]))) {
		return ""
	}
	return string(runes)
}

// hanNameBefore returns a full Chinese name said just before a context
// the examples put after one ("你好邓佳是我的名字"): the examples' spans
// start at the clause, which here holds the greeting too and may be longer
// than a value, so each family name in the utterance is tried as the start.
func (e *Engine) hanNameBefore(toks []intents.Token, text string, lang nadine.Language) string {
	for k, t := range toks {
		if !t.Han || !strings.Contains(surnames, intents.Simplify(t.Text)) {
			continue
		}
		for _, sp := range e.model.SlotSpans("name", lang, toks[k:]) {
			if sp.Context == 0 || sp.From != 0 || sp.To < 2 || sp.To > 3 || !toks[k+sp.To-1].Han {
				continue
			}
			if name := text[t.Start:toks[k+sp.To-1].End]; hanFullName(name) && hanName(name, true) == name {
				return name
			}
		}
	}
	return ""
}

// hanGivenName returns the whole name of an utterance that gives the
// family name, then the name ("我姓李，叫李华": 姓 announces the family
// name alone, and a name said after it that starts with it is the whole;
// "我姓王，叫小明" gives the given name after it), else "".
func hanGivenName(toks []intents.Token, text string, family intents.Span, name string) string {
	if family.From == 0 || toks[family.From-1].Norm != "姓" || utf8.RuneCountInString(name) != 1 && !compoundSurname(name) {
		return ""
	}
	// The whole name right after the family name, without "叫": "我姓蒋，
	// 蒋雯", "我姓宋宋子豪".
	if next := family.From + 1; next < len(toks) && toks[next].Norm == toks[family.From].Norm {
		if whole := hanName(text[toks[next].Start:], false); utf8.RuneCountInString(whole) > 1 && strings.HasPrefix(whole, name) {
			return whole
		}
	}
	for j := family.From + 1; j+1 < len(toks); j++ {
		if toks[j].Norm != "叫" || !toks[j+1].Han || hanCallsSomeone(toks, j) {
			continue
		}
		given := hanName(text[toks[j+1].Start:], false)
		switch n := utf8.RuneCountInString(given); {
		case n > 1 && strings.HasPrefix(given, name):
			return given
		case n >= 1 && n <= 2:
			return name + given
		}
	}
	return ""
}

// hanFullName reports whether a Chinese name is a family name and one or
// two given characters ("王芳", "张小明").
func hanFullName(name string) bool {
	first, _ := utf8.DecodeRuneInString(intents.Simplify(name))
	n := utf8.RuneCountInString(name)
	return n >= 2 && n <= 3 && strings.ContainsRune(surnames, first) || n >= 3 && n <= 4 && compoundSurname(name)
}

// withoutElidedArticle drops the Alemannic article written onto a name
// ("ich bi d'Seraina", "s'Vreni"): the name is what follows.
func withoutElidedArticle(w string) string {
	for _, a := range []string{"d'", "d’", "s'", "s’", "D'", "D’", "S'", "S’"} {
		if rest, ok := strings.CutPrefix(w, a); ok && startsUpper(rest) {
			return rest
		}
	}
	return w
}

// lonelyCapital reports whether token j is a capitalized word the examples do
// not know that ends its clause and is not where they put a place: a name,
// where the words before it are not the examples' ("ich bin heißen Pedro, …").
func (e *Engine) lonelyCapital(toks []intents.Token, j int, lang nadine.Language) bool {
	t := toks[j]
	if !startsUpper(t.Text) || !nameShaped(t) || e.model.KnownStem(lang, t.Norm) || clauseEnd(toks, j) != j+1 {
		return false
	}
	// Where the examples put a place ("I'm from Leeds"), it is one.
	return !slices.ContainsFunc(e.model.SlotSpans("place", lang, toks), func(sp intents.Span) bool { return sp.From == j && sp.Context > 0 })
}

// isNameWord reports whether w can be part of a name: letters, with
// apostrophes inside ("O'Brien"), no digits.
func isNameWord(w string) bool {
	letters := false
	for _, r := range w {
		switch {
		case unicode.IsLetter(r):
			letters = true
		case unicode.IsMark(r), r == '\'', r == '’':
		default:
			return false
		}
	}
	return letters
}

// isLanguageWord reports whether t names a supported language ("English",
// "français"): "I'm French" is no name. Codes ("en", "de") do not count.
func isLanguageWord(t intents.Token) bool {
	_, ok := languageOf(t)
	return ok
}

// languageOf returns the supported language t names, if any.
func languageOf(t intents.Token) (nadine.Language, bool) {
	if t.Han || utf8.RuneCountInString(t.Norm) < 3 {
		return "", false
	}
	if l, err := nadine.ParseLanguage(t.Text); err == nil {
		return l, true
	}
	if l, err := nadine.ParseLanguage(t.Norm); err == nil {
		return l, true
	}
	if l, ok := languageAdjectives[t.Norm]; ok {
		return l, true
	}
	return "", false
}

// languageAdjectives are the agreeing forms of languages' names ("une chanson
// allemande") that nadine.ParseLanguage does not take. Folded spelling.
var languageAdjectives = map[string]nadine.Language{
	"anglaise": nadine.English, "anglaises": nadine.English, "francaise": nadine.French, "francaises": nadine.French,
	"allemande": nadine.German, "allemandes": nadine.German, "chinoise": nadine.Chinese, "chinoises": nadine.Chinese,
	"englisches": nadine.English, "englische": nadine.English, "englischen": nadine.English,
	"franzoesisches": nadine.French, "franzoesische": nadine.French, "franzoesischen": nadine.French,
	"deutsches": nadine.German, "deutschen": nadine.German, "deutsche": nadine.German,
	"chinesisches": nadine.Chinese, "chinesische": nadine.Chinese, "chinesischen": nadine.Chinese,
	"mandarin": nadine.Chinese,
}

// hanLanguages are Chinese names of the supported languages that
// nadine.ParseLanguage may not know.
var hanLanguages = map[string]nadine.Language{
	"英语": nadine.English, "英文": nadine.English, "法语": nadine.French, "法文": nadine.French,
	"德语": nadine.German, "德文": nadine.German, "中文": nadine.Chinese, "汉语": nadine.Chinese,
	"普通话": nadine.Chinese, "华语": nadine.Chinese, "国语": nadine.Chinese,
}

// namedLanguage returns a supported language the utterance names ("auf
// Deutsch", "说英语", "une chanson allemande"): the first named, whatever
// the order of a map ("你可以说法语吗，我中文不好" asks for French).
func namedLanguage(toks []intents.Token, text string) (nadine.Language, bool) {
	for _, t := range toks {
		if l, ok := languageOf(t); ok {
			return l, true
		}
	}
	simple := intents.Simplify(text) // "請說英語": the names are 简体
	var found nadine.Language
	at, length := -1, 0
	for name, l := range hanLanguages {
		i := strings.Index(simple, name)
		if i >= 0 && (at < 0 || i < at || i == at && len(name) > length) {
			found, at, length = l, i, len(name)
		}
	}
	return found, at >= 0
}

// otherLanguage reports whether the utterance names a language Nadine does not
// speak where the examples put {lang} ("speak slowly" names none).
func (e *Engine) otherLanguage(toks []intents.Token, text string, lang nadine.Language) bool {
	tags := e.model.Tags(toks)
	for _, sp := range e.model.SlotSpans("lang", lang, toks) {
		t := toks[sp.From]
		if t.Han {
			if rest := intents.Simplify(text[t.Start:]); hanLanguageName(rest) && !hanSupported(rest) {
				return true
			}
			continue
		}
		if sp.Context == 0 || !isNameWord(t.Text) || utf8.RuneCountInString(t.Norm) < 3 || isLanguageWord(t) {
			continue
		}
		if tags[sp.From] == "<lang>" || !e.model.KnownStem(lang, t.Norm) {
			return true
		}
	}
	return false
}

// hanSupported reports whether s starts with the Chinese name of a
// language Nadine speaks.
func hanSupported(s string) bool {
	for name := range hanLanguages {
		if strings.HasPrefix(s, name) {
			return true
		}
	}
	return false
}

// hanLanguageName reports whether s starts with a Chinese language name: a few
// characters ending in 语 or 文 ("日语"), but not 语言 ("language").
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

// place returns where the person says they come from, as written, where the
// examples put {place} ("I'm from Bern").
func (e *Engine) place(toks []intents.Token, lang nadine.Language) string {
	for _, sp := range e.model.SlotSpans("place", lang, toks) {
		if sp.Context == 0 {
			continue
		}
		var words []string
		han := toks[sp.From].Han
		for i := sp.From; i < sp.To && len(words) < maxNameWords+2; i++ {
			t := toks[i]
			if t.Han != han || (!han && e.model.Known(lang, t.Norm) && !startsUpper(t.Text)) {
				break
			}
			words = append(words, t.Text)
		}
		sep := " "
		if han {
			sep = ""
			if len(words) > 4 {
				words = words[:4]
			}
		}
		if p := strings.Join(words, sep); p != "" {
			return p
		}
	}
	return ""
}

func startsUpper(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// titleCase capitalizes a word written all in lowercase or all in
// uppercase ("alex", "ALEX" → "Alex") and keeps mixed case ("McDonald").
func titleCase(w string) string {
	lower, upper := true, true
	for _, r := range w {
		if unicode.IsUpper(r) {
			lower = false
		}
		if unicode.IsLower(r) {
			upper = false
		}
	}
	if !lower && !upper {
		return w
	}
	var b strings.Builder
	for i, r := range w {
		if i == 0 {
			b.WriteRune(unicode.ToUpper(r))
		} else {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// commonWord reports whether t is a word no name is: a number ("I'm
// ten", "ich bin zehn") or a word the examples of many intents use, the
// language's function words ("I'm", "ich", "et"), whatever its capital
// ("I'm Chloe, I'm here …": "{name} here" put a name at the second "I'm").
func commonWord(t intents.Token, lang nadine.Language) bool {
	return numberWords[t.Norm] || !t.Han && len(wordLabels()[lang][t.Norm]) >= functionSpread
}

// progressive reports whether t is an English verb's -ing form written
// lowercase: after "I'm" it says what one is doing ("I'm taking the train
// later" gave the name "Taking"), not who.
func progressive(t intents.Token, lang nadine.Language) bool {
	return lang == nadine.English && !startsUpper(t.Text) && strings.HasSuffix(t.Norm, "ing") && utf8.RuneCountInString(t.Norm) >= 5
}

// functionSpread is how many labels' examples use a word that says nothing
// of a person: a sixth of the labels (en "im" 25, "this" 17; the example
// names that are also words, "will", "marie", "ben", 2 to 7).
const functionSpread = 12

// wordLabels are, per language, the labels whose examples use each word
// (folded spelling; a Chinese character is a word).
var wordLabels = sync.OnceValue(func() map[nadine.Language]map[string]map[string]bool {
	out := map[nadine.Language]map[string]map[string]bool{}
	s, err := Examples()
	if err != nil {
		return out // the model's training reports it
	}
	for _, ex := range s.Examples {
		if out[ex.Lang] == nil {
			out[ex.Lang] = map[string]map[string]bool{}
		}
		for _, t := range intents.Tokenize(ex.Text) {
			if out[ex.Lang][t.Norm] == nil {
				out[ex.Lang][t.Norm] = map[string]bool{}
			}
			out[ex.Lang][t.Norm][ex.Label] = true
		}
	}
	return out
})

// numberWords are the numbers written as words in English, French and
// German (folded spelling): an age or a count said after a name.
var numberWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`one two three four five six seven eight nine ten eleven twelve thirteen
		fourteen fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty
		ninety hundred
		un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize
		vingt trente quarante cinquante soixante septante huitante octante nonante cent
		eins zwei drei vier fuenf sechs sieben acht neun zehn elf zwoelf dreizehn vierzehn fuenfzehn
		sechzehn siebzehn achtzehn neunzehn zwanzig dreissig vierzig fuenfzig sechzig siebzig achtzig
		neunzig hundert`) {
		m[normalizeWord(w)] = true
	}
	return m
}()
