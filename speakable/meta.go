package speakable

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/spoken"
)

// Talk about the answer: an aside or a lead-in is judged on its own, so
// "Here is my answer in JSON: Hello!" still says "Hello!".

var (
	// optionRE is an option of the answer format ("option 2"), which the
	// ReAct prompt names.
	optionRE = regexp.MustCompile(`(?i)\boption\s*[12]\b`)
	// parentheticalRE is an aside in parentheses, or a heading in
	// lenticular brackets (【回复】).
	parentheticalRE = regexp.MustCompile(`\s*[(（\[【][^()（）\[\]【】]{1,200}[)）\]】]\s*`)
	// spaceBeforeStopRE is an aside removed just before a stop: the stop
	// closes the words before it ("Welcome (tone: warm)!" → "Welcome!").
	spaceBeforeStopRE = regexp.MustCompile(asideGone + `\s*([.!?,;:。！？，；：])`)
	// annotationRE is an aside that labels what follows its colon, as a
	// field does ("(tone: friendly)", "（语气：友好）"): one or two words,
	// or up to four ideographs, then the colon.
	annotationRE = regexp.MustCompile(`^(?:[\p{L}\p{N}'-]+(?:\s+[\p{L}\p{N}'-]+)?|\p{Han}{1,4})\s*[:：]`)
	// replyPresentedRE is a lead-in that presents the reply by its
	// structure, whatever the classifier says of its adjectives: "here is",
	// then a few words, then the reply's noun ("Voici une réponse courte
	// et chaleureuse", "以下是一个简短的回复").
	replyPresentedRE = regexp.MustCompile(`(?i)^(?:here(?:\s+is|'s|\s+comes)|voici|voilà|hier(?:\s+(?:ist|kommt))?|nachfolgend)\s+(?:[\p{L}'-]+\s+){0,5}?(?:answer|reply|response|information|info|details|facts|overview|summary|explanation|(?:self-)?introduction|intro|réponse|réplique|informations|détails|faits|résumé|explication|aperçu|présentation|antwort|erwiderung|informationen|fakten|überblick|zusammenfassung|erklärung|vorstellung|selbstvorstellung)\b[^.!?]{0,30}$|^(?:以下是|下面是|这是)[^。！？]{0,16}(?:回答|回复|答复|信息|资料|概述|总结|解释|介绍)[^。！？]{0,6}$`)
	// complianceRE is a lead-in that says the reply does as it was asked
	// ("As requested, …", "Comme on me l'a demandé, je réponds en français
	// : …", "Wie gewünscht …", "按照要求，…"): what follows is the reply.
	complianceRE = regexp.MustCompile(`(?i)^(?:as\s+(?:you\s+|i\s+was\s+|was\s+)?(?:requested|asked|instructed|required)|comme\s+(?:on\s+me\s+l'a|vous\s+l'avez|tu\s+l'as|demand[ée]|convenu)|wie\s+(?:gew[üu]nscht|verlangt|gefordert|gebeten|vorgegeben)|(?:按照|根据|遵照|依照)(?:你的|您的)?(?:要求|指示|规定)|如(?:你|您)所(?:要求|说))`)
	// restatedRE names the visitor's input rewritten, as the
	// contextualizer's prompt asks ("Here is the standalone question:",
	// "Voici la question reformulée :", "Umformulierte Frage:",
	// "以下是独立的问题："): what follows is the input, not a reply.
	restatedRE = regexp.MustCompile(`(?i)\b(?:standalone|stand-alone|self-contained|rewritten|rephrased|reformulated|condensed|clarified|independent)\s+(?:question|query|request|input|version|text|statement)` +
		`|\b(?:question|requete|demande|phrase|formulation|version)\s+(?:autonome|reformulee|independante|reecrite|clarifiee)` +
		`|\b(?:eigenstandige|umformulierte|neu\s+formulierte|unabhangige|umgeschriebene|eigenstandig\s+formulierte)\s+(?:frage|anfrage|eingabe|fassung)` +
		`|(?:独立|改写|重写|重新表述|重述|改写后|完整)的?(?:问题|提问|请求|句子)`)
	// leadRE is a lead-in clause that ends with a colon; not the colon of
	// a time or a ratio ("14:55", "3:1"), which no space follows.
	leadRE = regexp.MustCompile(`^((?:[^:：]|:\S){2,120}?)(?:：|:(?:\s|$))\s*`)
)

// leadingInterjectionRE is an interjection before a lead-in ("Sure! Here
// is …", "Bien sûr ! Voici …").
var leadingInterjectionRE = regexp.MustCompile(`(?i)^\s*(?:sure|of course|okay|ok|certainly|bien sûr|d'accord|très bien|klar|natürlich|gern|gerne|好的|当然)\s*[!,.！，]?\s*`)

// asideGone marks where an aside was removed, until the spaces are mended.
const asideGone = "\uFFFF"

// metaTalk removes asides and lead-ins not for the visitor; a lead-in is
// judged less surely, so a backstage one only lowers the sentence's bar.
func metaTalk(s string, lang nadine.Language) (rest string, drop bool) {
	s = parentheticalRE.ReplaceAllStringFunc(s, func(m string) string {
		inner := strings.Trim(m, " ()（）[]【】")
		if strings.Contains(m, "【") || annotationRE.MatchString(inner) || judge(inner).notForVisitor() {
			return asideGone
		}
		return m
	})
	s = strings.ReplaceAll(spaceBeforeStopRE.ReplaceAllString(s, "$1"), asideGone, " ")
	s = strings.TrimSpace(s)
	backstageLead := false
	if m := leadRE.FindStringSubmatch(s); m != nil {
		if restatedRE.MatchString(foldMarks(m[1])) {
			return "", true
		}
		switch j := judge(m[1]); {
		case j.isFrame() || replyPresentedRE.MatchString(strings.TrimSpace(leadingInterjectionRE.ReplaceAllString(m[1], ""))) || backstageTalk(m[1]) == roleFrame || complianceRE.MatchString(strings.TrimSpace(foldMarks(m[1]))):
			// A lead-in that presents the reply, or plays her as a role
			// ("Staying in character as Nadine: …"): what follows is hers.
			s = capitalize(strings.TrimSpace(s[len(m[0]):]))
		case j.notForVisitor() && judgeable(m[1]):
			backstageLead = true
		case j.backstage >= j.threshold && labelWord(m[1]):
			// A record's label of a word or two, surely the prompt's
			// ("Standort:", "Kontextinformationen:", "Eingabe des
			// Menschen:"): what follows is the record's value.
			return "", true
		}
	}
	if s == "" || optionRE.MatchString(s) || backstageTalk(s) != "" {
		return "", true
	}
	// A lead-in found backstage is one piece of evidence, the persona told
	// to her another: the whole sentence then goes when it is more likely
	// backstage than not.
	if j := judge(s); j.notForVisitor() || backstageLead && j.p() >= minThreshold || personaTold(s, lang, j) || stanceTold(s, lang, j) {
		return "", true
	}
	return s, false
}

// speakerLabelRE is a lead-in that names who speaks.
var speakerLabelRE = regexp.MustCompile(`(?i)^\W*(?:` + spoken.SpeakerNames + `)\b`)

// labelWord reports a lead-in of one or two words with a capital, as a
// record's label is written (not "You said", which is a clause).
func labelWord(lead string) bool {
	f := strings.Fields(strings.TrimSpace(lead))
	if len(f) == 0 || len(f) > 3 || speakerLabelRE.MatchString(lead) {
		return false // "Nadine (aloud):" names who speaks, not a record
	}
	for _, w := range f {
		if strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) {
			return false
		}
	}
	r, _ := utf8.DecodeRuneInString(f[0])
	return unicode.IsUpper(r) && !anyOf(words(lead), firstPerson) && !anyOf(words(lead), secondPerson)
}

// minLeadWords: a backstage lead-in of a word or two ("You said") says too
// little to lower its sentence's bar (a frame counts at any length).
const minLeadWords = 3

// judgeable reports whether a lead-in is long enough to lower the bar
// (two Chinese characters count as a word).
func judgeable(lead string) bool {
	n, cjk := 0, 0
	for _, w := range words(lead) {
		if r := []rune(w); len(r) == 1 && isIdeographic(r[0]) {
			cjk++
			continue
		}
		n++
	}
	return n+cjk/2 >= minLeadWords
}
