package dialogue_test

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/nadine-robot/nadine/dialogue"
)

// answerCore is one core answer; the tuned cases wrap it.
type answerCore struct {
	lang, text string
	want       dialogue.Answer
}

// tunedCores are the answers the lexicon was written for, per language.
var tunedCores = func() []answerCore {
	var out []answerCore
	add := func(lang string, want dialogue.Answer, texts ...string) {
		for _, t := range texts {
			out = append(out, answerCore{lang, t, want})
		}
	}
	add("en", dialogue.AnswerYes, "yes", "yeah", "yep", "sure", "okay", "of course", "absolutely", "go ahead", "do it",
		"yes, forget me", "yes I am sure", "definitely", "no problem", "that's right")
	add("en", dialogue.AnswerNo, "no", "nope", "no way", "not now", "never", "don't", "please don't", "of course not",
		"absolutely not", "no, keep everything", "I changed my mind", "do not forget me",
		"maybe not", "hmm no, better not", "no, wait", "I think not")
	add("en", dialogue.AnswerUnclear, "maybe", "I don't know", "not sure", "why?", "wait", "yes and no",
		"what do you mean", "let me think", "tell me a joke", "how are you")
	add("fr", dialogue.AnswerYes, "oui", "ouais", "d'accord", "bien sûr", "vas-y", "tout à fait", "oui, oublie-moi",
		"absolument", "mais oui", "exactement", "je confirme", "carrément", "ouep", "fais-le", "allez, effacez tout", "ouin, d'accord",
		"supprime tout")
	add("fr", dialogue.AnswerNo, "non", "pas du tout", "jamais", "bien sûr que non", "non, garde tout", "ne fais pas ça",
		"surtout pas", "mais non", "peut-être pas", "euh non, plutôt pas", "attends, non",
		"nan", "hors de question", "nan laisse", "laissez, c'est bon", "je plaisantais", "niet",
		"négatif", "non, je voulais juste savoir si c'était possible", "non, je demandais si tu pouvais",
		"ça ira, merci", "non non, je testais", "c'était juste pour voir", "ça va aller, laissez", "pas besoin",
		"je voulais juste tester", "t'inquiète", "oubliez ça", "je voulais juste essayer", "n'efface pas tout",
		"ne fais pas ça, n'efface rien", "non, pantoute", "laisse faire", "conservez tout", "je préfère que tu gardes tout")
	add("fr", dialogue.AnswerYes, "si", "si si", "mais si")
	add("fr", dialogue.AnswerUnclear, "peut-être", "je ne sais pas", "pourquoi ?", "attends", "oui et non",
		"comment tu t'appelles", "raconte-moi une blague")
	add("de", dialogue.AnswerYes, "ja", "jawohl", "genau", "klar", "natürlich", "einverstanden", "ja, vergiss mich",
		"auf jeden Fall", "mach das", "sicher", "passt schon", "jo mach", "nur zu", "meinetwegen", "von mir aus",
		"freilich", "jep", "jawoll", "mach mal", "ja, unbedingt", "ganz bestimmt", "das möchte ich", "absolut", "jo gärn")
	add("de", dialogue.AnswerNo, "nein", "nö", "auf keinen Fall", "natürlich nicht", "nein, behalte alles", "bitte nicht",
		"lieber nicht", "nie", "vielleicht lieber nicht", "äh nein, warte", "ich glaube nicht",
		"ne, doch lieber nicht", "doch nicht", "besser nicht", "bloß nicht", "auf gar keinen Fall", "nee, lass gut sein",
		"von mir aus nicht", "lass mal lieber", "nicht unbedingt", "bestimmt nicht", "das will ich nicht",
		"na, lieber ned", "noi, des lass mer", "nei, bhalt alles", "nöd nötig", "na, behalt's")
	add("de", dialogue.AnswerUnclear, "vielleicht", "ich weiß nicht", "warum?", "warte", "ja und nein",
		"wie geht es dir", "erzähl mir einen Witz")
	add("zh", dialogue.AnswerYes, "是", "是的", "对", "好的", "可以", "确定", "当然", "没问题", "好吧")
	add("zh", dialogue.AnswerNo, "不", "不要", "不是", "不用", "别", "算了", "不行", "当然不", "还是别删了", "不了，还是留着", "也许不要吧", "等等，不要", "嗯……不用了吧，再说吧",
		"还是留着吧", "我开玩笑的")
	add("zh", dialogue.AnswerUnclear, "也许", "不知道", "为什么？", "等一下", "可以吗", "你好吗", "讲个笑话", "要是你想的话", "好像不太好说")
	return out
}()

// answerWrappers are the axes the cores are combined with: something said
// before, something after, and the transcript's style.
var answerWrappers = map[string]struct{ before, after []string }{
	"en": {[]string{"", "Nadine, ", "well, ", "uh "}, []string{"", " please", ", thank you", "!"}},
	"fr": {[]string{"", "Nadine, ", "euh ", "alors, "}, []string{"", " merci", ", s'il te plaît", " !"}},
	"de": {[]string{"", "Nadine, ", "also ", "äh "}, []string{"", " danke", ", bitte", "!"}},
	"zh": {[]string{"", "嗯，", "Nadine，"}, []string{"", "，谢谢", "。", "吧"}},
}

// transcriptStyles render an utterance as speech-to-text may write it.
var transcriptStyles = []func(string) string{
	func(s string) string { return s },
	func(s string) string { // lower case, no punctuation
		return strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
			return unicode.IsSpace(r) || (unicode.IsPunct(r) && r != '\'' && r != '-')
		}), " ")
	},
	func(s string) string { // capitalized, with a full stop
		r := []rune(strings.TrimSpace(s))
		if len(r) == 0 {
			return s
		}
		return strings.ToUpper(string(r[0])) + string(r[1:]) + "."
	},
}

// TestReadAnswerTuned reads every core answer in every wrapping and style.
// A question mark the style adds or removes may change an unclear answer's
// reading, never make a non-yes a yes.
func TestReadAnswerTuned(t *testing.T) {
	total, right, falseYes := 0, 0, 0
	var misses []string
	for _, c := range tunedCores {
		w := answerWrappers[c.lang]
		for _, before := range w.before {
			for _, after := range w.after {
				for _, style := range transcriptStyles {
					text := style(before + c.text + after)
					got := dialogue.ReadAnswer(text)
					total++
					switch {
					case got == c.want:
						right++
					case c.want == dialogue.AnswerUnclear && got == dialogue.AnswerNo:
						right++ // both erase nothing; the style removed its question mark
					default:
						if got == dialogue.AnswerYes {
							falseYes++
						}
						misses = append(misses, fmt.Sprintf("%s %q: %s, want %s", c.lang, text, got, c.want))
					}
				}
			}
		}
	}
	t.Logf("tuned answers: %d/%d (%.1f%%), %d read as a yes wrongly", right, total, 100*float64(right)/float64(total), falseYes)
	if falseYes > 0 || float64(right) < 0.98*float64(total) {
		t.Errorf("%d misses, %d false yes:\n%s", total-right, falseYes, strings.Join(misses, "\n"))
	}
}

// TestReadAnswerSealed scores the sealed answers (testdata/confirm/
// sealed.tsv), written before the recognizer and not read while tuning
// it. A false yes (an erase nobody asked for) fails the test; otherwise
// the score must be at least 90%.
func TestReadAnswerSealed(t *testing.T) {
	f, err := os.Open("testdata/confirm/sealed.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type score struct{ right, total, falseYes int }
	per := map[string]*score{}
	var misses []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.SplitN(line, "\t", 3)
		if len(cols) != 3 {
			t.Fatalf("bad line %q", line)
		}
		want := map[string]dialogue.Answer{"yes": dialogue.AnswerYes, "no": dialogue.AnswerNo, "unclear": dialogue.AnswerUnclear}[cols[1]]
		s := per[cols[0]]
		if s == nil {
			s = &score{}
			per[cols[0]] = s
		}
		got := dialogue.ReadAnswer(cols[2])
		s.total++
		if got == want || (want == dialogue.AnswerUnclear && got == dialogue.AnswerNo) {
			s.right++
			continue
		}
		if got == dialogue.AnswerYes {
			s.falseYes++
		}
		misses = append(misses, fmt.Sprintf("%s %q: %s, want %s", cols[0], cols[2], got, want))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	right, total, falseYes := 0, 0, 0
	for _, lang := range []string{"en", "fr", "de", "zh"} {
		s := per[lang]
		if s == nil {
			t.Fatalf("no sealed answers in %s", lang)
		}
		t.Logf("sealed %s: %d/%d (%.0f%%), %d false yes", lang, s.right, s.total, 100*float64(s.right)/float64(s.total), s.falseYes)
		right, total, falseYes = right+s.right, total+s.total, falseYes+s.falseYes
	}
	t.Logf("sealed answers: %d/%d (%.1f%%), %d false yes; misses: %q", right, total, 100*float64(right)/float64(total), falseYes, misses)
	if falseYes > 0 || float64(right) < 0.9*float64(total) {
		t.Errorf("sealed: %d/%d, %d false yes:\n%s", right, total, falseYes, strings.Join(misses, "\n"))
	}
}

// TestReadAnswerDrawnOut reads words drawn out as a child or speech to text
// writes them as the entry they stretch, and a doubled letter as spelling.
func TestReadAnswerDrawnOut(t *testing.T) {
	for _, tc := range []struct {
		text string
		want dialogue.Answer
	}{
		{"Jaaa!", dialogue.AnswerYes},
		{"jaaaa klaaar", dialogue.AnswerYes},
		{"okaaay", dialogue.AnswerYes},
		{"yesss", dialogue.AnswerYes},
		{"ouiii", dialogue.AnswerYes},
		{"neeein!", dialogue.AnswerNo},
		{"nööö", dialogue.AnswerNo},
		{"nooo", dialogue.AnswerNo},
		{"hmmm", dialogue.AnswerUnclear},
		{"jaaa, aber später", dialogue.AnswerUnclear},
		{"hmmm ja", dialogue.AnswerYes},
		// "nett" is no drawn-out "net" (Bavarian "not"): the yes stays.
		{"ja, sehr nett", dialogue.AnswerYes},
		{"Schifffahrt", dialogue.AnswerUnclear},
	} {
		if got := dialogue.ReadAnswer(tc.text); got != tc.want {
			t.Errorf("ReadAnswer(%q) = %s, want %s", tc.text, got, tc.want)
		}
	}
}
