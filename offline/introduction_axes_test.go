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

// introAxes are the axes of an introduction in one language: a greeting,
// a form of introduction (%s the name; in Chinese %f its family name), a
// name, and what is said after the name.
type introAxes struct{ greetings, intros, names, tails []string }

// introductionAxes were written for this test, not taken from the examples.
var introductionAxes = map[nadine.Language]introAxes{
	nadine.French: {
		[]string{"Bonjour Nadine", "Salut toi", "Bonjour à toi Nadine", "Hello", "Bonjour bonjour", "Bonsoir madame", "Salut salut", "Bonjour ma belle", "Ah bonjour", "Oh salut Nadine"},
		[]string{"je m'appelle %s", "moi c'est %s", "je suis %s", "mon prénom c'est %s", "mon nom est %s", "c'est %s"},
		[]string{"Camille", "Thomas", "Manon", "Lucas", "Élise", "Mathis", "Sarah", "Nicolas"},
		[]string{"", ", enchanté", " et je viens de Lyon", ", je suis venue avec ma classe", ", ravi de te rencontrer", ", et toi comment tu t'appelles", " et j'ai dix ans", ", je suis étudiante ici"},
	},
	nadine.German: {
		[]string{"Hallo Nadine", "Hi", "Guten Morgen", "Hallo hallo", "Na du", "Guten Abend Nadine", "Hey", "Tag auch", "Ach hallo", "Grüß dich"},
		[]string{"ich heiße %s", "ich bin %s", "mein Name ist %s", "ich bin die %s", "ich bin der %s", "man nennt mich %s"},
		[]string{"Jonas", "Lena", "Felix", "Marie", "Lukas", "Sophie", "Tobias", "Hannah"},
		[]string{"", ", freut mich", " und komme aus Köln", ", ich bin mit meiner Klasse hier", ", schön dich kennenzulernen", ", und wie heißt du", " und bin zehn Jahre alt", ", ich studiere hier"},
	},
	nadine.English: {
		[]string{"Hi Nadine", "Hello there", "Good morning", "Hey you", "Oh hi", "Hiya"},
		[]string{"I'm %s", "my name is %s", "I am %s", "name's %s", "this is %s"},
		[]string{"Emma", "Jack", "Olivia", "Noah", "Chloe", "Liam"},
		[]string{"", ", nice to meet you", " and I'm from Leeds", ", I'm here with my class", ", what's yours", " and I'm ten"},
	},
	nadine.Chinese: {
		[]string{"你好Nadine", "嗨", "您好", "哈喽", "早上好啊", "你好你好"},
		[]string{"我叫%s", "我是%s", "我的名字叫%s", "我姓%f，叫%s"},
		[]string{"王小明", "李华", "张伟", "陈静", "刘芳", "赵磊"},
		[]string{"", "，很高兴认识你", "，我从上海来", "，我跟同学一起来的", "，你叫什么名字", "，今年十岁"},
	},
}

// greetedBack is her greeting before the second-turn introductions: one
// of her own replies, in the language.
var greetedBack = map[nadine.Language]string{
	nadine.English: "Hello! What a pleasure to meet you.",
	nadine.French:  "Bonjour ! J'espère que vous passez une bonne journée.",
	nadine.German:  "Hallo! Ich hoffe, Sie haben einen schönen Tag.",
	nadine.Chinese: "您好！很高兴见到您。",
}

// introduce fills a form of introduction with a name (a Chinese name's
// first character is its family name).
func introduce(form, name string) string {
	family := name
	if r := []rune(name); len(r) > 0 {
		family = string(r[0])
	}
	return strings.NewReplacer("%s", name, "%f", family).Replace(form)
}

// heldOutIntroduction puts a quarter of the combinations, by a hash fixed
// before any result was read, in the part whose failures are never printed.
func heldOutIntroduction(lang nadine.Language, greeting, form, name, tail string) bool {
	h := fnv.New32a()
	fmt.Fprintf(h, "%s/%s/%s/%s/%s", lang, greeting, form, name, tail)
	return h.Sum32()%4 == 0
}

// introScore counts right introductions of one part: in one turn with the
// greeting, and as the second turn after she greeted.
type introScore struct{ one, two, total int }

// score reads an introduction in one turn (text, greeting included) and as
// the second turn after her greeting (intro, after the visitor said g),
// counting those that name the visitor; a held-out miss is not logged.
func (s *introScore) score(t *testing.T, e *offline.Engine, lang nadine.Language, g, text, intro, name string, heldOut bool) {
	t.Helper()
	s.total++
	r := respond(t, e, nadine.Turn{Text: text, Language: lang})
	if saysName(r, name) {
		s.one++
	} else if !heldOut {
		t.Logf("%s one turn %q → %s %q", lang, text, r.intent(), r.reply.Text)
	}
	hist := []nadine.Message{{Role: nadine.RoleUser, Content: g}, {Role: nadine.RoleAssistant, Content: greetedBack[lang]}}
	r2 := respond(t, e, nadine.Turn{Text: intro, Language: lang}, hist...)
	if saysName(r2, name) {
		s.two++
	} else if !heldOut {
		t.Logf("%s second turn %q → %s %q", lang, intro, r2.intent(), r2.reply.Text)
	}
}

func (s introScore) String() string {
	return fmt.Sprintf("one turn %d/%d, second turn %d/%d", s.one, s.total, s.two, s.total)
}

// TestIntroductionAxes crosses greetings, forms of introduction, names and
// what is said after the name (a place, an age, a question back, a wish) in
// four languages, lowercase without punctuation in a third of them, said
// in one turn with the greeting and as the second turn after she greeted:
// every one is an introduction whose reply says the name. A quarter of the
// combinations is a held-out part whose misses are never printed.
func TestIntroductionAxes(t *testing.T) {
	testrun.SkipUnderRace(t)
	t.Parallel() // reads the shared model, writes nothing shared
	e := testEngine(offline.Options{})
	var langs []nadine.Language
	for lang := range introductionAxes {
		langs = append(langs, lang)
	}
	sort.Slice(langs, func(i, j int) bool { return langs[i] < langs[j] })
	var tunedAll, heldAll introScore
	for _, lang := range langs {
		a := introductionAxes[lang]
		var tuned, held introScore
		joints := []string{", ", "! ", " ", ". "}
		if lang == nadine.Chinese {
			joints = []string{"，", "！", "", "。"}
		}
		for gi, g := range a.greetings {
			for ii, form := range a.intros {
				for ni, name := range a.names {
					for ti, tail := range a.tails {
						if (gi*7+ii*5+ni*3+ti)%11 != 0 {
							continue
						}
						intro := introduce(form, name) + tail
						text := g + joints[(gi+ni)%len(joints)] + intro
						if (ni+ti)%3 == 0 && lang != nadine.Chinese {
							text = strings.ToLower(strings.NewReplacer(",", "", "!", "", ".", "").Replace(text))
						}
						part := &tuned
						heldOut := heldOutIntroduction(lang, g, form, name, tail)
						if heldOut {
							part = &held
						}
						part.score(t, e, lang, g, text, intro, name, heldOut)
					}
				}
			}
		}
		t.Logf("%s: tuned %s; held out %s", lang, tuned, held)
		for _, p := range []struct{ sum, s *introScore }{{&tunedAll, &tuned}, {&heldAll, &held}} {
			p.sum.one += p.s.one
			p.sum.two += p.s.two
			p.sum.total += p.s.total
		}
	}
	t.Logf("all: tuned %s; held out %s", tunedAll, heldAll)
	// Floors: the scores reached (673, 673, 204, 204 after the round that
	// wrote this test), less a margin for training's chance; on main before
	// its fixes, 644, 634, 196, 192 (de 343 and 329 of 350, en 90 and 88 of
	// 98, fr 348 and 350 of 350, zh 59 and 59 of 79).
	for _, f := range []struct {
		part       string
		got, floor int
	}{
		{"tuned, one turn", tunedAll.one, 660},
		{"tuned, second turn", tunedAll.two, 660},
		{"held out, one turn", heldAll.one, 200},
		{"held out, second turn", heldAll.two, 200},
	} {
		if f.got < f.floor {
			t.Errorf("%s: %d right, below %d", f.part, f.got, f.floor)
		}
	}
}

// saysName tells whether a reply is an introduction that says the name.
func saysName(r result, name string) bool {
	return r.intent() == "name" && strings.Contains(strings.ToLower(r.reply.Text), strings.ToLower(name))
}
