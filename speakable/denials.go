package speakable

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/nadine-robot/nadine"
)

// The prompts tell the model what Nadine is not and what she never does
// ("a social robot, not an assistant", "never a URL", "without ever saying
// that you see an image"): a contrast drawn for the model. Said by her to a
// visitor who did not raise it, such a denial is the rule read out ("I'm a
// social robot, not an assistant"); said to one who asked ("Are you like
// Siri?" is not enough, "Are you an assistant?" is), it is her answer. The
// denied words are read from the prompts' own sentences and their
// translations (examples/prompt_*.txt), never from a list of phrases:
// docs/speech.md, "Denials the visitor did not ask for".

// A denial of a thing, not of an act: a negation that is itself a
// determiner ("no lists", "keine Assistentin", "aucune liste"), or one
// followed by a determiner ("not an assistant", "pas une assistante",
// "nicht der Assistent"), or the Chinese copula denied ("不是助手", "没有…").
// The thing is the first word of four letters or more after it. A denied
// act ("don't mention it", "je n'ai pas compris") is her speech.
var (
	// nounNegations deny the noun that follows them.
	nounNegations = map[string]bool{
		"no": true, "aucun": true, "aucune": true, "sans": true, "ni": true,
		"kein": true, "keine": true, "keinen": true, "keinem": true, "keiner": true, "keines": true, "ohne": true,
	}
	// negations deny a noun only through the determiner after them.
	negations = map[string]bool{
		"not": true, "never": true, "t": true, "nor": true, "without": true,
		"pas": true, "jamais": true, "non": true, "nicht": true, "nie": true, "niemals": true,
	}
	determiners = map[string]bool{
		"a": true, "an": true, "the": true, "my": true, "your": true, "any": true, "some": true,
		"un": true, "une": true, "de": true, "d": true, "des": true, "du": true, "la": true, "le": true, "les": true, "l": true,
		"mon": true, "ma": true, "mes": true, "ton": true, "ta": true, "tes": true, "votre": true, "vos": true,
		"ein": true, "eine": true, "einen": true, "einem": true, "einer": true, "der": true, "die": true, "das": true,
		"den": true, "dem": true, "mein": true, "meine": true, "dein": true, "deine": true, "ihre": true, "ihr": true,
	}
	enHave = map[string]bool{"have": true, "has": true, "had": true}
	// zhCopulaDenied are the Chinese denials of being or having a thing.
	zhCopulaDenied = []string{"不是", "没有", "并非"}
	// zhDeterminers stand between a Chinese denial and its thing.
	zhDeterminers = []string{"任何", "一个", "一位", "一种"}
)

// clauseRE ends a denied thing's search: the end of a sentence or a clause.
var clauseRE = regexp.MustCompile(`[.!?;:,，。！？；：、\n]+`)

// deniedThings returns the stems (ideograph pairs) of the things text
// denies, clause by clause.
func deniedThings(text string) []string {
	var out []string
	for _, clause := range clauseRE.Split(text, -1) {
		ws := words(clause)
		for i, w := range ws {
			next := i + 1
			switch {
			case nounNegations[w]:
			case negations[w] && next < len(ws) && determiners[ws[next]]:
				next++
			case negations[w] && next < len(ws) && enHave[ws[next]]:
				next++ // "don't have tools": a thing had, denied
			default:
				continue
			}
			for _, n := range ws[next:] {
				if determiners[n] {
					continue
				}
				if s := stem(n); s != "" {
					out = append(out, s)
				}
				break
			}
		}
		joined := strings.Join(ws, "")
		for _, neg := range zhCopulaDenied {
			for rest := joined; ; {
				k := strings.Index(rest, neg)
				if k < 0 {
					break
				}
				rest = rest[k+len(neg):]
				for _, d := range zhDeterminers {
					rest = strings.TrimPrefix(rest, d)
				}
				if r := []rune(rest); len(r) >= 2 && isIdeographic(r[0]) && isIdeographic(r[1]) {
					out = append(out, string(r[:2]))
				}
			}
		}
	}
	return out
}

// promptDenials are the stems the prompts deny — the project's prompts and
// their sentences in four languages — less those her speech uses freely:
// what the rules alone deny ("assis", "markd", "emoji", "助手").
var promptDenials = sync.OnceValue(func() map[string]bool { return rulesOnly(deniedThings) })

// rulesOnly returns the stems of reads over the rules — every project
// prompt's system message and persona, and the prompts' sentences in four
// languages (examples/prompt_*.txt, graphprompt_*.txt) — that her speech does not use freely:
// a stem 0.5 % or more of one language's speech examples hold is a word of
// her speech, not of the rules.
func rulesOnly(read func(string) []string) map[string]bool {
	out := map[string]bool{}
	for _, e := range withKnown(nil) {
		for _, s := range read(e.system) {
			out[s] = true
		}
	}
	if translated, err := translatedPrompts(); err == nil {
		for _, ex := range translated.Examples {
			if ex.Label == labelBackstage {
				for _, s := range read(ex.Text) {
					out[s] = true
				}
			}
		}
	}
	df, n := speechStems()
	for s := range out {
		for lang, count := range n {
			if df[lang][s]*1000 >= count*rulesSpeechShare {
				delete(out, s)
			}
		}
	}
	return out
}

// rulesSpeechShare, in thousandths: a stem this share of one language's
// speech examples holds is a word of her speech, not of the rules.
const rulesSpeechShare = 5

// speechStems counts, per language, the speech examples that hold each
// stem, and the speech examples.
var speechStems = sync.OnceValues(func() (map[nadine.Language]map[string]int, map[nadine.Language]int) {
	df, n := map[nadine.Language]map[string]int{}, map[nadine.Language]int{}
	all, err := backstageExamples()
	if err != nil {
		return df, n
	}
	for _, ex := range all.Examples {
		if ex.Label != labelSpeech {
			continue
		}
		n[ex.Lang]++
		if df[ex.Lang] == nil {
			df[ex.Lang] = map[string]int{}
		}
		seen := map[string]bool{}
		for _, s := range stems(words(ex.Text)) {
			if !seen[s] {
				seen[s] = true
				df[ex.Lang][s]++
			}
		}
	}
	return df, n
})

// unaskedDenial returns a thing the sentence denies as the prompts do and
// the visitor's words of this turn never named, or "".
func (c *Checker) unaskedDenial(clean string) string {
	denied := promptDenials()
	for _, s := range deniedThings(clean) {
		if !denied[s] {
			continue
		}
		if !slices.ContainsFunc(c.said, func(said string) bool { return slices.Contains(stems(words(said)), s) }) {
			return s
		}
	}
	return ""
}
