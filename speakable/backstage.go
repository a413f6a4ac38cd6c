package speakable

import (
	"embed"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"sync"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/intents"
)

// What is not for the visitor, in words no run of the prompt can foresee, is
// told by a classifier trained on examples/*.txt (docs/speech.md has its figures).

// The labels of the examples.
const (
	labelBackstage = "backstage" // not for the visitor
	labelFrame     = "frame"     // a lead-in presenting the reply ("Here is my answer:")
	labelSpeech    = "speech"
)

// maxFalseDrops is the share of legitimate sentences the classifier may
// drop: its threshold is calibrated on held-out examples to drop no more.
const maxFalseDrops = 0.01

// minThreshold: whatever the calibration, a text is dropped only when
// the classifier finds it more likely backstage than speech.
const minThreshold = 0.5

// heldOutShare: one example in heldOutShare is held out, half to calibrate
// the threshold and half to measure it.
const heldOutShare = 4

//go:embed examples/*.txt
var exampleFiles embed.FS

// backstageExamples returns every example of every language: written, the
// prompts' sentences translated, more angles, what Nadine says (generated)
// and what visitors say to her (heard_*.txt).
func backstageExamples() (*intents.Set, error) {
	return readExamples("", "prompt_", "more_", "said_", "heard_")
}

// translatedPrompts returns the prompts' sentences said in each language:
// prompt_*.txt, trained into the classifier too, and graphprompt_*.txt, the
// graph's response prompt, read only by the rare-pair chains and the rules'
// stems (training them moved other outputs across the classifier's bar).
func translatedPrompts() (*intents.Set, error) {
	return readExamples("prompt_", "graphprompt_")
}

// readExamples returns the examples of the files of kinds, of every language.
func readExamples(kinds ...string) (*intents.Set, error) {
	var s intents.Set
	for _, lang := range nadine.Languages() {
		for _, kind := range kinds {
			name := kind + string(lang)
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

// part is where an example goes, by a hash of its text (the same on every
// run): training, calibration of the threshold, or measurement.
type part int

const (
	partTrain part = iota
	partCalibrate
	partMeasure
)

func partOf(ex intents.Example) part {
	h := fnv.New32a()
	h.Write([]byte(ex.Text))
	switch x := h.Sum32() % (2 * heldOutShare); x {
	case 0:
		return partCalibrate
	case heldOutShare:
		return partMeasure
	default:
		return partTrain
	}
}

// classifier is the trained model and its calibrated threshold on the
// probability of backstage or frame.
type classifier struct {
	models    []*intents.Model // bagged: trained in different orders, averaged
	threshold float64
	// persona reads a statement about its listener in the first person;
	// personaBar is the margin from which it is the persona told to her
	// (calibrated like threshold).
	persona    *perspective
	personaBar float64
	// personaAlone is the margin from which the persona told to her is
	// dropped whatever the classifier says: aloneMargin times the
	// calibration part's greatest.
	personaAlone float64
	// attrs weighs what only she is told to a listener; attrBar is the
	// weight from which such a statement goes (aloneMargin times the
	// calibration part's greatest).
	attrs   *attributes
	attrBar float64
	// stanceBar is the probability from which a sentence with a mark of
	// stance (stance.go) goes: aloneMargin times the greatest of any
	// calibration sentence of speech that has one.
	stanceBar float64
	// ownRulesBar is the same for her rules named as hers (ownRulesRE):
	// zero while no calibration sentence of speech names them so.
	ownRulesBar float64
	// sourceBar is the same for the prompt's inputs named as a source
	// (promptSourceRE).
	sourceBar float64
	// ruleFormBar is the same for a sentence written as a rule
	// (ruleShaped), and at least ruleFormFloor.
	ruleFormBar float64
}

// bagged is how many models are averaged: one model's decision near the
// threshold moves with the order its examples were trained in.
const bagged = 2

// trainBackstage trains the classifier on the training part and
// calibrates its threshold on the calibration part's speech.
func trainBackstage() (*classifier, error) {
	all, err := backstageExamples()
	if err != nil {
		return nil, err
	}
	train := &intents.Set{Values: all.Values}
	for _, ex := range all.Examples {
		if partOf(ex) != partTrain {
			continue
		}
		// Backstage sentences are the fewer: each is trained several
		// times, so that the classes weigh alike.
		for range weight(ex.Label) {
			train.Examples = append(train.Examples, ex)
		}
	}
	c := &classifier{persona: newPerspective(train.Examples), attrs: newAttributes(train.Examples), ruleFormBar: ruleFormFloor}
	for i := range bagged {
		o := backstageOptions
		o.Seed = uint64(101 + i)
		m, err := intents.Cached(fmt.Sprintf("backstage-%d", i+1), func() (*intents.Model, error) { return intents.Train(train, o) })
		if err != nil {
			return nil, fmt.Errorf("speakable: %w", err)
		}
		c.models = append(c.models, m)
	}
	var speech []float64
	var calib []intents.Example
	for _, ex := range all.Examples {
		if partOf(ex) == partCalibrate && ex.Label == labelSpeech {
			speech = append(speech, c.judge(ex.Text).p())
			calib = append(calib, ex)
		}
	}
	// A third of the share on the calibration part: six hundred examples
	// set a threshold loosely (±0.4% between the two held-out parts), and
	// the measured part must stay within the share.
	c.threshold = calibrate(speech, maxFalseDrops/3)
	// The persona told to her lowers the bar to even odds: its margin is
	// set so that it drops none of the calibration part's speech more.
	for i, ex := range calib {
		if speech[i] >= c.threshold {
			continue
		}
		if stanceOf(ex.Text, ex.Lang) {
			c.stanceBar = max(c.stanceBar, aloneMargin*speech[i])
		}
		if ownRulesOf(ex.Text, ex.Lang) {
			c.ownRulesBar = max(c.ownRulesBar, aloneMargin*speech[i])
		}
		if promptSourceOf(ex.Text, ex.Lang) {
			c.sourceBar = max(c.sourceBar, aloneMargin*speech[i])
		}
		if ruleShaped(ex.Text, ex.Lang) {
			c.ruleFormBar = max(c.ruleFormBar, aloneMargin*speech[i])
		}
		if w, _, ok := c.attrs.told(ex.Text, ex.Lang); ok {
			c.attrBar = max(c.attrBar, aloneMargin*w)
		}
		if m, ok := c.persona.told(ex.Text, ex.Lang, math.Inf(-1)); ok {
			c.personaAlone = max(c.personaAlone, aloneMargin*m)
			if speech[i] >= minThreshold {
				c.personaBar = max(c.personaBar, math.Nextafter(m, 2))
			}
		}
	}
	return c, nil
}

// calibrate returns the least threshold at which at most share of the
// scores reach it (and at least minThreshold).
func calibrate(scores []float64, share float64) float64 {
	s := slices.Clone(scores)
	slices.Sort(s)
	slices.Reverse(s)
	k := int(share * float64(len(s))) // scores allowed at or above
	if k >= len(s) {
		return minThreshold
	}
	return max(minThreshold, math.Nextafter(s[k], 2))
}

// ruleFormFloor is the least probability from which a sentence written as
// a rule goes: the calibration part holds two such sentences of speech, too
// few to set the bar alone.
const ruleFormFloor = 0.2

// aloneMargin raises the bar at which the perspective alone drops a sentence
// above the calibration's greatest score (docs/speech.md, Perspective).
const aloneMargin = 1.5

// weight is how many times an example of a label is trained.
func weight(label string) int {
	if label == labelSpeech {
		return 1
	}
	return backstageWeight
}

// backstageWeight balances the classes (some 960 backstage and frame
// examples for 4,880 of speech).
const backstageWeight = 4

// backstageOptions are the classifier's training settings.
var backstageOptions = intents.Options{}

// backstageModel is trained once per process on first use: the examples
// are embedded, training deterministic and the model immutable.
var backstageModel = sync.OnceValues(trainBackstage)

// WarmUp trains the sentence classifier, calibrates the paraphrase's bars
// and reads the rules' stems now rather than on the first sentence checked,
// and reports an error in its examples.
func WarmUp() error {
	_, err := backstageModel()
	pairBar()
	// The stems read off the prompts and the speech examples, too: each
	// reads every example once.
	personaOnly()
	promptDenials()
	ruleStems()
	herSpeech()
	return err
}

// stanceTold reports whether s, under the classifier's threshold, is talk
// about her rules, her answer's making or the visitor in the third person:
// a mark of stance and a probability from the calibrated stanceBar, or her
// rules named as hers from ownRulesBar.
func stanceTold(s string, lang nadine.Language, j judgement) bool {
	if j.threshold == 0 {
		return false
	}
	c, err := backstageModel()
	if err != nil {
		return false
	}
	if ownRulesOf(s, lang) && j.p() >= c.ownRulesBar {
		return true
	}
	if promptSourceOf(s, lang) && j.p() >= c.sourceBar {
		return true
	}
	if j.p() >= c.ruleFormBar && ruleShaped(s, lang) {
		return true
	}
	return c.stanceBar > 0 && j.p() >= c.stanceBar && stanceOf(s, lang)
}

// personaTold reports whether s is the prompt's persona told to her: read in
// the first person, closer to what she says of herself than to visitors.
func personaTold(s string, lang nadine.Language, j judgement) bool {
	if j.threshold == 0 || j.p() >= j.threshold {
		return false
	}
	c, err := backstageModel()
	if err != nil {
		return false
	}
	if w, _, ok := c.attrs.told(s, lang); ok && c.attrBar > 0 && w >= c.attrBar {
		return true
	}
	least := c.personaAlone
	if j.p() >= minThreshold {
		least = min(least, c.personaBar)
	}
	m, ok := c.persona.told(s, lang, least)
	return ok && m >= least
}

// judgement is what the classifier says of a text.
type judgement struct {
	backstage, frame, threshold float64
}

// p is the probability that the text is not for the visitor.
func (j judgement) p() float64 { return j.backstage + j.frame }

// notForVisitor reports whether the text is not to be spoken.
func (j judgement) notForVisitor() bool { return j.threshold > 0 && j.p() >= j.threshold }

// isFrame reports whether the text presents the reply after it; even odds
// suffice, since dropping a lead-in never drops the reply after it.
func (j judgement) isFrame() bool {
	return j.threshold > 0 && j.p() >= minThreshold && j.frame >= frameShare*j.p()
}

// frameShare is the share of frame in a lead-in's not-for-the-visitor
// probability from which it is taken to present the reply.
const frameShare = 0.2

// judge classifies a sentence, a lead-in or an aside; without a classifier
// (its examples failed to load, which a test rules out) all is speech.
func judge(s string) judgement {
	c, err := backstageModel()
	if err != nil {
		return judgement{}
	}
	return c.judge(s)
}

func (c *classifier) judge(s string) judgement {
	toks := intents.Tokenize(s)
	j := judgement{threshold: c.threshold}
	for _, m := range c.models {
		r := m.ClassifyPart(toks)
		j.backstage += r.Prob(labelBackstage) / float64(len(c.models))
		j.frame += r.Prob(labelFrame) / float64(len(c.models))
	}
	return j
}
