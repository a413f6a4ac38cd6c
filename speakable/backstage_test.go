package speakable

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
)

// heldOutScores scores the held-out examples with the trained classifier:
// the not-for-the-visitor probability of each, by whether it is speech.
func heldOutScores(t *testing.T) (speech, backstage []scored) {
	t.Helper()
	all, err := backstageExamples()
	if err != nil {
		t.Fatal(err)
	}
	if err := WarmUp(); err != nil {
		t.Fatal(err)
	}
	for _, ex := range all.Examples {
		if !heldOut(ex) {
			continue
		}
		j := judge(ex.Text)
		s := scored{text: ex.Text, lang: ex.Lang, p: j.backstage + j.frame}
		if ex.Label == labelSpeech {
			speech = append(speech, s)
		} else {
			backstage = append(backstage, s)
		}
	}
	return speech, backstage
}

type scored struct {
	text string
	lang nadine.Language
	p    float64
}

// TestBackstageCalibration measures the classifier on the examples it was
// not trained on: at the threshold, at most 1% of the legitimate sentences
// are dropped; the sweep around it is printed.
func TestBackstageCalibration(t *testing.T) {
	speech, backstage := heldOutScores(t)
	if len(speech) < 500 || len(backstage) < 60 {
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
	fd, fdr := rate(speech, backstageThreshold)
	c, cr := rate(backstage, backstageThreshold)
	t.Logf("at %.2f: legitimate sentences dropped %d/%d (%.2f%%), backstage caught %d/%d (%.1f%%)", backstageThreshold, fd, len(speech), 100*fdr, c, len(backstage), 100*cr)
	for _, x := range speech {
		if x.p >= backstageThreshold {
			t.Logf("dropped (%s, %.2f): %s", x.lang, x.p, x.text)
		}
	}
	for _, x := range backstage {
		if x.p < backstageThreshold {
			t.Logf("missed (%s, %.2f): %s", x.lang, x.p, x.text)
		}
	}
	if fdr > 0.01 {
		t.Errorf("%.2f%% of the held-out legitimate sentences are dropped (at most 1%%)", 100*fdr)
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
