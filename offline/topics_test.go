package offline

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
)

// topicCase is an example the topic routing is calibrated on: a knowledge
// question (fact) or what is none of the intents (fact "").
type topicCase struct {
	lang nadine.Language
	text string
	fact string
}

// topicCases are the knowledge.<fact> and none examples: held out from the
// passages, which are Nadine's answers, not visitors' questions.
func topicCases(t *testing.T) []topicCase {
	t.Helper()
	s, err := Examples()
	if err != nil {
		t.Fatal(err)
	}
	var out []topicCase
	for _, ex := range s.Examples {
		if strings.Contains(ex.Text, "{") {
			continue
		}
		switch {
		case ex.Label == noneLabel:
			out = append(out, topicCase{ex.Lang, ex.Text, ""})
		case strings.HasPrefix(ex.Label, "knowledge."):
			out = append(out, topicCase{ex.Lang, ex.Text, strings.TrimPrefix(ex.Label, "knowledge.")})
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

func tallyTopics(e *Engine, cases []topicCase, th float64) topicTally {
	var k topicTally
	for _, c := range cases {
		fact, score, shares := e.topics.nearest(c.text, c.lang)
		routed := fact != "" && score >= th && shares
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
	grid := []float64{0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4}
	best, bestCost := 0.0, -1
	var b strings.Builder
	fmt.Fprintln(&b, "| threshold | right fact | missed (honest limit) | wrong fact | none answered | cost |")
	for _, th := range grid {
		k := tallyTopics(e, cases, th)
		pct := func(n, d int) string { return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(max(d, 1))) }
		fmt.Fprintf(&b, "| %.2f | %s | %s | %s | %s | %d |\n", th, pct(k.right, k.questions), pct(k.missed, k.questions),
			pct(k.wrongFact, k.questions), pct(k.falseAnswer, k.none), k.cost())
		if bestCost < 0 || k.cost() < bestCost {
			best, bestCost = th, k.cost()
		}
	}
	t.Logf("topic routing on %d examples:\n%s", len(cases), b.String())
	if got := tallyTopics(e, cases, topicThreshold).cost(); got > bestCost {
		t.Errorf("topicThreshold %.2f costs %d; %.2f costs %d", topicThreshold, got, best, bestCost)
	}
}
