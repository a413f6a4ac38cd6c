package intents

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nadine-robot/nadine"
)

// Prediction is the outcome for one example held out of training.
type Prediction struct {
	Example  Example
	Text     string // the example with its slots filled
	Got      Scored // the most probable label
	Language nadine.Language
}

// HeldOut is an example held out of a fold's training, its slots filled.
type HeldOut struct {
	Example Example
	Text    string
}

// Folds calls f with a model trained on all folds but one, and that fold; an
// example's variants stay in its fold, so no prediction saw its own sentence.
func Folds(s *Set, o Options, folds int, f func(m *Model, held []HeldOut)) error {
	if err := s.Check(); err != nil {
		return err
	}
	if folds < 2 {
		return fmt.Errorf("intents: cross-validate: %d folds", folds)
	}
	o = o.withDefaults()
	fold := make([]int, len(s.Examples))
	count := map[string]int{}
	for i, ex := range s.Examples {
		key := ex.Label + "|" + string(ex.Lang)
		fold[i] = count[key] % folds
		count[key]++
	}
	for k := range folds {
		var use []int
		var held []HeldOut
		for i := range s.Examples {
			if fold[i] != k {
				use = append(use, i)
				continue
			}
			held = append(held, HeldOut{Example: s.Examples[i], Text: s.expand(i, 1, 0, o.ByContent)[0].text})
		}
		f(train(s, use, o), held)
	}
	return nil
}

// CrossValidate predicts each example with the model of the fold that held
// it out (Folds).
func CrossValidate(s *Set, o Options, folds int) ([]Prediction, error) {
	var out []Prediction
	err := Folds(s, o, folds, func(m *Model, held []HeldOut) {
		for _, h := range held {
			// What the model did not see is unknown to it, as a visitor's
			// new words are: the held-out text is tokenized afresh.
			res := m.Classify(h.Text)
			p := Prediction{Example: h.Example, Text: h.Text, Got: res.Top()}
			if len(res.Languages) > 0 {
				p.Language = res.Languages[0].Language
			}
			out = append(out, p)
		}
	})
	return out, err
}

// Decide is the calibrated decision: the most probable label when its
// probability reaches threshold, else none.
func Decide(top Scored, threshold float64, none string) string {
	if top.Prob < threshold {
		return none
	}
	return top.Label
}

// ThresholdPoint is the accuracy at one threshold: overall, on intents (their
// recall) and on none (how much out of scope is recognized as such).
type ThresholdPoint struct {
	Threshold             float64
	Accuracy              float64
	InScope, OutOfScope   float64
	InScopeN, OutOfScopeN int
}

// Sweep measures the decision at each threshold. want maps an example's
// label to the label the decision should give (nil: the label itself).
func Sweep(preds []Prediction, none string, thresholds []float64, want func(string) string) []ThresholdPoint {
	if want == nil {
		want = func(l string) string { return l }
	}
	var out []ThresholdPoint
	for _, th := range thresholds {
		p := ThresholdPoint{Threshold: th}
		var ok, inOK, outOK int
		for _, pr := range preds {
			w := want(pr.Example.Label)
			got := want(Decide(pr.Got, th, none))
			hit := got == w
			if hit {
				ok++
			}
			if w == none {
				p.OutOfScopeN++
				if hit {
					outOK++
				}
			} else {
				p.InScopeN++
				if hit {
					inOK++
				}
			}
		}
		p.Accuracy = ratio(ok, len(preds))
		p.InScope = ratio(inOK, p.InScopeN)
		p.OutOfScope = ratio(outOK, p.OutOfScopeN)
		out = append(out, p)
	}
	return out
}

// Best returns the threshold of the highest accuracy (the lowest threshold
// among equals).
func Best(points []ThresholdPoint) ThresholdPoint {
	var best ThresholdPoint
	for i, p := range points {
		if i == 0 || p.Accuracy > best.Accuracy {
			best = p
		}
	}
	return best
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Confusion counts, for each wanted label, the labels given.
type Confusion map[string]map[string]int

// Add counts one outcome.
func (c Confusion) Add(want, got string) {
	if c[want] == nil {
		c[want] = map[string]int{}
	}
	c[want][got]++
}

// Mistakes lists the wrong outcomes, most frequent first: "want → got ×n".
func (c Confusion) Mistakes() []string {
	type m struct {
		want, got string
		n         int
	}
	var ms []m
	for w, row := range c {
		for g, n := range row {
			if g != w {
				ms = append(ms, m{w, g, n})
			}
		}
	}
	slices.SortFunc(ms, func(a, b m) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return strings.Compare(a.want+a.got, b.want+b.got)
	})
	out := make([]string, len(ms))
	for i, x := range ms {
		out[i] = fmt.Sprintf("%s → %s ×%d", x.want, x.got, x.n)
	}
	return out
}
