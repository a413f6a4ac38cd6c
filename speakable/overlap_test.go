package speakable

import (
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestPromptParaphrased: a sentence that holds the prompt's rare pairs of
// words in its order is the prompt paraphrased; her facts in her words and
// replies that share the prompt's common pairs are speech.
func TestPromptParaphrased(t *testing.T) {
	c := New([]nadine.Prompt{GoldenReactPrompt(t)})
	tests := []struct {
		in   string
		want bool
	}{
		{"As a social humanoid robot physically present at MIRALab, I greet you warmly.", true},
		{"I may say at most two sentences, with no lists and no emojis.", true},
		{"Je dois répondre en deux phrases au plus, sans listes ni emojis.", true},
		{"I am a social robot, and I love meeting people like you.", false},
		{"I was first presented in 2013 at Nanyang Technological University in Singapore.", false},
		{"I am not an assistant, I am a social robot with my own opinions.", false},
		{"The internet was born at CERN, not far from here.", false},
		{"Ich wurde 2013 in Singapur vorgestellt.", false},
		{"我是一个社交机器人，很喜欢认识新朋友。", false},
	}
	for _, tt := range tests {
		if got := c.paraphrased(words(tt.in)); got != tt.want {
			t.Errorf("paraphrased(%q) = %v, want %v (chains: prompt %d, translated %d; bars %+v)",
				tt.in, got, tt.want, echoChain(c.echoes, words(tt.in)), translatedChain(words(tt.in)), pairBar())
		}
	}
}

// TestPairBarCalibrated: the bars are calibrated on the calibration part,
// so the measured part of speech, never seen, must stay under them (at
// most the classifier's share).
func TestPairBarCalibrated(t *testing.T) {
	all, err := backstageExamples()
	if err != nil {
		t.Fatal(err)
	}
	b := pairBar()
	if b.prompt < 2 || b.translated < 2 {
		t.Fatalf("bars %+v: one pair alone is no paraphrase", b)
	}
	c := New(nil)
	n, over, caught, backstage := 0, 0, 0, 0
	for _, ex := range all.Examples {
		if partOf(ex) != partMeasure {
			continue
		}
		switch ex.Label {
		case labelSpeech:
			n++
			if c.paraphrased(words(ex.Text)) {
				over++
				t.Logf("speech (%s) taken for the prompt paraphrased: %s", ex.Lang, ex.Text)
			}
		case labelBackstage:
			backstage++
			if c.paraphrased(words(ex.Text)) {
				caught++
			}
		}
	}
	t.Logf("pair bars %+v: held-out speech over them %d/%d, held-out backstage %d/%d", b, over, n, caught, backstage)
	if float64(over) > maxFalseDrops*float64(n) {
		t.Errorf("%d/%d held-out speech examples taken for the prompt paraphrased (at most 1%%)", over, n)
	}
}
