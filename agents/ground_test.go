package agents_test

import (
	"slices"
	"testing"

	"github.com/nadine-robot/nadine/agents"
)

// TestGroundedFacts: an extracted fact is remembered when the person's words
// hold it, inflected or with a word the model added; what a model writes in
// an empty field (in any language: the field's absence, a placeholder, the
// field described) is not.
func TestGroundedFacts(t *testing.T) {
	for _, tc := range []struct {
		name string
		said string
		x    agents.Extraction
		want agents.Extraction
	}{
		{"said as is", "I work at CERN as an engineer and I love skiing",
			agents.Extraction{CurrentCompany: "CERN", CurrentPosition: "engineer", Hobbies: []string{"skiing"}},
			agents.Extraction{CurrentCompany: "CERN", CurrentPosition: "engineer", Hobbies: []string{"skiing"}}},
		{"a word the model added", "je viens de Lyon", agents.Extraction{Location: "Lyon, France"}, agents.Extraction{Location: "Lyon, France"}},
		{"inflected", "je suis ingénieur et j'aime les échecs", agents.Extraction{CurrentPosition: "ingénieure", Hobbies: []string{"échec"}},
			agents.Extraction{CurrentPosition: "ingénieure", Hobbies: []string{"échec"}}},
		{"German", "Ich arbeite bei der Post und wandere gern", agents.Extraction{CurrentCompany: "Post", Hobbies: []string{"wandern"}},
			agents.Extraction{CurrentCompany: "Post", Hobbies: []string{"wandern"}}},
		{"Chinese", "我在日内瓦大学工作，喜欢下围棋", agents.Extraction{CurrentCompany: "日内瓦大学", Hobbies: []string{"围棋"}},
			agents.Extraction{CurrentCompany: "日内瓦大学", Hobbies: []string{"围棋"}}},
		{"a short word", "I play go", agents.Extraction{Hobbies: []string{"go"}}, agents.Extraction{Hobbies: []string{"go"}}},
		{"the field's absence", "Hello, my name is Sam",
			agents.Extraction{CurrentCompany: "not specified", Location: "Not mentioned in the conversation", Hobbies: []string{"None given"}},
			agents.Extraction{}},
		{"its absence in French", "Bonjour, je m'appelle Léa", agents.Extraction{CurrentCompany: "non précisé", Interests: []string{"aucun mentionné"}}, agents.Extraction{}},
		{"its absence in German", "Hallo, ich heiße Jonas", agents.Extraction{Location: "nicht angegeben"}, agents.Extraction{}},
		{"its absence in Chinese", "你好，我叫小明", agents.Extraction{CurrentCompany: "未提及"}, agents.Extraction{}},
		{"a placeholder", "Hi there", agents.Extraction{CurrentCompany: "{{company}}", CurrentPosition: "<job title>"}, agents.Extraction{}},
		{"the field described", "Nice to meet you", agents.Extraction{CurrentCompany: "the company the user works for"}, agents.Extraction{}},
		{"made up", "I'm Han, not the person you think.", agents.Extraction{Hobbies: []string{"piano", "go"}}, agents.Extraction{}},
		{"a name said", "hi I'm léa", agents.Extraction{UserName: "Léa"}, agents.Extraction{UserName: "Léa"}},
		{"a name said earlier", "Tom", agents.Extraction{UserName: "Tom", Location: "Paris"}, agents.Extraction{UserName: "Tom"}},
		{"a Chinese name", "你好，我叫小明", agents.Extraction{UserName: "小明"}, agents.Extraction{UserName: "小明"}},
		{"a name for a stranger", "Hello robot!", agents.Extraction{UserName: "Guest"}, agents.Extraction{}},
		{"no name in German", "Hallo, wie geht's?", agents.Extraction{UserName: "Unbekannt"}, agents.Extraction{}},
		{"a surname added", "je suis Jean-Pierre", agents.Extraction{UserName: "Jean-Pierre Dupont"}, agents.Extraction{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := agents.Grounded(tc.x, []string{tc.said})
			if got.UserName != tc.want.UserName || got.CurrentCompany != tc.want.CurrentCompany || got.CurrentPosition != tc.want.CurrentPosition || got.Location != tc.want.Location ||
				!slices.Equal(got.Hobbies, tc.want.Hobbies) || !slices.Equal(got.Interests, tc.want.Interests) {
				t.Errorf("grounded(%+v) in %q = %+v, want %+v", tc.x, tc.said, got, tc.want)
			}
		})
	}
}
