package bargein_test

import (
	"testing"

	"github.com/nadine-robot/nadine/bargein"
)

func TestHear(t *testing.T) {
	j, err := bargein.New(0)
	if err != nil {
		t.Fatal(err)
	}
	saying := "I was built in Singapore by a team at Nanyang Technological University."
	tests := []struct {
		heard string
		want  bargein.Kind
	}{
		{"uh-huh", bargein.Backchannel},
		{"mm hmm", bargein.Backchannel},
		{"d'accord", bargein.Backchannel},
		{"genau", bargein.Backchannel},
		{"嗯", bargein.Backchannel},
		{"okay okay", bargein.Backchannel},
		{"wait", bargein.Interruption},
		{"stop please", bargein.Interruption},
		{"no my name is Julia", bargein.Interruption},
		{"where is the gift shop", bargein.Interruption},
		{"built in singapore by a team", bargein.Echo},
		{"in Singapur by a team at nanyang", bargein.Echo},
		{"ähm", bargein.Noise},
		{"", bargein.Noise},
		{"你说什么", bargein.Interruption},
		{"qui t'a fabriquée alors", bargein.Interruption},
	}
	for _, tt := range tests {
		got := j.Hear(tt.heard, saying)
		if got.Kind != tt.want {
			t.Errorf("Hear(%q) = %s (score %.2f, %d words), want %s", tt.heard, got.Kind, got.Score, got.Words, tt.want)
		}
		if got.Stop != (tt.want == bargein.Interruption) {
			t.Errorf("Hear(%q).Stop = %v", tt.heard, got.Stop)
		}
	}
}
