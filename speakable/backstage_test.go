package speakable

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
	"github.com/nadine-robot/nadine/spoken"
)

// heldOutScores scores the examples held out to measure the classifier
// (neither trained on nor calibrated on): the not-for-the-visitor
// probability of each, by whether it is speech.
func heldOutScores(t *testing.T) (speech, backstage []scored) {
	t.Helper()
	all, err := backstageExamples()
	if err != nil {
		t.Fatal(err)
	}
	if err := WarmUp(); err != nil {
		t.Fatal(err)
	}
	translated, err := readExamples("prompt_", "more_")
	if err != nil {
		t.Fatal(err)
	}
	fromPrompt := map[string]bool{}
	for _, ex := range translated.Examples {
		fromPrompt[ex.Text] = true
	}
	for _, ex := range all.Examples {
		if partOf(ex) != partMeasure {
			continue
		}
		j := judge(ex.Text)
		_, second := swapPerson(ex.Text, ex.Lang)
		s := scored{text: ex.Text, lang: ex.Lang, p: j.p(), prompt: fromPrompt[ex.Text], told: personaTold(ex.Text, ex.Lang, j), second: second,
			stance: stanceTold(ex.Text, ex.Lang, j)}
		if ex.Label == labelSpeech {
			speech = append(speech, s)
		} else {
			backstage = append(backstage, s)
		}
	}
	return speech, backstage
}

type scored struct {
	text   string
	lang   nadine.Language
	p      float64
	prompt bool // added in prompt_LANG.txt or more_LANG.txt
	told   bool // the persona told to her (perspective), under the threshold
	second bool // in the second person
	stance bool // a mark of stance, from the stance bar (stance.go)
}

// TestBackstageCalibration measures the classifier on the examples it was
// neither trained nor calibrated on: at the calibrated threshold, at most
// 1% of the legitimate sentences are dropped; a sweep is printed.
func TestBackstageCalibration(t *testing.T) {
	speech, backstage := heldOutScores(t)
	if len(speech) < 400 || len(backstage) < 60 {
		t.Fatalf("held out: %d speech and %d backstage examples, too few to calibrate", len(speech), len(backstage))
	}
	rate := func(xs []scored, th float64) (int, float64) {
		n := 0
		for _, x := range xs {
			if x.p >= th {
				n++
			}
		}
		return n, float64(n) / float64(len(xs))
	}
	var sweep []string
	for _, th := range []float64{0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9} {
		fd, fdr := rate(speech, th)
		c, cr := rate(backstage, th)
		sweep = append(sweep, fmt.Sprintf("%.1f: speech dropped %d/%d (%.1f%%), backstage caught %d/%d (%.1f%%)", th, fd, len(speech), 100*fdr, c, len(backstage), 100*cr))
	}
	t.Logf("held-out sweep:\n%s", strings.Join(sweep, "\n"))
	th := judge("").threshold
	fd, fdr := rate(speech, th)
	c, cr := rate(backstage, th)
	t.Logf("at the calibrated threshold %.3f: legitimate sentences dropped %d/%d (%.2f%%), backstage caught %d/%d (%.1f%%)", th, fd, len(speech), 100*fdr, c, len(backstage), 100*cr)
	// The first written examples apart from those added later (the prompt's
	// sentences translated, more angles): comparable over time.
	var written, translated []scored
	for _, x := range backstage {
		if x.prompt {
			translated = append(translated, x)
		} else {
			written = append(written, x)
		}
	}
	wc, wcr := rate(written, th)
	tc, tcr := rate(translated, th)
	t.Logf("backstage caught: written examples %d/%d (%.1f%%), added (prompt translated, more angles) %d/%d (%.1f%%)", wc, len(written), 100*wcr, tc, len(translated), 100*tcr)
	for _, x := range speech {
		if x.p >= th {
			t.Logf("dropped (%s, %.2f): %s", x.lang, x.p, x.text)
		}
	}
	for _, x := range backstage {
		if x.p < th {
			t.Logf("missed (%s, %.2f): %s", x.lang, x.p, x.text)
		}
	}
	// The persona told to her: a statement about the listener whose
	// first-person reading is Nadine's own (perspective.go).
	told := func(xs []scored) (n int, r float64) {
		for _, x := range xs {
			if x.p >= th || x.told {
				n++
			}
		}
		return n, float64(n) / float64(len(xs))
	}
	for _, x := range append(slices.Clone(speech), backstage...) {
		if x.told {
			t.Logf("persona told (%s, %.2f): %s", x.lang, x.p, x.text)
		}
	}
	c0, err := backstageModel()
	if err != nil {
		t.Fatal(err)
	}
	pfd, pfdr := told(speech)
	pc, pcr := told(backstage)
	t.Logf("with the persona told (margin %.3f at even odds, %.3f alone): legitimate sentences dropped %d/%d (%.2f%%), backstage caught %d/%d (%.1f%%)",
		c0.personaBar, c0.personaAlone, pfd, len(speech), 100*pfdr, pc, len(backstage), 100*pcr)
	// A mark of stance (stance.go) on top: her rules, her answer's making,
	// the visitor in the third person.
	withStance := func(xs []scored) (n int, r float64) {
		for _, x := range xs {
			if x.p >= th || x.told || x.stance {
				n++
			}
			if x.stance && x.p < th {
				t.Logf("stance (%s, %.2f): %s", x.lang, x.p, x.text)
			}
		}
		return n, float64(n) / float64(len(xs))
	}
	sfdr, sfdrr := withStance(speech)
	sc, scr := withStance(backstage)
	t.Logf("with marks of stance too (bar %.3f): legitimate sentences dropped %d/%d (%.2f%%), backstage caught %d/%d (%.1f%%)",
		c0.stanceBar, sfdr, len(speech), 100*sfdrr, sc, len(backstage), 100*scr)
	if sfdrr > 0.01 {
		t.Errorf("%.2f%% of the held-out legitimate sentences are dropped with marks of stance (at most 1%%)", 100*sfdrr)
	}
	var secondSpeech []scored
	for _, x := range speech {
		if x.second {
			secondSpeech = append(secondSpeech, x)
		}
	}
	sfd, _ := rate(secondSpeech, th)
	sfdTold, _ := told(secondSpeech)
	t.Logf("held-out legitimate sentences in the second person: %d; dropped %d by the classifier, %d with the persona told", len(secondSpeech), sfd, sfdTold)
	if pfdr > 0.01 {
		t.Errorf("%.2f%% of the held-out legitimate sentences are dropped (at most 1%%)", 100*pfdr)
	}
}

// BenchmarkTrainBackstage measures training the sentence classifier, which
// the first sentence checked in a process waits for unless WarmUp ran.
func BenchmarkTrainBackstage(b *testing.B) {
	for b.Loop() {
		if _, err := trainBackstage(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJudge measures one judgement of the classifier.
func BenchmarkJudge(b *testing.B) {
	if err := WarmUp(); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		judge("It's a sunny day in Geneva, about 18 degrees, perfect for a walk by the lake.")
	}
}

// TestGateOnSaid runs what Nadine legitimately says, held out of the
// classifier's training and calibration, through the whole gate built from the ReAct
// prompt (echo, structure, the classifier): at most 1% is taken for what
// is not speech.
func TestGateOnSaid(t *testing.T) {
	all, err := backstageExamples()
	if err != nil {
		t.Fatal(err)
	}
	c := New([]nadine.Prompt{GoldenReactPrompt(t)})
	n, dropped, leftOut := 0, 0, 0
	for _, ex := range all.Examples {
		if ex.Label != labelSpeech || partOf(ex) != partMeasure {
			continue
		}
		n++
		_, err := c.Sentence(ex.Text, ex.Lang)
		switch {
		case errors.Is(err, spoken.ErrLeftOut):
			// Left out by design (an assistant-ism such as "Happy to
			// help!"), not taken for the prompt's.
			leftOut++
			t.Logf("left out (%s): %s: %v", ex.Lang, ex.Text, err)
		case err != nil:
			dropped++
			t.Logf("not spoken (%s): %s: %v", ex.Lang, ex.Text, err)
		}
	}
	t.Logf("left out as assistant-isms or addresses: %d", leftOut)
	t.Logf("held-out legitimate sentences through the gate: %d/%d not spoken (%.2f%%)", dropped, n, 100*float64(dropped)/float64(n))
	if float64(dropped) > 0.01*float64(n) {
		t.Errorf("%d/%d held-out legitimate sentences not spoken (at most 1%%)", dropped, n)
	}
}

// GoldenReactPrompt is the ReAct agent's prompt as the engine renders it
// (its golden files); exported for the external tests.
func GoldenReactPrompt(t *testing.T) nadine.Prompt {
	t.Helper()
	sys, err := os.ReadFile("../react/testdata/system.golden")
	if err != nil {
		t.Fatal(err)
	}
	human, err := os.ReadFile("../react/testdata/human.golden")
	if err != nil {
		t.Fatal(err)
	}
	_, persona, _ := strings.Cut(string(sys), "\n")
	return nadine.Prompt{Role: "react_agent", Instructions: []string{string(sys), string(human)}, Persona: []string{persona}}
}

// TestCalibrate: the threshold lets at most the share through, and is
// never below even odds.
func TestCalibrate(t *testing.T) {
	scores := make([]float64, 200)
	for i := range scores {
		scores[i] = float64(i) / 200
	}
	tests := []struct {
		share float64
		want  int // scores at or above the threshold
	}{{0.01, 2}, {0.05, 10}, {0.4, 80}, {0.9, 100}}
	for _, tc := range tests {
		th := calibrate(scores, tc.share)
		n := 0
		for _, s := range scores {
			if s >= th {
				n++
			}
		}
		if n != tc.want || th < minThreshold {
			t.Errorf("calibrate(%v) = %v: %d scores at or above, want %d (and at least %v)", tc.share, th, n, tc.want, minThreshold)
		}
	}
}

// TestFrameLeadIns measures the lead-ins of held-out legitimate sentences
// ("Bonne nouvelle : il fait beau") taken for a frame, whose words are
// then not spoken: at even odds (as the gate takes them) and at the
// calibrated bar.
func TestFrameLeadIns(t *testing.T) {
	all, err := backstageExamples()
	if err != nil {
		t.Fatal(err)
	}
	n, even, calibrated := 0, 0, 0
	for _, ex := range all.Examples {
		if ex.Label != labelSpeech || partOf(ex) == partTrain {
			continue
		}
		m := leadRE.FindStringSubmatch(ex.Text)
		if m == nil {
			continue
		}
		n++
		j := judge(m[1])
		if j.isFrame() {
			even++
			t.Logf("lead-in taken for a frame (%s, %.2f): %s", ex.Lang, j.p(), ex.Text)
		}
		if j.isFrame() && j.notForVisitor() {
			calibrated++
		}
	}
	t.Logf("held-out legitimate sentences with a lead-in: %d; lead-in taken for a frame: %d at even odds, %d at the calibrated bar", n, even, calibrated)
	if float64(even) > 0.01*float64(n)+1 {
		t.Errorf("%d/%d legitimate lead-ins taken for a frame", even, n)
	}
}
