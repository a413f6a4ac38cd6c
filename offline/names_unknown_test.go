package offline_test

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/testrun"
	"github.com/nadine-robot/nadine/offline"
)

// unknownNameAxes are the axes of an introduction whose names no example
// and no @name slot holds: greetings (one naming her), forms that give the
// name after or before their words (%s the name; in Chinese %f its family
// name), names, and what is said after the name.
var unknownNameAxes = map[nadine.Language]introAxes{
	nadine.German: {
		[]string{"Hallo Nadine", "Servus", "Grüezi", "Moin", "Hallo", "Guten Tag"},
		[]string{"%s mein Name", "%s ist mein Name", "ich bin %s", "ich heiße %s", "%s hier", "mein Name ist %s", "%s heiße ich", "%s"},
		[]string{"Gerlinde", "Torsten", "Heike", "Volker", "Rüdiger", "Birgit", "Jörg", "Malte"},
		[]string{"", ", freut mich", " und ich komme aus Bremen", ", ich bin zum ersten Mal hier", ", und du"},
	},
	nadine.French: {
		[]string{"Bonjour Nadine", "Salut", "Coucou", "Bonsoir", "Bonjour", "Allô"},
		[]string{"%s, c'est mon prénom", "%s à l'appareil", "je m'appelle %s", "moi c'est %s", "%s c'est mon nom", "je suis %s", "mon prénom c'est %s", "%s"},
		[]string{"Solène", "Gaëtan", "Ludivine", "Thibault", "Maëlys", "Corentin", "Apolline", "Baptiste"},
		[]string{"", ", enchanté", " et je viens de Rennes", ", je visite avec mes parents", ", et toi"},
	},
	nadine.English: {
		[]string{"Hello Nadine", "Hey", "Hi there", "Good afternoon", "Hello", "Howdy"},
		[]string{"%s is my name", "%s here", "I'm %s", "my name is %s", "call me %s", "the name's %s", "it's %s", "%s"},
		[]string{"Gwendolyn", "Declan", "Marnie", "Rupert", "Siobhan", "Tristan", "Beverly", "Caleb"},
		[]string{"", ", pleased to meet you", " and I'm from Dundee", ", first time here", ", and you"},
	},
	nadine.Chinese: {
		[]string{"你好Nadine", "你好", "嗨", "您好", "哈喽", "晚上好"},
		[]string{"%s是我的名字", "我叫%s", "我是%s", "我姓%f，叫%s", "我的名字是%s", "叫我%s就行", "我姓%f，%s"},
		[]string{"冯涛", "蒋雯", "邓佳", "宋子豪", "彭嘉怡", "潘志远"},
		[]string{"", "，认识你很高兴", "，我从成都来", "，第一次来这里", "，你呢"},
	},
}

// heldOutUnknownName puts a quarter of the combinations, by a hash fixed
// before any result was read, in the part whose failures are never printed.
func heldOutUnknownName(lang nadine.Language, greeting, form, name, tail string, lower bool) bool {
	h := fnv.New32a()
	fmt.Fprintf(h, "unknown/%s/%s/%s/%s/%s/%t", lang, greeting, form, name, tail, lower)
	return h.Sum32()%4 == 0
}

// unknownScore counts right introductions of one part by language.
type unknownScore map[nadine.Language]*introScore

func (s unknownScore) add(lang nadine.Language) *introScore {
	if s[lang] == nil {
		s[lang] = &introScore{}
	}
	return s[lang]
}

// TestUnknownNames crosses greetings (one naming her), forms that give the
// name before or after their words, names no example holds (Chinese names
// of two and three characters, with and without 姓), what is said after
// the name, and capitalised or lowercase without punctuation, said in one
// turn with the greeting and as the second turn after she greeted: every
// one is an introduction whose reply says the name. A quarter of the
// combinations is held out: its score is printed, its cases never.
func TestUnknownNames(t *testing.T) {
	testrun.SkipUnderRace(t)
	t.Parallel() // reads the shared model, writes nothing shared
	e := testEngine(offline.Options{})
	var langs []nadine.Language
	for lang := range unknownNameAxes {
		langs = append(langs, lang)
	}
	sort.Slice(langs, func(i, j int) bool { return langs[i] < langs[j] })
	tuned, held := unknownScore{}, unknownScore{}
	for _, lang := range langs {
		a := unknownNameAxes[lang]
		joint := ", "
		if lang == nadine.Chinese {
			joint = "，"
		}
		for gi, g := range a.greetings {
			for fi, form := range a.intros {
				for ni, name := range a.names {
					for ti, tail := range a.tails {
						if (gi*5+fi*3+ni*7+ti)%5 != 0 {
							continue
						}
						lower := (gi+fi+ni+ti)%2 == 0
						intro := introduce(form, name) + tail
						text := g + joint + intro
						if lower {
							text, intro = plainLower(lang, text), plainLower(lang, intro)
						}
						part := tuned.add(lang)
						heldOut := heldOutUnknownName(lang, g, form, name, tail, lower)
						if heldOut {
							part = held.add(lang)
						}
						part.score(t, e, lang, g, text, intro, name, heldOut)
					}
				}
			}
		}
	}
	// Floors, per language: tuned one turn, tuned second turn, held out one
	// turn, held out second turn; the scores after the round that wrote
	// this test (no example changed, so no training chance to allow for).
	// On main before it: de 227, 250, 72, 77; en 241, 241, 75, 80; fr 235,
	// 235, 79, 77; zh 166, 176, 49, 52. What stays missed is a name alone
	// ("hallo malte" greets Malte; "Heike" after her greeting is no more a
	// name than "lol") and what no rule reads ("rupert first time here").
	// Training by content (docs/offline.md, "Training that stays put")
	// moved de 285, 282, 90, 90 to 286, 282, 89, 90 and en 286, 281, 87,
	// 85 to 288, 281, 87, 85: the floors are its figures.
	floors := map[nadine.Language][4]int{
		nadine.German:  {286, 282, 89, 90},   // of 292 tuned, 92 held out
		nadine.French:  {275, 272, 103, 100}, // of 279 tuned, 105 held out
		nadine.English: {288, 281, 87, 85},   // of 295 tuned, 89 held out
		nadine.Chinese: {194, 194, 58, 58},   // of 194 tuned, 58 held out
	}
	for _, lang := range langs {
		tp, hp := tuned.add(lang), held.add(lang)
		t.Logf("%s: tuned %s; held out %s", lang, tp, hp)
		f := floors[lang]
		for _, c := range []struct {
			part       string
			got, floor int
		}{
			{"tuned, one turn", tp.one, f[0]},
			{"tuned, second turn", tp.two, f[1]},
			{"held out, one turn", hp.one, f[2]},
			{"held out, second turn", hp.two, f[3]},
		} {
			if c.got < c.floor {
				t.Errorf("%s %s: %d right, below %d", lang, c.part, c.got, c.floor)
			}
		}
	}
}

// plainLower is a transcript without capitals or punctuation, as speech to
// text may give it (Chinese keeps its characters, loses its punctuation).
func plainLower(lang nadine.Language, s string) string {
	s = strings.NewReplacer(",", "", "!", "", ".", "", "，", "", "！", "", "。", "").Replace(s)
	if lang == nadine.Chinese {
		return s
	}
	return strings.ToLower(s)
}
