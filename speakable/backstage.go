package speakable

import (
	"embed"
	"fmt"
	"hash/fnv"
	"sync"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// What is not for the visitor. A model that repeats its instructions in
// another language than theirs, describes Nadine in the prompt's second
// person, or tells how it made its answer speaks backstage, in words that
// no run of the prompt and no list can foresee. A classifier trained on
// examples tells it: sentences written to be backstage in the four
// languages (examples/LANG.txt) against what Nadine legitimately says
// (the same files, and examples/said_LANG.txt, generated from the offline
// engine's templates, the knowledge base and the test tables). See
// docs/speech.md for its calibration and figures.

// The labels of the examples.
const (
	labelBackstage = "backstage" // not for the visitor
	labelFrame     = "frame"     // a lead-in presenting the reply ("Here is my answer:")
	labelSpeech    = "speech"
)

// backstageThreshold is the probability of backstage or frame from which
// a text is not spoken, calibrated on the held-out examples so that at
// most 1% of the legitimate ones are dropped (TestBackstageCalibration).
const backstageThreshold = 0.8

// heldOutShare: one example in heldOutShare is kept out of training, to
// measure the classifier on sentences it did not learn.
const heldOutShare = 5

//go:embed examples/*.txt
var exampleFiles embed.FS

// backstageExamples returns every example, of every language.
func backstageExamples() (*intents.Set, error) {
	var s intents.Set
	for _, lang := range nadine.Languages() {
		for _, name := range []string{string(lang), "said_" + string(lang)} {
			b, err := exampleFiles.ReadFile("examples/" + name + ".txt")
			if err != nil {
				return nil, fmt.Errorf("speakable: examples: %w", err)
			}
			if err := s.Parse(lang, string(b)); err != nil {
				return nil, fmt.Errorf("speakable: examples %s: %w", name, err)
			}
		}
	}
	return &s, nil
}

// heldOut reports whether an example is kept out of training (by a hash
// of its text, so the split is the same on every run).
func heldOut(ex intents.Example) bool {
	h := fnv.New32a()
	h.Write([]byte(ex.Text))
	return h.Sum32()%heldOutShare == 0
}

// trainBackstage trains the classifier on the examples not held out.
func trainBackstage() (*intents.Model, error) {
	all, err := backstageExamples()
	if err != nil {
		return nil, err
	}
	train := &intents.Set{Values: all.Values}
	for _, ex := range all.Examples {
		if heldOut(ex) {
			continue
		}
		// Backstage sentences are the fewer: each is trained several
		// times, so that the classes weigh alike.
		for range weight(ex.Label) {
			train.Examples = append(train.Examples, ex)
		}
	}
	m, err := intents.Train(train, backstageOptions)
	if err != nil {
		return nil, fmt.Errorf("speakable: %w", err)
	}
	return m, nil
}

// weight is how many times an example of a label is trained.
func weight(label string) int {
	if label == labelSpeech {
		return 1
	}
	return backstageWeight
}

// backstageWeight balances the classes (some 650 backstage examples for
// 4,800 of speech).
const backstageWeight = 4

// backstageOptions are the classifier's training settings.
var backstageOptions = intents.Options{Epochs: 8}

// backstageModel is the classifier, trained once per process on first
// use: the examples are embedded and never change, training is
// deterministic and the model immutable (like a compiled expression).
var backstageModel = sync.OnceValues(trainBackstage)

// WarmUp trains the sentence classifier now rather than on the first
// sentence checked, and reports an error in its examples.
func WarmUp() error {
	_, err := backstageModel()
	return err
}

// judgement is what the classifier says of a text.
type judgement struct {
	backstage, frame float64
}

// notForVisitor reports whether the text is not to be spoken.
func (j judgement) notForVisitor() bool { return j.backstage+j.frame >= backstageThreshold }

// isFrame reports whether the text presents the reply that follows it.
func (j judgement) isFrame() bool { return j.notForVisitor() && j.frame > j.backstage }

// judge classifies a text (a sentence, a lead-in, an aside); a text the
// classifier cannot judge (its examples failed to load, which a test
// rules out) is speech.
func judge(s string) judgement {
	m, err := backstageModel()
	if err != nil {
		return judgement{}
	}
	r := m.ClassifyPart(intents.Tokenize(s))
	return judgement{backstage: r.Prob(labelBackstage), frame: r.Prob(labelFrame)}
}
