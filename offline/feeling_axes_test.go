package offline_test

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"testing"
	"unicode"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/testrun"
	"github.com/nadine-robot/nadine/offline"
)

// feelingSaid is one feeling's clauses in a language, in a formal and an
// informal register, and the intent the trace records for it.
type feelingSaid struct {
	intent           string
	formal, informal []string
}

// feelingLang is the axes of one language: the feelings, the
// circumstances said with them (weather: a fine day then a wet one), and
// the words that join two clauses.
type feelingLang struct {
	feelings []feelingSaid
	// circumstances by kind: weather, event, place, person, time of day.
	circumstances [][]string
	// joints: comma, and, but, because, nothing.
	joints []string
	// lookAlikes are what must not become a feeling: a weather question is
	// the weather, news with no feeling is no feeling ("").
	lookAlikes map[string]string
}

// positive feelings take a wet day after "but" and a fine day after
// "because"; the others the reverse.
var positiveFeeling = map[string]bool{"feeling_good": true, "feeling_news_good": true}

// feelingAxes were written for this test, not taken from the examples.
var feelingAxes = map[nadine.Language]feelingLang{
	nadine.English: {
		feelings: []feelingSaid{
			{"feeling_good", []string{"I am in a very good mood", "I feel wonderful today"}, []string{"I'm in such a good mood", "I'm feeling great"}},
			{"feeling_sad", []string{"I feel rather sad", "I am quite unhappy today"}, []string{"I'm so sad", "I'm feeling really down"}},
			{"feeling_tired", []string{"I am very tired", "I feel exhausted"}, []string{"I'm totally wiped out", "I'm so tired"}},
			{"feeling_stress", []string{"I feel very stressed", "I am under a lot of pressure"}, []string{"I'm so stressed out", "I'm super stressed"}},
			{"feeling_sick", []string{"I am feeling unwell", "I am ill"}, []string{"I'm sick", "I feel pretty sick"}},
			{"feeling_news_good", []string{"I have just received good news", "I received some excellent news"}, []string{"I just got great news", "I got some awesome news"}},
			{"feeling_news_bad", []string{"I have just received bad news", "I received some terrible news"}, []string{"I just got bad news", "I got some awful news"}},
		},
		circumstances: [][]string{
			{"the weather is beautiful today", "it is raining outside"},
			{"we came for the exhibition", "my class has a school trip here today"},
			{"we are here at the museum", "I just arrived in Geneva"},
			{"my grandmother is with me", "I came with my best friend"},
			{"it is early in the morning", "it is almost evening already"},
		},
		joints: []string{", ", " and ", " but ", " because ", " "},
		lookAlikes: map[string]string{
			"what's the weather like":                  "weather",
			"What's the weather like in Geneva today?": "weather",
			"is it going to rain tomorrow":             "weather",
			"Is it sunny where you are?":               "weather",
			"did you read the news today":              "",
			"I read the newspaper this morning.":       "",
		},
	},
	nadine.French: {
		feelings: []feelingSaid{
			{"feeling_good", []string{"je suis de très bonne humeur", "je me sens merveilleusement bien"}, []string{"j'ai la pêche", "je suis super content"}},
			{"feeling_sad", []string{"je me sens plutôt triste", "je suis bien malheureuse aujourd'hui"}, []string{"je suis trop triste", "j'ai le moral à zéro"}},
			{"feeling_tired", []string{"je suis très fatigué", "je me sens épuisée"}, []string{"je suis crevé", "je suis complètement naze"}},
			{"feeling_stress", []string{"je me sens très stressée", "je suis sous pression"}, []string{"je suis hyper stressé", "je stresse à mort"}},
			{"feeling_sick", []string{"je ne me sens pas bien du tout", "je suis souffrante"}, []string{"je suis malade", "je suis patraque"}},
			{"feeling_news_good", []string{"je viens de recevoir une bonne nouvelle", "j'ai reçu une excellente nouvelle"}, []string{"j'ai eu une super nouvelle", "je viens d'apprendre une trop bonne nouvelle"}},
			{"feeling_news_bad", []string{"je viens de recevoir une mauvaise nouvelle", "j'ai reçu une terrible nouvelle"}, []string{"j'ai eu une sale nouvelle", "je viens d'apprendre une mauvaise nouvelle"}},
		},
		circumstances: [][]string{
			{"il fait un temps magnifique aujourd'hui", "il pleut dehors"},
			{"on est venus pour l'exposition", "ma classe fait une sortie ici aujourd'hui"},
			{"nous sommes au musée", "je viens d'arriver à Genève"},
			{"ma grand-mère est avec moi", "je suis venu avec ma meilleure amie"},
			{"il est tôt le matin", "c'est déjà presque le soir"},
		},
		joints: []string{", ", " et ", " mais ", " parce que ", " "},
		lookAlikes: map[string]string{
			"il fait beau chez toi ?":             "weather",
			"quel temps fait-il aujourd'hui":      "weather",
			"est-ce qu'il va pleuvoir demain ?":   "weather",
			"Quelle météo à Genève aujourd'hui ?": "weather",
			"tu as lu les nouvelles ce matin ?":   "",
			"J'ai lu le journal ce matin.":        "",
		},
	},
	nadine.German: {
		feelings: []feelingSaid{
			{"feeling_good", []string{"ich bin sehr guter Laune", "ich fühle mich wunderbar"}, []string{"ich bin richtig gut drauf", "mir geht's super"}},
			{"feeling_sad", []string{"ich fühle mich ziemlich traurig", "ich bin heute recht unglücklich"}, []string{"ich bin so traurig", "ich bin total down"}},
			{"feeling_tired", []string{"ich bin sehr müde", "ich fühle mich erschöpft"}, []string{"ich bin total k.o.", "ich bin hundemüde"}},
			{"feeling_stress", []string{"ich fühle mich sehr gestresst", "ich stehe unter großem Druck"}, []string{"ich bin voll im Stress", "ich bin so gestresst"}},
			{"feeling_sick", []string{"ich fühle mich unwohl", "ich bin krank"}, []string{"mir ist total schlecht", "ich bin krank geworden"}},
			{"feeling_news_good", []string{"ich habe gerade eine gute Nachricht erhalten", "ich habe eine ausgezeichnete Nachricht bekommen"}, []string{"ich hab grad super Neuigkeiten gekriegt", "ich hab tolle Nachrichten"}},
			{"feeling_news_bad", []string{"ich habe gerade eine schlechte Nachricht erhalten", "ich habe eine schreckliche Nachricht bekommen"}, []string{"ich hab grad schlechte Neuigkeiten gekriegt", "ich hab miese Nachrichten"}},
		},
		circumstances: [][]string{
			{"das Wetter ist heute herrlich", "draußen regnet es"},
			{"wir sind wegen der Ausstellung gekommen", "meine Klasse macht heute hier einen Ausflug"},
			{"wir sind hier im Museum", "ich bin gerade in Genf angekommen"},
			{"meine Oma ist mit mir da", "ich bin mit meiner besten Freundin gekommen"},
			{"es ist früh am Morgen", "es ist schon fast Abend"},
		},
		joints: []string{", ", " und ", " aber ", " denn ", " "},
		lookAlikes: map[string]string{
			"wie ist das wetter heute":               "weather",
			"Regnet es morgen?":                      "weather",
			"Ist es bei dir sonnig?":                 "weather",
			"Wie wird das Wetter in Genf?":           "weather",
			"hast du heute die nachrichten gesehen":  "",
			"Ich habe heute Morgen Zeitung gelesen.": "",
		},
	},
	nadine.Chinese: {
		feelings: []feelingSaid{
			{"feeling_good", []string{"我今天心情非常好", "我感觉非常愉快"}, []string{"我心情特别好", "我超开心的"}},
			{"feeling_sad", []string{"我感到很难过", "我今天心里很不好受"}, []string{"我好难过啊", "我有点伤心"}},
			{"feeling_tired", []string{"我非常疲惫", "我感到很累"}, []string{"累死我了", "我好累啊"}},
			{"feeling_stress", []string{"我感到压力很大", "我最近非常焦虑"}, []string{"我压力好大", "我快被压力压垮了"}},
			{"feeling_sick", []string{"我身体不太舒服", "我生病了"}, []string{"我有点不舒服", "我感冒了"}},
			{"feeling_news_good", []string{"我刚收到一个好消息", "我得到了一个非常好的消息"}, []string{"我刚听到个好消息", "我有个超棒的好消息"}},
			{"feeling_news_bad", []string{"我刚收到一个坏消息", "我得到了一个很糟糕的消息"}, []string{"我刚听到个坏消息", "我有个很坏的消息"}},
		},
		circumstances: [][]string{
			{"今天天气真好", "外面在下雨"},
			{"我们是来看展览的", "今天学校组织我们来参观"},
			{"我们在博物馆里", "我刚到日内瓦"},
			{"我奶奶陪我来的", "我和好朋友一起来的"},
			{"现在是一大早", "已经快晚上了"},
		},
		joints: []string{"，", "，而且", "，但是", "，因为", ""},
		lookAlikes: map[string]string{
			"今天天气怎么样":    "weather",
			"明天会下雨吗？":    "weather",
			"你那里天气好吗":    "weather",
			"日内瓦今天天气如何？": "weather",
			"你看今天的新闻了吗":  "",
			"我早上看了报纸。":   "",
		},
	},
}

// feelingCase is one generated utterance and the intent it must get.
type feelingCase struct {
	lang   nadine.Language
	text   string
	intent string // "" for anything but a feeling
}

// joinClauses says two clauses with a joint, eliding French "que" before a
// vowel and opening with a capital (a register's concern, not the joint's).
func joinClauses(lang nadine.Language, first, joint, second string) string {
	if lang == nadine.French && strings.HasSuffix(joint, "que ") && strings.ContainsRune("aeiouéèh", []rune(second)[0]) {
		joint = strings.TrimSuffix(joint, "e ") + "'"
	}
	s := first + joint + second
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// lowerUnpunctuated writes an utterance as a recognizer does: lowercase, no
// punctuation.
func lowerUnpunctuated(s string) string {
	s = strings.NewReplacer(",", "", ".", "", "!", "", "?", "", "，", "", "。", "", "！", "", "？", "").Replace(s)
	return strings.ToLower(s)
}

// feelingCases crosses the axes, keeping a fixed sample of them.
func feelingCases() []feelingCase {
	var out []feelingCase
	var langs []nadine.Language
	for lang := range feelingAxes {
		langs = append(langs, lang)
	}
	sort.Slice(langs, func(i, j int) bool { return langs[i] < langs[j] })
	for _, lang := range langs {
		a := feelingAxes[lang]
		for fi, f := range a.feelings {
			for ci, kinds := range a.circumstances {
				for ji, joint := range a.joints {
					for after := 0; after < 2; after++ {
						if after == 1 && ji == 3 { // "because" gives the feeling its cause
							continue
						}
						for reg := 0; reg < 3; reg++ { // formal, informal, speech to text
							if (fi*5+ci*3+ji*2+after*7+reg)%3 != 0 {
								continue
							}
							said := f.formal
							if reg > 0 {
								said = f.informal
							}
							feeling := said[(ci+ji+reg)%len(said)]
							circ := kinds[(fi+ji+after)%len(kinds)]
							if ci == 0 && (ji == 2 || ji == 3) {
								wet := positiveFeeling[f.intent] == (ji == 2)
								circ = kinds[b2int(wet)]
							}
							text := joinClauses(lang, feeling, joint, circ)
							if after == 1 {
								text = joinClauses(lang, circ, joint, feeling)
							}
							if lang == nadine.Chinese || reg < 2 {
								text += end(lang, reg)
							}
							if reg == 2 {
								text = lowerUnpunctuated(text)
							}
							out = append(out, feelingCase{lang, text, f.intent})
						}
					}
				}
			}
		}
		var looks []string
		for text := range a.lookAlikes {
			looks = append(looks, text)
		}
		sort.Strings(looks)
		for _, text := range looks {
			out = append(out, feelingCase{lang, text, a.lookAlikes[text]})
		}
	}
	return out
}

// end is the full stop of a written register.
func end(lang nadine.Language, reg int) string {
	switch {
	case lang == nadine.Chinese && reg < 2:
		return "。"
	case reg == 1:
		return "!"
	case reg == 0:
		return "."
	}
	return ""
}

func b2int(b bool) int {
	if b {
		return 1
	}
	return 0
}

// heldOutFeeling puts a quarter of the utterances, by a hash fixed before
// any result was read, in the part whose misses are never printed.
func heldOutFeeling(c feelingCase) bool {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s/%s", c.lang, c.text)
	return h.Sum32()%4 == 0
}

// feelingRight tells whether a reply's intent is the case's: a feeling's
// own, or for a look-alike its own (the weather) or any but a feeling.
func feelingRight(c feelingCase, got string) bool {
	if c.intent == "" {
		return !strings.HasPrefix(got, "feeling_")
	}
	return got == c.intent
}

// TestFeelingAxes crosses feelings (good mood, sad, tired, stressed, sick,
// good and bad news) with a circumstance said with them (the weather, an
// event, a place, a person, the time of day), before or after, joined by a
// comma, "and", "but", "because" or nothing, in four languages and three
// registers (formal, informal, speech to text): each is the feeling. Weather
// questions and news with no feeling must stay what they are. A quarter is
// held out: its score is printed, its misses never.
func TestFeelingAxes(t *testing.T) {
	testrun.SkipUnderRace(t)
	t.Parallel() // reads the shared model, writes nothing shared
	e := testEngine(offline.Options{})
	type score struct{ right, total int }
	tuned, held := map[nadine.Language]*score{}, map[nadine.Language]*score{}
	var tunedAll, heldAll score
	for _, c := range feelingCases() {
		if tuned[c.lang] == nil {
			tuned[c.lang], held[c.lang] = &score{}, &score{}
		}
		part, sum := tuned[c.lang], &tunedAll
		heldOut := heldOutFeeling(c)
		if heldOut {
			part, sum = held[c.lang], &heldAll
		}
		part.total++
		sum.total++
		r := respond(t, e, nadine.Turn{Text: c.text, Language: c.lang})
		if feelingRight(c, r.intent()) {
			part.right++
			sum.right++
		} else if !heldOut {
			t.Logf("%s %q → %s (want %q) %q", c.lang, c.text, r.intent(), c.intent, r.reply.Text)
		}
	}
	var langs []nadine.Language
	for lang := range tuned {
		langs = append(langs, lang)
	}
	sort.Slice(langs, func(i, j int) bool { return langs[i] < langs[j] })
	for _, lang := range langs {
		t.Logf("%s: tuned %d/%d; held out %d/%d", lang, tuned[lang].right, tuned[lang].total, held[lang].right, held[lang].total)
	}
	t.Logf("all: tuned %d/%d; held out %d/%d", tunedAll.right, tunedAll.total, heldAll.right, heldAll.total)
	// Floors: the scores after the round that wrote this test (642, 217),
	// less a margin for training's chance; on main before its fixes 516 and
	// 187 (de 110/228 and 50/93, en 121/241 and 32/80, fr 138/239 and
	// 51/82, zh 147/240 and 54/81). Raised at stop 42 with the German
	// mood vocabularies as lookup tables: 673 → 689 and 231 → 242.
	for _, f := range []struct {
		part       string
		got, floor int
	}{
		{"tuned", tunedAll.right, 680},
		{"held out", heldAll.right, 235},
	} {
		if f.got < f.floor {
			t.Errorf("%s: %d right, below %d", f.part, f.got, f.floor)
		}
	}
}
