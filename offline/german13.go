package offline

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// Rules of the round that wrote probe11 (docs/offline.md, "Round de13"):
// German feelings told by what happened (an event told done, a trial still
// ahead), and introductions the classifier reads plainly but whose name no
// context finds.

// germanAuxiliaries are the forms of "haben", "sein" and "werden" that
// make a German perfect or passive ("ich habe bestanden", "er ist geboren",
// "ich bin befördert worden"), folded.
var germanAuxiliaries = map[string]bool{"hab": true, "habe": true, "hast": true, "hat": true, "haben": true, "habt": true,
	"bin": true, "bist": true, "ist": true, "sind": true, "seid": true, "wurde": true, "wurden": true, "wurdest": true, "worden": true,
	"hatte": true, "hatten": true, "war": true, "waren": true}

// germanPreterites tell a thing done on their own ("die Bewerbung war
// erfolgreich", "der Antrag wurde genehmigt").
var germanPreterites = map[string]bool{"war": true, "waren": true, "wurde": true, "wurden": true, "worden": true}

// germanModals make a clause wanted or ahead, not done ("die ich bestehen
// muss", "ich werde befördert").
var germanModals = map[string]bool{"muss": true, "musst": true, "muessen": true, "will": true, "willst": true, "wollen": true,
	"soll": true, "sollst": true, "sollen": true, "werde": true, "wirst": true, "wird": true, "werden": true, "kann": true, "koennen": true}

// germanNegations leave a thing undone ("hab noch gar nicht gelernt").
var germanNegations = map[string]bool{"nicht": true, "nie": true, "niemals": true, "nichts": true, "kein": true, "keine": true, "keinen": true}

// separablePrefixes and inseparablePrefixes open German participles
// ("angefangen", "aufgehalst"; "bestanden", "verlobt", "befoerdert"),
// folded.
var (
	separablePrefixes   = []string{"an", "auf", "ab", "aus", "ein", "mit", "vor", "zu", "zurueck", "weg", "los", "fest", "durch", "um", "nach", "her", "hin", "bei", "dazu", "hinter"}
	inseparablePrefixes = []string{"be", "ver", "er", "ent", "zer", "emp", "miss", "ueber", "unter", "hinter"}
)

// participle reports whether a folded German word has a past participle's
// shape: ge-…-t or ge-…-en, after a separable prefix too, an inseparable
// prefix with a -t or -en ending, or -iert. The shape alone says little
// (infinitives end in -en too); told with an auxiliary it says done.
func participle(w string) bool {
	n := utf8.RuneCountInString(w)
	ends := strings.HasSuffix(w, "t") || strings.HasSuffix(w, "en")
	switch {
	case n < 5 || !ends:
		return false
	case strings.HasSuffix(w, "iert"), strings.HasPrefix(w, "ge"):
		return true
	}
	for _, p := range separablePrefixes {
		if rest, ok := strings.CutPrefix(w, p); ok && strings.HasPrefix(rest, "ge") && len(rest) >= 5 {
			return true
		}
	}
	for _, p := range inseparablePrefixes {
		if strings.HasPrefix(w, p) && n-utf8.RuneCountInString(p) >= 4 {
			return true
		}
	}
	return false
}

// toldDone reports whether a German stretch tells a thing done: in one of
// its clauses an auxiliary with a participle and no modal that puts it
// ahead ("ich habe die Prüfung bestanden", "weil ich befördert worden
// bin", "mein Enkel ist geboren"), or a preterite ("die Bewerbung war
// erfolgreich").
func toldDone(toks []intents.Token) bool {
	for _, cl := range intents.Clauses(toks) {
		aux, part, ahead, pret := false, false, false, false
		for _, t := range cl {
			aux = aux || germanAuxiliaries[t.Norm]
			part = part || participle(t.Norm) && !germanAuxiliaries[t.Norm]
			ahead = ahead || germanModals[t.Norm] || germanNegations[t.Norm]
			pret = pret || germanPreterites[t.Norm]
		}
		if !ahead && (aux && part || pret) {
			return true
		}
	}
	return false
}

// causeWords open the German clause that tells why one feels so: "weil",
// "denn", "nachdem", "seit", "da", "dass".
var causeWords = map[string]bool{"weil": true, "denn": true, "nachdem": true, "seit": true, "seitdem": true, "da": true, "dass": true, "nämlich": true, "naemlich": true}

// causeStretches are a German utterance's clauses and, where a cause word
// opens one, the stretch from it to the end: speech to text writes "ich
// bin gut drauf weil ich befördert worden bin" without a comma.
func causeStretches(toks []intents.Token) [][]intents.Token {
	var out [][]intents.Token
	if cl := intents.Clauses(toks); len(cl) > 1 {
		out = append(out, cl...)
	}
	for i := 2; i < len(toks)-1; i++ {
		if causeWords[toks[i].Norm] {
			out = append(out, toks[i:])
		}
	}
	return out
}

// newsOfGoodMood is the good news a German speaker gives as the cause of a
// good mood ("Ich bin richtig gut gelaunt, weil ich gerade befördert worden
// bin"): the whole reads the mood, or a clause does, and a clause or a
// "weil" stretch reads good news more likely than not that is done
// (toldDone), or plainly news ("denn ich bin mit meiner Freundin gekommen"
// is done, but news at 0.30 only: a circumstance).
// What happened is what is told; the joy is its echo, as newsOfMood says
// when the whole reads the news.
func (e *Engine) newsOfGoodMood(r reading) (candidate, bool) {
	if r.lang != nadine.German || asking(r.toks, r.text) {
		return candidate{}, false
	}
	mood := r.whole.Top().Label == "feeling.good"
	for _, p := range r.parts {
		mood = mood || p.top.Label == "feeling.good" && p.top.Prob >= partSure
	}
	if !mood {
		return candidate{}, false
	}
	var best candidate
	for _, s := range causeStretches(r.toks) {
		p := e.classifyPart(s).Top()
		if p.Label != "feeling.news_good" || p.Prob < wholeSure || p.Prob < clauseStanceSure && !toldDone(s) {
			continue
		}
		if p.Prob > best.prob {
			best = candidate{p.Label, p.Prob}
		}
	}
	return best, best.label != ""
}

// aheadWords put a German utterance's event ahead of now: "morgen",
// "übermorgen", "nächste Woche", "bald", "demnächst", "kommenden Montag".
var aheadWords = map[string]bool{"morgen": true, "uebermorgen": true, "naechste": true, "naechsten": true, "naechster": true,
	"naechstes": true, "bald": true, "demnaechst": true, "kommende": true, "kommenden": true, "kommender": true, "kommendes": true}

// weekdays, folded; "am Freitag" with nothing told done is ahead.
var weekdays = map[string]bool{"montag": true, "dienstag": true, "mittwoch": true, "donnerstag": true, "freitag": true, "samstag": true, "sonntag": true}

// spanWords and countWords make "in zwei Wochen", "in drei Tagen".
var spanWords = map[string]bool{"tag": true, "tagen": true, "woche": true, "wochen": true, "monat": true, "monaten": true, "stunde": true, "stunden": true}

// saysAhead reports whether a German utterance places its event ahead.
func saysAhead(toks []intents.Token) bool {
	for i, t := range toks {
		switch {
		case t.Norm == "morgen" && i > 0 && toks[i-1].Norm == "guten":
			// "Guten Morgen" greets.
		case aheadWords[t.Norm]:
			return true
		case weekdays[t.Norm] && i > 0 && toks[i-1].Norm == "am":
			return true
		case t.Norm == "in" && i+2 < len(toks) && spanWords[toks[i+2].Norm]:
			return true
		}
	}
	return false
}

// trialSpread bounds the labels whose examples use a word of a trial:
// "prüfung" is in stress, good and bad news and "more about it".
const trialSpread = 4

// headMin is the shortest word a German compound ends with that counts as
// its head ("Führerscheinprüfung" is a "Prüfung").
const headMin = 5

// trialWord reports whether a German word, or the head of a compound it
// is, is one the stress examples use among few labels: an exam, an
// operation, an interview.
func trialWord(t intents.Token, lang nadine.Language) bool {
	stress := func(w string) bool {
		l := wordLabels()[lang][w]
		return l["feeling.stress"] && len(l) <= trialSpread
	}
	if aheadWords[t.Norm] || weekdays[t.Norm] || spanWords[t.Norm] {
		return false // the time, not the trial
	}
	if stress(t.Norm) {
		return true
	}
	r := []rune(t.Norm)
	for k := 3; len(r)-k >= headMin; k++ {
		if stress(string(r[k:])) {
			return true
		}
	}
	return false
}

// trialReadings are what the classifier makes of a trial ahead: news, or
// stress too weakly to pass the threshold ("Morgen ist mein erstes
// Vorstellungsgespräch", 0.26).
var trialReadings = map[string]bool{"feeling.news_good": true, "feeling.news_bad": true, "feeling.stress": true}

// trialAhead reads a German utterance the classifier takes for news, good
// or bad, that tells nothing done and places a trial ahead ("In zwei Tagen
// ist die Führerscheinprüfung", "Meine Operation ist nächste Woche"): news
// is what happened; a trial still to come is a worry, stress. A joy ahead
// ("Ich heirate nächste Woche") has no trial's word and stays news.
func (e *Engine) trialAhead(r reading) (candidate, bool) {
	top := r.whole.Top()
	if r.lang != nadine.German || !trialReadings[top.Label] || asking(r.toks, r.text) {
		return candidate{}, false
	}
	if toldDone(r.toks) || !saysAhead(r.toks) {
		return candidate{}, false
	}
	capitals := strings.ContainsFunc(r.text, unicode.IsUpper)
	for _, t := range r.toks {
		// A trial is a noun: capitalized, unless speech to text wrote
		// none ("ist durch" is no trial).
		if (startsUpper(t.Text) || !capitals) && trialWord(t, r.lang) {
			return candidate{"feeling.stress", top.Prob}, true
		}
	}
	return candidate{}, false
}

// germanPlacePrepositions come before a place or another person, not the
// speaker's name ("ich komme aus Wuppertal", "der Papa von Lisa").
var germanPlacePrepositions = map[string]bool{"aus": true, "von": true, "in": true, "bei": true, "nach": true, "mit": true,
	"zu": true, "fuer": true, "an": true, "am": true, "im": true, "vom": true, "zum": true, "zur": true}

// plainIntroName is the name that ends a German introduction the
// classifier reads plainly after a greeting (the greeting's part, or hers
// just before) when no context of the examples finds it: dialect and a
// learner's slips change the context's words ("Grüß di, mei Nam is
// Resi", "Guten Tag, meine Name ist Olga", "Moin, ich bin hier der
// Hannes"), not where the name stands. The stretch's last word is the
// name when it may be one (nameWord: unknown to the examples), is written
// with a capital where the speaker writes capitals, and follows no
// preposition; a capitalized name word before it joins it.
func (e *Engine) plainIntroName(r reading, h hints) string {
	toks, lang := r.toks, r.lang
	if lang != nadine.German || asking(toks, r.text) {
		return ""
	}
	from, to, prob := 0, len(toks), r.whole.Prob("name")
	switch {
	case len(r.parts) >= 2 && r.parts[0].top.Label == "greeting" && r.parts[0].top.Prob >= partSure:
		p := r.parts[1]
		from, to, prob = p.from, p.to, p.name
	case len(r.parts) > 0 || !h.greeted:
		return ""
	}
	if prob < wholeSure || to-from < 2 {
		return ""
	}
	capitals := strings.ContainsFunc(r.text, unicode.IsUpper)
	may := func(j int) bool {
		t := toks[j]
		return e.nameWord(toks, j, lang) && !isTitle(t, lang) && !examplePlaces()[t.Norm] && (startsUpper(t.Text) || !capitals)
	}
	j := to - 1
	if !may(j) || germanPlacePrepositions[toks[j-1].Norm] {
		return ""
	}
	name := titleCase(toks[j].Text)
	if j-1 > from && may(j-1) && startsUpper(toks[j-1].Text) && toks[j-1].Clause == toks[j].Clause && !germanPlacePrepositions[toks[j-2].Norm] {
		name = titleCase(toks[j-1].Text) + " " + name
	}
	return name
}

// germanNamingWords name: "mein Name ist", "ich heiße", "man nennt mich".
// "ich bin der …" also says what one is ("der Hausmeister"), folded.
var germanNamingWords = map[string]bool{"name": true, "vorname": true, "heisse": true, "heiss": true, "heisst": true,
	"nennt": true, "nennen": true, "nenn": true}

// namingFirst puts, in German, the strong contexts that name before the
// other strong ones: "Mein Name ist Annette, ich bin die
// Klassenlehrerin" and "Ich heiße Jörg und bin der Hausmeister" give the
// name, then the role; the examples' "ich bin die {name}" is as strong,
// and a role unknown to them reads as a name. The order is otherwise kept.
func namingFirst(spans []intents.Span, toks []intents.Token, lang nadine.Language) {
	if lang != nadine.German {
		return
	}
	naming := func(sp intents.Span) bool {
		if sp.Strength < strongContext {
			return false
		}
		for _, t := range toks[max(0, sp.From-sp.Context):sp.From] {
			if germanNamingWords[t.Norm] {
				return true
			}
		}
		return false
	}
	slices.SortStableFunc(spans, func(a, b intents.Span) int { return b2i(naming(b)) - b2i(naming(a)) })
}

// germanSubjects stand third in a German clause opened by an adverb and
// its verb ("Morgen fahren wir", "Morgen habe ich"), folded.
var germanSubjects = map[string]bool{"ich": true, "i": true, "du": true, "er": true, "sie": true, "es": true, "wir": true, "ihr": true,
	"man": true, "mein": true, "meine": true, "unser": true, "unsere": true, "der": true, "die": true, "das": true}

// tomorrowOpens reports whether a German utterance opens with "morgen" or
// "übermorgen" as the day, not the greeting: the verb comes second
// ("Morgen ist mein Vorstellungsgespräch", "Übermorgen muss ich
// präsentieren") or the subject third ("Morgen fahren wir"), with no
// comma after it. "Morgen Nadine", "Morgen zusammen", "morgen ich bin
// der Jan" greet.
func tomorrowOpens(toks []intents.Token) bool {
	if len(toks) < 3 || toks[0].Norm != "morgen" && toks[0].Norm != "uebermorgen" || toks[1].Clause != toks[0].Clause {
		return false
	}
	return germanAuxiliaries[toks[1].Norm] || germanModals[toks[1].Norm] || germanSubjects[toks[2].Norm] && !germanSubjects[toks[1].Norm]
}

// sourceWords, within the three words before a language's name in its
// clause, make it the language one leaves or lacks, not the one asked for:
// "ich spreche nicht gut Deutsch, lieber Französisch", "von Englisch auf
// Deutsch", "je ne parle pas allemand", "I don't speak German". Folded.
var sourceWords = map[string]bool{"nicht": true, "kein": true, "keine": true, "kaum": true, "von": true, "aus": true,
	"not": true, "dont": true, "cant": true, "from": true, "pas": true, "de": true}

// lackWords, within the three words after a language's name in its
// clause, say one lacks it ("mein Deutsch ist nicht so gut"). Folded.
var lackWords = map[string]bool{"nicht": true, "kaum": true, "schlecht": true, "not": true, "pas": true}

// switchTarget is the language an utterance that names several asks
// for: the first not told as the one left or lacked (sourceWords), else
// the first named (namedLanguage).
func switchTarget(toks []intents.Token, text string) (nadine.Language, bool) {
	var first nadine.Language
	for i, t := range toks {
		l, ok := languageOf(t)
		if !ok {
			continue
		}
		if first == "" {
			first = l
		}
		left := false
		for j := i - 1; j >= max(0, i-3) && toks[j].Clause == t.Clause; j-- {
			if _, named := languageOf(toks[j]); named {
				break // "von Englisch auf Deutsch": the "von" is English's
			}
			left = left || sourceWords[toks[j].Norm]
		}
		for j := i + 1; j < min(len(toks), i+4) && toks[j].Clause == t.Clause; j++ {
			left = left || lackWords[toks[j].Norm] // "mein Deutsch ist nicht so gut"
		}
		if !left {
			return l, true
		}
	}
	if first != "" {
		return first, true
	}
	return namedLanguage(toks, text)
}

// maxVocative is how many words the form of address closing an utterance
// may have ("Madl", "Frau Roboter").
const maxVocative = 2

// vocativeCut is where the form of address that closes a German utterance
// begins, or 0: after what reads plainly as another act than a greeting
// or an introduction, a last clause of one or two words that may be a name
// is whom the person speaks to, her ("Pfiat di, Madl", "Weißt du noch,
// wie ich heiße, Roboterfrau?"), and no name of theirs. After a greeting
// it may be theirs ("Tag auch, Kowalski").
func (e *Engine) vocativeCut(r reading) int {
	cl := intents.Clauses(r.toks)
	if r.lang != nadine.German || len(cl) < 2 {
		return 0
	}
	last := cl[len(cl)-1]
	if len(last) > maxVocative {
		return 0
	}
	capitals := strings.ContainsFunc(r.text, unicode.IsUpper)
	for _, t := range last {
		if !nameShaped(t) || commonWord(t, r.lang) || capitals && !startsUpper(t.Text) {
			return 0
		}
	}
	k := len(r.toks) - len(last)
	before := e.classifyPart(r.toks[:k]).Top()
	if before.Label == "greeting" || before.Label == "name" || before.Label == noneLabel || before.Prob < partSure {
		return 0
	}
	return last[0].Start
}

// abilitiesFloor is the least share of the abilities reading that
// weakAbilities takes: a third of the threshold, far above the chance
// share of one label in seventy.
const abilitiesFloor = threshold / 3

// canForms open a question of one act ("Können Sie Auto fahren?",
// "Könnten Sie das Fenster aufmachen?"), folded.
var canForms = map[string]bool{"kann": true, "kannst": true, "koennen": true, "koennt": true, "koennte": true, "koenntest": true, "koennten": true}

// abilitySpread bounds the labels whose examples use a word of a capacity
// ("Fähigkeiten", "Talente", "Funktionen").
const abilitySpread = 3

// weakAbilities reads a German utterance spoken to her whose likeliest
// reading is her abilities, below the threshold, as asking them: the
// words of a capacity vary ("Haben Sie besondere Talente?", "Man hat mir
// erzählt, Sie könnten allerhand"), and only the examples' "können" and
// "Fähigkeiten" pull them there; none would say she cannot answer what
// she can do. It takes a word of a capacity (a form of "können", or a
// word few labels but abilities use) and no fact of hers read half as
// likely (how she does a thing is a fact); a question opened by "können"
// asks for one act, which the threshold keeps deciding.
func (e *Engine) weakAbilities(r reading) (candidate, bool) {
	top := r.whole.Top()
	if r.lang != nadine.German || top.Label != "abilities" || top.Prob >= e.threshold || top.Prob < abilitiesFloor || !spokenTo(r.toks) {
		return candidate{}, false
	}
	capacity := false
	for _, cl := range intents.Clauses(r.toks) {
		if canForms[cl[0].Norm] {
			return candidate{}, false // "Können Sie mir sagen, …?", "Kannst du schwimmen?": one act asked for
		}
		for _, t := range cl {
			l := wordLabels()[r.lang][t.Norm]
			capacity = capacity || canForms[t.Norm] || l["abilities"] && len(l) <= abilitySpread
		}
	}
	if !capacity {
		return candidate{}, false // "Erzähl mal was über deine Persönlichkeit", "bist du auf insta"
	}
	for _, s := range r.whole.Labels {
		if strings.HasPrefix(s.Label, "knowledge.") && 2*s.Prob >= top.Prob {
			return candidate{}, false // how she does a thing may be asked: a fact of hers
		}
	}
	return candidate{top.Label, top.Prob}, true
}

// turnWords open the German stretch that tells what came of an event:
// "und ich schlafe kaum noch", "aber jetzt hab ich doppelt so viel
// Arbeit", without a comma when speech to text writes none.
var turnWords = map[string]bool{"und": true, "aber": true, "doch": true, "nur": true, "jetzt": true}

// stateAfterNews is the state a German speaker tells after good news, in
// any words, not only after "bin" (statedState): "Ich hab die Beförderung
// bekommen, aber jetzt hab ich doppelt so viel Arbeit", "Wir haben ein
// Baby bekommen und ich schlafe kaum noch, alles wächst mir über den
// Kopf". The whole reads the news, the event's words outweighing the
// state's; a later clause, or the stretch after "und", "aber", read more
// likely than not as stress, tiredness, sickness or sadness is what the
// person is in now, the news its cause.
func (e *Engine) stateAfterNews(r reading) (candidate, bool) {
	if r.lang != nadine.German || r.whole.Top().Label != "feeling.news_good" || asking(r.toks, r.text) {
		return candidate{}, false
	}
	var stretches [][]intents.Token
	if cl := intents.Clauses(r.toks); len(cl) > 1 {
		stretches = append(stretches, cl[1:]...)
	}
	for i := 2; i < len(r.toks)-1; i++ {
		if turnWords[r.toks[i].Norm] {
			stretches = append(stretches, r.toks[i+1:])
		}
	}
	var best candidate
	for _, s := range stretches {
		if p := e.classifyPart(s).Top(); heavyStates[p.Label] && p.Prob >= wholeSure && p.Prob > best.prob {
			best = candidate{p.Label, p.Prob}
		}
	}
	return best, best.label != ""
}
