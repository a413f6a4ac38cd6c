package speakable

import (
	"testing"

	"github.com/nadine-robot/nadine"
)

// TestMarkdownForms: a title underlined and a definition are read as the
// heading and the field they are; a task list is a form, which goes with its
// lead-in (its words in a row would say "dance" is done), unless an item is
// a sentence of its own; a greeting over a dash rule keeps its words.
func TestMarkdownForms(t *testing.T) {
	c := New([]nadine.Prompt{responsePromptSaying(t, "Tell me about yourself.")})
	for _, tc := range []struct {
		lang     nadine.Language
		in, want string
	}{
		{nadine.English, "About me\n========\nI'm Nadine, and I love meeting people.", "I'm Nadine, and I love meeting people."},
		{nadine.French, "Qui suis-je ?\n-------------\nUn robot social qui adore les rencontres.", "Un robot social qui adore les rencontres."},
		{nadine.Chinese, "自我介绍\n========\n我是Nadine，很高兴认识你。", "我是Nadine，很高兴认识你。"},
		{nadine.English, "Hello! Lovely to meet you.\n---\nI'm Nadine.", "Hello! Lovely to meet you. I'm Nadine."},
		{nadine.English, "Things I can do:\n- [x] smile\n- [ ] dance\nWhich one would you like?", "Which one would you like?"},
		{nadine.French, "Mes talents :\n- [x] sourire\n- [ ] cuisiner\n\nLequel vous intéresse ?", "Lequel vous intéresse ?"},
		{nadine.English, "Here is my day.\n* [x] greet visitors\n* [x] answer questions", "Here is my day."},
		{nadine.French, "Mes tâches :\n- [x] Je salue les invités à l'entrée.\n- [ ] Je range la salle.", "Mes tâches : Je salue les invités à l'entrée. Je range la salle."},
		{nadine.German, "Baujahr\n: 2013\nWohnort\n: Genf\nFrag mich ruhig!", "Frag mich ruhig!"},
		{nadine.Chinese, "> | 语言 | 会不会 |\n> |---|---|\n> | 中文 | 会 |\n> 我会说中文、英语、法语和德语。", "我会说中文、英语、法语和德语。"},
	} {
		got, _, err := c.Reply(tc.in, tc.lang)
		if got != tc.want {
			t.Errorf("%s: %q → %q (%v), want %q", tc.lang, tc.in, got, err, tc.want)
		}
	}
}
