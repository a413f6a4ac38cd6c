package dialogue

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/nadine-robot/nadine/intents"
)

// Answer is what a reply to a yes/no question says.
type Answer int

// The answers ReadAnswer tells apart.
const (
	// AnswerUnclear: neither a clear yes nor a clear no (a hesitation, a
	// counter-question, both, or something else entirely).
	AnswerUnclear Answer = iota
	AnswerYes
	AnswerNo
)

// String returns "yes", "no" or "unclear".
func (a Answer) String() string {
	switch a {
	case AnswerYes:
		return "yes"
	case AnswerNo:
		return "no"
	}
	return "unclear"
}

// ReadAnswer reads a spoken yes/no answer conservatively, for questions whose
// yes cannot be undone (docs/privacy-forget.md gives the rules).
func ReadAnswer(text string) Answer {
	a, _ := readAnswer(text)
	return a
}

// readAnswer is ReadAnswer, and whether the text holds anything against a
// yes: a negation, a hesitation or a question.
func readAnswer(text string) (Answer, bool) {
	units := answerUnits(text)
	var yes, no, hesitate int
	asks := strings.ContainsAny(text, "?？")
	prev, content := markerNone, 0
	for i := 0; i < len(units); {
		kind, n := matchMarker(units, i)
		if kind == markerNone {
			// An unknown word stands between markers: they are not
			// adjacent.
			prev = markerNone
			content++
			i++
			continue
		}
		switch kind {
		case markerYes:
			if prev == markerNo {
				kind = markerNo // "not ok", "不好": the negation was counted
			} else {
				yes++
			}
		case markerNo:
			if prev == markerYes {
				yes-- // "of course not": the affirmation is negated
			}
			no++
		case markerHesitate:
			hesitate++
		case markerYesLead:
			// "Si !" contradicts a negative question; after other words
			// it is "if" ("non, je voulais savoir si c'était possible").
			if content == 0 {
				yes++
			}
		case markerAskZh:
			asks = true
		case markerAsk:
			// An interrogative opens a question (en, fr, de); later in
			// the sentence it is a relative ("that's what I asked").
			if content == 0 && yes == 0 && no == 0 {
				asks = true
			}
		}
		if kind != markerFiller {
			content++
		}
		prev = kind
		i += n
	}
	objects := asks || hesitate > 0 || no > 0
	switch {
	case asks:
		return AnswerUnclear, objects
	case no > 0 && yes <= 0:
		// A no keeps everything, so a hesitant one ("hmm, better not")
		// is still a no; only a yes must be clear.
		return AnswerNo, objects
	case hesitate > 0:
		return AnswerUnclear, objects
	case yes > 0 && no == 0:
		return AnswerYes, objects
	}
	return AnswerUnclear, objects
}

// markerKind is what a lexicon entry marks.
type markerKind int

const (
	markerNone markerKind = iota
	markerYes
	markerNo
	markerHesitate
	markerYesLead // a yes only when it opens the answer: "si" is also "if"
	markerAsk     // an interrogative that opens a question (en, fr, de)
	markerAskZh   // a Chinese question word or particle, anywhere
	markerFiller
)

// matchMarker returns the kind of the longest lexicon entry that starts at
// units[i], and how many units it covers (1 for an unknown unit). A word
// drawn out ("Jaaa!", "neee", "hmmm", "klaaar") is the entry it stretches;
// a letter doubled is spelling ("nett", "soon").
func matchMarker(units []string, i int) (markerKind, int) {
	for n := min(answerLexicon.longest, len(units)-i); n > 0; n-- {
		if k, ok := answerLexicon.entries[strings.Join(units[i:i+n], " ")]; ok {
			return k, n
		}
	}
	for _, keep := range []int{1, 2} {
		if u := intents.ShortenRuns(units[i], keep); drawnOut(units[i]) {
			if k, ok := answerLexicon.entries[u]; ok {
				return k, 1
			}
		}
	}
	return markerNone, 1
}

// drawnOut reports whether w repeats a sign three times running: no word
// is spelled so ("nett" is no drawn-out "net", Bavarian for "not").
func drawnOut(w string) bool { return intents.ShortenRuns(w, 2) != w }

// answerUnits splits an utterance into the lexicon's units: words, English
// clitics and French elisions as their own, and each Han character alone.
func answerUnits(text string) []string {
	var units []string
	var word []rune
	flush := func() {
		if len(word) > 0 {
			units = append(units, splitClitics(string(word))...)
			word = word[:0]
		}
	}
	// 繁體 is read as the lexicon's 简体: "對啦 刪吧" is "对啦 删吧".
	for _, r := range strings.ToLower(intents.Simplify(norm.NFC.String(text))) {
		switch {
		case unicode.Is(unicode.Han, r):
			flush()
			units = append(units, string(r))
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			word = append(word, r)
		case r == '\'' || r == '’':
			if len(word) > 0 {
				word = append(word, '\'')
			}
		default:
			flush()
		}
	}
	flush()
	return units
}

// splitClitics splits "don't" into "do" "n't", "what's" into "what" "'s",
// and "n'oublie" into "n'" "oublie".
func splitClitics(w string) []string {
	before, after, ok := strings.Cut(w, "'")
	if !ok || after == "" {
		return []string{w}
	}
	switch {
	case after == "t" && strings.HasSuffix(before, "n"):
		if before == "n" {
			return []string{"n't"}
		}
		return []string{strings.TrimSuffix(before, "n"), "n't"}
	case len([]rune(before)) <= 2 || before == "qu" || before == "jusqu" || before == "lorsqu" || before == "puisqu":
		// French elision: n', m', t', s', j', l', d', c', qu'.
		return append([]string{before + "'"}, splitClitics(after)...)
	}
	return []string{before, "'" + after}
}

// lexicon is the answer markers, by the space-joined units of each entry.
type lexicon struct {
	entries map[string]markerKind
	longest int // the most units an entry has
}

// newLexicon builds a lexicon from word lists per kind; each phrase is
// split into units as utterances are.
func newLexicon(lists map[markerKind][]string) lexicon {
	l := lexicon{entries: map[string]markerKind{}}
	for kind, phrases := range lists {
		for _, p := range phrases {
			units := answerUnits(p)
			l.entries[strings.Join(units, " ")] = kind
			l.longest = max(l.longest, len(units))
		}
	}
	return l
}

// answerLexicon holds the four languages' markers together: a visitor may
// answer in another language than the question's ("OK"), and they do not collide.
var answerLexicon = newLexicon(map[markerKind][]string{
	markerYes: {
		// English
		"yes", "yeah", "yea", "yep", "yup", "ya", "sure", "ok", "okay", "alright", "all right", "right",
		"absolutely", "definitely", "certainly", "of course", "indeed", "correct", "exactly", "affirmative",
		"go ahead", "do it", "please do", "go on", "fine", "no problem", "sounds good", "i am sure", "that's right",
		"but of course",
		// French
		"oui", "ouais", "ouaip", "bien sûr", "bien entendu", "d'accord", "ok d'accord", "vas-y", "allez-y",
		"absolument", "exactement", "tout à fait", "certainement", "évidemment", "volontiers", "sûr", "sûre",
		"c'est ça", "mais si", "si si", "pas de problème", "sans problème", "je veux bien", "mais oui", "mais bien sûr", "bien sûr que oui",
		"je confirme", "carrément", "ouep", "d'acc", "affirmatif", "ouin",
		"fais-le", "faites-le", "efface tout", "effacez tout", "supprime tout", "supprimez tout",
		// German
		"ja", "jawohl", "jap", "jo", "genau", "klar", "na klar", "natürlich", "sicher", "gerne", "gern",
		"einverstanden", "richtig", "stimmt", "korrekt", "selbstverständlich", "auf jeden fall", "doch",
		"mach das", "mach es", "mach ruhig", "los", "kein problem", "aber ja", "aber klar", "aber sicher",
		"passt", "passt schon", "nur zu", "mach nur", "tu das", "leg los", "meinetwegen", "von mir aus",
		"freilich", "logo", "klaro", "jep", "jup", "jupp", "sicher doch", "gerne doch", "jawoll", "joa",
		"mach mal", "mach schon", "na los", "bestimmt", "ganz bestimmt", "unbedingt", "gewiss",
		"absolut", "definitiv", "exakt", "auf alle fälle", "das will ich", "das möchte ich",
		"gärn", "gärne", // Swiss
		// Chinese
		"是", "是的", "对", "对的", "好", "好的", "好吧", "可以", "行", "确定", "当然", "没问题", "同意", "嗯嗯",
		// "Not wrong" is right; a yes in Chinese repeats the question's verb ("要").
		"没错", "没错没错", "肯定", "肯定的", "要", "要的",
	},
	markerNo: {
		// English
		"no", "nope", "nah", "not", "n't", "never", "never mind", "cancel", "stop", "keep it", "keep everything",
		"changed my mind", "no thanks", "no thank you",
		// French
		"non", "négatif", "ne", "n'", "pas", "jamais", "annule", "annuler", "arrête", "garde", "gardez", "changé d'avis",
		"laisse tomber", "mais non", "bien sûr que non",
		"nan", "nan nan", "hors de question", "laisse", "laissez", "laissez tomber", "niet",
		"je rigole", "je rigolais", "je plaisante", "je plaisantais", "c'était pour rire",
		// Polite refusals and "I was only trying it out": nothing to erase.
		"ça ira", "ça va aller", "pas besoin", "je testais", "je teste", "c'était un test", "pour voir", "pour tester", "juste tester",
		"juste essayer", "pour essayer", "t'inquiète", "oublie ça", "oubliez ça",
		"conserve", "conservez", "gardes", "gardiez", "pantoute", "laisse faire", // Québec: "pas du tout", "never mind"
		"aucunement", "nullement", "nenni", // formal and old refusals
		// German
		"nein", "nee", "nö", "nicht", "kein", "keine", "nie", "niemals", "abbrechen", "stopp",
		"behalte", "behalten", "anders überlegt", "auf keinen fall", "lass es", "aber nein",
		// "doch" says yes alone, not before a no ("doch lieber nicht").
		"doch nicht", "doch lieber nicht", "lieber doch nicht", "besser nicht", "bloß nicht",
		"auf gar keinen fall", "lass gut sein", "lass mal gut sein", "lass mal lieber", "lass lieber",
		// Bavarian, Austrian, Swabian and Swiss: "nicht", "nein", "behalte".
		"ned", "net", "nöd", "nid", "nei", "noi", "behalt", "bhalt", "bhaltet",
		// Formal refusals of one word, and "nix da".
		"keinesfalls", "keineswegs", "mitnichten", "nix da",
		// Chinese
		"不", "不要", "不用", "别", "没", "没有", "否", "算了", "取消", "改主意", "不是", "不对", "不行", "不好", "不可以",
		"留着", "保留", "开玩笑的",
		"算啦", "改变主意", "记着", "记着我",
	},
	markerHesitate: {
		// English
		"maybe", "perhaps", "possibly", "not sure", "n't know", "no idea", "let me think", "think", "wait",
		"hold on", "but", "unless", "depends", "later", "why not",
		// French
		"peut-être", "ne sais pas", "sais pas", "pas sûr", "pas sûre", "aucune idée", "attends", "attendez",
		"réfléchis", "réfléchir", "je réfléchis", "hésite", "mais", "plus tard", "pourquoi pas",
		// German
		"vielleicht", "weiß nicht", "weiß ich nicht", "nicht sicher", "keine ahnung", "moment", "warte",
		"überlege", "überlegen", "mal sehen", "aber", "eventuell", "später", "warum nicht",
		// Chinese
		"也许", "可能", "大概", "不知道", "不确定", "不清楚", "想想", "想一想", "等等", "等一下", "但是", "再说",
		"可是", "要是", "好像",
		// Indifference is no consent ("都行" holds 行), nor is "hard to say" a no.
		"都行", "都可以", "随便", "无所谓", "说不好", "不好说",
	},
	markerAsk: {
		"what", "why", "how", "which", "who", "when", "where", "huh", "pardon", "sorry",
		"quoi", "pourquoi", "comment", "quel", "quelle", "quels", "quelles", "qui", "quand", "où", "hein",
		"was", "warum", "wieso", "weshalb", "wie", "welche", "welcher", "wer", "wann", "wo", "bitte was",
	},
	markerYesLead: {"si"},
	markerAskZh:   {"什么", "为什么", "怎么", "吗", "呢", "几", "哪"},
	markerFiller: {
		"please", "thanks", "thank you", "nadine", "well", "uh", "um", "hmm", "so", "oh",
		"s'il te plaît", "s'il vous plaît", "merci", "euh", "ben", "bon", "alors", "eh bien",
		"bitte", "danke", "äh", "ähm", "also", "na",
		"请", "谢谢", "嗯", "啊", "吧", "呀", "哦", "了",
		// Chinese words that hold 是 or 对 without saying yes ("还是留着吧").
		"还是", "就是", "真是", "对于", "对我",
	},
})
