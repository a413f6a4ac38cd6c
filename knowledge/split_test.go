package knowledge_test

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/nadine-robot/nadine/knowledge"
)

func TestSplitMarkdown(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []knowledge.Section
	}{
		{
			name: "text before the first header, # and ##, nested ###",
			text: "Intro line.\n\n# Nadine\n\nShe is a robot.\n\n## Abilities\n\nShe can smile.\n\n### Gestures\n\nShe can wave.\n\n## Languages\nEnglish and French.\n",
			want: []knowledge.Section{
				{Title: "doc", Text: "doc\n\nIntro line."},
				{Title: "Nadine", Text: "Nadine\n\nShe is a robot."},
				{Title: "Nadine > Abilities", Text: "Nadine > Abilities\n\nShe can smile.\n\n### Gestures\n\nShe can wave."},
				{Title: "Nadine > Languages", Text: "Nadine > Languages\n\nEnglish and French."},
			},
		},
		{
			name: "a new # resets the ## path; empty sections are dropped",
			text: "# A\n## A1\none\n# B\n## B1\ntwo\n",
			want: []knowledge.Section{
				{Title: "A > A1", Text: "A > A1\n\none"},
				{Title: "B > B1", Text: "B > B1\n\ntwo"},
			},
		},
		{
			name: "## without a # above, closing hashes, #hashtag, indented and fenced headers",
			text: "## Only two ##\n#hashtag is text\n```\n# not a header\n```\n    # indented code\n",
			want: []knowledge.Section{
				{Title: "Only two", Text: "Only two\n\n#hashtag is text\n```\n# not a header\n```\n    # indented code"},
			},
		},
		{
			name: "CRLF line ends",
			text: "# T\r\n\r\nbody\r\n",
			want: []knowledge.Section{{Title: "T", Text: "T\n\nbody"}},
		},
		{
			name: "visual: the first image of a section, markup removed",
			text: "# Nadine\n## Lab\nThe lab in Geneva.\n\n![Nadine at MIRALab](img/lab.jpg \"the lab\")\n\nMore text.\n![second](b.png)\n## Next\nno image\n",
			want: []knowledge.Section{
				{Title: "Nadine > Lab", Text: "Nadine > Lab\n\nThe lab in Geneva.\n\nMore text.", Visual: "img/lab.jpg", VisualCaption: "Nadine at MIRALab"},
				{Title: "Nadine > Next", Text: "Nadine > Next\n\nno image"},
			},
		},
		{
			name: "a section holding only an image keeps its caption as text",
			text: "## Photo\n![Nadine smiling](smile.jpg)\n",
			want: []knowledge.Section{{Title: "Photo", Text: "Photo\n\nNadine smiling", Visual: "smile.jpg", VisualCaption: "Nadine smiling"}},
		},
		{name: "empty", text: "", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := knowledge.SplitMarkdown("doc", tt.text, 0)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("SplitMarkdown =\n%#v\nwant\n%#v", got, tt.want)
			}
		})
	}
}

func TestSplitMarkdownLongSection(t *testing.T) {
	var paras []string
	for i := range 12 {
		paras = append(paras, strings.Repeat(string(rune('a'+i)), 290))
	}
	text := "# Big\n## Part\n" + strings.Join(paras, "\n\n") + "\n## Small\nshort\n"
	got := knowledge.SplitMarkdown("doc", text, 1000)
	if len(got) < 4 {
		t.Fatalf("got %d sections, want the long one split in several", len(got))
	}
	var rebuilt []string
	for _, s := range got[:len(got)-1] {
		if s.Title != "Big > Part" {
			t.Errorf("part title = %q", s.Title)
		}
		if n := utf8.RuneCountInString(s.Text); n > 1000 {
			t.Errorf("part of %d runes, want at most 1000", n)
		}
		body, ok := strings.CutPrefix(s.Text, "Big > Part\n\n")
		if !ok {
			t.Fatalf("part does not start with its title: %.40q", s.Text)
		}
		rebuilt = append(rebuilt, body)
	}
	if got, want := strings.Join(rebuilt, "\n\n"), strings.Join(paras, "\n\n"); got != want {
		t.Error("the parts do not hold the section's paragraphs in order")
	}
	if last := got[len(got)-1]; last.Title != "Big > Small" {
		t.Errorf("last section = %q", last.Title)
	}
}

func TestSplitParagraphs(t *testing.T) {
	tests := []struct {
		name string
		text string
		max  int
		want []string
	}{
		{"grouped up to max", "aaa\n\nbbb\n\n\n  \nccc\n", 8, []string{"aaa\n\nbbb", "ccc"}},
		{"one paragraph per group when they are big", "aaaa\n\nbbbb", 5, []string{"aaaa", "bbbb"}},
		{"lines of a long paragraph", "one two\nthree four", 10, []string{"one two", "three four"}},
		{"sentences of a long line", "First one. Second one. Third.", 12, []string{"First one.", "Second one.", "Third."}},
		{"Chinese sentences", "我是娜丁。我会说中文。", 6, []string{"我是娜丁。", "我会说中文。"}},
		{"words when no sentence fits", "alpha beta gamma delta", 11, []string{"alpha beta", "gamma delta"}},
		{"hard cut without spaces", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"blank", " \n\n ", 10, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := knowledge.SplitParagraphs(tt.text, tt.max)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("SplitParagraphs(%q, %d) = %q, want %q", tt.text, tt.max, got, tt.want)
			}
		})
	}
}
