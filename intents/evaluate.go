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

// CrossValidate splits the examples into folds (each label spread evenly
// over them), trains on all folds but one and predicts the held-out one,
// for each fold. An example's filled variants stay in its fold, so that no
// prediction has seen its own sentence.
func CrossValidate(s *Set, o Options, folds int) ([]Prediction, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	if folds < 2 {
		return nil, fmt.Errorf("intents: cross-validate: %d folds", folds)
	}
	o = o.withDefaults()
	fold := make([]int, len(s.Examples))
	count := map[string]int{}
	for i, ex := range s.Examples {
		key := ex.Label + "|" + string(ex.Lang)
		fold[i] = count[key] % folds
		count[key]++
	}
	var out []Prediction
	for f := range folds {
		var use, held []int
		for i := range s.Examples {
			if fold[i] == f {
				held = append(held, i)
			} else {
				use = append(use, i)
			}
		}
		m := train(s, use, o)
		for _, i := range held {
			in := s.expand(i, 1, 0)[0]
			// What the model did not see is unknown to it, as a visitor's
			// new words are: the held-out text is tokenized afresh.
			res := m.Classify(in.text)
			p := Prediction{Example: s.Examples[i], Text: in.text, Got: res.Top()}
			if len(res.Languages) > 0 {
				p.Language = res.Languages[0].Language
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// Decide is the calibrated decision: the most probable label when its
// probability reaches threshold, else none.
func Decide(top Scored, threshold float64, none string) string {
	if top.Prob < threshold {
		return none
	}
	return top.Label
}

// ThresholdPoint is the accuracy of the decision at one threshold: over all
// predictions, over those whose answer is an intent (recall of the
// intents) and over those whose answer is none (how much of what is out of
// scope is recognized as such).
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
