package offline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/internal/testrun"
)

// topicCase is an example the topic routing is calibrated on: a knowledge
// question (fact) or what is none of the intents (fact "").
type topicCase struct {
	lang  nadine.Language
	text  string
	fact  string
	index int // in the examples, which picks its fold (TestTopicAskedCalibration)
}

// topicCases are the knowledge.<fact> and none examples: held out from the
// answer passages, which are Nadine's answers, not visitors' questions, and
// from the question passages by folds.
func topicCases(t *testing.T) []topicCase {
	t.Helper()
	s, err := Examples()
	if err != nil {
		t.Fatal(err)
	}
	var out []topicCase
	for i, ex := range s.Examples {
		if strings.Contains(ex.Text, "{") {
			continue
		}
		switch {
		case ex.Label == noneLabel:
			out = append(out, topicCase{ex.Lang, ex.Text, "", i})
		case strings.HasPrefix(ex.Label, "knowledge."):
			out = append(out, topicCase{ex.Lang, ex.Text, strings.TrimPrefix(ex.Label, "knowledge."), i})
		}
	}
	return out
}

// topicTally counts one threshold's outcomes.
type topicTally struct{ right, missed, wrongFact, falseAnswer, questions, none int }

// topicWrongCost is what a wrong answer (a wrong fact, or a fact for what
// is none of the intents) costs against a missed one: twice, as for the
// classifier's threshold.
const topicWrongCost = 2

func (k topicTally) cost() int { return k.missed + topicWrongCost*(k.wrongFact+k.falseAnswer) }

// topicRoute is where the routing takes a case, whatever the threshold.
type topicRoute struct {
	fact   string
	score  float64
	shares bool
}

// routeTopics finds each case's nearest fact once: only the threshold
// varies over the grid.
func routeTopics(e *Engine, cases []topicCase) []topicRoute {
	routes := make([]topicRoute, len(cases))
	for i, c := range cases {
		routes[i].fact, routes[i].score, routes[i].shares = e.topics.nearest(c.text, c.lang)
	}
	return routes
}

func tallyTopics(cases []topicCase, routes []topicRoute, th float64) topicTally {
	i := 0
	return tallyRoute(cases, func(topicCase) (string, bool) {
		r := routes[i]
		i++
		return r.fact, r.fact != "" && r.score >= th && r.shares
	})
}

// tallyRoute counts what route makes of the cases.
func tallyRoute(cases []topicCase, route func(topicCase) (string, bool)) topicTally {
	var k topicTally
	for _, c := range cases {
		fact, routed := route(c)
		switch {
		case c.fact == "":
			k.none++
			if routed {
				k.falseAnswer++
			}
		case !routed:
			k.questions++
			k.missed++
		case fact == c.fact:
			k.questions++
			k.right++
		default:
			k.questions++
			k.wrongFact++
		}
	}
	return k
}

// TestTopicCalibration checks that topicThreshold is the threshold of
// least cost on the knowledge and none examples, and logs the grid
// (docs/offline.md).
func TestTopicCalibration(t *testing.T) {
	e := New(Options{})
	cases := topicCases(t)
	routes := routeTopics(e, cases)
	grid := []float64{0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4}
	best, bestCost := 0.0, -1
	var b strings.Builder
	fmt.Fprintln(&b, "| threshold | right fact | missed (honest limit) | wrong fact | none answered | cost |")
	for _, th := range grid {
		k := tallyTopics(cases, routes, th)
		pct := func(n, d int) string { return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(max(d, 1))) }
		fmt.Fprintf(&b, "| %.2f | %s | %s | %s | %s | %d |\n", th, pct(k.right, k.questions), pct(k.missed, k.questions),
			pct(k.wrongFact, k.questions), pct(k.falseAnswer, k.none), k.cost())
		if bestCost < 0 || k.cost() < bestCost {
			best, bestCost = th, k.cost()
		}
	}
	t.Logf("topic routing on %d examples:\n%s", len(cases), b.String())
	if got := tallyTopics(cases, routes, topicThreshold).cost(); got > bestCost {
		t.Errorf("topicThreshold %.2f costs %d; %.2f costs %d", topicThreshold, got, best, bestCost)
	}
}

func (k topicTally) add(o topicTally) topicTally {
	return topicTally{k.right + o.right, k.missed + o.missed, k.wrongFact + o.wrongFact, k.falseAnswer + o.falseAnswer,
		k.questions + o.questions, k.none + o.none}
}

// topicFolds is how many parts the knowledge examples are split into: each
// part is routed by question passages built from the others.
const topicFolds = 4

// topicFalseAnswers is the share of what is none of the intents that the
// whole route may answer with a fact: the question passages' threshold is
// the cheapest that keeps to it.
const topicFalseAnswers = 0.015

// TestTopicAskedCalibration checks that askedThreshold is the threshold of
// least cost for the question passages, behind the answer passages at
// topicThreshold, among those that answer at most topicFalseAnswers of the
// none examples. It is cross-validated: a question is routed by passages
// built without its fold's examples. It logs the grid and each language's
// figures (docs/offline.md).
func TestTopicAskedCalibration(t *testing.T) {
	testrun.SkipUnderRace(t)
	t.Parallel() // reads the shared model, writes nothing shared
	e := New(Options{})
	cases := topicCases(t)
	grid := []float64{0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 1.1} // 1.1: the answers alone
	all := map[float64]topicTally{}
	byLang := map[nadine.Language]map[float64]topicTally{}
	for f := range topicFolds {
		held := func(i int) bool { return i%topicFolds == f }
		ix := e.topicIndex(questionPassages(askedOf(held)))
		for _, c := range cases {
			if !held(c.index) {
				continue
			}
			if byLang[c.lang] == nil {
				byLang[c.lang] = map[float64]topicTally{}
			}
			for _, th := range grid {
				k := tallyRoute([]topicCase{c}, func(c topicCase) (string, bool) { return ix.route(c.text, c.lang, topicThreshold, th) })
				all[th] = all[th].add(k)
				byLang[c.lang][th] = byLang[c.lang][th].add(k)
			}
		}
	}
	pct := func(n, d int) string { return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(max(d, 1))) }
	row := func(b *strings.Builder, name string, k topicTally) {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s | %d |\n", name, pct(k.right, k.questions), pct(k.missed, k.questions),
			pct(k.wrongFact, k.questions), pct(k.falseAnswer, k.none), k.cost())
	}
	var b strings.Builder
	fmt.Fprintln(&b, "| questions' threshold | right fact | missed (honest limit) | wrong fact | none answered | cost |")
	best, bestCost := 0.0, -1
	for _, th := range grid {
		k := all[th]
		row(&b, fmt.Sprintf("%.2f", th), k)
		if float64(k.falseAnswer) <= topicFalseAnswers*float64(k.none) && (bestCost < 0 || k.cost() < bestCost) {
			best, bestCost = th, k.cost()
		}
	}
	fmt.Fprintf(&b, "\n| language at %.2f | right fact | missed (honest limit) | wrong fact | none answered | cost |\n", askedThreshold)
	for _, lang := range nadine.Languages() {
		row(&b, string(lang), byLang[lang][askedThreshold])
	}
	t.Logf("topic routing, cross-validated, on %d examples:\n%s", len(cases), b.String())
	if bestCost < 0 {
		t.Fatalf("no threshold answers at most %.1f%% of the none examples", 100*topicFalseAnswers)
	}
	if best != askedThreshold {
		t.Errorf("askedThreshold %.2f costs %d (none answered %d of %d); %.2f costs %d", askedThreshold, all[askedThreshold].cost(),
			all[askedThreshold].falseAnswer, all[askedThreshold].none, best, bestCost)
	}
}

// TestTopicLongQuestions crosses knowledge questions with rambling lead-ins
// and tails (fillers, apologies, "I was wondering"): a question the route
// takes keeps its topic however long the visitor talks around it.
func TestTopicLongQuestions(t *testing.T) {
	e := New(Options{})
	axes := map[nadine.Language]struct{ questions, leads, tails []string }{
		nadine.English: {[]string{"when was the lab in geneva founded that makes virtual humans", "is there a microphone that picks up my voice", "what is a social robot"},
			[]string{"um sorry if this is a silly question but i was wondering", "so yeah okay i just wanted to ask you something", "excuse me, I hope you do not mind me asking,"},
			[]string{"", "or something like that", "if you know what i mean"}},
		nadine.French: {[]string{"quand a été fondé le labo de genève qui fait des humains virtuels", "il y a un microphone qui capte ma voix", "c'est quoi un robot social"},
			[]string{"euh pardon si c'est une question bête mais je me demandais", "alors bon voilà je voulais juste vous demander", "excusez-moi, si ça ne vous dérange pas,"},
			[]string{"", "ou un truc comme ça", "vous voyez ce que je veux dire"}},
		nadine.German: {[]string{"seit wann gibt es das Labor in Genf das virtuelle Menschen macht", "gibt es ein Mikrofon das meine Stimme aufnimmt", "was ist ein sozialer Roboter"},
			[]string{"äh entschuldigung falls das eine dumme Frage ist aber ich hab mich gefragt", "also ja ich wollte Sie nur mal was fragen", "Verzeihung, wenn ich so direkt frage,"},
			[]string{"", "oder so ähnlich", "wenn Sie verstehen was ich meine"}},
		nadine.Chinese: {[]string{"日内瓦那个做虚拟人的实验室是什么时候成立的", "是有麦克风收我的声音吗", "什么是社交机器人"},
			[]string{"嗯不好意思问个可能很傻的问题我就是想知道", "那个我就是想问您一下", "打扰一下，如果您不介意的话，"},
			[]string{"", "之类的", "您明白我的意思吗"}},
	}
	total, kept := 0, 0
	for lang, ax := range axes {
		for _, q := range ax.questions {
			fact, ok := e.topic(q, lang)
			if !ok {
				t.Logf("%s %q: no topic even short", lang, q)
				continue
			}
			for _, lead := range ax.leads {
				for _, tail := range ax.tails {
					sep := " "
					if lang == nadine.Chinese {
						sep = ""
					}
					long := strings.TrimSpace(lead + sep + q + sep + tail)
					total++
					if f, _ := e.topic(long, lang); f == fact {
						kept++
					} else {
						t.Logf("%s %q → %q, want %s", lang, long, f, fact)
					}
				}
			}
		}
	}
	t.Logf("long questions kept their topic: %d/%d", kept, total)
	if kept*10 < total*9 {
		t.Errorf("long questions kept their topic %d/%d times, want 90%%", kept, total)
	}
}

// TestNamedFact measures the named-fact correction cross-validated (the
// question passages built without the fold's examples): a knowledge example
// given its own fact must keep it (a switch would turn a right reading
// wrong), and given another fact it should be brought back to its own more
// often than sent to a third. It logs the figures per language
// (docs/offline.md).
func TestNamedFact(t *testing.T) {
	e := New(Options{})
	type tally struct{ examples, moved, readings, back, third int }
	per := map[nadine.Language]*tally{}
	for _, lang := range nadine.Languages() {
		per[lang] = &tally{}
	}
	for f := range topicFolds {
		held := func(i int) bool { return i%topicFolds == f }
		ix := e.topicIndex(questionPassages(askedOf(held)))
		for _, c := range topicCases(t) {
			if c.fact == "" || !held(c.index) {
				continue
			}
			k := per[c.lang]
			k.examples++
			if _, ok := ix.named(c.text, c.lang, c.fact); ok {
				k.moved++
			}
			for _, other := range topicFacts {
				if other == c.fact {
					continue
				}
				k.readings++
				if g, ok := ix.named(c.text, c.lang, other); ok && g == c.fact {
					k.back++
				} else if ok {
					k.third++
				}
			}
		}
	}
	var b strings.Builder
	fmt.Fprintln(&b, "| language | right fact moved | other fact brought back | other fact sent to a third |")
	var all tally
	for _, lang := range nadine.Languages() {
		k := per[lang]
		fmt.Fprintf(&b, "| %s | %d/%d | %d/%d | %d/%d |\n", lang, k.moved, k.examples, k.back, k.readings, k.third, k.readings)
		all.examples, all.moved, all.readings, all.back, all.third = all.examples+k.examples, all.moved+k.moved,
			all.readings+k.readings, all.back+k.back, all.third+k.third
	}
	t.Logf("named facts, cross-validated:\n%s", b.String())
	if 50*all.moved > all.examples || all.back <= all.third {
		t.Errorf("named facts: %d of %d right facts moved (at most 2%%), %d brought back against %d sent to a third",
			all.moved, all.examples, all.back, all.third)
	}
}
