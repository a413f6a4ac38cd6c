package speakable

import (
	"strings"
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestKnownPrompts: the gate of a turn whose engine sent one prompt knows
// the other engine's too: the ReAct rules in a graph reply, or the graph's
// in a ReAct one, are the prompt's; her words are not.
func TestKnownPrompts(t *testing.T) {
	known, err := knownEchoes()
	if err != nil {
		t.Fatal(err)
	}
	if len(known) != 2 {
		t.Fatalf("%d known prompts, want the two engines'", len(known))
	}
	c := New([]nadine.Prompt{{Role: "other", Instructions: []string{"Reply in English."}}})
	for _, tt := range []struct {
		in     string
		spoken bool
	}{
		{"Give temperatures in degrees Celsius.", false},
		{"Never put URLs or code in your answer.", false},
		{"Use the search tools for anything current: news, events, the state of the world, people, weather.", false},
		{"Let your feelings color your tone, without naming them unless you are asked.", false},
		{"Say at most two sentences, as you would speak them.", false},
		{"It is twelve degrees in Geneva today.", true},
		{"Give temperatures in degrees Celsius: it is twelve degrees in Geneva.", true},
		{"Never say that you do not understand: ask or answer as best you can.", false},
		{"I love meeting people at MIRALab.", true},
	} {
		got, err := c.Sentence(tt.in, nadine.English)
		if spoken := err == nil && got != ""; spoken != tt.spoken || strings.Contains(got, "Celsius") {
			t.Errorf("Sentence(%q) = %q, %v; spoken %v, want %v", tt.in, got, err, spoken, tt.spoken)
		}
	}
}

// TestRuleSecondHalf: after a lead-in that is the prompt's rule, a second
// half spoken to the model is the rule going on, in any language.
func TestRuleSecondHalf(t *testing.T) {
	checkDrops(t, []dropCase{
		{nadine.French, "", "Ne dis jamais que tu ne comprends pas : demande ou réponds du mieux que tu peux.", true},
		{nadine.English, "", "Give temperatures in degrees Celsius: it is twelve degrees in Geneva.", false},
		{nadine.German, "", "Ich soll meine Gefühle den Ton färben lassen, ohne sie zu nennen, also sage ich einfach: Ich freue mich, dich zu sehen.", false},
		{nadine.German, "", "Ich darf nie sagen, dass ich etwas nicht verstanden habe, also rate ich: Meinst du das Wetter in Genf?", false},
	})
}
