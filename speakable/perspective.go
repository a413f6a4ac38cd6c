package speakable

import (
	"strings"
	"unicode"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
	"github.com/nadine-robot/nadine/lexical"
)

// The prompt speaks to Nadine about herself ("You talk with people through
// your voice"); a visitor never needs to hear her described so. Read with
// the person swapped ("I talk with people through my voice"), such a
// sentence is what she says of herself: docs/speech.md, "Perspective".

// ptoken is one word of a sentence as the swap reads it.
type ptoken struct {
	text  string // as written
	lower string
	cjk   bool
}

// ptokens splits s into words, each ideographic character one.
func ptokens(s string) []ptoken {
	var out []ptoken
	start := -1
	flush := func(end int) {
		if start >= 0 {
			w := s[start:end]
			out = append(out, ptoken{text: w, lower: strings.ToLower(w)})
			start = -1
		}
	}
	for i, r := range s {
		switch {
		case isIdeographic(r):
			flush(i)
			w := string(r)
			out = append(out, ptoken{text: w, lower: w, cjk: true})
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(s))
	return out
}

// swapPerson returns s lowercased with the first and second person swapped by
// a small grammar per language (tu es → je suis), and whether s says "you".
func swapPerson(s string, lang nadine.Language) (string, bool) {
	toks := ptokens(s)
	var out []string
	var second bool
	switch lang {
	case nadine.French:
		out, second = swapFrench(toks)
	case nadine.German:
		out, second = swapGerman(toks)
	case nadine.Chinese:
		out, second = swapChinese(toks)
	default:
		out, second = swapEnglish(toks)
	}
	var b strings.Builder
	for i, w := range out {
		if i > 0 && !(toks[i].cjk && toks[i-1].cjk) {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	return b.String(), second
}

// English.

var (
	enPossessive = map[string]string{"your": "my", "yours": "mine", "yourself": "myself", "yourselves": "ourselves",
		"my": "your", "mine": "yours", "myself": "yourself"}
	// enSubjectBefore are the words after which "you" is a subject (else an
	// object: "who built you" → "who built me").
	enSubjectBefore = set("and", "but", "that", "who", "when", "if", "because", "so", "as", "while", "where", "how",
		"what", "why", "do", "does", "did", "can", "could", "will", "would", "should", "may", "might", "must", "have",
		"has", "then", "since", "although", "though", "or", "once", "whenever", "unless", "until", "now", "here", "today")
	// enSecondVerb and enFirstVerb: the verb forms that agree with "you" and "I".
	enSecondVerb = map[string]string{"are": "am", "were": "was", "re": "m", "aren": "am"}
	enFirstVerb  = map[string]string{"am": "are", "was": "were", "m": "re"}
)

func swapEnglish(toks []ptoken) ([]string, bool) {
	out := make([]string, len(toks))
	second := false
	for i, t := range toks {
		w := t.lower
		out[i] = w
		prev, next := "", ""
		if i > 0 {
			prev = toks[i-1].lower
		}
		if i+1 < len(toks) {
			next = toks[i+1].lower
		}
		switch {
		case w == "you":
			second = true
			_, verbNext := enSecondVerb[next]
			if i == 0 || enSubjectBefore[prev] || verbNext || enSecondVerb[prev] != "" {
				out[i] = "i"
			} else {
				out[i] = "me"
			}
		case w == "i":
			out[i] = "you"
		case w == "me":
			out[i] = "you"
		case enPossessive[w] != "":
			second = second || strings.HasPrefix(w, "your")
			out[i] = enPossessive[w]
		case enSecondVerb[w] != "" && (prev == "you" || next == "you"):
			out[i] = enSecondVerb[w]
		case enFirstVerb[w] != "" && (prev == "i" || next == "i"):
			out[i] = enFirstVerb[w]
		}
	}
	return out, second
}

// French.

var (
	frObject = map[string]string{"te": "me", "t": "m", "toi": "moi", "ton": "mon", "ta": "ma", "tes": "mes",
		"votre": "mon", "vos": "mes", "vôtre": "mien", "tien": "mien", "tienne": "mienne",
		"me": "te", "m": "t", "moi": "toi", "mon": "ton", "ma": "ta", "mes": "tes", "mien": "tien", "mienne": "tienne"}
	// frTu and frVous are the irregular verb forms after tu and vous, as
	// the first person says them; the rest follow the endings (-es → -e,
	// -ez → -e).
	frTu = map[string]string{"es": "suis", "as": "ai", "étais": "étais", "avais": "avais", "vas": "vais", "peux": "peux",
		"veux": "veux", "sais": "sais", "fais": "fais", "dis": "dis", "dois": "dois", "vois": "vois", "viens": "viens"}
	frVous = map[string]string{"êtes": "suis", "avez": "ai", "étiez": "étais", "aviez": "avais", "allez": "vais",
		"pouvez": "peux", "voulez": "veux", "savez": "sais", "faites": "fais", "dites": "dis", "devez": "dois",
		"voyez": "vois", "venez": "viens", "prenez": "prends", "comprenez": "comprends", "entendez": "entends",
		"connaissez": "connais", "vivez": "vis", "appartenez": "appartiens"}
	frJe = map[string]string{"suis": "es", "ai": "as", "vais": "vas"}
)

// frVerbAfterVous is the first person of a verb form agreeing with vous, or ""
// when w does not (vous is then an object: "qui vous a créée").
func frVerbAfterVous(w string) string {
	if v, ok := frVous[w]; ok {
		return v
	}
	if strings.HasSuffix(w, "ez") && len(w) > 3 {
		return w[:len(w)-2] + "e"
	}
	return ""
}

func frVerbAfterTu(w string) string {
	if v, ok := frTu[w]; ok {
		return v
	}
	if strings.HasSuffix(w, "es") && len(w) > 3 {
		return w[:len(w)-1]
	}
	return w
}

func startsWithVowel(w string) bool {
	return w != "" && strings.ContainsRune("aeiouhéèêàâîôû", []rune(w)[0])
}

// frBeforeVerb are the pronouns that may stand between a subject and its
// verb ("tu les vois", "vous m'avez").
var frBeforeVerb = set("les", "le", "la", "l", "y", "en", "lui", "leur", "ne", "n", "me", "m", "te", "t", "nous", "vous", "se", "s")

func swapFrench(toks []ptoken) ([]string, bool) {
	out := make([]string, len(toks))
	second := false
	object := func(k int) {
		w := toks[k].lower
		out[k] = w
		if v := frObject[w]; v != "" {
			out[k] = v
			second = second || w == "te" || w == "toi" || w == "ton" || w == "ta" || w == "tes" || w == "votre" ||
				w == "vos" || w == "vôtre" || w == "t" && !(k+1 < len(toks) && frThird[toks[k+1].lower])
		}
	}
	for i := 0; i < len(toks); i++ {
		w := toks[i].lower
		out[i] = w
		// A subject pronoun, then its verb, perhaps after object pronouns.
		verbAt := i + 1
		for verbAt < len(toks) && verbAt < i+3 && frBeforeVerb[toks[verbAt].lower] {
			verbAt++
		}
		verb := ""
		if verbAt < len(toks) {
			verb = toks[verbAt].lower
		}
		subject := ""
		switch {
		case w == "tu":
			subject, verb = "je", frVerbAfterTu(verb)
		case w == "vous" && frVerbAfterVous(verb) != "":
			subject, verb = "je", frVerbAfterVous(verb)
		case w == "vous":
			second = true
			out[i] = "me"
			if i+1 < len(toks) && startsWithVowel(toks[i+1].lower) {
				out[i] = "m"
			}
			continue
		case (w == "je" || w == "j") && verb != "":
			subject = "tu"
			if v, ok := frJe[verb]; ok {
				verb = v
			}
		default:
			object(i)
			continue
		}
		second = second || subject == "je"
		out[i] = subject
		if subject == "je" && verbAt == i+1 && startsWithVowel(verb) {
			out[i] = "j"
		}
		for k := i + 1; k < verbAt; k++ {
			object(k)
		}
		if verbAt < len(toks) {
			out[verbAt] = verb
		}
		i = verbAt
	}
	return out, second
}

// frThird are the pronouns of the third person after a t of liaison
// ("a-t-il").
var frThird = set("il", "elle", "on", "ils", "elles")

// German.

var (
	deObject = map[string]string{"dich": "mich", "dir": "mir", "dein": "mein", "deine": "meine", "deinen": "meinen",
		"deinem": "meinem", "deiner": "meiner", "deines": "meines",
		"mich": "dich", "mir": "dir", "mein": "dein", "meine": "deine", "meinen": "deinen", "meinem": "deinem",
		"meiner": "deiner", "meines": "deines"}
	// deFormal are the polite second person's words, capitalized within a
	// sentence ("Ihre Stimme").
	deFormal = map[string]string{"Ihr": "mein", "Ihre": "meine", "Ihren": "meinen", "Ihrem": "meinem", "Ihrer": "meiner",
		"Ihres": "meines", "Ihnen": "mir"}
	deDu = map[string]string{"bist": "bin", "hast": "habe", "warst": "war", "wurdest": "wurde", "kannst": "kann",
		"willst": "will", "musst": "muss", "darfst": "darf", "sollst": "soll", "magst": "mag", "weißt": "weiß",
		"sprichst": "spreche", "siehst": "sehe", "hilfst": "helfe", "gibst": "gebe", "nimmst": "nehme", "liest": "lese",
		"isst": "esse", "triffst": "treffe", "fährst": "fahre", "läufst": "laufe", "hältst": "halte", "wirst": "werde"}
	deSie = map[string]string{"sind": "bin", "haben": "habe", "waren": "war", "wurden": "wurde", "können": "kann",
		"wollen": "will", "müssen": "muss", "dürfen": "darf", "sollen": "soll", "mögen": "mag", "wissen": "weiß",
		"werden": "werde"}
	deIch = map[string]string{"bin": "bist", "habe": "hast", "war": "warst", "kann": "kannst", "will": "willst", "muss": "musst"}
)

// deNotVerb are words ending in -st that are no verb of du.
var deNotVerb = set("ist", "fast", "selbst", "sonst", "erst", "meist", "jetzt", "zuerst", "bisst", "lust", "angst", "kunst", "gast", "rest", "post", "last", "nest")

// deVerbAfterDu is the first person of a verb form that agrees with du.
func deVerbAfterDu(w string) string {
	if v, ok := deDu[w]; ok {
		return v
	}
	switch {
	case strings.HasSuffix(w, "est") && len(w) > 4:
		return w[:len(w)-2]
	case strings.HasSuffix(w, "st") && len(w) > 3:
		return w[:len(w)-2] + "e"
	}
	return w
}

// deVerbAfterSie is the first person of a verb form that agrees with the
// polite Sie, or "" when w does not (then "sie" is she or they).
func deVerbAfterSie(w string) string {
	if v, ok := deSie[w]; ok {
		return v
	}
	if strings.HasSuffix(w, "en") && len(w) > 3 {
		return w[:len(w)-1]
	}
	return ""
}

func swapGerman(toks []ptoken) ([]string, bool) {
	out := make([]string, len(toks))
	done := make([]bool, len(toks)) // a verb already put in its person
	second := false
	subject := "" // the second person's subject met last
	for i, t := range toks {
		w := t.lower
		if done[i] {
			continue
		}
		out[i] = w
		prev, next := "", ""
		if i > 0 {
			prev = toks[i-1].lower
		}
		if i+1 < len(toks) {
			next = toks[i+1].lower
		}
		set := func(j int, v string) { out[j], done[j] = v, true }
		switch {
		case w == "du":
			second = true
			subject = "du"
			out[i] = "ich"
			// The verb is next ("du bist") or before ("bist du").
			if next != "" {
				set(i+1, deVerbAfterDu(next))
			}
			if prev != "" && deDu[prev] != "" {
				set(i-1, deDu[prev])
			}
		case w == "sie" && (t.text == "Sie" && i > 0 || i == 0 && deVerbAfterSie(next) != "" || deSie[prev] != "" && t.text == "Sie"):
			// The polite Sie: capitalized within a sentence, or first with a
			// verb of its person ("Sie sind", "sind Sie").
			second = true
			out[i] = "ich"
			if v := deVerbAfterSie(next); v != "" {
				set(i+1, v)
			}
			if v := deSie[prev]; v != "" {
				set(i-1, v)
			}
		case deFormal[t.text] != "" && i > 0:
			second = true
			out[i] = deFormal[t.text]
		case subject == "du" && (prev == "und" || prev == "oder" || prev == "aber") && strings.HasSuffix(w, "st") && !deNotVerb[w]:
			// A verb that shares the subject du ("du wohnst in Genf und
			// sprichst mit Besuchern").
			out[i] = deVerbAfterDu(w)
		case w == "ich":
			out[i] = "du"
			if v := deIch[next]; v != "" {
				set(i+1, v)
			}
		case deObject[w] != "":
			second = second || strings.HasPrefix(w, "d")
			out[i] = deObject[w]
		}
	}
	return out, second
}

// Chinese.

func swapChinese(toks []ptoken) ([]string, bool) {
	out := make([]string, len(toks))
	second := false
	for i, t := range toks {
		switch t.lower {
		case "你", "您":
			second = true
			out[i] = "我"
		case "我":
			out[i] = "你"
		default:
			out[i] = t.lower
		}
	}
	return out, second
}

// perspective holds what Nadine says of herself (first person) and to a
// visitor (second person), per language, as lexical vectors.
type perspective struct {
	emb           *lexical.Embedder
	self, visitor map[nadine.Language][]sparse
}

// sparse is a lexical vector by its non-zero dimensions: a sentence fills
// a fifth of them, so a comparison costs a fifth.
type sparse struct {
	dims []uint16
	vals []float32
}

func sparseOf(v []float32) sparse {
	var s sparse
	for i, x := range v {
		if x != 0 {
			s.dims = append(s.dims, uint16(i))
			s.vals = append(s.vals, x)
		}
	}
	return s
}

// newPerspective reads the speech examples of the training part.
func newPerspective(examples []intents.Example) *perspective {
	p := &perspective{emb: lexical.New(0), self: map[nadine.Language][]sparse{}, visitor: map[nadine.Language][]sparse{}}
	for _, ex := range examples {
		if ex.Label != labelSpeech {
			continue
		}
		_, second := swapPerson(ex.Text, ex.Lang)
		if second {
			p.visitor[ex.Lang] = append(p.visitor[ex.Lang], sparseOf(p.emb.Vector(ex.Text)))
		}
		if anyOf(words(ex.Text), firstPerson) {
			p.self[ex.Lang] = append(p.self[ex.Lang], sparseOf(p.emb.Vector(ex.Text)))
		}
	}
	return p
}

// told returns how much closer s in the first person is to what Nadine says of
// herself than s is to what she says to visitors (computed only up to least).
func (p *perspective) told(s string, lang nadine.Language, least float64) (margin float64, ok bool) {
	if !toldAbout(s) {
		return 0, false
	}
	swapped, second := swapPerson(s, lang)
	if !second {
		return 0, false
	}
	self := nearest(p.emb.Vector(swapped), p.self[lang])
	if self < least {
		return self, true
	}
	return self - nearest(p.emb.Vector(s), p.visitor[lang]), true
}

// nearest is the greatest cosine of v with one of vs (all normalized).
func nearest(v []float32, vs []sparse) float64 {
	best := 0.0
	for _, u := range vs {
		var d float32
		for k, i := range u.dims {
			d += u.vals[k] * v[i]
		}
		best = max(best, float64(d))
	}
	return best
}

// toldAbout reports whether s may describe its listener as the prompt does
// Nadine: a statement, no question or exclamation, with no "I" in it.
func toldAbout(s string) bool {
	t := strings.TrimRight(strings.TrimSpace(s), "\"')»”） ")
	if strings.HasSuffix(t, "?") || strings.HasSuffix(t, "!") || strings.HasSuffix(t, "？") || strings.HasSuffix(t, "！") {
		return false
	}
	ws := words(s)
	if len(ws) == 0 || anyOf(ws, firstPerson) {
		return false
	}
	// A question as speech recognition writes it, without its mark: an
	// interrogative word first, the subject after the verb that opens it
	// ("bist du gut drauf", "es-tu là", "have you seen it"), or a Chinese
	// question particle last.
	inverted := len(ws) > 1 && invertedSubject[ws[1]]
	return !interrogative[ws[0]] && !inverted && !questionParticle[ws[len(ws)-1]] && !aNotA(s)
}

// aNotA reports whether s asks a Chinese A-not-A question: a verb, 不 or 没,
// and the verb again (你会不会难过, 是不是, 有没有).
func aNotA(s string) bool {
	r := []rune(s)
	for i := 0; i+2 < len(r); i++ {
		if (r[i+1] == '不' || r[i+1] == '没') && r[i] == r[i+2] && isIdeographic(r[i]) {
			return true
		}
	}
	return false
}

// invertedSubject are the second-person subjects that, second in a
// sentence, follow the verb that opens a question.
var invertedSubject = set("you", "tu", "vous", "du", "sie", "ihr")

// interrogative are the words a question starts with, in the languages
// Nadine speaks.
var interrogative = set("who", "what", "where", "when", "why", "how", "which", "whose", "do", "does", "did", "can", "could",
	"are", "is", "will", "would", "qui", "que", "quoi", "où", "quand", "pourquoi", "comment", "quel", "quelle", "quels",
	"quelles", "est", "wer", "was", "wo", "woher", "wohin", "wann", "warum", "wieso", "weshalb", "wie", "welche",
	"welcher", "welches", "谁", "什", "哪", "怎", "为")

// questionParticle are the particles that end a Chinese question.
var questionParticle = set("吗", "呢", "么")
