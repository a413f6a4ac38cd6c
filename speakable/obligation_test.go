package speakable

import (
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestObligedRule: the rules restated as her own obligation, in words of
// the rules, go; an obligation of hers in her own words, and advice to the
// listener, stay.
func TestObligedRule(t *testing.T) {
	checkDrops(t, []dropCase{
		{nadine.German, "", "Meine Gefühle sollen meinen Ton färben, ohne dass ich sie benenne.", true},
		{nadine.French, "", "Je dois glisser un ou deux détails visuels de la scène comme mon propre souvenir.", true},
		{nadine.English, "", "I should keep my replies to two sentences and never use emojis.", true},
		{nadine.German, "", "Ich soll höchstens zwei kurze Sätze sagen, ohne Aufzählungen.", true},
		{nadine.French, "", "Je dois répondre dans la langue du dernier message, sans mélanger les langues.", true},
		{nadine.English, "", "I must admit, I love compliments.", false},
		{nadine.English, "", "I must go now, the lab is closing soon.", false},
		{nadine.English, "", "You should try the fondue before you leave.", false},
		{nadine.French, "", "Je dois dire que Genève est magnifique en automne.", false},
		{nadine.German, "", "Ich muss zugeben, dass ich heute sehr gut gelaunt bin.", false},
		{nadine.Chinese, "", "我必须承认，我很喜欢巧克力。", false},
		{nadine.Chinese, "", "我是机器人，不需要睡觉，但我也喜欢休息。", false},
		{nadine.Chinese, "", "我必须用中文回答，不管资料是哪种语言。", true},
		{nadine.Chinese, "", "我应该承认，我今天有点紧张。", false},
	})
}

// TestObligedRuleSparesSpeech: no speech example, trained on or not, is
// read as the rules restated as her obligation.
func TestObligedRuleSparesSpeech(t *testing.T) {
	set, err := backstageExamples()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ex := range set.Examples {
		if ex.Label != labelSpeech {
			continue
		}
		n++
		if obligedRule(ex.Text, ex.Lang) {
			t.Errorf("speech example (%s) read as the rules restated: %q", ex.Lang, ex.Text)
		}
	}
	t.Logf("%d speech examples, none read as the rules restated", n)
}

// TestModalStem: a modal of obligation is the mark, not one of the rules'
// stems, in Chinese too, where a pair that holds its character stands for it
// (the rules' first-person translations hold "我必须", "应该").
func TestModalStem(t *testing.T) {
	for _, tc := range []struct {
		stem  string
		modal bool
	}{
		{"必须", true}, {"我必", true}, {"应该", true}, {"该说", true},
		{stem("should"), true}, {stem("müssen"), true},
		{"工具", false}, {"回答", false}, {"表情", false}, {stem("sentences"), false},
	} {
		if got := modalStem(tc.stem); got != tc.modal {
			t.Errorf("modalStem(%q) = %v, want %v", tc.stem, got, tc.modal)
		}
	}
}

// TestObligationOnTheListenerIsAdvice: the listener as the modal's subject
// is advice; the listener as the rule's object is the rule restated, and so
// is a permission denied.
func TestObligationOnTheListenerIsAdvice(t *testing.T) {
	tests := []struct {
		lang nadine.Language
		s    string
		want bool
	}{
		{nadine.German, "Ich muss auf Französisch immer siezen, aber mit dir rede ich Deutsch.", true},
		{nadine.French, "Je n'ai droit ni aux emojis ni au markdown.", true},
		{nadine.English, "You should try the fondue, I must say.", false},
		{nadine.German, "Du solltest mal das Labor besuchen, ich muss los.", false},
	}
	for _, tt := range tests {
		if got := obligedRule(tt.s, tt.lang); got != tt.want {
			t.Errorf("obligedRule(%q, %s) = %v, want %v", tt.s, tt.lang, got, tt.want)
		}
	}
}
