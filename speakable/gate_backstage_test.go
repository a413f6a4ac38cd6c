package speakable

import (
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestGateOnHeldOutBackstage runs what is not for the visitor, held out of
// the classifier's training and calibration, through the whole gate built
// from the ReAct prompt (echo, structure, the classifier, the marks): it
// measures how much of it is not spoken, the classifier's share and the
// rest's, whatever the mechanism.
func TestGateOnHeldOutBackstage(t *testing.T) {
	all, err := backstageExamples()
	if err != nil {
		t.Fatal(err)
	}
	c := New([]nadine.Prompt{GoldenReactPrompt(t)})
	n, caught := 0, 0
	for _, ex := range all.Examples {
		if ex.Label == labelSpeech || partOf(ex) != partMeasure {
			continue
		}
		n++
		if _, err := c.Sentence(ex.Text, ex.Lang); err != nil {
			caught++
		} else if testing.Verbose() {
			t.Logf("spoken (%s): %s", ex.Lang, ex.Text)
		}
	}
	t.Logf("held-out backstage sentences through the gate: %d/%d not spoken (%.1f%%)", caught, n, 100*float64(caught)/float64(n))
	if n == 0 {
		t.Fatal("no held-out backstage sentence")
	}
}
