package llmtest

import (
	"fmt"
	"math/rand/v2"
	"sync"
)

// Appraiser answers the graph's appraisal with labels and intensities that
// vary by turn, as a real model does; repeatable from Seed, concurrency-safe.
type Appraiser struct {
	Seed uint64
	// Change is the probability that a turn's label is another than the
	// previous turn's (0.5: the label changes on half the turns).
	Change float64
	// Weights are the labels' chances when one is drawn; nil is
	// FriendlyWeights.
	Weights map[string]float64

	mu    sync.Mutex
	rnd   *rand.Rand
	label string
	order []string
}

// FriendlyWeights is a friendly museum visit: mostly joy, often neutral or
// surprise, now and then a sad story or a rude joke.
var FriendlyWeights = map[string]float64{
	"joy": 0.45, "neutral": 0.25, "surprise": 0.15, "sadness": 0.07, "fear": 0.03, "anger": 0.03, "disgust": 0.02,
}

// SmallTalkWeights is what an appraiser feels over small talk about a
// city (the bench's script): joy, nothing in particular, surprise.
var SmallTalkWeights = map[string]float64{"joy": 0.5, "neutral": 0.3, "surprise": 0.2}

// Next returns the next appraisal answer.
func (a *Appraiser) Next() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.rnd == nil {
		a.rnd = rand.New(rand.NewPCG(a.Seed, a.Seed^0x51ed270b27ad6d4b))
		if a.Weights == nil {
			a.Weights = FriendlyWeights
		}
		for _, l := range []string{"joy", "neutral", "surprise", "sadness", "fear", "anger", "disgust"} {
			if a.Weights[l] > 0 {
				a.order = append(a.order, l)
			}
		}
	}
	if a.label == "" || a.rnd.Float64() < a.Change {
		a.label = a.draw()
	}
	if a.label == "neutral" {
		return "neutral 0"
	}
	return fmt.Sprintf("%s %d", a.label, 2+a.rnd.IntN(7))
}

// draw picks a label other than the current one by its weight (the
// current one again when it is the only label).
func (a *Appraiser) draw() string {
	total := 0.0
	for _, l := range a.order {
		if l != a.label {
			total += a.Weights[l]
		}
	}
	if total == 0 {
		return a.order[0]
	}
	x := a.rnd.Float64() * total
	for _, l := range a.order {
		if l == a.label {
			continue
		}
		if x -= a.Weights[l]; x < 0 {
			return l
		}
	}
	return a.order[len(a.order)-1]
}
